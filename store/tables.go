package store

// Tables and their seats: create, read, list, touch, close, next match, claim seats.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// CreateTable implements Store. A zero t.Created is set to now; t.Created
// is kept to the microsecond, in UTC.
func (s *sqlStore) CreateTable(ctx context.Context, t *Table) error {
	return s.createTable(ctx, t, nil)
}

// createTable is CreateTable, with then, when not nil, run in the same
// transaction after the table is inserted.
func (s *sqlStore) createTable(ctx context.Context, t *Table, then func(context.Context, *sql.Tx) error) error {
	fail := func(err error) error {
		return fmt.Errorf("store: create table %s: %w", t.ID, err)
	}
	if t.ID == "" {
		return fail(errors.New("empty table ID"))
	}
	if t.Variant == "" {
		return fail(errors.New("empty variant"))
	}
	if err := validJSON("options", t.Options, true); err != nil {
		return fail(err)
	}
	seen := map[int]bool{}
	for _, st := range t.Seats {
		if st.Kind != "human" && st.Kind != "bot" {
			return fail(fmt.Errorf("seat %d: kind %q is neither human nor bot", st.Seat, st.Kind))
		}
		if seen[st.Seat] {
			return fail(fmt.Errorf("seat %d given twice", st.Seat))
		}
		seen[st.Seat] = true
	}
	if t.Created.IsZero() {
		t.Created = timeNow()
	}
	t.Created = normTime(t.Created)
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.insertTable(ctx, tx, t); err != nil {
			return err
		}
		if then != nil {
			if err := then(ctx, tx); err != nil {
				return err
			}
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteNew, Table: t.ID})
	})
	if err != nil {
		return fail(err)
	}
	return nil
}

// insertTable inserts checked table t and its seats in tx.
func (s *sqlStore) insertTable(ctx context.Context, tx *sql.Tx, t *Table) error {
	var opts any // NULL for no options
	if len(t.Options) > 0 {
		opts = string(t.Options)
	}
	_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO tables (num, id, variant, options, seed, turn_timer, created, finished, no_hints, fair_deals, rated, play_now) VALUES (`+s.d.newTableNum+`, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		t.ID, t.Variant, opts, strconv.FormatUint(t.Seed, 10), t.TurnTimer, s.d.timeArg(t.Created), t.Finished, t.NoHints, t.FairDeals, t.Rated, t.PlayNow)
	if isUnique(err) {
		return fmt.Errorf("%w: a table with this ID exists (%w)", ErrConflict, err)
	}
	if err != nil {
		return s.explain(err)
	}
	for _, st := range t.Seats {
		var hash any // NULL while free
		if len(st.TokenHash) > 0 {
			hash = st.TokenHash
		}
		var acct any // NULL for a guest or a free seat
		if st.Account != "" {
			acct = st.Account
		}
		if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO seats (table_id, seat, kind, level, name, token_hash, account_id) VALUES (?, ?, ?, ?, ?, ?, ?)`),
			t.ID, st.Seat, st.Kind, st.Level, st.Name, hash, acct); err != nil {
			return fmt.Errorf("seat %d: %w", st.Seat, s.explain(err))
		}
	}
	return nil
}

const tableCols = `id, variant, options, seed, turn_timer, created, finished, active, closed, no_hints, next_id, fair_deals, rated, play_now`

// scanTable scans a row of tableCols.
func scanTable(sc interface{ Scan(...any) error }) (*Table, error) {
	var (
		t       Table
		opts    sql.NullString
		seed    string
		created dbTime
		active  nullTime
	)
	if err := sc.Scan(&t.ID, &t.Variant, &opts, &seed, &t.TurnTimer, &created, &t.Finished, &active, &t.Closed, &t.NoHints, &t.Next, &t.FairDeals, &t.Rated, &t.PlayNow); err != nil {
		return nil, err
	}
	t.Active = active.t
	if opts.Valid {
		t.Options = json.RawMessage(opts.String)
	}
	var err error
	if t.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return nil, fmt.Errorf("table %s: bad seed %q", t.ID, seed)
	}
	t.Created = created.t
	t.Seats = []Seat{}
	return &t, nil
}

// Table implements Store.
func (s *sqlStore) Table(ctx context.Context, id string) (*Table, error) {
	var t *Table
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		t, err = scanTable(tx.QueryRowContext(ctx, s.d.q(`SELECT `+tableCols+` FROM tables WHERE id = ?`), id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return s.explain(err)
		}
		byID := map[string]*Table{id: t}
		if err := s.seats(ctx, tx, byID, `WHERE table_id = ?`, id); err != nil {
			return err
		}
		return s.seatClaims(ctx, tx, byID, `WHERE table_id = ?`, id)
	})
	if err != nil {
		return nil, fmt.Errorf("store: read table %s: %w", id, err)
	}
	return t, nil
}

// seats reads the seats selected by where into their tables.
func (s *sqlStore) seats(ctx context.Context, tx *sql.Tx, tables map[string]*Table, where string, args ...any) error {
	rows, err := tx.QueryContext(ctx, s.d.q(`SELECT table_id, seat, kind, level, name, token_hash, account_id FROM seats `+where+` ORDER BY table_id, seat`), args...)
	if err != nil {
		return s.explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id   string
			st   Seat
			acct sql.NullString
		)
		if err := rows.Scan(&id, &st.Seat, &st.Kind, &st.Level, &st.Name, &st.TokenHash, &acct); err != nil {
			return err
		}
		st.Account = acct.String
		if len(st.TokenHash) == 0 {
			st.TokenHash = nil
		}
		if t := tables[id]; t != nil {
			t.Seats = append(t.Seats, st)
		}
	}
	return s.explain(rows.Err())
}

// Tables implements Store.
func (s *sqlStore) Tables(ctx context.Context, unfinished bool) ([]*Table, error) {
	where := ``
	if unfinished {
		where = ` WHERE NOT finished AND NOT closed`
	}
	var list []*Table
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+tableCols+` FROM tables`+where+` ORDER BY created, id`)
		if err != nil {
			return s.explain(err)
		}
		byID := map[string]*Table{}
		for rows.Next() {
			t, err := scanTable(rows)
			if err != nil {
				rows.Close()
				return err
			}
			list = append(list, t)
			byID[t.ID] = t
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.explain(err)
		}
		if len(list) == 0 {
			return nil
		}
		seatWhere := ``
		if unfinished {
			seatWhere = `WHERE table_id IN (SELECT id FROM tables WHERE NOT finished AND NOT closed)`
		}
		if err := s.seats(ctx, tx, byID, seatWhere); err != nil {
			return err
		}
		return s.seatClaims(ctx, tx, byID, seatWhere)
	})
	if err != nil {
		return nil, fmt.Errorf("store: list tables: %w", err)
	}
	return list, nil
}

// Touch implements Store.
func (s *sqlStore) Touch(ctx context.Context, at time.Time, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	at = normTime(at)
	const chunk = 500 // ids per statement
	for len(ids) > 0 {
		n := min(chunk, len(ids))
		args := []any{s.d.timeArg(at), s.d.timeArg(at)}
		for _, id := range ids[:n] {
			args = append(args, id)
		}
		q := `(active IS NULL OR active < ?) AND id IN (?` + strings.Repeat(`, ?`, n-1) + `)`
		if s.d.skipLocked != "" {
			// A row another write holds (an append: that table is active
			// anyway) is passed over rather than waited for, so that this
			// write, which changes many rows, never waits holding some.
			q = `id IN (SELECT id FROM tables WHERE ` + q + s.d.skipLocked + `)`
		}
		q = `UPDATE tables SET active = ? WHERE ` + q
		err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, s.d.q(q), args...)
			return s.explain(err)
		})
		if err != nil {
			return fmt.Errorf("store: touch %d tables: %w", n, err)
		}
		ids = ids[n:]
	}
	return nil
}

// CloseTable implements Store.
func (s *sqlStore) CloseTable(ctx context.Context, id string) error {
	err := s.writeTable(ctx, id, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.q(`UPDATE tables SET closed = ? WHERE id = ?`), true, id)
		if err != nil {
			return s.explain(err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			if err != nil {
				return err
			}
			return s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: id})
		}
		return fmt.Errorf("%w: no such table", ErrNotFound)
	})
	if err != nil {
		return fmt.Errorf("store: close table %s: %w", id, err)
	}
	return nil
}

// SetNext implements Store.
func (s *sqlStore) SetNext(ctx context.Context, id, next string) error {
	err := s.writeTable(ctx, id, func(ctx context.Context, tx *sql.Tx) error {
		var cur string
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT next_id FROM tables WHERE id = ?`+s.d.forUpdate), id).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no such table", ErrNotFound)
		}
		if err != nil {
			return s.explain(err)
		}
		if cur != "" && cur != next {
			return fmt.Errorf("%w: the next match is at table %s already", ErrConflict, cur)
		}
		if _, err = tx.ExecContext(ctx, s.d.q(`UPDATE tables SET next_id = ? WHERE id = ?`), next, id); err != nil {
			return s.explain(err)
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: id})
	})
	if err != nil {
		return fmt.Errorf("store: set next of table %s: %w", id, err)
	}
	return nil
}

