package play

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"pitch/event"
	"pitch/server/httpx"
	"pitch/store"
)

// Daily deals (docs/events.md, Daily deals): each day (UTC) the server
// opens one solo duplicate event per game, of DailyDeals deals with
// DailyBots at the other seats. Anyone may play it once that day: a
// signed-in player by account, a guest by the random identity its
// browser keeps (pitch.daily.guest). The event's ID is the day and the
// game's (daily-20260301-ten-point), so every process finds the same one;
// its round, and so its commitments, is opened when the event is made,
// before anyone can play it. At the end of the day it is closed: once
// its tables have finished, each deal's page shows how the field played.

// The daily events' defaults (Options.DailyDeals, DailyBots).
const (
	DefaultDailyDeals = 8
	// DefaultDailyBots: expert (median 9–21 ms a decision, p99 under
	// 250 ms, docs/bots.md); a daily table has one person, who thinks far
	// longer than its bots, so their cost is small.
	DefaultDailyBots = "expert"
	dailyPast        = 14 // the past days /api/daily lists
	dailyProfileDays = 30 // the days of daily results on a profile
)

// dailyGames are the games of the daily events, in order.
var dailyGames = []string{"ten-point", "auction", "pawnee"}

// dailyData is what a daily event keeps besides the event: who each
// entry is, for one try each.
type dailyData struct {
	Day   string   `json:"day"`    // 2026-03-01 (UTC)
	Owner []string `json:"owners"` // per entry: "a:" and an account's ID, or "g:" and the SHA-256 of a guest's identity
}

// now is the server's clock (Options.Clock, for the tests' days).
func (s *Server) now() time.Time {
	if s.opts.Clock != nil {
		return s.opts.Clock().UTC()
	}
	return time.Now().UTC()
}

// dailyID is the ID of day's daily event of variant.
func dailyID(day time.Time, variant string) string {
	return "daily-" + day.Format("20060102") + "-" + variant
}

// dailySettings are the settings of a daily event of variant: one round
// of the deals, solo, against the server's daily bots; a target no deal
// can reach, so that every table plays every deal (a moon may still end a
// ten-point match).
func (s *Server) dailySettings(variant string) event.Settings {
	deals, bots := s.opts.DailyDeals, s.opts.DailyBots
	if deals <= 0 {
		deals = DefaultDailyDeals
	}
	if bots == "" {
		bots = DefaultDailyBots
	}
	opts := map[string]json.RawMessage{"target": json.RawMessage("10000")}
	if variant == "auction" {
		opts["players"] = json.RawMessage("4")
	}
	return event.Settings{Variant: variant, Options: opts, Rounds: 1, End: event.EndHands, Hands: deals, Movement: event.Duplicate, Solo: true, Bots: bots}
}

// daily returns day's daily event of variant, made and opened (its
// commitments drawn) when open is set and it does not exist yet; else
// a NotFound error. A day that is over is closed.
func (s *Server) daily(ctx context.Context, day time.Time, variant string, open bool) (*liveEvent, error) {
	s.dailyMu.Lock()
	defer s.dailyMu.Unlock()
	id := dailyID(day, variant)
	past := day.Before(s.today())
	if past && s.noDaily[id] {
		// A past day without its event never gets one: only today's are made.
		return nil, httpx.Errorf(httpx.NotFound, "daily", "no daily event %q", id).With("no_event", nil)
	}
	e, err := s.event(ctx, id)
	var ae *httpx.Error
	if errors.As(err, &ae) && ae.Kind == httpx.NotFound && open {
		e, err = s.openDaily(ctx, day, variant)
	}
	if errors.As(err, &ae) && ae.Kind == httpx.NotFound && past {
		if s.noDaily == nil {
			s.noDaily = map[string]bool{}
		}
		s.noDaily[id] = true
	}
	if err != nil {
		return nil, err
	}
	if s.now().After(day.AddDate(0, 0, 1)) {
		s.closeDaily(ctx, e)
	}
	return e, nil
}

