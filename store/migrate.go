package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"pitch/account"
)

// Migrations live in migrations/DIALECT/NNNN_name.sql. Each is applied once,
// in order of NNNN, in its own transaction together with its row in
// schema_migrations. Never edit one that has been released: add another.
//
//go:embed migrations
var migrationsFS embed.FS

type migration struct {
	version int
	name    string // file name
	sql     string
}

// migrations returns a dialect's migrations in order.
func migrations(dialect string) ([]migration, error) {
	dir := path.Join("migrations", dialect)
	entries, err := fs.ReadDir(migrationsFS, dir)
	if err != nil {
		return nil, err
	}
	var ms []migration
	seen := map[int]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, _ := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s/%s: the name must start with a positive number and _", dir, name)
		}
		if prev, ok := seen[v]; ok {
			return nil, fmt.Errorf("migrations %s and %s of %s have the same number", prev, name, dir)
		}
		seen[v] = name
		b, err := fs.ReadFile(migrationsFS, path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	name    TEXT NOT NULL,
	applied TEXT NOT NULL
)`

// migrate brings db's schema up to date. It is safe to run on every start
// and from several processes at once: each step takes the database's
// write lock (SQLite) or an advisory lock (PostgreSQL) and checks again
// what is applied before it does anything.
func migrate(ctx context.Context, db *sql.DB, d *dialect) error {
	return migrateTo(ctx, db, d, math.MaxInt)
}

// migrateTo is migrate up to migration last (a test's database of an
// older schema).
func migrateTo(ctx context.Context, db *sql.DB, d *dialect, last int) error {
	ms, err := migrations(d.name)
	if err != nil {
		return err
	}
	if err := inTx(ctx, db, d, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, createMigrationsTable)
		return err
	}); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range ms {
		if m.version > last {
			break
		}
		if err := inTx(ctx, db, d, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, d.q(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil // applied already, maybe by another process just now
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			if step := goSteps[m.name]; step != nil {
				if err := step(ctx, tx, d); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, d.q(`INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`),
				m.version, m.name, time.Now().UTC().Format(time.RFC3339))
			return err
		}); err != nil {
			return fmt.Errorf("migration %s/%s: %w", d.name, m.name, err)
		}
	}
	return nil
}

// inTx runs f in a migration transaction, holding the migration lock.
func inTx(ctx context.Context, db *sql.DB, d *dialect, f func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if d.lockMigrations != "" {
		if _, err := tx.ExecContext(ctx, d.lockMigrations); err != nil {
			return err
		}
	}
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// goSteps are the parts of migrations that SQL cannot do, by migration
// name: each runs in its migration's transaction, after its SQL.
var goSteps = map[string]func(ctx context.Context, tx *sql.Tx, d *dialect) error{
	"0014_name_skeleton": fillSkeletons,
}

// fillSkeletons gives every account its name's skeleton (migration 0014).
func fillSkeletons(ctx context.Context, tx *sql.Tx, d *dialect) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, name FROM accounts WHERE name_skeleton IS NULL`)
	if err != nil {
		return err
	}
	names := map[string]string{}
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return err
		}
		names[id] = name
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for id, name := range names {
		if _, err := tx.ExecContext(ctx, d.q(`UPDATE accounts SET name_skeleton = ? WHERE id = ?`), account.Skeleton(name), id); err != nil {
			return err
		}
	}
	return nil
}
