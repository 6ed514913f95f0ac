package store

// A table's event log: Append (with its hand and finish) and Events.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

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
// PostgreSQL's driver keeps its own cache. A table's events are keyed by
// its number (table_events by tables.num: migration 0017), which the
// statements look up by its ID.
const (
	appendSQLiteQuery = `INSERT INTO table_events (num, seq, action, at, by_whom) SELECT t.num, ?2, ?3, ?4, ?5 FROM tables t
		WHERE t.id = ?1 AND ?2 = (SELECT COALESCE(MAX(seq) + 1, 0) FROM table_events WHERE num = t.num)`
	appendWhyQuery = `SELECT (SELECT COALESCE(MAX(seq) + 1, 0) FROM table_events WHERE num = t.num) FROM tables t WHERE t.id = ?1`
	// appendPostgresQuery: the event if its number is next, and its note
	// ($6 the channel, $7 the note) if inserted; the count inserted.
	appendPostgresQuery = `WITH ins AS (INSERT INTO table_events (num, seq, action, at, by_whom) SELECT t.num, $2, $3, $4, $5
		FROM tables t WHERE t.id = $1 AND $2 = (SELECT COALESCE(MAX(seq) + 1, 0) FROM table_events WHERE num = t.num) RETURNING seq)
		SELECT count(*) FROM (SELECT pg_notify($6, $7) FROM ins) AS noted`
	appendWhyPostgresQuery = `SELECT (SELECT COALESCE(MAX(seq) + 1, 0) FROM table_events WHERE num = t.num) FROM tables t WHERE t.id = $1`
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

// Events implements Store.
func (s *sqlStore) Events(ctx context.Context, id string) ([]Event, error) {
	list := []Event{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := s.exists(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT seq, action, at, by_whom FROM table_events WHERE num = (SELECT num FROM tables WHERE id = ?) ORDER BY seq`), id)
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
