package store

// Fair deals (docs/fairness.md): a table's deals and commitments.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
)

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