// openDaily makes day's daily event of variant and opens its round.
func (s *Server) openDaily(ctx context.Context, day time.Time, variant string) (*liveEvent, error) {
	const op = "daily"
	set := s.dailySettings(variant)
	ev, err := event.New(set, newSeed())
	if err != nil {
		return nil, httpx.Unexpected(op, err)
	}
	e := &liveEvent{id: dailyID(day, variant), d: eventData{Event: ev, Token: [][]byte{}, Tables: [][]string{}, Started: []time.Time{}, EndsAt: []time.Time{},
		Daily: &dailyData{Day: day.Format(time.DateOnly), Owner: []string{}}}}
	e.rec = &store.Tournament{ID: e.id, Data: e.snapshot(), Created: s.now().Truncate(time.Millisecond)}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := s.store.CreateTournament(ctx, e.rec); err != nil {
		// Made by another request or process meanwhile: use theirs.
		if e2, err2 := s.event(ctx, e.id); err2 == nil {
			return e2, nil
		}
		return nil, httpx.StoreDown(op, err)
	}
	// Opened (its commitments drawn and stored) before anyone sees it:
	// startRound registers it.
	if _, _, err := s.startRound(ctx, e); err != nil {
		return nil, err
	}
	return e, nil
}

// closeDaily closes a daily event whose day is over (once).
func (s *Server) closeDaily(ctx context.Context, e *liveEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.d.Event.Closed {
		return
	}
	err := s.change(ctx, e, "daily", func() error {
		if e.d.Event.Closed {
			return errUnchanged // closed meanwhile, at another process
		}
		return e.d.Event.Close()
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		s.log.Warn("daily: closing", "event", e.id, "err", err.Error())
	}
}

// today is the start of the day (UTC) now.
func (s *Server) today() time.Time {
	n := s.now()
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
}

// dailyGameJSON is one game's daily event of a day.
type dailyGameJSON struct {
	Variant     string           `json:"variant"`
	Event       string           `json:"event"` // its ID: /api/events/ID, /e/ID/deals/1/N
	Deals       int              `json:"deals"`
	Bots        string           `json:"bots"`
	Over        bool             `json:"over"`        // closed, every table finished: each deal's page is open
	Commitments []string         `json:"commitments"` // published when the day opened
	Players     int              `json:"players"`     // who have played or are playing
	Standings   []event.Standing `json:"standings"`   // by average matchpoint percentage
}

// dailyDayJSON is a day's daily events.
type dailyDayJSON struct {
	Day      string          `json:"day"`
	Opens    time.Time       `json:"opens"`
	Closes   time.Time       `json:"closes"`
	Games    []dailyGameJSON `json:"games"`
	Past     []string        `json:"past,omitempty"` // the days before with a daily event, newest first (today's answer only)
	Previous string          `json:"previous,omitempty"`
}

// dailyGame is e as dailyGameJSON. The lock must not be held.
func dailyGame(e *liveEvent) dailyGameJSON {
	e.mu.Lock()
	defer e.mu.Unlock()
	ev := e.d.Event
	g := dailyGameJSON{Variant: ev.Settings.Variant, Event: e.id, Deals: ev.Settings.Hands, Bots: ev.Settings.Bots, Over: ev.Over(),
		Commitments: e.commitments(0), Standings: ev.Standings()}
	if len(ev.Rounds) > 0 {
		g.Players = len(ev.Rounds[0].Tables)
	}
	return g
}

func (s *Server) handleDaily(w http.ResponseWriter, r *http.Request) {
	const op = "daily"
	today := s.today()
	day := today
	if q := r.URL.Query().Get("day"); q != "" {
		d, err := time.Parse(time.DateOnly, q)
		if err != nil || d.After(today) {
			s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "day %q is not a day up to today, written 2026-03-01", q).With("bad_day", nil))
			return
		}
		day = d
	}
	out := dailyDayJSON{Day: day.Format(time.DateOnly), Opens: day, Closes: day.AddDate(0, 0, 1), Games: []dailyGameJSON{}}
	for _, v := range dailyGames {
		e, err := s.daily(r.Context(), day, v, day.Equal(today))
		if err != nil {
			var ae *httpx.Error
			if errors.As(err, &ae) && ae.Kind == httpx.NotFound {
				continue // no daily that day
			}
			s.writeError(w, r, err)
			return
		}
		out.Games = append(out.Games, dailyGame(e))
	}
	if day.Equal(today) {
		for k := 1; k <= dailyPast; k++ {
			d := today.AddDate(0, 0, -k)
			if s.dailyExists(r.Context(), d) {
				out.Past = append(out.Past, d.Format(time.DateOnly))
			}
		}
	}
	httpx.WriteJSON(w, 200, out)
}

