package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// The statements of every append (and the batch's savepoints) run
// thousands of times a second under load, and a fair deal's several
// times a hand. SQLite parses a statement each
// time it is run as text, which was about a third of the store's CPU
// (docs/performance.md), so on SQLite these are prepared once on the
// writer connection and kept; PostgreSQL's driver keeps its own cache.

// stmts holds the statements prepared on SQLite's writer, by query.
type stmts struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// keptQueries are the statements kept prepared (in SQLite's form): an
// append's, a fair deal's (a commitment, stored again at each
// contribution, and the deal) and the batch's savepoints.
var keptQueries = []string{
	appendSQLiteQuery,
	appendWhyQuery,
	appendHandQuery,
	appendFinishQuery,
	commitmentQuery,
	dealQuery,
	"SAVEPOINT a",
	"ROLLBACK TO a",
	"RELEASE a",
}

// prepareKept prepares keptQueries on SQLite's writer, once, when the
// store opens (in a transaction the one writer connection is taken, so a
// statement cannot be prepared on it then).
func (s *sqlStore) prepareKept(ctx context.Context) error {
	s.stmts.m = map[string]*sql.Stmt{}
	for _, q := range keptQueries {
		st, err := s.w.PrepareContext(ctx, q)
		if err != nil {
			return errors.Join(err, s.closeStmts())
		}
		s.stmts.m[q] = st
	}
	return nil
}

// prepared returns query's kept statement, or nil (PostgreSQL, or a
// query not kept: it runs as text).
func (s *sqlStore) prepared(query string) *sql.Stmt {
	s.stmts.mu.Lock()
	defer s.stmts.mu.Unlock()
	return s.stmts.m[query]
}

// execTx runs query (already in the dialect's form) in tx, through its
// kept statement on SQLite.
func (s *sqlStore) execTx(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if st := s.prepared(query); st != nil {
		return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}

// queryRowTx runs query (already in the dialect's form) in tx for one
// row, through its kept statement on SQLite.
func (s *sqlStore) queryRowTx(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	if st := s.prepared(query); st != nil {
		return tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, query, args...)
}

// closeStmts closes the kept statements (before the writer closes).
func (s *sqlStore) closeStmts() error {
	s.stmts.mu.Lock()
	defer s.stmts.mu.Unlock()
	var errs []error
	for _, st := range s.stmts.m {
		errs = append(errs, st.Close())
	}
	s.stmts.m = nil
	return errors.Join(errs...)
}
