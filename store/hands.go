package store

// Hand records, the history of tables, and reviews of hands.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

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
