package ratings

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pitch"
	"pitch/account"
	"pitch/bot"
	"pitch/rating"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/store"
)

// Accounts finds an account by its name's key (store.Accounts).
type Accounts interface {
	AccountByName(ctx context.Context, key string) (*store.Account, error)
}

// Store is what the ratings' pages read: accounts, and the ratings
// stored of rated matches (store.Store).
type Store interface {
	Accounts
	PlayerRatings(ctx context.Context, account string) ([]store.PlayerRating, error)
	RatingHistory(ctx context.Context, account, variant string, limit int) ([]store.RatingPoint, error)
	Leaderboard(ctx context.Context, q store.LeaderQuery) (store.LeaderPage, error)
}

// Config is what an API needs.
type Config struct {
	Store Store
	// Log gets the errors answered with 5xx; nil discards them.
	Log *slog.Logger
}

// API serves GET /api/ratings/bots, /api/users/{name} and
// /api/leaderboard.
type API struct {
	store Store
	log   *slog.Logger
}

// New returns the ratings' API over c.Store.
func New(c Config) *API {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return &API{store: c.Store, log: c.Log}
}

// Routes lists the routes this part serves, each marked with whether
// it serves table, hand or event data (then its handler asks the
// access policy).
func (s *API) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Get("/api/ratings/bots", s.handleBotRatings),
		httpx.GetData("/api/users/{name}", s.handleUser),
		httpx.Get("/api/leaderboard", s.handleLeaderboard),
	}
}

// writeError logs err (server side detail) and answers with the client's part.
func (s *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.log, w, r, err)
}

// handleBotRatings answers GET /api/ratings/bots: every game's bot
// levels with their fixed ratings, for the lobby.
func (s *API) handleBotRatings(w http.ResponseWriter, r *http.Request) {
	out := map[string]map[string]Shown{}
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		out[v.String()] = map[string]Shown{}
		for _, l := range bot.Levels {
			if j := Bot(v.String(), l); j != nil {
				out[v.String()][l] = *j
			}
		}
	}
	httpx.WriteJSON(w, 200, out)
}

// profileGame is one game's part of a profile.
type profileGame struct {
	Game string `json:"game"`
	Shown
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
	Shown
	Change int `json:"change"`
}

// profileHistory is how many rated matches a profile's chart shows, per
// game; recentMatches how many the list of recent matches shows.
const (
	profileHistory = 500
	recentMatches  = 20
)

// ProfileAccount finds the account of a /api/users/{name} request: a
// disabled or unknown name is answered with 404 no_such_user, a store
// failure with 503 (logged on log), and ok is false when an answer was
// written.
func ProfileAccount(st Accounts, log *slog.Logger, w http.ResponseWriter, r *http.Request, op string) (*store.Account, bool) {
	name := r.PathValue("name")
	a, err := st.AccountByName(r.Context(), account.Key(name))
	if errors.Is(err, store.ErrNotFound) || (err == nil && a.Disabled) {
		httpx.WriteError(log, w, r, httpx.Errorf(httpx.NotFound, op, "there is no player called %q", name).With("no_such_user", map[string]any{"Name": name}))
		return nil, false
	}
	if err != nil {
		httpx.WriteError(log, w, r, httpx.StoreDown(op, err))
		return nil, false
	}
	return a, true
}

// handleUser answers GET /api/users/{name}: a player's ratings, record,
// rating history and recent rated matches (/u/NAME shows it).
func (s *API) handleUser(w http.ResponseWriter, r *http.Request) {
	const op = "user"
	a, ok := ProfileAccount(s.store, s.log, w, r, op)
	if !ok {
		return
	}
	if d := access.Ask(r.Context(), access.Profile, access.Viewer{}, access.Subject{Owner: a.ID}); !d.Allowed {
		s.writeError(w, r, httpx.Refused(op, d))
		return
	}
	prs, err := s.store.PlayerRatings(r.Context(), a.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	out := struct {
		Name    string            `json:"name"`
		Ratings []profileGame     `json:"ratings"`
		Recent  []recentMatchJSON `json:"recent"`
	}{Name: a.Name, Ratings: []profileGame{}, Recent: []recentMatchJSON{}}
	for _, p := range prs {
		g := profileGame{Game: p.Variant, Shown: ShownOf(p.Rating), Matches: p.Matches, Wins: p.Wins,
			Hands: p.Hands, Bids: p.Bids, Sets: p.Sets, Moons: p.Moons, Points: p.Points, History: []historyPointJS{}}
		h, err := s.store.RatingHistory(r.Context(), a.ID, p.Variant, profileHistory)
		if err != nil {
			s.writeError(w, r, httpx.StoreDown(op, err))
			return
		}
		for _, pt := range h {
			g.History = append(g.History, historyPointJS{At: pt.At, Rating: rating.Shown(pt.After)})
		}
		out.Ratings = append(out.Ratings, g)
	}
	recent, err := s.store.RatingHistory(r.Context(), a.ID, "", recentMatches)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	for i := len(recent) - 1; i >= 0; i-- { // newest first
		p := recent[i]
		out.Recent = append(out.Recent, recentMatchJSON{Table: p.Table, Game: p.Variant, At: p.At, Place: p.Place, Won: p.Won,
			Shown: ShownOf(p.After), Change: rating.Shown(p.After) - rating.Shown(p.Before)})
	}
	httpx.WriteJSON(w, 200, out)
}

// leaderboardActive is how recently a player must have played a rated
// match to be on the leaderboard.
const leaderboardActive = 90 * 24 * time.Hour

// A leaderboard cursor is a place on the board: a rating's ordinal,
// mu − 3σ, the board's order (exactly,
// as Go formats a float64 shortest) and the account's ID, joined by "_"
// ("31.25_AbC-dEf"). A page gives the cursors of its first and last rows
// as prev and next; the ID is the random, URL-safe account ID, which
// grants nothing.
func leaderCursor(k store.LeaderKey) string {
	return strconv.FormatFloat(k.Ordinal, 'g', -1, 64) + "_" + k.Account
}

// parseLeaderCursor reads a cursor; false for one that is not one.
func parseLeaderCursor(c string) (store.LeaderKey, bool) {
	mu, id, ok := strings.Cut(c, "_")
	f, err := strconv.ParseFloat(mu, 64)
	if !ok || err != nil || math.IsNaN(f) || math.IsInf(f, 0) || id == "" || len(id) > 64 {
		return store.LeaderKey{}, false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return store.LeaderKey{}, false
		}
	}
	return store.LeaderKey{Ordinal: f, Account: id}, true
}