// ClaimSeat implements Store.
func (s *sqlStore) ClaimSeat(ctx context.Context, id string, seat int, name string, tokenHash []byte) error {
	return s.ClaimSeatFor(ctx, id, seat, name, tokenHash, "")
}

// ClaimSeatFor implements Store.
func (s *sqlStore) ClaimSeatFor(ctx context.Context, id string, seat int, name string, tokenHash []byte, account string) error {
	fail := func(err error) error {
		return fmt.Errorf("store: claim seat %d of table %s: %w", seat, id, err)
	}
	if len(tokenHash) == 0 {
		return fail(errors.New("empty token hash"))
	}
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var acct any // NULL for a guest
		if account != "" {
			acct = account
		}
		res, err := tx.ExecContext(ctx, s.d.q(`UPDATE seats SET name = ?, token_hash = ?, account_id = ? WHERE table_id = ? AND seat = ? AND kind = 'human' AND token_hash IS NULL`),
			name, tokenHash, acct, id, seat)
		if err != nil {
			return s.explain(err)
		}
		n, err = res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 1 {
			return s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: id})
		}
		// Nothing claimed: say why.
		var (
			kind string
			hash []byte
		)
		err = tx.QueryRowContext(ctx, s.d.q(`SELECT kind, token_hash FROM seats WHERE table_id = ? AND seat = ?`), id, seat).Scan(&kind, &hash)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: no such table or seat", ErrNotFound)
		case err != nil:
			return s.explain(err)
		case kind != "human":
			return fmt.Errorf("%w: the seat is a %s's", ErrConflict, kind)
		default:
			return fmt.Errorf("%w: the seat is taken", ErrConflict)
		}
	})
	if err != nil {
		return fail(err)
	}
	return nil
}
