package store

// sqlStore, for SQLite and PostgreSQL: Close, transactions, shared helpers.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

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

	// SQLite: the database's write counters (iocount.go), their values
	// when it was opened, its page size and wal_autocheckpoint.
	io                 *ioCount
	io0                IOStats
	pageSize, autockpt int64
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

// exists reports ErrNotFound for no such table.
func (s *sqlStore) exists(ctx context.Context, tx *sql.Tx, id string) error {
	var one int
	err := tx.QueryRowContext(ctx, s.d.q(`SELECT 1 FROM tables WHERE id = ?`), id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: no such table", ErrNotFound)
	}
	return s.explain(err)
}
