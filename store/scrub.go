package store

// Deleting an account (DeleteAccount) takes the person's name out of
// everything stored, in one transaction: the records keep their seats,
// never the names of deleted people. This file holds the part that
// reads the server's JSON, the only place the store does: the names of
// fair-deal contributions (hand records, deals, pending commitments) and
// an event's entries and daily owners (tournaments.data). Each JSON
// value is edited in place, keys in their order and every other byte of
// the value as it was, so a record's fair deal still verifies: a
// contribution's name is not part of the seed (docs/fairness.md).

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// seatRef is one seat of one table.
type seatRef struct {
	table string
	seat  int
}

// jsonField is one member of a JSON object, its value as written.
type jsonField struct {
	key string
	val json.RawMessage
}

// objectFields returns the members of a JSON object in their order, or
// ok false if raw is not an object.
func objectFields(raw json.RawMessage) (fields []jsonField, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		fields = append(fields, jsonField{key, v})
	}
	if _, err := dec.Token(); err != nil && err != io.EOF { // }
		return nil, false
	}
	return fields, true
}

// writeObject writes fields as a JSON object.
func writeObject(fields []jsonField) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// arrayItems returns the items of a JSON array, or ok false if raw is not
// an array.
func arrayItems(raw json.RawMessage) (items []json.RawMessage, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, false
	}
	return items, true
}