// handleLeaderboard answers GET /api/leaderboard?game=G[&after=C |
// &before=C | &last=1][&limit=N]: a page of a game's settled, active
// players, best (highest conservative rating, mu − 3σ) first, paged by place (docs/ratings.md): the first page,
// the one after or before a cursor (a page's next and prev), or the last.
func (s *API) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	const op = "leaderboard"
	q := r.URL.Query()
	v, err := pitch.ParseVariant(q.Get("game"))
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "game=%q: %v", q.Get("game"), err).With("bad_game", map[string]any{"Game": q.Get("game")}))
		return
	}
	bad := func(name, format string, args ...any) {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, format, args...).With("bad_page", map[string]any{"Name": name}))
	}
	lq := store.LeaderQuery{Variant: v.String(), Since: time.Now().Add(-leaderboardActive), Limit: 50}
	if x := q.Get("limit"); x != "" {
		n, err := strconv.Atoi(x)
		if err != nil || n < 1 || n > 100 {
			bad("limit", "limit=%q: the limit is a number from 1 to 100", x)
			return
		}
		lq.Limit = n
	}
	if x := q.Get("offset"); x != "" && x != "0" {
		bad("offset", "offset=%q: the leaderboard is paged by place, not by offset: give after= or before= with a page's next or prev, or last=1", x)
		return
	}
	places := 0
	for _, k := range []string{"after", "before", "last"} {
		if q.Has(k) {
			places++
		}
	}
	if places > 1 {
		bad("after", "give at most one of after=, before= and last=")
		return
	}
	for k, p := range map[string]**store.LeaderKey{"after": &lq.After, "before": &lq.Before} {
		if !q.Has(k) {
			continue
		}
		key, ok := parseLeaderCursor(q.Get(k))
		if !ok {
			bad(k, "%s=%q is not a place on the leaderboard: give a page's next (after=) or prev (before=) as it is, a rating's exact number, \"_\" and an account's ID (letters, digits, \"-\" and \"_\", at most 64)", k, q.Get(k))
			return
		}
		*p = &key
	}
	if q.Has("last") {
		if x := q.Get("last"); x != "1" && x != "true" {
			bad("last", "last=%q: last=1 asks for the last page", x)
			return
		}
		lq.Last = true
	}
	page, err := s.store.Leaderboard(r.Context(), lq)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	type row struct {
		Rank   int    `json:"rank"`
		Name   string `json:"name"`
		Rating int    `json:"rating"`
		// Floor is what the board ranks by, the conservative rating
		// mu − 3σ, as shown (× rating.Scale, rounded).
		Floor   int `json:"floor"`
		Matches int `json:"matches"`
		Wins    int `json:"wins"`
	}
	out := struct {
		Game  string `json:"game"`
		Limit int    `json:"limit"`
		Rank  int    `json:"rank"` // the first row's
		More  bool   `json:"more"`
		Prev  string `json:"prev"` // before= for the page above ("" on the first page)
		Next  string `json:"next"` // after= for the page below ("" on the last page)
		Rows  []row  `json:"rows"`
	}{Game: v.String(), Limit: lq.Limit, Rank: page.Rank, More: page.More, Rows: []row{}}
	for i, lr := range page.Rows {
		out.Rows = append(out.Rows, row{Rank: page.Rank + i, Name: lr.Name, Rating: rating.Shown(lr.Rating),
			Floor: int(math.Round(lr.Ordinal * rating.Scale)), Matches: lr.Matches, Wins: lr.Wins})
	}
	if n := len(page.Rows); n > 0 {
		if page.Rank > 1 {
			out.Prev = leaderCursor(page.Rows[0].Key())
		}
		if page.More {
			out.Next = leaderCursor(page.Rows[n-1].Key())
		}
	}
	httpx.WriteJSON(w, 200, out)
}
