package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// sqlStore is the Store over database/sql, for both dialects.
type sqlStore struct {
	d *dialect
	w *sql.DB // for writes: SQLite's single writer connection
	r *sql.DB // for reads: the same as w for PostgreSQL

	batch *batcher // appends grouped into shared commits
	// bw is the batcher's own pool (PostgreSQL: one connection, so that
	// the shared pool's readers never leave a commit waiting for one;
	// SQLite: w)
	bw    *sql.DB
	stmts stmts // SQLite: statements prepared once (stmt.go)

	// PostgreSQL: the URL (for Listen's own connection) and the channel
	// of this database and schema's notes (Cluster).
	dsn, channel string
	// unlock gives back a SQLite database's lock (lockSQLite).
	unlock func()
}

// Close implements Store.
func (s *sqlStore) Close() error {
	if s.batch != nil {
		s.batch.stop()
	}
	var err error
	if s.r != s.w {
		err = s.r.Close()
	}
	if s.bw != nil && s.bw != s.w {
		err = errors.Join(err, s.bw.Close())
	}
	// The writer last: SQLite's last connection checkpoints and removes
	// the -wal file.
	err = errors.Join(err, s.closeStmts(), s.w.Close())
	if s.unlock != nil {
		s.unlock()
		s.unlock = nil
	}
	return err
}

// write runs f in a write transaction (with SQLite, a savepoint in a
// shared, group-committed transaction: see batcher).
// f must use the ctx it is given, not its caller's.
func (s *sqlStore) write(ctx context.Context, f func(context.Context, *sql.Tx) error) error {
	return s.writeTable(ctx, "", f)
}

// writeTable is write for an f that changes the row of table id in
// tables: a batch locks all such rows in one order (dialect.lockTables).
func (s *sqlStore) writeTable(ctx context.Context, id string, f func(context.Context, *sql.Tx) error) error {
	return s.writePiped(ctx, id, f, nil)
}

// writePiped is writeTable for an f whose statements pipe can queue on a
// pipeline instead (PostgreSQL; see batcher.run). pipe may be nil.
func (s *sqlStore) writePiped(ctx context.Context, id string, f func(context.Context, *sql.Tx) error, pipe func(*pgx.Batch)) error {
	if s.batch != nil {
		return s.batch.do(ctx, id, f, pipe)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.explain(err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if err := f(ctx, tx); err != nil {
		return err
	}
	return s.explain(tx.Commit())
}

// read runs f in a read transaction (a snapshot).
func (s *sqlStore) read(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.r.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return s.explain(err)
	}
	defer tx.Rollback() //nolint:errcheck // read only
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *sqlStore) explain(err error) error {
	if err != nil && s.d == sqliteDialect {
		return explainSQLite(err)
	}
	return err
}

func validJSON(what string, b json.RawMessage, optional bool) error {
	if len(b) == 0 {
		if optional {
			return nil
		}
		return fmt.Errorf("empty %s", what)
	}
	if !json.Valid(b) {
		return fmt.Errorf("%s is not valid JSON", what)
	}
	return nil
}

// CreateTable implements Store. A zero t.Created is set to now; t.Created
// is kept to the microsecond, in UTC.
func (s *sqlStore) CreateTable(ctx context.Context, t *Table) error {
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
	var opts any // NULL for no options
	if len(t.Options) > 0 {
		opts = string(t.Options)
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO tables (id, variant, options, seed, turn_timer, created, finished, no_hints, fair_deals, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			t.ID, t.Variant, opts, strconv.FormatUint(t.Seed, 10), t.TurnTimer, s.d.timeArg(t.Created), t.Finished, t.NoHints, t.FairDeals, t.Rated)
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
		return s.notifyTx(ctx, tx, Note{Kind: NoteNew, Table: t.ID})
	})
	if err != nil {
		return fail(err)
	}
	return nil
}

const tableCols = `id, variant, options, seed, turn_timer, created, finished, active, closed, no_hints, next_id, fair_deals, rated`