// writeArray writes items as a JSON array.
func writeArray(items []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// field returns the index of key in fields, or -1.
func field(fields []jsonField, key string) int {
	for i, f := range fields {
		if f.key == key {
			return i
		}
	}
	return -1
}

// renameContributions renames, anywhere in raw, the fair-deal
// contributions of the given seats (objects with a "seat" in an array
// named "contributions") that carry a "name": their name becomes name.
// It returns raw unchanged (and false) when nothing was renamed.
func renameContributions(raw json.RawMessage, seats map[int]bool, name string) (json.RawMessage, bool) {
	if fields, ok := objectFields(raw); ok {
		changed := false
		for i, f := range fields {
			var v json.RawMessage
			var c bool
			if f.key == "contributions" {
				v, c = renameSeats(f.val, seats, name)
			} else {
				v, c = renameContributions(f.val, seats, name)
			}
			if c {
				fields[i].val, changed = v, true
			}
		}
		if !changed {
			return raw, false
		}
		return writeObject(fields), true
	}
	if items, ok := arrayItems(raw); ok {
		changed := false
		for i, it := range items {
			if v, c := renameContributions(it, seats, name); c {
				items[i], changed = v, true
			}
		}
		if !changed {
			return raw, false
		}
		return writeArray(items), true
	}
	return raw, false
}

// renameSeats renames the named objects of array raw whose "seat" is one
// of seats.
func renameSeats(raw json.RawMessage, seats map[int]bool, name string) (json.RawMessage, bool) {
	items, ok := arrayItems(raw)
	if !ok {
		return raw, false
	}
	quoted, _ := json.Marshal(name)
	changed := false
	for i, it := range items {
		fields, ok := objectFields(it)
		if !ok {
			continue
		}
		si, ni := field(fields, "seat"), field(fields, "name")
		if si < 0 || ni < 0 {
			continue
		}
		seat, err := strconv.Atoi(string(bytes.TrimSpace(fields[si].val)))
		if err != nil || !seats[seat] || bytes.Equal(fields[ni].val, quoted) {
			continue
		}
		fields[ni].val = quoted
		items[i], changed = writeObject(fields), true
	}
	if !changed {
		return raw, false
	}
	return writeArray(items), true
}

// scrubEvent takes the entries of an event's data (as the server keeps
// it: {"event": {"entries": [{"name"}], "rounds": [{"tables": [{"seats":
// [entry]}]}]}, "tables": [[table ID]], "daily": {"owners": ["a:ID"]}})
// that are the person's out of it: the given entries and those whose
// daily owner is owner. Each is named name and owned by nobody (""). It
// returns the new data, the seats those entries held at the event's
// tables, and whether anything changed.
func scrubEvent(raw json.RawMessage, entries map[int]bool, owner, name string) (json.RawMessage, []seatRef, bool, error) {
	bad := func(what string) (json.RawMessage, []seatRef, bool, error) {
		return nil, nil, false, fmt.Errorf("the stored event's %s is not as the server writes it", what)
	}
	top, ok := objectFields(raw)
	if !ok {
		return bad("data")
	}
	mine := map[int]bool{}
	for e := range entries {
		mine[e] = true
	}
	changed := false
	quotedOwner, _ := json.Marshal(owner)
	if di := field(top, "daily"); di >= 0 && string(top[di].val) != "null" {
		daily, ok := objectFields(top[di].val)
		if !ok {
			return bad("daily part")
		}
		if oi := field(daily, "owners"); oi >= 0 {
			owners, ok := arrayItems(daily[oi].val)
			if !ok {
				return bad("daily owners")
			}
			for i, o := range owners {
				if bytes.Equal(bytes.TrimSpace(o), quotedOwner) || mine[i] {
					mine[i] = true
					if string(o) != `""` {
						owners[i], changed = json.RawMessage(`""`), true
					}
				}
			}
			daily[oi].val = writeArray(owners)
			top[di].val = writeObject(daily)
		}
	}
	if len(mine) == 0 {
		return raw, nil, false, nil
	}
	ei := field(top, "event")
	if ei < 0 {
		return bad("event")
	}
	ev, ok := objectFields(top[ei].val)
	if !ok {
		return bad("event")
	}
	quoted, _ := json.Marshal(name)
	if ni := field(ev, "entries"); ni >= 0 {
		list, ok := arrayItems(ev[ni].val)
		if !ok {
			return bad("entries")
		}
		for i := range list {
			if !mine[i] {
				continue
			}
			entry, ok := objectFields(list[i])
			if !ok {
				return bad("entry")
			}
			if k := field(entry, "name"); k >= 0 && !bytes.Equal(entry[k].val, quoted) {
				entry[k].val, changed = quoted, true
				list[i] = writeObject(entry)
			}
		}
		ev[ni].val = writeArray(list)
		top[ei].val = writeObject(ev)
	}
	// The seats the entries held: round r's table i is tables[r][i].
	var seats []seatRef
	var rounds []struct {
		Tables []struct {
			Seats []int `json:"seats"`
		} `json:"tables"`
	}
	var ids [][]string
	if ri := field(ev, "rounds"); ri >= 0 {
		if err := json.Unmarshal(ev[ri].val, &rounds); err != nil {
			return bad("rounds")
		}
	}
	if ti := field(top, "tables"); ti >= 0 {
		if err := json.Unmarshal(top[ti].val, &ids); err != nil {
			return bad("tables")
		}
	}
	for r, round := range rounds {
		for i, t := range round.Tables {
			if r >= len(ids) || i >= len(ids[r]) {
				continue
			}
			for s, e := range t.Seats {
				if e >= 0 && mine[e] {
					seats = append(seats, seatRef{ids[r][i], s})
				}
			}
		}
	}
	if !changed {
		return raw, seats, false, nil
	}
	return writeObject(top), seats, true, nil
}

// scrubAccount takes account id's name out of every stored place, within
// tx (DeleteAccount): the seats it held (its own, and its seats at the
// tables of its events) are named anon and freed of the account; those
// seats' fair-deal contributions in the tables' hand records, deals and
// commitments are named anon; its event entries are named anon and its
// daily ownership is cleared; its rows of tournament_players go. It
// returns the tables whose seats changed.
func (s *sqlStore) scrubAccount(ctx context.Context, tx *sql.Tx, id, anon string) ([]string, error) {
	var seats []seatRef
	rows, err := tx.QueryContext(ctx, s.d.q(`SELECT table_id, seat FROM seats WHERE account_id = ?`), id)
	if err != nil {
		return nil, s.explain(err)
	}
	for rows.Next() {
		var r seatRef
		if err := rows.Scan(&r.table, &r.seat); err != nil {
			rows.Close()
			return nil, err
		}
		seats = append(seats, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.explain(err)
	}

	// Events: those it joined signed in, and daily events it played.
	entries := map[string]map[int]bool{}
	rows, err = tx.QueryContext(ctx, s.d.q(`SELECT tournament, entry FROM tournament_players WHERE account = ?`), id)
	if err != nil {
		return nil, s.explain(err)
	}
	for rows.Next() {
		var t string
		var e int
		if err := rows.Scan(&t, &e); err != nil {
			rows.Close()
			return nil, err
		}
		if entries[t] == nil {
			entries[t] = map[int]bool{}
		}
		entries[t][e] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.explain(err)
	}
	owner := "a:" + id // a daily entry's owner (server/daily)
	type tour struct {
		id      string
		data    string
		version int
	}
	var tours []tour
	rows, err = tx.QueryContext(ctx, s.d.q(`SELECT id, data, version FROM tournaments
		WHERE id IN (SELECT tournament FROM tournament_players WHERE account = ?) OR CAST(data AS TEXT) LIKE ?`), id, `%"`+owner+`"%`)
	if err != nil {
		return nil, s.explain(err)
	}
	for rows.Next() {
		var t tour
		if err := rows.Scan(&t.id, &t.data, &t.version); err != nil {
			rows.Close()
			return nil, err
		}
		tours = append(tours, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.explain(err)
	}
	for _, t := range tours {
		data, held, changed, err := scrubEvent(json.RawMessage(t.data), entries[t.id], owner, anon)
		if err != nil {
			return nil, fmt.Errorf("event %s: %w", t.id, err)
		}
		seats = append(seats, held...)
		if !changed {
			continue
		}
		if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE tournaments SET data = ?, version = version + 1 WHERE id = ?`), string(data), t.id); err != nil {
			return nil, s.explain(err)
		}
		if err := s.notifyTx(ctx, tx, Note{Kind: NoteTournament, Table: t.id, Seq: t.version + 1}); err != nil {
			return nil, err
		}
	}
	if _, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM tournament_players WHERE account = ?`), id); err != nil {
		return nil, s.explain(err)
	}

	// The seats, then what the seats' tables keep.
	bySeat := map[string]map[int]bool{}
	var tables []string
	for _, r := range seats {
		if bySeat[r.table] == nil {
			bySeat[r.table] = map[int]bool{}
			tables = append(tables, r.table)
		}
		bySeat[r.table][r.seat] = true
		// A seat of another account (an event's seat taken over) keeps its name.
		if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE seats SET name = ?, account_id = NULL
			WHERE table_id = ? AND seat = ? AND (account_id IS NULL OR account_id = ?)`), anon, r.table, r.seat, id); err != nil {
			return nil, s.explain(err)
		}
	}
	for _, t := range tables {
		if err := s.renameInTable(ctx, tx, t, bySeat[t], anon); err != nil {
			return nil, err
		}
	}
	// The play-now seats it held once (seat_holders, store/playnow.go).
	if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE seat_holders SET name = ?, account_id = NULL WHERE account_id = ?`), anon, id); err != nil {
		return nil, s.explain(err)
	}
	return tables, nil
}

// renameInTable renames the contributions of seats in the hand records,
// deals and pending commitments of table t.
func (s *sqlStore) renameInTable(ctx context.Context, tx *sql.Tx, t string, seats map[int]bool, anon string) error {
	for _, q := range []struct{ sel, upd string }{
		{`SELECT n, record FROM hands WHERE table_id = ?`, `UPDATE hands SET record = ? WHERE table_id = ? AND n = ?`},
		{`SELECT n, deal FROM deals WHERE table_id = ?`, `UPDATE deals SET deal = ? WHERE table_id = ? AND n = ?`},
		{`SELECT commitment, pending FROM commitments WHERE table_id = ?`, `UPDATE commitments SET pending = ? WHERE table_id = ? AND commitment = ?`},
	} {
		type row struct {
			key  any // n (an integer) or the commitment
			data string
		}
		var changed []row
		rows, err := tx.QueryContext(ctx, s.d.q(q.sel), t)
		if err != nil {
			return s.explain(err)
		}
		for rows.Next() {
			var (
				key  any
				data string
			)
			if err := rows.Scan(&key, &data); err != nil {
				rows.Close()
				return err
			}
			if v, ok := renameContributions(json.RawMessage(data), seats, anon); ok {
				changed = append(changed, row{key, string(v)})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.explain(err)
		}
		for _, r := range changed {
			if _, err := tx.ExecContext(ctx, s.d.q(q.upd), r.data, t, r.key); err != nil {
				return s.explain(err)
			}
		}
	}
	return nil
}

// TournamentsHolding implements Store.
func (s *sqlStore) TournamentsHolding(ctx context.Context, text string) ([]string, error) {
	quoted, err := json.Marshal(text)
	if err != nil {
		return nil, fmt.Errorf("store: find events: %w", err)
	}
	pattern := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(string(quoted))
	var out []string
	err = s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT id, data FROM tournaments WHERE CAST(data AS TEXT) LIKE ? ESCAPE '\' ORDER BY created, id`), "%"+pattern+"%")
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id, data string
			if err := rows.Scan(&id, &data); err != nil {
				return s.explain(err)
			}
			if strings.Contains(data, string(quoted)) { // LIKE ignores case in SQLite
				out = append(out, id)
			}
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: find events: %w", err)
	}
	return out, nil
}

// TournamentVersions implements Store.
func (s *sqlStore) TournamentVersions(ctx context.Context, ids []string) (map[string]int, error) {
	out, err := valuesByID[int](ctx, s, `SELECT id, version FROM tournaments WHERE id IN `, ids)
	if err != nil {
		return nil, fmt.Errorf("store: read events' versions: %w", err)
	}
	return out, nil
}
