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
	// PairLimit, when above 0, is how many rated matches of the game two
	// accounts may play together in a UTC day (docs/ratings.md): when a
	// pair of the match's accounts has played that many on At's day
	// already, RateMatch rates nothing and returns ErrPairLimit.
	PairLimit int
}

// ErrPairLimit is returned by RateMatch for a match two of whose accounts
// have played RatedMatch.PairLimit rated matches of the game together on
// its UTC day already: the match is played unrated.
var ErrPairLimit = errors.New("store: these accounts have played their rated matches together today")

// utcDay is the UTC day that holds at: its start and the next day's.
func utcDay(at time.Time) (time.Time, time.Time) {
	y, m, d := at.UTC().Date()
	start := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return start, start.AddDate(0, 0, 1)
}

// pairsQuery counts the rated matches of a game (other than one table)
// in which two accounts both had a seat, in a span of time.
const pairsQuery = `SELECT COUNT(*) FROM rating_history a JOIN rating_history b ON b.table_id = a.table_id
	WHERE a.account_id = ? AND b.account_id = ? AND a.variant = ? AND a.at >= ? AND a.at < ? AND a.table_id <> ?`

// mostPaired returns the most rated matches of variant that any two of
// accounts played together on at's UTC day, apart from table.
func (s *sqlStore) mostPaired(ctx context.Context, tx *sql.Tx, accounts []string, variant, table string, at time.Time) (int, error) {
	start, end := utcDay(at)
	most := 0
	for i, a := range accounts {
		for _, b := range accounts[i+1:] {
			var n int
			if err := tx.QueryRowContext(ctx, s.d.q(pairsQuery), a, b, variant, s.d.timeArg(start), s.d.timeArg(end), table).Scan(&n); err != nil {
				return 0, s.explain(err)
			}
			most = max(most, n)
		}
	}
	return most, nil
}

// RatedTogether implements Ratings.
func (s *sqlStore) RatedTogether(ctx context.Context, accounts []string, variant string, at time.Time) (int, error) {
	var most int
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		most, err = s.mostPaired(ctx, tx, accounts, variant, "", at)
		return err
	})
	return most, err
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
	Seat    int
	// The seat's match: hands played, auctions won, of those set, moons
	// bid, and its final score.
	Hands, Bids, Sets, Moons, Points int
}

