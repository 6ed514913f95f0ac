package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"pitch/rating"
)

// RatedSeat is one seat of a finished rated match (RatedMatch).
type RatedSeat struct {
	Seat    int
	Account string        // the account that held the seat; "" for a bot
	Bot     rating.Rating // a bot's fixed rating (rating.Bot), when Account is ""
	// The seat's match, kept for the profile: hands played, auctions won,
	// of those set, moons bid, and its final score.
	Hands, Bids, Sets, Moons, Points int
}

// RatedMatch is a finished rated match to rate (Ratings.RateMatch).
type RatedMatch struct {
	Table    string
	Variant  string
	Standing rating.Standing // rating.RankMatch
	Seats    []RatedSeat     // one a seat, in seat order
	At       time.Time       // zero means now
}

// RatingChange is what one match did to an account's rating.
type RatingChange struct {
	Seat    int           `json:"seat"`
	Account string        `json:"-"`
	Before  rating.Rating `json:"before"`
	After   rating.Rating `json:"after"`
}

// PlayerRating is an account's rating in one game with its record.
type PlayerRating struct {
	Variant    string
	Rating     rating.Rating
	Matches    int
	Wins       int
	LastPlayed time.Time
	// Sums over its rated matches (rating_history).
	Hands, Bids, Sets, Moons, Points int
}

// RatingPoint is an account's rating after one rated match.
type RatingPoint struct {
	Table   string
	Variant string
	At      time.Time
	Place   int // 1 for the winners
	Won     bool
	Before  rating.Rating
	After   rating.Rating
	Points  int // the seat's final score
}

// LeaderRow is one line of a leaderboard.
type LeaderRow struct {
	Name    string
	Rating  rating.Rating
	Matches int
	Wins    int
}

// Ratings is the part of the store that keeps ratings (docs/ratings.md).
type Ratings interface {
	// RateMatch rates a finished rated match exactly once, however many
	// processes call it: the first call rates every account's seat (bots
	// keep their fixed ratings) in one transaction and returns the
	// changes; a later call changes nothing and returns the stored
	// changes with ErrConflict.
	RateMatch(ctx context.Context, m RatedMatch) ([]RatingChange, error)
	// MatchRatings returns the stored changes of a rated table, by seat
	// (none before it is rated).
	MatchRatings(ctx context.Context, table string) ([]RatingChange, error)
	// PlayerRatings returns an account's rating in every game it has
	// played rated.
	PlayerRatings(ctx context.Context, account string) ([]PlayerRating, error)
	// RatingHistory returns an account's last limit rated matches of a
	// game ("" for every game), oldest first.
	RatingHistory(ctx context.Context, account, variant string, limit int) ([]RatingPoint, error)
	// Leaderboard returns a page of a game's leaderboard: the accounts
	// whose rating is not provisional and who played since since, best
	// first, from offset, at most limit, and whether more follow.
	Leaderboard(ctx context.Context, variant string, since time.Time, offset, limit int) ([]LeaderRow, bool, error)
}

// RateMatch implements Ratings.
func (s *sqlStore) RateMatch(ctx context.Context, m RatedMatch) ([]RatingChange, error) {
	if m.Table == "" || m.Variant == "" || len(m.Seats) == 0 {
		return nil, fmt.Errorf("store: rate match: table %q, variant %q, %d seats: all are needed", m.Table, m.Variant, len(m.Seats))
	}
	at := m.At
	if at.IsZero() {
		at = timeNow()
	}
	model := rating.Default()
	var changes []RatingChange
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		changes = nil
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO rated_matches (table_id, rated_at) VALUES (?, ?)`), m.Table, s.d.timeArg(at))
		if isUnique(err) {
			return ErrConflict
		}
		if err != nil {
			return s.explain(err)
		}
		// Lock the accounts' rows in one order, so that two matches ending
		// together in two processes cannot deadlock.
		var accounts []string
		for _, st := range m.Seats {
			if st.Account != "" && !slices.Contains(accounts, st.Account) {
				accounts = append(accounts, st.Account)
			}
		}
		slices.Sort(accounts)
		cur := map[string]rating.Rating{}
		for _, a := range accounts {
			n := model.New()
			if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO ratings (account_id, variant, mu, sigma, last_played) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
				a, m.Variant, n.Mu, n.Sigma, s.d.timeArg(at)); err != nil {
				return s.explain(err)
			}
			var r rating.Rating
			if err := tx.QueryRowContext(ctx, s.d.q(`SELECT mu, sigma FROM ratings WHERE account_id = ? AND variant = ?`+s.d.forUpdate), a, m.Variant).Scan(&r.Mu, &r.Sigma); err != nil {
				return s.explain(err)
			}
			cur[a] = r
		}
		before := make([]rating.Rating, len(m.Seats))
		for i, st := range m.Seats {
			if st.Seat != i {
				return fmt.Errorf("store: rate match %s: seat %d given as seat %d", m.Table, st.Seat, i)
			}
			before[i] = st.Bot
			if st.Account != "" {
				before[i] = cur[st.Account]
			}
		}
		after, err := model.RateMatch(m.Standing, before)
		if err != nil {
			return fmt.Errorf("store: rate match %s: %w", m.Table, err)
		}
		place := make([]int, len(m.Seats))
		for i, side := range m.Standing.Sides {
			for _, seat := range side {
				place[seat] = int(m.Standing.Ranks[i])
			}
		}
		done := map[string]bool{}
		for i, st := range m.Seats {
			if st.Account == "" || done[st.Account] {
				continue // a bot, or an account's second seat: its first counts
			}
			done[st.Account] = true
			won := place[i] == 1
			if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE ratings SET mu = ?, sigma = ?, matches = matches + 1, wins = wins + ?, last_played = ? WHERE account_id = ? AND variant = ?`),
				after[i].Mu, after[i].Sigma, b2i(won), s.d.timeArg(at), st.Account, m.Variant); err != nil {
				return s.explain(err)
			}
			if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO rating_history (account_id, variant, table_id, seat, at, place, won, mu_before, sigma_before, mu, sigma, hands, bids, sets, moons, points)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
				st.Account, m.Variant, m.Table, i, s.d.timeArg(at), place[i], won, before[i].Mu, before[i].Sigma, after[i].Mu, after[i].Sigma,
				st.Hands, st.Bids, st.Sets, st.Moons, st.Points); err != nil {
				return s.explain(err)
			}
			changes = append(changes, RatingChange{Seat: i, Account: st.Account, Before: before[i], After: after[i]})
		}
		return nil
	})
	if errors.Is(err, ErrConflict) {
		stored, rerr := s.MatchRatings(ctx, m.Table)
		if rerr != nil {
			return nil, rerr
		}
		return stored, fmt.Errorf("store: match %s is rated already: %w", m.Table, ErrConflict)
	}
	if err != nil {
		return nil, err
	}
	return changes, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MatchRatings implements Ratings.