// scanTable scans a row of tableCols.
func scanTable(sc interface{ Scan(...any) error }) (*Table, error) {
	var (
		t       Table
		opts    sql.NullString
		seed    string
		created dbTime
		active  nullTime
	)
	if err := sc.Scan(&t.ID, &t.Variant, &opts, &seed, &t.TurnTimer, &created, &t.Finished, &active, &t.Closed, &t.NoHints, &t.Next, &t.FairDeals, &t.Rated); err != nil {
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
		return s.seats(ctx, tx, map[string]*Table{id: t}, `WHERE table_id = ?`, id)
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
		return s.seats(ctx, tx, byID, seatWhere)
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

// Append implements Store. A zero a.Event.At is set to now; times are kept
// to the microsecond.
func (s *sqlStore) Append(ctx context.Context, id string, a Append) error {
	e := a.Event
	fail := func(err error) error {
		return fmt.Errorf("store: append event %d to table %s: %w", e.Seq, id, err)
	}
	if e.Seq < 0 {
		return fail(fmt.Errorf("%w: negative event number", ErrConflict))
	}
	if err := validJSON("action", e.Action, false); err != nil {
		return fail(err)
	}
	if a.Hand != nil {
		if a.Hand.N < 1 {
			return fail(fmt.Errorf("hand number %d is not positive", a.Hand.N))
		}
		if err := validJSON("hand record", a.Hand.Record, false); err != nil {
			return fail(err)
		}
	}
	at := e.At
	if at.IsZero() {
		at = timeNow()
	}
	err := s.writePiped(ctx, id, func(ctx context.Context, tx *sql.Tx) error { return s.appendTx(ctx, tx, id, a, at) }, s.appendPipe(id, a, at))
	if err != nil {
		return fail(err)
	}
	return nil
}

// The statements of an append. SQLite, whose writes are serialised (one
// writer connection, BEGIN IMMEDIATE), checks the table and the event
// number and inserts in one statement (appendSQLiteQuery), and only when
// it inserts nothing asks why (appendWhyQuery). PostgreSQL does the same
// (appendPostgresQuery, with the event's note), its batch holding the
// table's row lock from its start (dialect.lockTables), so that appends
// to one table queue and the statement's snapshot, taken after the lock,
// holds the last event. On SQLite these are kept prepared (stmt.go);
// PostgreSQL's driver keeps its own cache.
const (
	appendSQLiteQuery = `INSERT INTO events (table_id, seq, action, at, by_whom) SELECT ?1, ?2, ?3, ?4, ?5
		WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?1) AND ?2 = (SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE table_id = ?1)`
	appendWhyQuery = `SELECT (SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE table_id = ?1) FROM tables WHERE id = ?1`
	// appendPostgresQuery: the event if its number is next, and its note
	// ($6 the channel, $7 the note) if inserted; the count inserted.
	appendPostgresQuery = `WITH ins AS (INSERT INTO events (table_id, seq, action, at, by_whom) SELECT $1, $2, $3, $4, $5
		FROM tables WHERE id = $1 AND $2 = (SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE table_id = $1) RETURNING seq)
		SELECT count(*) FROM (SELECT pg_notify($6, $7) FROM ins) AS noted`
	appendWhyPostgresQuery = `SELECT (SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE table_id = $1) FROM tables WHERE id = $1`
	appendHandQuery        = `INSERT INTO hands (table_id, n, record) VALUES (?, ?, ?)`
	appendFinishQuery      = `UPDATE tables SET finished = ? WHERE id = ? AND NOT finished`
)

// appendTx writes one append inside tx.
func (s *sqlStore) appendTx(ctx context.Context, tx *sql.Tx, id string, a Append, at time.Time) error {
	var err error
	if s.d == sqliteDialect {
		err = s.appendEventSQLite(ctx, tx, id, a.Event, at)
	} else {
		err = s.appendEventPostgres(ctx, tx, id, a.Event, at)
	}
	if err != nil {
		return err
	}
	if h := a.Hand; h != nil {
		_, err := s.execTx(ctx, tx, s.d.q(appendHandQuery), id, h.N, string(h.Record))
		if isUnique(err) {
			return fmt.Errorf("%w: hand %d is recorded already (%w)", ErrConflict, h.N, err)
		}
		if err != nil {
			return fmt.Errorf("hand %d: %w", h.N, s.explain(err))
		}
	}
	if a.Finished {
		if _, err := s.execTx(ctx, tx, s.d.q(appendFinishQuery), true, id); err != nil {
			return s.explain(err)
		}
	}
	return nil // PostgreSQL's note went with the event (appendEventPostgres)
}

// appendPipe is appendTx's statements for a pipeline (PostgreSQL; nil on
// SQLite): the event if its number is next, with its note, then its hand
// and finish. Should the event not be inserted, its check fails the
// pipeline, whose transaction is rolled back, hand and finish with it,
// and appendTx says why.
func (s *sqlStore) appendPipe(id string, a Append, at time.Time) func(*pgx.Batch) {
	if s.d != postgresDialect {
		return nil
	}
	e := a.Event
	note, err := Note{Kind: NoteEvents, Table: id, Seq: e.Seq + 1}.encode()
	if err != nil {
		return nil // appendTx says so
	}
	return func(b *pgx.Batch) {
		b.Queue(appendPostgresQuery, id, e.Seq, string(e.Action), s.d.timeArg(at), e.By, s.channel, note).QueryRow(func(row pgx.Row) error {
			var n int
			if err := row.Scan(&n); err != nil {
				return err
			}
			if n != 1 {
				return errPiped
			}
			return nil
		})
		if h := a.Hand; h != nil {
			b.Queue(s.d.q(appendHandQuery), id, h.N, string(h.Record)).Exec(pipedAny)
		}
		if a.Finished {
			b.Queue(s.d.q(appendFinishQuery), true, id).Exec(pipedAny)
		}
	}
}

// appendEventSQLite inserts e if it is table id's next event, in one
// statement, and says why not otherwise.
func (s *sqlStore) appendEventSQLite(ctx context.Context, tx *sql.Tx, id string, e Event, at time.Time) error {
	res, err := s.execTx(ctx, tx, appendSQLiteQuery, id, e.Seq, string(e.Action), s.d.timeArg(at), e.By)
	if isUnique(err) { // cannot happen: the statement checks the number
		return fmt.Errorf("%w: event number used (%w)", ErrConflict, err)
	}
	if err != nil {
		return s.explain(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return s.appendRefused(ctx, tx, appendWhyQuery, id)
}

// appendRefused says why an append inserted nothing: no such table, or
// its next event number (why, a query of both, the number in a row of
// the table).
func (s *sqlStore) appendRefused(ctx context.Context, tx *sql.Tx, why, id string) error {
	var n int
	err := s.queryRowTx(ctx, tx, why, id).Scan(&n)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("%w: no such table", ErrNotFound)
	case err != nil:
		return s.explain(err)
	}
	return fmt.Errorf("%w: the next event number is %d", ErrConflict, n)
}

// appendEventPostgres inserts e if it is table id's next event and
// sends its NoteEvents, in one statement (one round trip, where locking,
// reading the next number, inserting and notifying were four), and says
// why not otherwise. The batch holds the table's row lock already
// (dialect.lockTables, the Append being a writeTable), so no other
// transaction appends to it between the statement's read of the next
// number and its insert; were it not held, the unique (table_id, seq)
// key would still refuse a number taken.
func (s *sqlStore) appendEventPostgres(ctx context.Context, tx *sql.Tx, id string, e Event, at time.Time) error {
	note, err := Note{Kind: NoteEvents, Table: id, Seq: e.Seq + 1}.encode()
	if err != nil {
		return err
	}
	var n int
	err = s.queryRowTx(ctx, tx, appendPostgresQuery, id, e.Seq, string(e.Action), s.d.timeArg(at), e.By, s.channel, note).Scan(&n)
	if isUnique(err) {
		return fmt.Errorf("%w: event number used (%w)", ErrConflict, err)
	}
	if err != nil {
		return s.explain(err)
	}
	if n == 1 {
		return nil
	}
	return s.appendRefused(ctx, tx, appendWhyPostgresQuery, id)
}

// exists reports ErrNotFound for no such table.
func (s *sqlStore) exists(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	err := tx.QueryRowContext(ctx, s.d.q(`SELECT 1 FROM tables WHERE id = ?`), id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: no such table", ErrNotFound)
	}
	return s.explain(err)
}

// Events implements Store.
func (s *sqlStore) Events(ctx context.Context, id string) ([]Event, error) {
	list := []Event{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := s.exists(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT seq, action, at, by_whom FROM events WHERE table_id = ? ORDER BY seq`), id)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				e      Event
				action string
				at     dbTime
			)
			if err := rows.Scan(&e.Seq, &action, &at, &e.By); err != nil {
				return err
			}
			e.Action = json.RawMessage(action)
			e.At = at.t
			list = append(list, e)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: read events of table %s: %w", id, err)
	}
	return list, nil
}

// The statements of a fair deal's writes, each of which stores its row
// only if the table exists (the row's count says which): one statement,
// kept prepared on SQLite (stmt.go). A commitment is stored again, with
// its pending deal, at each contribution to it (server/fair.go).
const (
	commitmentQuery = `INSERT INTO commitments (table_id, n, commitment, at, pending) SELECT ?, ?, ?, ?, ?
		WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?)
		ON CONFLICT (table_id, commitment) DO UPDATE SET pending = EXCLUDED.pending`
	dealQuery = `INSERT INTO deals (table_id, n, deal) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?)`
)

// rowOrNotFound is nil if res stored (or changed) one row, else
// ErrNotFound for no such table.
func rowOrNotFound(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: no such table", ErrNotFound)
	}
	return nil
}

// AddDeal implements Store.
func (s *sqlStore) AddDeal(ctx context.Context, id string, d Deal) error {
	fail := func(err error) error {
		return fmt.Errorf("store: add the deal of hand %d to table %s: %w", d.N, id, err)
	}
	if d.N < 1 {
		return fail(fmt.Errorf("hand number %d is not positive", d.N))
	}
	if err := validJSON("deal", d.Data, false); err != nil {
		return fail(err)
	}
	var pipe func(*pgx.Batch)
	if note, err := (Note{Kind: NoteDeal, Table: id, Seq: d.N}).encode(); err == nil && s.d == postgresDialect {
		pipe = func(b *pgx.Batch) {
			b.Queue(s.d.q(dealQuery), id, d.N, string(d.Data), id).Exec(pipedOne)
			b.Queue(`SELECT pg_notify($1, $2)`, s.channel, note).Exec(pipedAny)
		}
	}
	err := s.writePiped(ctx, "", func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.execTx(ctx, tx, s.d.q(dealQuery), id, d.N, string(d.Data), id)
		if isUnique(err) {
			return fmt.Errorf("%w: hand %d is dealt already (%w)", ErrConflict, d.N, err)
		}
		if err != nil {
			return s.explain(err)
		}
		if err := rowOrNotFound(res); err != nil {
			return err
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteDeal, Table: id, Seq: d.N})
	}, pipe)
	if err != nil {
		return fail(err)
	}
	return nil
}

// Deals implements Store.
func (s *sqlStore) Deals(ctx context.Context, id string) ([]Deal, error) {
	list := []Deal{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := s.exists(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT n, deal FROM deals WHERE table_id = ? ORDER BY n`), id)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				d    Deal
				data string
			)
			if err := rows.Scan(&d.N, &data); err != nil {
				return err
			}
			d.Data = json.RawMessage(data)
			list = append(list, d)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: read the deals of table %s: %w", id, err)
	}
	return list, nil
}

