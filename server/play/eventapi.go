package play

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pitch/event"
	"pitch/server/httpx"
	"pitch/store"
)

// The HTTP API of events (docs/protocol.md, Events). The host's token
// and each person's token are sent in request bodies, never in URLs.

type eventCreateReq struct {
	event.Settings
}

// eventCreated answers the host: the token is shown once.
type eventCreated struct {
	ID    string    `json:"id"`
	Token string    `json:"token"` // the host's
	URL   string    `json:"url"`   // where people join
	Event eventJSON `json:"event"`
}

func (s *Server) handleEventCreate(w http.ResponseWriter, r *http.Request) {
	const op = "create event"
	var req eventCreateReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	ev, err := event.New(req.Settings, newSeed())
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_event", nil))
		return
	}
	if ok, _ := s.creates.Take(httpx.ClientAddr(r)); !ok {
		s.writeError(w, r, httpx.Errorf(httpx.TooMany, op, "too many tables and events created from your address (%d an hour at most): try again later", s.opts.TablesPerHour))
		return
	}
	token := httpx.RandomString(32)
	e := &liveEvent{id: httpx.RandomString(12), d: eventData{Event: ev, Host: tokenHash(token), Token: [][]byte{}, Tables: [][]string{},
		Started: []time.Time{}, EndsAt: []time.Time{}}}
	data := e.snapshot()
	e.rec = &store.Tournament{ID: e.id, Data: data, Created: time.Now().UTC().Truncate(time.Millisecond)}
	if err := s.store.CreateTournament(r.Context(), e.rec); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	s.register(e)
	e.mu.Lock()
	view := e.view()
	e.mu.Unlock()
	httpx.WriteJSON(w, http.StatusCreated, eventCreated{ID: e.id, Token: token, URL: "/e/" + e.id, Event: view})
}

// eventJSON is what anyone may see of an event.
type eventJSON struct {
	ID       string         `json:"id"`
	Settings event.Settings `json:"settings"`
	State    string         `json:"state"` // waiting (for the first round), playing, between (rounds), over
	Round    int            `json:"round"` // rounds started
	Started  *time.Time     `json:"started,omitempty"`
	EndsAt   *time.Time     `json:"ends_at,omitempty"` // the round in progress's clock
	// LeftMS is how long the round in progress has left on its clock when
	// this was sent (absent without a clock); while Paused it stands still.
	LeftMS  *int64           `json:"left_ms,omitempty"`
	Paused  bool             `json:"paused,omitempty"` // the host paused the round in progress
	Ended   bool             `json:"ended,omitempty"`  // the host ended the event: no round after the one in progress
	Entries []entryJSON      `json:"entries"`
	Rounds  [][]evTableJSON  `json:"rounds"` // per round, its tables, head table first
	Stand   []event.Standing `json:"standings"`
	// MP, at a duplicate event, holds each round's results compared on
	// the same cards (event.Matchpoints).
	MP [][]event.MP `json:"matchpoints,omitempty"`
	// Commitments, at a duplicate event, holds each round's commitments
	// to its deals, in order, published when the round began: every
	// table of the round is dealt hand k from the k-th.
	Commitments [][]string `json:"commitments,omitempty"`
	// Closed: a solo event takes no more players (duplicate.go).
	Closed bool `json:"closed,omitempty"`
}

type entryJSON struct {
	Entry  int    `json:"entry"`
	Name   string `json:"name"`
	Joined int    `json:"joined"` // the first round they play (0 for the first)
	Left   int    `json:"left"`   // -1, or the first round a bot plays for them
}

type evTableJSON struct {
	Table  string        `json:"table"` // the table's ID: /t/ID watches it
	Seats  []evSeatJSON  `json:"seats"`
	Result *event.Result `json:"result,omitempty"`
	Winner []int         `json:"winners,omitempty"` // the seats that won the table (its side, or the first half)
}

type evSeatJSON struct {
	Entry int    `json:"entry"` // -1 for a bot
	Name  string `json:"name"`
	Bot   bool   `json:"bot"` // a bot holds the seat (filling a gap, or for someone who left)
	// From is the table (1 for the head table) where this person sat in
	// the round before; absent in the first round, for bots and for
	// people who did not play it: who has moved where.
	From int `json:"from,omitempty"`
}