// dailyExists reports whether day had a daily event.
func (s *Server) dailyExists(ctx context.Context, day time.Time) bool {
	for _, v := range dailyGames {
		if _, err := s.daily(ctx, day, v, false); err == nil {
			return true
		}
	}
	return false
}

// dailyReq is a request to play today's daily event or to find one's
// seat: a guest sends its browser's identity and a name; a signed-in
// player's account is its session's.
type dailyReq struct {
	Guest string `json:"guest,omitempty"`
	Name  string `json:"name,omitempty"`
}

// dailyMeJSON is a person's part in today's daily event of a game.
type dailyMeJSON struct {
	Played  bool            `json:"played"` // they have a table (playing or finished)
	Seat    *mySeatJSON     `json:"seat,omitempty"`
	Done    bool            `json:"done"` // their table has finished
	Result  *event.Standing `json:"standing,omitempty"`
	Account string          `json:"account,omitempty"` // the signed-in name they play under
}

// dailyOwner says who a daily request is from: "a:ID" for a signed-in
// player, "g:HASH" for a guest, with the name to play under.
func (s *Server) dailyOwner(r *http.Request, req dailyReq) (owner, name string, err error) {
	const op = "daily"
	if a, ok := s.account(r); ok {
		return "a:" + a.ID, a.Name, nil
	}
	if len(req.Guest) < 16 || len(req.Guest) > 64 || !httpx.ValidID(req.Guest) {
		return "", "", httpx.Errorf(httpx.Invalid, op, "a guest sends its browser's identity: 16 to 64 letters, digits, - or _").With("bad_guest", nil)
	}
	h := tokenHash(req.Guest)
	return "g:" + hex.EncodeToString(h), req.Name, nil
}

// ownerEntry returns the entry of owner, or -1. The lock must be held.
func (e *liveEvent) ownerEntry(owner string) int {
	if e.d.Daily == nil {
		return -1
	}
	return slices.Index(e.d.Daily.Owner, owner)
}

// dailyMe is owner's part in e. The lock must be held.
func (e *liveEvent) dailyMe(owner string) dailyMeJSON {
	var me dailyMeJSON
	i := e.ownerEntry(owner)
	if i < 0 {
		return me
	}
	ev := e.d.Event
	if ti, _, ok := ev.Seated(i); ok {
		me.Played = true
		me.Done = ev.Rounds[0].Tables[ti].Result != nil
		if !me.Done {
			id := e.d.Tables[0][ti]
			me.Seat = &mySeatJSON{Entry: i, Name: ev.Entries[i].Name, Round: 1, Table: id, TableNo: ti + 1, Seat: 0, SeatToken: seatToken(e.d.Token[i], id, 0)}
		}
	}
	for _, st := range ev.Standings() {
		if st.Entry == i {
			me.Result = &st
		}
	}
	return me
}

// dailyFor reads a daily request and returns today's event of the
// request's game and who asks.
func (s *Server) dailyFor(w http.ResponseWriter, r *http.Request) (*liveEvent, dailyReq, string, string, bool) {
	const op = "daily"
	var req dailyReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return nil, req, "", "", false
	}
	v := r.PathValue("game")
	if !slices.Contains(dailyGames, v) {
		s.writeError(w, r, httpx.Errorf(httpx.NotFound, op, "there is no daily event of %q: the games are %v", v, dailyGames).With("bad_game", map[string]any{"Game": v}))
		return nil, req, "", "", false
	}
	owner, name, err := s.dailyOwner(r, req)
	if err != nil {
		s.writeError(w, r, err)
		return nil, req, "", "", false
	}
	e, err := s.daily(r.Context(), s.today(), v, true)
	if err != nil {
		s.writeError(w, r, err)
		return nil, req, "", "", false
	}
	return e, req, owner, name, true
}