// SaveCommitment implements Store.
func (s *sqlStore) SaveCommitment(ctx context.Context, id string, c Commitment) error {
	fail := func(err error) error {
		return fmt.Errorf("store: save commitment %.16s… of hand %d of table %s: %w", c.Commitment, c.N, id, err)
	}
	if c.N < 1 {
		return fail(fmt.Errorf("hand number %d is not positive", c.N))
	}
	if c.Commitment == "" || c.At == "" {
		return fail(fmt.Errorf("a commitment needs its commitment and its time"))
	}
	if err := validJSON("pending deal", c.Pending, false); err != nil {
		return fail(err)
	}
	var pipe func(*pgx.Batch)
	if s.d == postgresDialect {
		pipe = func(b *pgx.Batch) {
			b.Queue(s.d.q(commitmentQuery), id, c.N, c.Commitment, c.At, string(c.Pending), id).Exec(pipedOne)
		}
	}
	err := s.writePiped(ctx, "", func(ctx context.Context, tx *sql.Tx) error {
		res, err := s.execTx(ctx, tx, s.d.q(commitmentQuery), id, c.N, c.Commitment, c.At, string(c.Pending), id)
		if err != nil {
			return s.explain(err)
		}
		return rowOrNotFound(res)
	}, pipe)
	if err != nil {
		return fail(err)
	}
	return nil
}