// view is the public state. The lock must be held.
func (e *liveEvent) view() eventJSON {
	ev := e.d.Event
	v := eventJSON{ID: e.id, Settings: ev.Settings, Round: len(ev.Rounds), Entries: []entryJSON{}, Rounds: [][]evTableJSON{},
		Stand: ev.Standings()}
	switch n := len(ev.Rounds); {
	case ev.Over():
		v.State = "over"
	case n == 0:
		v.State = "waiting"
	case ev.Rounds[n-1].Done():
		v.State = "between"
	default:
		v.State = "playing"
		v.Started = &e.d.Started[n-1]
		v.Paused = e.d.Paused
		if !e.d.EndsAt[n-1].IsZero() {
			v.EndsAt = &e.d.EndsAt[n-1]
			left := max(time.Until(e.d.EndsAt[n-1]), 0).Milliseconds()
			if e.d.Paused {
				left = e.d.Held.Milliseconds()
			}
			v.LeftMS = &left
		}
	}
	v.Ended = ev.Ended
	for i, en := range ev.Entries {
		v.Entries = append(v.Entries, entryJSON{Entry: i, Name: en.Name, Joined: en.Joined, Left: en.Left})
	}
	var before map[int]int // entry: table number in the round before
	for r, round := range ev.Rounds {
		var tabs []evTableJSON
		at := map[int]int{}
		for ti, tab := range round.Tables {
			tj := evTableJSON{Table: e.d.Tables[r][ti], Result: tab.Result, Winner: ev.Winners(r, ti)}
			for _, id := range tab.Seats {
				sj := evSeatJSON{Entry: id, Bot: id == event.Bot}
				if id != event.Bot {
					sj.Name, sj.Bot = ev.Entries[id].Name, ev.BotPlays(id, r)
					at[id] = ti + 1
					if !sj.Bot {
						sj.From = before[id]
					}
				}
				tj.Seats = append(tj.Seats, sj)
			}
			tabs = append(tabs, tj)
		}
		v.Rounds = append(v.Rounds, tabs)
		before = at
		if ev.Settings.Movement == event.Duplicate {
			v.MP = append(v.MP, ev.Matchpoints(r))
			v.Commitments = append(v.Commitments, e.commitments(r))
		}
	}
	e.duplicateView(&v)
	return v
}

func (s *Server) handleEvent(w http.ResponseWriter, r *http.Request) {
	e, err := s.event(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e.mu.Lock()
	v := e.view()
	e.mu.Unlock()
	httpx.WriteJSON(w, 200, v)
}

type eventJoinReq struct {
	Name string `json:"name"`
}

func (s *Server) handleEventJoin(w http.ResponseWriter, r *http.Request) {
	const op = "join event"
	var req eventJoinReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	name, err := httpx.CleanName(req.Name)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
		return
	}
	e, err := s.event(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.d.Daily != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "a daily event is played from /daily, once a person").With("event_daily", nil))
		return
	}
	token := httpx.RandomString(32)
	var i int
	err = s.change(r.Context(), e, op, func() error {
		var err error
		if i, err = e.d.Event.Join(name); err != nil {
			code := "event_closed"
			switch {
			case errors.Is(err, event.ErrFull):
				code = "event_full"
			case errors.Is(err, event.ErrEnded):
				code = "event_ended"
			}
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With(code, map[string]any{"Max": event.MaxPlayers})
		}
		e.d.Token = append(e.d.Token, tokenHash(token))
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if me, ok := s.account(r); ok {
		// On their profile (GET /api/users/NAME/events). The join stands
		// without it.
		if err := s.store.AddTournamentPlayer(r.Context(), me.ID, e.id, i); err != nil {
			s.log.Warn("event: recording a signed-in player", "event", e.id, "err", err.Error())
		}
	}
	httpx.WriteJSON(w, 200, map[string]any{"entry": i, "token": token, "round": e.d.Event.Entries[i].Joined})
}

// eventTokenReq carries the host's or a person's token, and for the
// host's requests what they act on.
type eventTokenReq struct {
	Token   string `json:"token"`
	Entry   *int   `json:"entry,omitempty"`   // remove: whom
	Minutes int    `json:"minutes,omitempty"` // extend: by how long
}

// eventFor reads the request's token and returns the event locked: the
// caller must unlock it.
func (s *Server) eventFor(w http.ResponseWriter, r *http.Request) (*liveEvent, eventTokenReq, bool) {
	var req eventTokenReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return nil, req, false
	}
	e, err := s.event(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return nil, req, false
	}
	e.mu.Lock()
	return e, req, true
}

// seatJSON tells a person where they sit now.
type mySeatJSON struct {
	Entry     int    `json:"entry"`
	Name      string `json:"name"`
	Round     int    `json:"round"`           // the round they are seated in (1 for the first); 0 for none yet
	Table     string `json:"table,omitempty"` // the table's ID
	TableNo   int    `json:"table_no,omitempty"`
	Seat      int    `json:"seat"`
	SeatToken string `json:"seat_token,omitempty"` // the token to say hello with at the table
	Left      bool   `json:"left,omitempty"`
	Done      bool   `json:"done,omitempty"` // their table of the round has finished
}