func (s *Server) handleDailyMe(w http.ResponseWriter, r *http.Request) {
	e, _, owner, _, ok := s.dailyFor(w, r)
	if !ok {
		return
	}
	e.mu.Lock()
	me := e.dailyMe(owner)
	e.mu.Unlock()
	httpx.WriteJSON(w, 200, me)
}

func (s *Server) handleDailyPlay(w http.ResponseWriter, r *http.Request) {
	const op = "play daily"
	e, _, owner, name, ok := s.dailyFor(w, r)
	if !ok {
		return
	}
	name, err := httpx.CleanName(name)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
		return
	}
	// again answers one who has played or is playing (the lock held).
	again := func() {
		me := e.dailyMe(owner)
		e.mu.Unlock()
		if me.Seat != nil {
			httpx.WriteJSON(w, 200, me) // back to their table
			return
		}
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "%v", event.ErrPlayed).With("event_played", nil))
	}
	e.mu.Lock()
	if e.ownerEntry(owner) >= 0 {
		again()
		return
	}
	if ok, _ := s.creates.Take(httpx.ClientAddr(r)); !ok {
		e.mu.Unlock()
		s.writeError(w, r, httpx.Errorf(httpx.TooMany, op, "too many tables and events created from your address (%d an hour at most): try again later", s.opts.TablesPerHour))
		return
	}
	var i int
	back := false // they joined at another server meanwhile
	err = s.change(r.Context(), e, op, func() error {
		if i = e.ownerEntry(owner); i >= 0 {
			back = true
			return errUnchanged
		}
		var err error
		if i, err = e.d.Event.Join(name); err != nil {
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With("event_closed", nil)
		}
		e.d.Token = append(e.d.Token, tokenHash(httpx.RandomString(32))) // the seat token is the server's to give
		e.d.Daily.Owner = append(e.d.Daily.Owner, owner)
		return nil
	})
	if back {
		again()
		return
	}
	e.mu.Unlock()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := s.sitSolo(r.Context(), e, i); err != nil {
		s.writeError(w, r, err)
		return
	}
	e.mu.Lock()
	me := e.dailyMe(owner)
	e.mu.Unlock()
	httpx.WriteJSON(w, 200, me)
}

// dailyResultJSON is one daily result on a player's profile.
type dailyResultJSON struct {
	Day     string  `json:"day"`
	Variant string  `json:"variant"`
	Event   string  `json:"event"`
	Place   int     `json:"place"`
	Of      int     `json:"of"` // how many played
	Percent float64 `json:"percent"`
	Deals   int     `json:"deals"` // results compared
	Over    bool    `json:"over"`  // the day is over
}

// handleUserDaily answers GET /api/users/{name}/daily: the player's
// daily results of the last 30 days, newest first.
func (s *Server) handleUserDaily(w http.ResponseWriter, r *http.Request) {
	const op = "user daily"
	a, ok := s.profileAccount(w, r, op)
	if !ok {
		return
	}
	owner := "a:" + a.ID
	out := []dailyResultJSON{}
	today := s.today()
	for k := range dailyProfileDays {
		day := today.AddDate(0, 0, -k)
		for _, v := range dailyGames {
			e, err := s.daily(r.Context(), day, v, false)
			if err != nil {
				continue
			}
			e.mu.Lock()
			if i := e.ownerEntry(owner); i >= 0 {
				st := e.d.Event.Standings()
				for _, x := range st {
					if x.Entry == i && x.Boards > 0 {
						out = append(out, dailyResultJSON{Day: day.Format(time.DateOnly), Variant: v, Event: e.id, Place: x.Place, Of: len(st),
							Percent: x.Percent, Deals: x.Boards, Over: e.d.Event.Over()})
					}
				}
			}
			e.mu.Unlock()
		}
	}
	httpx.WriteJSON(w, 200, out)
}

// dailyRoutes adds the daily events' API to mux.
func (s *Server) dailyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/daily", s.handleDaily)
	mux.HandleFunc("POST /api/daily/{game}/play", s.handleDailyPlay)
	mux.HandleFunc("POST /api/daily/{game}/me", s.handleDailyMe)
	mux.HandleFunc("GET /api/users/{name}/daily", s.handleUserDaily)
}