// Commitments implements Store.
func (s *sqlStore) Commitments(ctx context.Context, id string) ([]Commitment, error) {
	list := []Commitment{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := s.exists(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT n, commitment, at, pending FROM commitments WHERE table_id = ? ORDER BY n, at`), id)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				c       Commitment
				pending string
			)
			if err := rows.Scan(&c.N, &c.Commitment, &c.At, &pending); err != nil {
				return err
			}
			c.Pending = json.RawMessage(pending)
			list = append(list, c)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: read the commitments of table %s: %w", id, err)
	}
	return list, nil
}

// Hands implements Store.
func (s *sqlStore) Hands(ctx context.Context, id string) ([]Hand, error) {
	list := []Hand{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := s.exists(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT n, record FROM hands WHERE table_id = ? ORDER BY n`), id)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				h   Hand
				rec string
			)
			if err := rows.Scan(&h.N, &rec); err != nil {
				return err
			}
			h.Record = json.RawMessage(rec)
			list = append(list, h)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: read hands of table %s: %w", id, err)
	}
	return list, nil
}

// History implements Store.
func (s *sqlStore) History(ctx context.Context, q HistoryQuery) ([]Summary, int, error) {
	var (
		where []string
		args  []any
	)
	if q.Variant != "" {
		where, args = append(where, `variant = ?`), append(args, q.Variant)
	}
	if q.IDs != nil {
		if len(q.IDs) == 0 {
			return []Summary{}, 0, nil
		}
		where = append(where, `id IN (?`+strings.Repeat(`, ?`, len(q.IDs)-1)+`)`)
		for _, id := range q.IDs {
			args = append(args, id)
		}
	}
	cond := ``
	if len(where) > 0 {
		cond = ` WHERE ` + strings.Join(where, ` AND `)
	}
	list := []Summary{}
	total := 0
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, s.d.q(`SELECT COUNT(*) FROM tables`+cond), args...).Scan(&total); err != nil {
			return s.explain(err)
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT `+tableCols+`,
			(SELECT COUNT(*) FROM hands h WHERE h.table_id = tables.id),
			(SELECT h.record FROM hands h WHERE h.table_id = tables.id ORDER BY h.n DESC LIMIT 1)
			FROM tables`+cond+` ORDER BY created DESC, id DESC LIMIT ? OFFSET ?`), append(args, q.Limit, q.Offset)...)
		if err != nil {
			return s.explain(err)
		}
		byID := map[string]*Table{}
		var ids []any
		for rows.Next() {
			var (
				sum  Summary
				last sql.NullString
			)
			t, err := scanTable(scanExtra{rows, []any{&sum.Hands, &last}})
			if err != nil {
				rows.Close()
				return err
			}
			sum.Table = t
			if last.Valid {
				sum.Last = json.RawMessage(last.String)
			}
			list = append(list, sum)
			byID[t.ID] = t
			ids = append(ids, t.ID)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.explain(err)
		}
		if len(ids) == 0 {
			return nil
		}
		return s.seats(ctx, tx, byID, `WHERE table_id IN (?`+strings.Repeat(`, ?`, len(ids)-1)+`)`, ids...)
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: list the history: %w", err)
	}
	return list, total, nil
}

// scanExtra scans a row of tableCols followed by more columns.
type scanExtra struct {
	sc    interface{ Scan(...any) error }
	extra []any
}

func (x scanExtra) Scan(dest ...any) error { return x.sc.Scan(append(dest, x.extra...)...) }

// PutReview implements Store.
func (s *sqlStore) PutReview(ctx context.Context, id string, r Review) error {
	fail := func(err error) error {
		return fmt.Errorf("store: add the review of hand %d seat %d to table %s: %w", r.N, r.Seat, id, err)
	}
	if r.N < 1 || r.Seat < 0 {
		return fail(fmt.Errorf("hand %d seat %d is not a hand's seat", r.N, r.Seat))
	}
	if err := validJSON("review", r.Data, false); err != nil {
		return fail(err)
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.exists(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO reviews (table_id, n, seat, review) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`),
			id, r.N, r.Seat, string(r.Data))
		return s.explain(err)
	})
	if err != nil {
		return fail(err)
	}
	return nil
}

// Review implements Store.
func (s *sqlStore) Review(ctx context.Context, id string, n, seat int) (Review, error) {
	r := Review{N: n, Seat: seat}
	err := s.read(ctx, func(tx *sql.Tx) error {
		var data string
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT review FROM reviews WHERE table_id = ? AND n = ? AND seat = ?`), id, n, seat).Scan(&data)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		r.Data = json.RawMessage(data)
		return s.explain(err)
	})
	if err != nil {
		return Review{}, fmt.Errorf("store: read the review of hand %d seat %d of table %s: %w", n, seat, id, err)
	}
	return r, nil
}

// Reviews implements Store.
func (s *sqlStore) Reviews(ctx context.Context, id string) ([]Review, error) {
	list := []Review{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := s.exists(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT n, seat, review FROM reviews WHERE table_id = ? ORDER BY n, seat`), id)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				r    Review
				data string
			)
			if err := rows.Scan(&r.N, &r.Seat, &data); err != nil {
				return err
			}
			r.Data = json.RawMessage(data)
			list = append(list, r)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: read the reviews of table %s: %w", id, err)
	}
	return list, nil
}
