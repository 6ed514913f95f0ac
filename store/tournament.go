package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Tournament is an event of many tables (package event, docs/events.md)
// as stored: its whole state as the server's JSON, which the store does
// not read. The data holds token hashes: it is never shown as it is.
type Tournament struct {
	ID      string
	Data    json.RawMessage
	Version int // 1 when created; each update adds one
	Created time.Time
	// Finished: every round has been played; Tournaments(ctx, true)
	// leaves it out.
	Finished bool
}

// CreateTournament implements Store. A zero t.Created is set to now; t.Version becomes 1.
func (s *sqlStore) CreateTournament(ctx context.Context, t *Tournament) error {
	fail := func(err error) error { return fmt.Errorf("store: create event %s: %w", t.ID, err) }
	if t.ID == "" {
		return fail(errors.New("empty event ID"))
	}
	if err := validJSON("event", t.Data, false); err != nil {
		return fail(err)
	}
	if t.Created.IsZero() {
		t.Created = timeNow()
	}
	t.Created, t.Version = normTime(t.Created), 1
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO tournaments (id, data, version, created, finished) VALUES (?, ?, ?, ?, ?)`),
			t.ID, string(t.Data), t.Version, s.d.timeArg(t.Created), t.Finished)
		if isUnique(err) {
			return fmt.Errorf("%w: an event with this ID exists (%w)", ErrConflict, err)
		}
		if err != nil {
			return s.explain(err)
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteTournament, Table: t.ID, Seq: t.Version})
	})
	if err != nil {
		return fail(err)
	}
	return nil
}

const tournamentCols = `id, data, version, created, finished`

func scanTournament(sc interface{ Scan(...any) error }) (*Tournament, error) {
	var (
		t       Tournament
		data    string
		created dbTime
	)
	if err := sc.Scan(&t.ID, &data, &t.Version, &created, &t.Finished); err != nil {
		return nil, err
	}
	t.Data, t.Created = json.RawMessage(data), created.t
	return &t, nil
}

// Tournament implements Store.
func (s *sqlStore) Tournament(ctx context.Context, id string) (*Tournament, error) {
	var t *Tournament
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		t, err = scanTournament(tx.QueryRowContext(ctx, s.d.q(`SELECT `+tournamentCols+` FROM tournaments WHERE id = ?`), id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return s.explain(err)
	})
	if err != nil {
		return nil, fmt.Errorf("store: read event %s: %w", id, err)
	}
	return t, nil
}

// Tournaments implements Store.
func (s *sqlStore) Tournaments(ctx context.Context, unfinished bool) ([]*Tournament, error) {
	q := `SELECT ` + tournamentCols + ` FROM tournaments`
	if unfinished {
		q += ` WHERE NOT finished`
	}
	q += ` ORDER BY created, id`
	var out []*Tournament
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(q))
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanTournament(rows)
			if err != nil {
				return s.explain(err)
			}
			out = append(out, t)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: list events: %w", err)
	}
	return out, nil
}

// UpdateTournament implements Store.
func (s *sqlStore) UpdateTournament(ctx context.Context, t *Tournament) error {
	fail := func(err error) error { return fmt.Errorf("store: update event %s: %w", t.ID, err) }
	if err := validJSON("event", t.Data, false); err != nil {
		return fail(err)
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.q(`UPDATE tournaments SET data = ?, version = version + 1, finished = ? WHERE id = ? AND version = ?`),
			string(t.Data), t.Finished, t.ID, t.Version)
		if err != nil {
			return s.explain(err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return s.explain(err)
		} else if n == 0 {
			var v int
			err := tx.QueryRowContext(ctx, s.d.q(`SELECT version FROM tournaments WHERE id = ?`), t.ID).Scan(&v)
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			if err != nil {
				return s.explain(err)
			}
			return fmt.Errorf("%w: the event is at version %d, not %d", ErrConflict, v, t.Version)
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteTournament, Table: t.ID, Seq: t.Version + 1})
	})
	if err != nil {
		return fail(err)
	}
	t.Version++
	return nil
}

// TournamentPlayer is an event a signed-in player joined.
type TournamentPlayer struct {
	Tournament string
	Entry      int
	Joined     time.Time
}

// AddTournamentPlayer implements Store.
func (s *sqlStore) AddTournamentPlayer(ctx context.Context, account, tournament string, entry int) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO tournament_players (account, tournament, entry, joined) VALUES (?, ?, ?, ?)
			ON CONFLICT (account, tournament) DO NOTHING`), account, tournament, entry, s.d.timeArg(normTime(timeNow())))
		return s.explain(err)
	})
	if err != nil {
		return fmt.Errorf("store: record a player of event %s: %w", tournament, err)
	}
	return nil
}

// TournamentsOf implements Store.
func (s *sqlStore) TournamentsOf(ctx context.Context, account string, limit int) ([]TournamentPlayer, error) {
	var out []TournamentPlayer
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT tournament, entry, joined FROM tournament_players WHERE account = ?
			ORDER BY joined DESC, tournament LIMIT ?`), account, limit)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var p TournamentPlayer
			var joined dbTime
			if err := rows.Scan(&p.Tournament, &p.Entry, &joined); err != nil {
				return s.explain(err)
			}
			p.Joined = joined.t
			out = append(out, p)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: list the events of an account: %w", err)
	}
	return out, nil
}
