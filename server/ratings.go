package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"pitch"
	"pitch/account"
	"pitch/bot"
	"pitch/rating"
	"pitch/store"
)

// ratingJSON is a rating as people see it (docs/ratings.md): its number
// (rating.Shown) and whether it is provisional.
type ratingJSON struct {
	Rating      int  `json:"rating"`
	Provisional bool `json:"provisional"`
}

func toRatingJSON(r rating.Rating) ratingJSON {
	return ratingJSON{Rating: rating.Shown(r), Provisional: rating.Provisional(r)}
}

// ratingChangeJSON is what a rated match did to one seat's rating.
type ratingChangeJSON struct {
	Seat int `json:"seat"`
	ratingJSON
	Change int `json:"change"` // the shown rating after less before
}

// botRating returns the fixed rating of a bot level in a game, or nil.
func botRating(variant, level string) *ratingJSON {
	r, ok := rating.Bot(variant, level)
	if !ok {
		return nil
	}
	j := toRatingJSON(r)
	return &j
}

// ratingChanges turns stored changes into what the state says.
func ratingChanges(cs []store.RatingChange) []ratingChangeJSON {
	out := make([]ratingChangeJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, ratingChangeJSON{Seat: c.Seat, ratingJSON: toRatingJSON(c.After), Change: rating.Shown(c.After) - rating.Shown(c.Before)})
	}
	return out
}

// rate rates the table's finished rated match (once: the store refuses a
// second rating, from this process or another, and gives back the
// stored changes instead) and keeps the changes for the states. The
// lock must be held.
func (t *table) rate(ctx context.Context) {
	if !t.info.Rated || !t.match.Over() || t.ratings != nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	st, err := rating.RankMatch(t.match)
	if err != nil {
		t.logger().Error("rating: ranking the match", "err", err.Error())
		return
	}
	scores := t.match.State().NewScores()
	m := store.RatedMatch{Table: t.id, Variant: t.info.Variant, Standing: st}
	for i, s := range t.info.Seats {
		rs := store.RatedSeat{Seat: i, Account: s.Account, Hands: len(t.sheet), Points: scores[i]}
		if s.Kind == "bot" || s.Account == "" {
			rs.Account = ""
			level := s.Level
			if s.Kind != "bot" {
				level = "medium" // cannot happen at a rated table: every person is signed in
			}
			rs.Bot, _ = rating.Bot(t.info.Variant, level)
			if rs.Bot.Sigma == 0 {
				rs.Bot = rating.Default().New()
			}
		}
		for _, row := range t.sheet {
			if row.Bidder != i {
				continue
			}
			rs.Bids++
			if !row.Made {
				rs.Sets++
			}
			if moon := t.game.MoonBid(); moon > 0 && row.Bid == moon {
				rs.Moons++
			}
		}
		m.Seats = append(m.Seats, rs)
	}
	changes, err := t.srv.store.RateMatch(sctx, m)
	if err != nil && !errors.Is(err, store.ErrConflict) {
		t.logger().Error("rating: storing the match's ratings", "err", err.Error())
		return
	}
	t.ratings = ratingChanges(changes)
	t.infoVer++
}

// loadRatings reads the changes of a finished rated table loaded from
// the store, and rates it if no process did (one that stopped between
// the last action and the rating). The lock must be held.
func (t *table) loadRatings(ctx context.Context) {
	if !t.info.Rated || !t.match.Over() || t.ratings != nil {
		return
	}
	cs, err := t.srv.store.MatchRatings(ctx, t.id)
	if err != nil {
		t.logger().Warn("rating: reading the match's ratings", "err", err.Error())
		return
	}
	if len(cs) > 0 {
		t.ratings = ratingChanges(cs)
		return
	}
	t.rate(ctx)
}

// handleBotRatings answers GET /api/ratings/bots: every game's bot
// levels with their fixed ratings, for the lobby.
func (s *Server) handleBotRatings(w http.ResponseWriter, r *http.Request) {
	out := map[string]map[string]ratingJSON{}
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		out[v.String()] = map[string]ratingJSON{}
		for _, l := range bot.Levels {
			if j := botRating(v.String(), l); j != nil {
				out[v.String()][l] = *j
			}
		}
	}
	writeJSON(w, 200, out)
}

// profileGame is one game's part of a profile.
type profileGame struct {
	Game string `json:"game"`
	ratingJSON
	Matches int              `json:"matches"`
	Wins    int              `json:"wins"`
	Hands   int              `json:"hands"`
	Bids    int              `json:"bids"`
	Sets    int              `json:"sets"`
	Moons   int              `json:"moons"`
	Points  int              `json:"points"`
	History []historyPointJS `json:"history"` // oldest first
}

type historyPointJS struct {
	At     time.Time `json:"at"`
	Rating int       `json:"rating"`
}