// LeaderRow is one line of a leaderboard.
type LeaderRow struct {
	Name    string
	Account string // the account's ID; with Rating.Mu, the row's place (LeaderKey)
	Rating  rating.Rating
	// Ordinal is the conservative rating the board ranks by, mu − 3σ
	// (rating.Model.Ordinal) as the database computes it (ratings.ordinal),
	// so that a row's key is exactly its place.
	Ordinal float64
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
	// RatedTogether returns the most rated matches of a game that any two
	// of accounts played together on at's UTC day (the pair bound,
	// RatedMatch.PairLimit).
	RatedTogether(ctx context.Context, accounts []string, variant string, at time.Time) (int, error)
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
	// whose rating is not provisional, that are not disabled and that
	// played a rated match since q.Since, best first. It pages by place
	// (LeaderKey), never by an offset, so that every page costs about the
	// same (docs/ratings.md).
	Leaderboard(ctx context.Context, q LeaderQuery) (LeaderPage, error)
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
			// ratings.disabled is a copy of accounts.disabled (SetDisabled).
			if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO ratings (account_id, variant, mu, sigma, last_played, disabled)
				SELECT id, ?, ?, ?, ?, disabled FROM accounts WHERE id = ? ON CONFLICT DO NOTHING`),
				m.Variant, n.Mu, n.Sigma, s.d.timeArg(at), a); err != nil {
				return s.explain(err)
			}
			var r rating.Rating
			if err := tx.QueryRowContext(ctx, s.d.q(`SELECT mu, sigma FROM ratings WHERE account_id = ? AND variant = ?`+s.d.forUpdate), a, m.Variant).Scan(&r.Mu, &r.Sigma); err != nil {
				return s.explain(err)
			}
			cur[a] = r
		}
		// The pair bound, counted once the accounts are locked, so that
		// two matches of one pair ending together are counted in turn.
		if m.PairLimit > 0 {
			most, err := s.mostPaired(ctx, tx, accounts, m.Variant, m.Table, at)
			if err != nil {
				return err
			}
			if most >= m.PairLimit {
				return fmt.Errorf("store: rate match %s: %d rated matches of %s together on %s already, the most a day is %d: %w",
					m.Table, most, m.Variant, at.UTC().Format(time.DateOnly), m.PairLimit, ErrPairLimit)
			}
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
		bots := make([]bool, len(m.Seats))
		for i, st := range m.Seats {
			bots[i] = st.Account == ""
		}
		// A match against bots alone lifts a rating no further than
		// the bots' ceiling (rating.Model.BotCeiling).
		after, err := model.RateMatchBots(m.Standing, before, bots)
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
		q := `SELECT table_id, variant, at, place, won, mu_before, sigma_before, mu, sigma, seat, hands, bids, sets, moons, points FROM rating_history WHERE account_id = ?`
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
			if err := rows.Scan(&p.Table, &p.Variant, &at, &p.Place, &p.Won, &p.Before.Mu, &p.Before.Sigma, &p.After.Mu, &p.After.Sigma, &p.Seat, &p.Hands, &p.Bids, &p.Sets, &p.Moons, &p.Points); err != nil {
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

// boardWhere picks a game's settled, active ratings of accounts that are
// not disabled (ratings r): its arguments are the game and the first time
// that counts as active. Its sigma bound and NOT r.disabled are the
// ratings_board index's WHERE (migrations 0012, 0013), so that SQLite uses that
// partial index; TestLeaderboardBound checks that the bound is
// rating.ProvisionalSigma.
const boardWhere = `r.variant = ? AND r.sigma <= 5.0 AND NOT r.disabled AND r.last_played >= ?`

// The board's order is (ordinal descending, account ID ascending): the
// ordinal is mu − 3σ (migration 0013), below called mu for short. Each page
// is one statement (no transaction: a statement reads one snapshot in
// both databases): the rows from a key, in the board's order or against
// it, at most a page and one more, each with a count from the
// ratings_board index alone that gives the page's rank. A place after a
// key is mu <= k AND (mu < k OR id > kid), before it mu >= k AND (mu > k
// OR id < kid): the plain bound on mu lets both databases start the index
// scan at the key. CROSS JOIN makes SQLite read ratings first, in the
// index's order (PostgreSQL plans it as an inner join).
const (
	boardAfter  = ` AND r.ordinal <= ? AND (r.ordinal < ? OR r.account_id > ?)`
	boardBefore = ` AND r.ordinal >= ? AND (r.ordinal > ? OR r.account_id < ?)`
	boardFrom   = ` FROM ratings r CROSS JOIN accounts a WHERE a.id = r.account_id AND ` + boardWhere
	boardDown   = ` ORDER BY r.ordinal DESC, r.account_id LIMIT ?`
	boardUp     = ` ORDER BY r.ordinal, r.account_id DESC LIMIT ?`
	boardCols   = `SELECT a.name, r.account_id, r.mu, r.sigma, r.ordinal, r.matches, r.wins, `
	// boardCount counts the board's rows; boardAbove those of a higher mu
	// than a key; boardTied those of its mu and a lower ID, boardTiedTo
	// up to the key's own. Each takes boardWhere's arguments, then the
	// key's mu (and ID). boardBelow is 1 if the key's row or one after it
	// is on the board (boardWhere's arguments, the key's mu twice, its
	// ID).
	boardCount  = `(SELECT COUNT(*) FROM ratings r WHERE ` + boardWhere
	boardAbove  = boardCount + ` AND r.ordinal > ?)`
	boardTied   = boardCount + ` AND r.ordinal = ? AND r.account_id < ?)`
	boardTiedTo = boardCount + ` AND r.ordinal = ? AND r.account_id <= ?)`
	boardBelow  = `CASE WHEN EXISTS (SELECT 1 FROM ratings r WHERE ` + boardWhere + ` AND r.ordinal <= ? AND (r.ordinal < ? OR r.account_id >= ?)) THEN 1 ELSE 0 END`
)

// LeaderKey is a place on a leaderboard: a rating's conservative value
// (LeaderRow.Ordinal) and its account's ID. The board is in the order of
// its keys: the ordinal descending, then the ID ascending.
type LeaderKey struct {
	Ordinal float64
	Account string
}

// LeaderQuery asks for a page of a game's leaderboard
// (Ratings.Leaderboard). At most one of After, Before and Last is set;
// none asks for the first page.
type LeaderQuery struct {
	Variant string
	Since   time.Time // the accounts that played a rated match since then
	Limit   int       // rows a page, above 0
	// After asks for the rows just after a key (the next page; the last
	// page when none follow it), Before for those just before it (the
	// previous page; the first page when fewer than Limit rows come
	// before it), Last for the last page. A key need not be on the board
	// (any more): the page is where it would be.
	After, Before *LeaderKey
	Last          bool
}

// LeaderPage is a page of a leaderboard.
type LeaderPage struct {
	Rows []LeaderRow
	// Rank is the first row's rank, 1 for the best (1 for an empty
	// page: the board is empty).
	Rank int
	More bool // rows follow the page
}

// Leaderboard implements Ratings.
func (s *sqlStore) Leaderboard(ctx context.Context, q LeaderQuery) (LeaderPage, error) {
	set := 0
	for _, b := range []bool{q.After != nil, q.Before != nil, q.Last} {
		set += b2i(b)
	}
	if q.Limit <= 0 || set > 1 || q.Variant == "" {
		return LeaderPage{}, fmt.Errorf("store: leaderboard: game %q, limit %d, %d of after, before and last: a game, a limit above 0 and at most one place are needed", q.Variant, q.Limit, set)
	}
	n := q.Limit
	since := s.d.timeArg(q.Since)
	where := []any{q.Variant, since}
	if k := q.After; k != nil {
		// The rank: the rows ahead of the key, and the key's own row.
		cols := boardAbove + ` + ` + boardTiedTo + `, 0`
		args := slices.Concat(where, []any{k.Ordinal}, where, []any{k.Ordinal, k.Account}, where, []any{k.Ordinal, k.Ordinal, k.Account, n + 1})
		rows, ahead, _, err := s.boardPage(ctx, boardCols+cols+boardFrom+boardAfter+boardDown, args)
		if err != nil || len(rows) > 0 {
			more := len(rows) > n
			return LeaderPage{Rows: rows[:min(n, len(rows))], Rank: ahead + 1, More: more}, err
		}
		// Nothing after the key (a stale link): the last page.
	}
	if k := q.Before; k != nil {
		// The rank: the rows ahead of the key less the page's; and
		// whether the key's row or one below it is on the board.
		cols := boardAbove + ` + ` + boardTied + `, ` + boardBelow
		args := slices.Concat(where, []any{k.Ordinal}, where, []any{k.Ordinal, k.Account}, where, []any{k.Ordinal, k.Ordinal, k.Account},
			where, []any{k.Ordinal, k.Ordinal, k.Account, n + 1})
		rows, ahead, below, err := s.boardPage(ctx, boardCols+cols+boardFrom+boardBefore+boardUp, args)
		if err != nil || len(rows) > n {
			rows = rows[:min(n, len(rows))]
			slices.Reverse(rows)
			return LeaderPage{Rows: rows, Rank: ahead - n + 1, More: below > 0}, err
		}
		// Less than a page before the key: the first page.
		return s.boardFirst(ctx, q)
	}
	if q.Last || q.After != nil {
		rows, size, _, err := s.boardPage(ctx, boardCols+boardCount+`), 0`+boardFrom+boardUp, slices.Concat(where, where, []any{n}))
		slices.Reverse(rows)
		return LeaderPage{Rows: rows, Rank: max(1, size-len(rows)+1)}, err
	}
	return s.boardFirst(ctx, q)
}

// Key is the row's place on the board.
func (r LeaderRow) Key() LeaderKey { return LeaderKey{Ordinal: r.Ordinal, Account: r.Account} }

// boardFirst reads the first page.
func (s *sqlStore) boardFirst(ctx context.Context, q LeaderQuery) (LeaderPage, error) {
	rows, _, _, err := s.boardPage(ctx, boardCols+`0, 0`+boardFrom+boardDown, []any{q.Variant, s.d.timeArg(q.Since), q.Limit + 1})
	more := len(rows) > q.Limit
	return LeaderPage{Rows: rows[:min(q.Limit, len(rows))], Rank: 1, More: more}, err
}

// boardPage runs a page's statement: its rows, and the two counts every
// row carries (0 for none).
func (s *sqlStore) boardPage(ctx context.Context, query string, args []any) ([]LeaderRow, int, int, error) {
	rows, err := s.r.QueryContext(ctx, s.d.q(query), args...)
	if err != nil {
		return nil, 0, 0, s.explain(err)
	}
	defer rows.Close()
	var out []LeaderRow
	var c1, c2 int
	for rows.Next() {
		var r LeaderRow
		if err := rows.Scan(&r.Name, &r.Account, &r.Rating.Mu, &r.Rating.Sigma, &r.Ordinal, &r.Matches, &r.Wins, &c1, &c2); err != nil {
			return nil, 0, 0, err
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, 0, s.explain(err)
	}
	return out, c1, c2, nil
}