func (s *Server) handleEventMe(w http.ResponseWriter, r *http.Request) {
	const op = "event seat"
	e, req, ok := s.eventFor(w, r)
	if !ok {
		return
	}
	defer e.mu.Unlock()
	i := e.entryOf(req.Token)
	if i < 0 {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this token is no one's in this event: join first").With("not_in_event", nil))
		return
	}
	httpx.WriteJSON(w, 200, e.seatOf(i))
}

// seatOf says where entry i sits now, with their seat's token. The lock
// must be held.
func (e *liveEvent) seatOf(i int) mySeatJSON {
	ev := e.d.Event
	me := mySeatJSON{Entry: i, Name: ev.Entries[i].Name, Seat: -1, Left: ev.Entries[i].Left >= 0}
	if ti, seat, ok := ev.Seated(i); ok && !ev.BotPlays(i, len(ev.Rounds)-1) {
		r := len(ev.Rounds) - 1
		me.Round, me.TableNo, me.Seat = r+1, ti+1, seat
		me.Table = e.d.Tables[r][ti]
		me.SeatToken = seatToken(e.d.Token[i], me.Table, seat)
		me.Done = ev.Rounds[r].Tables[ti].Result != nil
	}
	return me
}

func (s *Server) handleEventLeave(w http.ResponseWriter, r *http.Request) {
	const op = "leave event"
	e, req, ok := s.eventFor(w, r)
	if !ok {
		return
	}
	defer e.mu.Unlock()
	i := e.entryOf(req.Token)
	host := e.isHost(req.Token)
	if req.Entry != nil {
		if !host {
			s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may remove someone: send the host's token").With("not_host", nil))
			return
		}
		i = *req.Entry
	}
	if i < 0 {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this token is no one's in this event").With("not_in_event", nil))
		return
	}
	err := s.change(r.Context(), e, op, func() error {
		if err := e.d.Event.Leave(i); err != nil {
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With("event_leave", nil)
		}
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, e.view())
}

func (s *Server) handleEventStart(w http.ResponseWriter, r *http.Request) {
	const op = "start round"
	e, req, ok := s.eventFor(w, r)
	if !ok {
		return
	}
	if !e.isHost(req.Token) {
		e.mu.Unlock()
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may start a round: send the host's token").With("not_host", nil))
		return
	}
	infos, _, err := s.startRound(r.Context(), e)
	e.mu.Unlock()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.startTables(r.Context(), e, infos)
	e.mu.Lock()
	v := e.view()
	e.mu.Unlock()
	httpx.WriteJSON(w, 200, v)
}

// maxExtend is the most minutes one extension adds.
const maxExtend = 120

func (s *Server) handleEventExtend(w http.ResponseWriter, r *http.Request) {
	const op = "extend round"
	e, req, ok := s.eventFor(w, r)
	if !ok {
		return
	}
	defer e.mu.Unlock()
	if !e.isHost(req.Token) {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may extend a round: send the host's token").With("not_host", nil))
		return
	}
	err := s.change(r.Context(), e, op, func() error {
		ev := e.d.Event
		n := len(ev.Rounds)
		if ev.Ended {
			return httpx.Errorf(httpx.Conflict, op, "the host has ended the event: the round in progress ends with the hands being played").With("event_ended", nil)
		}
		if n == 0 || ev.Rounds[n-1].Done() || e.d.EndsAt[n-1].IsZero() {
			return httpx.Errorf(httpx.Conflict, op, "no round on the clock is being played: only a round on the clock can be extended").With("event_no_clock", nil)
		}
		if req.Minutes < 1 || req.Minutes > maxExtend {
			return httpx.Errorf(httpx.Invalid, op, "minutes must be 1 to %d, not %d", maxExtend, req.Minutes).With("bad_minutes", map[string]any{"Max": maxExtend})
		}
		add := time.Duration(req.Minutes) * s.minute()
		if e.d.Paused {
			e.d.Held += add // the clock stands still: it has that much more when it runs again
		}
		e.d.EndsAt[n-1] = e.d.EndsAt[n-1].Add(add)
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e.syncRefs()
	httpx.WriteJSON(w, 200, e.view())
}

// handleEventPause pauses the round in play (pause) or resumes it: its
// clock and its tables stand still meanwhile.
func (s *Server) handleEventPause(pause bool) http.HandlerFunc {
	op, verb := "pause event", "pause"
	if !pause {
		op, verb = "resume event", "resume"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		e, req, ok := s.eventFor(w, r)
		if !ok {
			return
		}
		ids, err := s.pauseLocked(r.Context(), e, req.Token, pause, op, verb)
		if err != nil {
			e.mu.Unlock()
			s.writeError(w, r, err)
			return
		}
		v := e.view()
		e.mu.Unlock()
		s.holdTables(ids, pause)
		httpx.WriteJSON(w, 200, v)
	}
}

// pauseLocked pauses or resumes e (locked) for the holder of token and
// returns the tables whose pause changed, to hold or release once e is
// unlocked.
func (s *Server) pauseLocked(ctx context.Context, e *liveEvent, token string, pause bool, op, verb string) ([]string, error) {
	if !e.isHost(token) {
		return nil, httpx.Errorf(httpx.Forbidden, op, "only the host may %s the event: send the host's token", verb).With("not_host", nil)
	}
	err := s.change(ctx, e, op, func() error {
		ev := e.d.Event
		n := len(ev.Rounds)
		switch {
		case n == 0 || ev.Rounds[n-1].Done():
			return httpx.Errorf(httpx.Conflict, op, "no round is being played: only a round in play can be paused or resumed").With("event_not_playing", nil)
		case pause && ev.Ended:
			return httpx.Errorf(httpx.Conflict, op, "the host has ended the event: the round in progress ends with the hands being played").With("event_ended", nil)
		case pause && e.d.Paused:
			return httpx.Errorf(httpx.Conflict, op, "the event is paused already: resume it to play on").With("event_paused_already", nil)
		case !pause && !e.d.Paused:
			return httpx.Errorf(httpx.Conflict, op, "the event is not paused: only a paused event can be resumed").With("event_not_paused", nil)
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		clock := !e.d.EndsAt[n-1].IsZero()
		e.d.Paused = pause
		switch {
		case pause && clock:
			e.d.Held = max(e.d.EndsAt[n-1].Sub(now), 0)
		case clock:
			e.d.EndsAt[n-1], e.d.Held = now.Add(e.d.Held), 0
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ids, _ := e.syncRefs()
	return ids, nil
}

// holdTables stops or restarts play at the tables ids held in memory
// (after their event's pause or resume). No event lock may be held.
func (s *Server) holdTables(ids []string, pause bool) {
	for _, id := range ids {
		if t := s.inMemory(id); t != nil {
			t.mu.Lock()
			t.hold(pause)
			t.mu.Unlock()
		}
	}
}

// handleEventEnd ends the event for its host: the round in play, if
// any, ends at each table with the hand being played (as when its clock
// is up) and counts; no other round is played, nobody joins.
func (s *Server) handleEventEnd(w http.ResponseWriter, r *http.Request) {
	const op = "end event"
	e, req, ok := s.eventFor(w, r)
	if !ok {
		return
	}
	if !e.isHost(req.Token) {
		e.mu.Unlock()
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may end the event: send the host's token").With("not_host", nil))
		return
	}
	err := s.change(r.Context(), e, op, func() error {
		ev := e.d.Event
		if err := ev.End(); err != nil {
			code := "event_over"
			if errors.Is(err, event.ErrEnded) {
				code = "event_ended"
			}
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With(code, nil)
		}
		if n := len(ev.Rounds); n > 0 && !ev.Rounds[n-1].Done() {
			e.d.EndsAt[n-1], e.d.Paused, e.d.Held = time.Now().UTC().Truncate(time.Millisecond), false, 0
		}
		return nil
	})
	if err != nil {
		e.mu.Unlock()
		s.writeError(w, r, err)
		return
	}
	ids, _ := e.syncRefs() // those paused until now
	v := e.view()
	e.mu.Unlock()
	s.holdTables(ids, false)
	httpx.WriteJSON(w, 200, v)
}

// csvCell keeps a cell from being read as a formula by a spreadsheet
// (OWASP, CSV injection): a leading =, +, -, @, tab or return gets a '.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func (s *Server) handleEventCSV(w http.ResponseWriter, r *http.Request) {
	e, err := s.event(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e.mu.Lock()
	st := e.d.Event.Standings()
	dup := e.d.Event.Settings.Movement == event.Duplicate
	e.mu.Unlock()
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	head := []string{"place", "name", "total", "tables_won", "best_round", "rounds", "left"}
	if dup {
		head = []string{"place", "name", "percent", "results", "rounds", "left"}
	}
	_ = cw.Write(head)
	for _, x := range st {
		row := []string{strconv.Itoa(x.Place), csvCell(x.Name), strconv.Itoa(x.Total), strconv.Itoa(x.Won), strconv.Itoa(x.Best),
			strconv.Itoa(x.Rounds), strconv.FormatBool(x.Left)}
		if dup {
			row = []string{strconv.Itoa(x.Place), csvCell(x.Name), strconv.FormatFloat(x.Percent, 'f', 2, 64), strconv.Itoa(x.Boards),
				strconv.Itoa(x.Rounds), strconv.FormatBool(x.Left)}
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="pitch-event-`+e.id+`.csv"`)
	_, _ = w.Write(b.Bytes())
}

// userEventJSON is an event on a player's profile.
type userEventJSON struct {
	Event    string    `json:"event"` // its ID: /e/ID
	Variant  string    `json:"variant"`
	Movement string    `json:"movement"`
	Joined   time.Time `json:"joined"`
	State    string    `json:"state"`           // as the event's
	Place    int       `json:"place,omitempty"` // in the standings (absent when not in them: removed before playing)
	Of       int       `json:"of"`              // people in the standings
	Total    int       `json:"total"`           // progressive and mixed
	Percent  float64   `json:"percent"`         // duplicate
	Rounds   int       `json:"rounds"`          // rounds that counted for them
	Left     bool      `json:"left,omitempty"`
}

// maxUserEvents is how many events a profile lists.
const maxUserEvents = 50

// handleUserEvents answers GET /api/users/{name}/events: the events the
// player joined while signed in, newest first, with their place.
func (s *Server) handleUserEvents(w http.ResponseWriter, r *http.Request) {
	const op = "user events"
	a, ok := s.profileAccount(w, r, op)
	if !ok {
		return
	}
	played, err := s.store.TournamentsOf(r.Context(), a.ID, maxUserEvents)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	out := []userEventJSON{}
	for _, p := range played {
		v, err := s.eventView(r.Context(), p.Tournament)
		if err != nil {
			continue // gone from the store, or unreadable: not shown
		}
		ue := userEventJSON{Event: v.ID, Variant: v.Settings.Variant, Movement: string(v.Settings.Movement), Joined: p.Joined, State: v.State,
			Of: len(v.Stand)}
		for _, st := range v.Stand {
			if st.Entry == p.Entry {
				ue.Place, ue.Total, ue.Percent, ue.Rounds, ue.Left = st.Place, st.Total, st.Percent, st.Rounds, st.Left
			}
		}
		out = append(out, ue)
	}
	httpx.WriteJSON(w, 200, out)
}

// eventView is event id as anyone may see it: the live event's, or else
// read from the store without making it live (a finished event stays
// out of memory).
func (s *Server) eventView(ctx context.Context, id string) (eventJSON, error) {
	s.ev.mu.Lock()
	e, ok := s.ev.byID[id]
	s.ev.mu.Unlock()
	if !ok {
		rec, err := s.store.Tournament(ctx, id)
		if err != nil {
			return eventJSON{}, err
		}
		if e, err = liveFrom(rec); err != nil {
			return eventJSON{}, err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.view(), nil
}

// eventRoutes adds the events' API to mux.
func (s *Server) eventRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/events", s.handleEventCreate)
	mux.HandleFunc("GET /api/events/{id}", s.handleEvent)
	mux.HandleFunc("POST /api/events/{id}/join", s.handleEventJoin)
	mux.HandleFunc("POST /api/events/{id}/me", s.handleEventMe)
	mux.HandleFunc("POST /api/events/{id}/leave", s.handleEventLeave)
	mux.HandleFunc("POST /api/events/{id}/start", s.handleEventStart)
	mux.HandleFunc("POST /api/events/{id}/extend", s.handleEventExtend)
	mux.HandleFunc("POST /api/events/{id}/pause", s.handleEventPause(true))
	mux.HandleFunc("POST /api/events/{id}/resume", s.handleEventPause(false))
	mux.HandleFunc("POST /api/events/{id}/end", s.handleEventEnd)
	mux.HandleFunc("GET /api/events/{id}/standings.csv", s.handleEventCSV)
	mux.HandleFunc("GET /api/events/{id}/qr.svg", s.handleEventQR)
	mux.HandleFunc("POST /api/events/{id}/play", s.handleEventPlay)
	mux.HandleFunc("POST /api/events/{id}/close", s.handleEventClose)
	mux.HandleFunc("GET /api/events/{id}/deals/{round}/{deal}", s.handleEventDeal)
	mux.HandleFunc("GET /api/events/{id}/ws", s.handleEventWS)
	mux.HandleFunc("GET /api/users/{name}/events", s.handleUserEvents)
}