type recentMatchJSON struct {
	Table string    `json:"table"`
	Game  string    `json:"game"`
	At    time.Time `json:"at"`
	Place int       `json:"place"`
	Won   bool      `json:"won"`
	ratingJSON
	Change int `json:"change"`
}

// profileHistory is how many rated matches a profile's chart shows, per
// game; recentMatches how many the list of recent matches shows.
const (
	profileHistory = 500
	recentMatches  = 20
)

// handleUser answers GET /api/users/{name}: a player's ratings, record,
// rating history and recent rated matches (/u/NAME shows it).
func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	const op = "user"
	name := r.PathValue("name")
	a, err := s.store.AccountByName(r.Context(), account.Key(name))
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.Disabled) {
		s.writeError(w, r, errorf(NotFound, op, "there is no player called %q", name).with("no_such_user", map[string]any{"Name": name}))
		return
	}
	if err != nil {
		s.writeError(w, r, unavailable(op, err))
		return
	}
	prs, err := s.store.PlayerRatings(r.Context(), a.ID)
	if err != nil {
		s.writeError(w, r, unavailable(op, err))
		return
	}
	out := struct {
		Name    string            `json:"name"`
		Ratings []profileGame     `json:"ratings"`
		Recent  []recentMatchJSON `json:"recent"`
	}{Name: a.Name, Ratings: []profileGame{}, Recent: []recentMatchJSON{}}
	for _, p := range prs {
		g := profileGame{Game: p.Variant, ratingJSON: toRatingJSON(p.Rating), Matches: p.Matches, Wins: p.Wins,
			Hands: p.Hands, Bids: p.Bids, Sets: p.Sets, Moons: p.Moons, Points: p.Points, History: []historyPointJS{}}
		h, err := s.store.RatingHistory(r.Context(), a.ID, p.Variant, profileHistory)
		if err != nil {
			s.writeError(w, r, unavailable(op, err))
			return
		}
		for _, pt := range h {
			g.History = append(g.History, historyPointJS{At: pt.At, Rating: rating.Shown(pt.After)})
		}
		out.Ratings = append(out.Ratings, g)
	}
	recent, err := s.store.RatingHistory(r.Context(), a.ID, "", recentMatches)
	if err != nil {
		s.writeError(w, r, unavailable(op, err))
		return
	}
	for i := len(recent) - 1; i >= 0; i-- { // newest first
		p := recent[i]
		out.Recent = append(out.Recent, recentMatchJSON{Table: p.Table, Game: p.Variant, At: p.At, Place: p.Place, Won: p.Won,
			ratingJSON: toRatingJSON(p.After), Change: rating.Shown(p.After) - rating.Shown(p.Before)})
	}
	writeJSON(w, 200, out)
}

// leaderboardActive is how recently a player must have played a rated
// match to be on the leaderboard.
const leaderboardActive = 90 * 24 * time.Hour

// handleLeaderboard answers GET /api/leaderboard?game=&offset=&limit=: a
// page of a game's settled, active players, best first.
func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	const op = "leaderboard"
	q := r.URL.Query()
	v, err := pitch.ParseVariant(q.Get("game"))
	if err != nil {
		s.writeError(w, r, errorf(Invalid, op, "game=%q: %v", q.Get("game"), err).with("bad_game", map[string]any{"Game": q.Get("game")}))
		return
	}
	offset, limit := 0, 50
	for k, p := range map[string]*int{"offset": &offset, "limit": &limit} {
		if x := q.Get(k); x != "" {
			n, err := strconv.Atoi(x)
			if err != nil || n < 0 || (k == "limit" && (n < 1 || n > 100)) || n > 1_000_000 {
				s.writeError(w, r, errorf(Invalid, op, "%s must be a number (offset 0 or more, limit 1 to 100), not %q", k, x).with("bad_page", map[string]any{"Name": k}))
				return
			}
			*p = n
		}
	}
	rows, more, err := s.store.Leaderboard(r.Context(), v.String(), time.Now().Add(-leaderboardActive), offset, limit)
	if err != nil {
		s.writeError(w, r, unavailable(op, err))
		return
	}
	type row struct {
		Rank    int    `json:"rank"`
		Name    string `json:"name"`
		Rating  int    `json:"rating"`
		Matches int    `json:"matches"`
		Wins    int    `json:"wins"`
	}
	out := struct {
		Game   string `json:"game"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
		More   bool   `json:"more"`
		Rows   []row  `json:"rows"`
	}{Game: v.String(), Offset: offset, Limit: limit, More: more, Rows: []row{}}
	for i, lr := range rows {
		out.Rows = append(out.Rows, row{Rank: offset + i + 1, Name: lr.Name, Rating: rating.Shown(lr.Rating), Matches: lr.Matches, Wins: lr.Wins})
	}
	writeJSON(w, 200, out)
}