func (s *sqlStore) MatchRatings(ctx context.Context, table string) ([]RatingChange, error) {
	var out []RatingChange
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT seat, account_id, mu_before, sigma_before, mu, sigma FROM rating_history WHERE table_id = ? ORDER BY seat`), table)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var c RatingChange
			if err := rows.Scan(&c.Seat, &c.Account, &c.Before.Mu, &c.Before.Sigma, &c.After.Mu, &c.After.Sigma); err != nil {
				return err
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}

// PlayerRatings implements Ratings.
func (s *sqlStore) PlayerRatings(ctx context.Context, account string) ([]PlayerRating, error) {
	var out []PlayerRating
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT r.variant, r.mu, r.sigma, r.matches, r.wins, r.last_played,
			COALESCE(SUM(h.hands), 0), COALESCE(SUM(h.bids), 0), COALESCE(SUM(h.sets), 0), COALESCE(SUM(h.moons), 0), COALESCE(SUM(h.points), 0)
			FROM ratings r LEFT JOIN rating_history h ON h.account_id = r.account_id AND h.variant = r.variant
			WHERE r.account_id = ? GROUP BY r.variant, r.mu, r.sigma, r.matches, r.wins, r.last_played ORDER BY r.variant`), account)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var p PlayerRating
			var last dbTime
			if err := rows.Scan(&p.Variant, &p.Rating.Mu, &p.Rating.Sigma, &p.Matches, &p.Wins, &last, &p.Hands, &p.Bids, &p.Sets, &p.Moons, &p.Points); err != nil {
				return err
			}
			p.LastPlayed = last.t
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

// RatingHistory implements Ratings.
func (s *sqlStore) RatingHistory(ctx context.Context, account, variant string, limit int) ([]RatingPoint, error) {
	if limit <= 0 {
		return nil, nil
	}
	var out []RatingPoint
	err := s.read(ctx, func(tx *sql.Tx) error {
		q := `SELECT table_id, variant, at, place, won, mu_before, sigma_before, mu, sigma, points FROM rating_history WHERE account_id = ?`
		args := []any{account}
		if variant != "" {
			q += ` AND variant = ?`
			args = append(args, variant)
		}
		q += ` ORDER BY at DESC, table_id DESC LIMIT ?`
		rows, err := tx.QueryContext(ctx, s.d.q(q), append(args, limit)...)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var p RatingPoint
			var at dbTime
			if err := rows.Scan(&p.Table, &p.Variant, &at, &p.Place, &p.Won, &p.Before.Mu, &p.Before.Sigma, &p.After.Mu, &p.After.Sigma, &p.Points); err != nil {
				return err
			}
			p.At = at.t
			out = append(out, p)
		}
		return rows.Err()
	})
	slices.Reverse(out)
	return out, err
}

// leaderboardQuery lists settled, active ratings best first. Its sigma
// bound is the literal of the ratings_board index's WHERE (migration
// 0010), so that SQLite uses that partial index; TestLeaderboardBound
// checks that it is rating.ProvisionalSigma.
const leaderboardQuery = `SELECT a.name, r.mu, r.sigma, r.matches, r.wins FROM ratings r JOIN accounts a ON a.id = r.account_id
	WHERE r.variant = ? AND r.sigma <= 5.0 AND r.last_played >= ? AND NOT a.disabled
	ORDER BY r.mu DESC, r.account_id LIMIT ? OFFSET ?`

// Leaderboard implements Ratings.
func (s *sqlStore) Leaderboard(ctx context.Context, variant string, since time.Time, offset, limit int) ([]LeaderRow, bool, error) {
	if offset < 0 || limit <= 0 {
		return nil, false, fmt.Errorf("store: leaderboard: offset %d, limit %d: the offset is 0 or more and the limit above 0", offset, limit)
	}
	var out []LeaderRow
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(leaderboardQuery), variant, s.d.timeArg(since), limit+1, offset)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var r LeaderRow
			if err := rows.Scan(&r.Name, &r.Rating.Mu, &r.Rating.Sigma, &r.Matches, &r.Wins); err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, false, err
	}
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}
