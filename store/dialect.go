package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// dialect is what differs between SQLite and PostgreSQL. Queries are
// written once with ? placeholders; the dialect rewrites them.
type dialect struct {
	name string // "sqlite" or "postgres", also the migrations directory

	// dollar numbers placeholders $1, $2, … instead of ?.
	dollar bool
	// forUpdate is appended to the SELECT that locks a row to change it
	// (a table's row for an append): SQLite's writes are already
	// serialised (BEGIN IMMEDIATE on one writer connection), PostgreSQL
	// needs the row lock. PostgreSQL's is FOR NO KEY UPDATE: no key
	// changes, so the foreign keys other writes check against the row
	// (a deal, a lease, a seat's presence) do not wait for it.
	forUpdate string
	// skipLocked is appended to a SELECT … FOR NO KEY UPDATE of rows that
	// need not be changed now if another transaction holds them.
	skipLocked string
	// lockTables, when not empty, locks the tables rows a batch of writes
	// will change (its one argument an array of ids), in id order, before
	// the batch's first write: two processes' batches then take their
	// row locks in one order and cannot deadlock on them.
	lockTables string
	// lockMigrations, when not empty, runs first in each migration
	// transaction so that two processes starting together migrate one
	// after the other. (SQLite's BEGIN IMMEDIATE already does that.)
	lockMigrations string
	// readTx are the options of read transactions: a snapshot, so that a
	// table and its seats are read together. nil for SQLite, whose read
	// transactions are snapshots anyway (and whose driver takes no options).
	readTx *sql.TxOptions
	// textTime stores times as fixed-width UTC text instead of a native
	// timestamp.
	textTime bool
	// newTableNum is the value of a new tables row's num, the table's key
	// inside the store (migration 0017): one more than the highest on
	// SQLite, whose writes are serialised; the column's identity on
	// PostgreSQL.
	newTableNum string
}

var (
	sqliteDialect = &dialect{
		name: "sqlite",
		// Any migration transaction is BEGIN IMMEDIATE (see openSQLite).
		textTime:    true,
		newTableNum: "(SELECT COALESCE(MAX(num), 0) + 1 FROM tables)",
	}
	postgresDialect = &dialect{
		name:       "postgres",
		dollar:     true,
		forUpdate:  " FOR NO KEY UPDATE",
		skipLocked: " FOR NO KEY UPDATE SKIP LOCKED",
		lockTables: "SELECT id FROM tables WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE",
		// An arbitrary key shared by every pitch process on the database.
		lockMigrations: "SELECT pg_advisory_xact_lock(7028563748101952)",
		readTx:         &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true},
		newTableNum:    "DEFAULT",
	}
)

// q rewrites a query's ? placeholders for the dialect. Queries here never
// hold a ? inside a literal.
func (d *dialect) q(query string) string {
	if !d.dollar {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// timeLayout is how SQLite keeps times: UTC, microseconds, fixed width, so
// that text order is time order.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// normTime is a time as the store keeps it: UTC, to the microsecond (what
// PostgreSQL keeps).
func normTime(t time.Time) time.Time {
	return t.UTC().Truncate(time.Microsecond)
}

// timeArg is a time as a query argument.
func (d *dialect) timeArg(t time.Time) any {
	t = normTime(t)
	if d.textTime {
		return t.Format(timeLayout)
	}
	return t
}

// dbTime scans a time kept either way.
type dbTime struct{ t time.Time }

func (d *dbTime) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		d.t = v.UTC()
		return nil
	case string:
		return d.parse(v)
	case []byte:
		return d.parse(string(v))
	}
	return fmt.Errorf("cannot scan %T into a time", src)
}

func (d *dbTime) parse(s string) error {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		// Be lenient with anything RFC 3339 written by hand.
		var err2 error
		if t, err2 = time.Parse(time.RFC3339Nano, s); err2 != nil {
			return err
		}
	}
	d.t = t.UTC()
	return nil
}

// nullTime scans a time that may be NULL (zero then).
type nullTime struct{ t time.Time }

func (n *nullTime) Scan(src any) error {
	if src == nil {
		n.t = time.Time{}
		return nil
	}
	var d dbTime
	if err := d.Scan(src); err != nil {
		return err
	}
	n.t = d.t
	return nil
}

// isUnique reports whether err is a unique or primary key violation.
func isUnique(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code()
		return c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY || c == sqlite3.SQLITE_CONSTRAINT_UNIQUE
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505" // unique_violation
	}
	return false
}

// retryable reports whether err is PostgreSQL giving up on a transaction
// that would succeed if tried again: a deadlock or a serialization failure.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// sqliteCode is the primary result code of a SQLite error, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}
