// Package play runs the tables of `pitch serve`: the authoritative
// tables, their seats, the WebSocket play, the bots and timers acting for
// seats, chat and rematch, fair deals, and the events and daily deals
// whose rounds are played at those tables, on one process or several
// (cluster.go). The server is
// authoritative: every action is checked by the rules engine and written
// to the store before anyone hears of it; each connection sees only its
// seat's view.
package play

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pitch"
	"pitch/bot"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/server/tableinfo"
	"pitch/store"
)

// Options tune the tables and their play; the zero value gives the
// defaults. Each field is server.Options' field of the same name, which
// documents it (the composition root hands play its part of the
// server's options).
type Options struct {
	BotDelay, AwayDelay, RetryDelay, DealWait, ReadyWait time.Duration
	Misbehave                                            *Misbehave
	Logger                                               *slog.Logger
	AddrRate                                             float64
	AddrConns, MaxConns                                  int
	PingInterval, PongWait                               time.Duration
	TablesPerHour, MaxTables                             int
	OverloadLag, IdleClose                               time.Duration
	Cluster                                              bool
	LeaseTTL, EventMinute                                time.Duration
	AccountCheck                                         time.Duration
}

// Server serves the API, the WebSocket play and the UI.
type Server struct {
	store   store.Store
	opts    Options
	log     *slog.Logger
	standIn bot.Bot // plays for away humans
	limiter *httpx.Limiter

	conns *connSet // open WebSockets, per address
	lobby *lobby   // the open tables, for GET /api/tables

	// actionLatency: each action from its message's arrival to its states
	// queued (latency.go, GET /api/stats)
	actionLatency latencyHist

	gauge      *gauge         // how far behind the server runs, and its refusals (overload.go)
	creates    *httpx.Limiter // tables created per address, when TablesPerHour is set
	unfinished atomic.Int64   // tables in memory neither finished nor closed, and creations under way
	hints      chan struct{}  // a slot for each hint being worked out (maxHints at once)
	sweepStop  chan struct{}
	sweepOnce  sync.Once

	who         Who         // whose a request is (accounts.go)
	sessionLive SessionLive // whether a WebSocket's session still stands (sessions.go)

	mu     sync.Mutex
	tables map[string]*table
	closed atomic.Bool

	cl *cluster // nil unless Options.Cluster

	// playingNow is how many people play each game now, as last counted
	// (playing, playnow.go).
	playingNow playingCount
	// popular is the house rules most played lately (playnow_rules.go).
	popular popularCache

	ev eventSet // events of many tables (event.go)
	// evWork counts event tables' results on their way to their event
	// (table.act): Close waits for them, so none is stored after it.
	evWork sync.WaitGroup
}

// New returns a server over st, with every unfinished table loaded from
// its log so play resumes where it stopped.
func New(ctx context.Context, st store.Store, opts Options) (*Server, error) {
	if opts.BotDelay == 0 {
		opts.BotDelay = 800 * time.Millisecond
	}
	if opts.AwayDelay == 0 {
		opts.AwayDelay = 3 * time.Second
	}
	if opts.RetryDelay == 0 {
		opts.RetryDelay = 2 * time.Second
	}
	if opts.DealWait == 0 {
		opts.DealWait = DefaultDealWait
	}
	if opts.ReadyWait == 0 {
		opts.ReadyWait = DefaultReadyWait
	}
	if opts.PingInterval == 0 {
		opts.PingInterval = DefaultPingInterval
	}
	if opts.PongWait == 0 {
		opts.PongWait = max(opts.PingInterval/2, time.Millisecond)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	standIn, _ := bot.New("medium")
	s := &Server{store: st, opts: opts, log: opts.Logger, standIn: standIn, tables: map[string]*table{}, hints: make(chan struct{}, maxHints),
		conns: newConnSet(), lobby: newLobby(), sweepStop: make(chan struct{})}
	s.gauge = newGauge(opts.OverloadLag, s.log)
	if opts.OverloadLag > 0 {
		go s.gauge.probe(s.sweepStop)
	}
	if opts.AddrRate > 0 {
		s.limiter = httpx.NewLimiter(opts.AddrRate, 2*opts.AddrRate)
	}
	if opts.TablesPerHour > 0 {
		s.creates = httpx.NewLimiter(float64(opts.TablesPerHour)/3600, float64(opts.TablesPerHour))
	}
	var cst store.Cluster
	if opts.Cluster {
		var ok bool
		if cst, ok = st.(store.Cluster); !ok {
			return nil, fmt.Errorf("several processes need a store they can share: PostgreSQL (--db postgres://…), not this one")
		}
		if opts.LeaseTTL == 0 {
			opts.LeaseTTL = DefaultLeaseTTL
		}
		if opts.LeaseTTL < 100*time.Millisecond {
			return nil, fmt.Errorf("the lease time must be at least 100ms, not %s", opts.LeaseTTL)
		}
		s.opts.LeaseTTL = opts.LeaseTTL
		s.newCluster(cst) // started below: tables load as not driven here
	}
	if err := s.loadEvents(ctx); err != nil { // first: each event table loads knowing its round
		return nil, err
	}
	infos, err := st.Tables(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("loading tables: %w", err)
	}
	for _, info := range infos {
		if _, err := s.load(ctx, info); err != nil {
			s.log.Error("cannot resume table", "table", info.ID, "err", err.Error())
		}
	}
	s.settleEvents(ctx)
	if cst != nil {
		s.runCluster()
	}
	if opts.AccountCheck == 0 {
		opts.AccountCheck = DefaultAccountCheck
	}
	if opts.AccountCheck > 0 {
		go s.accountWatch(opts.AccountCheck)
	}
	if opts.IdleClose > 0 {
		s.sweep(ctx, time.Now()) // tables idle too long are closed, not kept loaded
		go s.sweeper(max(min(opts.IdleClose/4, time.Hour), time.Second))
	}
	return s, nil
}

// PinLag pins how far behind the server runs at lag, for tests of
// overload: the probe no longer changes it.
func (s *Server) PinLag(lag time.Duration) {
	s.gauge.pinned.Store(true)
	s.gauge.set(lag)
}

func (s *Server) closing() bool { return s.closed.Load() }

// stop stops the bots and the idle sweep: no move starts after it.
func (s *Server) stop() {
	s.closed.Store(true)
	s.sweepOnce.Do(func() { close(s.sweepStop) })
}

// Close stops the server at once: the bots stop and every connection is
// closed with 1001 "the server is shutting down", without waiting for
// the clients. Use Shutdown to stop gracefully. Once it returns no
// action is under way, nor will one start: the store may be closed.
func (s *Server) Close() {
	s.stop()
	s.stopCluster(false)
	for _, c := range s.conns.drain() {
		// A message read from now on is dropped; one being acted on
		// holds its table's lock, which the loop below waits for (as
		// Shutdown does).
		c.deaf.Store(true)
		c.closeWith(statusGoingAway, shutdownReason, false)
	}
	for _, t := range s.tableList() {
		t.mu.Lock()
		if t.timer != nil {
			t.timer.Stop()
		}
		t.mu.Unlock()
	}
	s.evWork.Wait()
}

// load rebuilds a table from the store and starts its bots.
func (s *Server) load(ctx context.Context, info *store.Table) (*table, error) {
	events, err := s.store.Events(ctx, info.ID)
	if err != nil {
		return nil, err
	}
	var deals []store.Deal
	var commitments []store.Commitment
	if info.FairDeals {
		if deals, err = s.store.Deals(ctx, info.ID); err != nil {
			return nil, err
		}
		if commitments, err = s.store.Commitments(ctx, info.ID); err != nil {
			return nil, err
		}
	}
	t, err := newTable(s, info, events, deals, commitments)
	if err != nil {
		return nil, err
	}
	// A rated match in play: whether it is rated (a store read, before
	// the server's lock; nobody else has t yet).
	t.mu.Lock()
	t.checkPairs(ctx)
	t.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.tables[info.ID]; ok {
		return old, nil
	}
	s.tables[info.ID] = t
	t.mu.Lock()
	if t.round == nil {
		// Its event round made known since newTable asked (bindRounds
		// looked for the table before it was here).
		t.joinRound(s.roundOf(info.ID))
	}
	if s.cl != nil && (info.FairDeals || info.TurnTimer > 0) && !t.over() {
		// The next deal and the turn timer are the driver's: ask for its
		// commitment and deadline.
		if info.FairDeals {
			t.pending = nil
		}
		t.tell(serverNote{Type: "ask"})
	}
	if !info.Finished && !info.Closed {
		s.unfinished.Add(1)
	}
	t.publish()
	t.schedule(0)
	t.mu.Unlock()
	return t, nil
}

// table returns the live table id, loading it (a finished one, say) on demand.
func (s *Server) table(ctx context.Context, id string) (*table, error) {
	const op = "server.table"
	s.mu.Lock()
	t, ok := s.tables[id]
	s.mu.Unlock()
	if ok {
		return t, nil
	}
	if !httpx.ValidID(id) {
		return nil, httpx.Errorf(httpx.NotFound, op, "no table %q", id).With("no_table", nil)
	}
	info, err := s.store.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, httpx.Errorf(httpx.NotFound, op, "no table %q", id).With("no_table", nil)
	}
	if err != nil {
		return nil, httpx.StoreDown(op, err)
	}
	t, err = s.load(ctx, info)
	var stale *staleLog
	if errors.As(err, &stale) {
		// Not the client's fault nor a fault of ours: say what happened,
		// and keep the engine's words (which may name cards) for the log.
		e := httpx.Errorf(httpx.Conflict, op, "table %s was played under rules that have since changed: its move %d is no longer allowed, so the match cannot go on here", id, stale.seq+1)
		e.Err = err
		return nil, e.With("table_stale", map[string]any{"Move": stale.seq + 1})
	}
	if err != nil {
		return nil, httpx.Unexpected(op, err)
	}
	t.mu.Lock()
	t.loadRatings(ctx) // a finished rated match: its ratings for the states
	t.mu.Unlock()
	return t, nil
}

// Routes lists the routes this part serves, each marked with whether
// it serves table, hand or event data (then its handler asks the
// access policy).
func (s *Server) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Post("/api/tables", s.handleCreate),
		httpx.GetData("/api/tables", s.handleList),
		httpx.GetData("/api/tables/{id}", s.handleTable),
		httpx.PostData("/api/tables/{id}/join", s.handleJoin),
		httpx.PostData("/api/tables/{id}/rematch", s.handleRematch),
		httpx.PostData("/api/tables/{id}/leave", s.handleLeave),
		httpx.PostData("/api/play", s.handlePlay),
		httpx.Get("/api/play", s.handlePopular),
		httpx.GetData("/api/tables/{id}/ws", s.handleWS),
		httpx.Get("/api/stats", s.handleStats),
		httpx.Get("/api/health", s.handleHealth),
	}
}

// --- lobby ---

// tableInfo is the public description of a table (package tableinfo).
type tableInfo = tableinfo.Table

// publicInfo is the public description of stored table t, which plays
// game g (tableinfo.Public).
func publicInfo(t *store.Table, g *pitch.Game) tableInfo { return tableinfo.Public(t, g) }

type createReq struct {
	Variant string          `json:"variant"`
	Options json.RawMessage `json:"options"`
	Seats   []struct {
		Kind  string `json:"kind"`
		Level string `json:"level"`
	} `json:"seats"`
	TurnTimer int `json:"turn_timer"`
	// Hints, when false, turns off the hint players may ask for.
	Hints *bool `json:"hints"`
	// Rated makes the match change the players' ratings: every person
	// must be signed in (docs/ratings.md).
	Rated bool `json:"rated"`
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	const op = "create table"
	var req createReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, optJSON, err := parseGame(op, req.Variant, req.Options)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := g.Variant
	if req.TurnTimer < 0 || req.TurnTimer > 3600 {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "turn_timer must be 0 (none) to 3600 seconds, not %d", req.TurnTimer).With("bad_timer", nil))
		return
	}
	t := &store.Table{ID: httpx.RandomString(12), Variant: v.String(), Options: optJSON, Seed: newSeed(), FairDeals: true,
		TurnTimer: req.TurnTimer, Created: time.Now().UTC().Truncate(time.Millisecond), NoHints: req.Hints != nil && !*req.Hints, Rated: req.Rated}
	if _, signedIn := s.account(r); req.Rated && !signedIn {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "a rated table needs every person signed in: sign in first, or create a casual table").With("rated_needs_account", nil))
		return
	}
	if err := ratedTarget(op, g); req.Rated && err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.Seats) == 0 { // one person against bots
		for i := range g.Seats() {
			kind := "bot"
			if i == 0 {
				kind = "human"
			}
			req.Seats = append(req.Seats, struct {
				Kind  string `json:"kind"`
				Level string `json:"level"`
			}{kind, ""})
		}
	}
	if len(req.Seats) != g.Seats() {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%s with these options has %d seats; seats lists %d", v, g.Seats(), len(req.Seats)))
		return
	}
	t.Seats = make([]store.Seat, 0, len(req.Seats)) // kept as long as the table is open: no room to spare
	for i, seat := range req.Seats {
		switch seat.Kind {
		case "human":
			if seat.Level != "" {
				s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "seat %d is human: it takes no level", i))
				return
			}
		case "bot":
			if seat.Level == "" {
				seat.Level = "medium"
			}
			if l := seat.Level; !slices.Contains(bot.Levels, l) {
				s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "seat %d: unknown bot level %q: the levels are %s", i, l, strings.Join(bot.Levels, ", ")).
					With("bad_level", map[string]any{"Seat": i, "Level": l}))
				return
			}
		default:
			s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "seat %d: kind must be \"human\" or \"bot\", not %q", i, seat.Kind))
			return
		}
		t.Seats = append(t.Seats, store.Seat{Seat: i, Kind: seat.Kind, Level: seat.Level})
	}
	release, ok := s.admitTable(w, r, op)
	if !ok {
		return
	}
	defer release()
	// Not cut short by a client that goes away: a table stored is loaded.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), storeTimeout)
	defer cancel()
	if err := s.store.CreateTable(ctx, t); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if _, err := s.load(ctx, t); err != nil {
		s.writeError(w, r, httpx.Unexpected(op, err))
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, publicInfo(t, g))
}

// parseGame reads a request's game: its variant and options (an object
// such as {"target": 52}, or nothing for the defaults). It returns the
// game and its options as stored (by hand-record name).
func parseGame(op, variant string, options json.RawMessage) (*pitch.Game, json.RawMessage, error) {
	v, err := pitch.ParseVariant(variant)
	if err != nil {
		return nil, nil, httpx.Errorf(httpx.Invalid, op, "%v", err)
	}
	var opts map[string]json.RawMessage
	if len(options) > 0 && string(options) != "null" {
		if err := json.Unmarshal(options, &opts); err != nil {
			return nil, nil, httpx.Errorf(httpx.Invalid, op, "options must be an object such as {\"target\": 52}")
		}
	}
	g, err := pitch.ParseOptions(v, opts)
	if err != nil {
		return nil, nil, httpx.Errorf(httpx.Invalid, op, "%v", err)
	}
	optJSON, _ := json.Marshal(g.OptionMap())
	return g, optJSON, nil
}

// fullRetry is how long a server holding as many unfinished tables as
// it may asks a person to wait before trying again (Retry-After).
const fullRetry = 10 * time.Minute

// admitTable decides whether a new table may start now: not when the
// server is overloaded, the address has created too many tables this
// hour, or the server holds as many unfinished tables as it may (each
// refusal written to w, with Retry-After). When ok, release must be
// called once the table is loaded (or not made).
func (s *Server) admitTable(w http.ResponseWriter, r *http.Request, op string) (release func(), ok bool) {
	if reason := s.gauge.overloaded(); reason != "" {
		s.gauge.refuse(refusedOverloaded, reason)
		w.Header().Set("Retry-After", strconv.Itoa(overloadRetry))
		s.writeError(w, r, httpx.Errorf(httpx.Unavailable, op, "%s; it keeps its games going but starts no new one", reason).With("overloaded", nil))
		return func() {}, false
	}
	if ok, wait := s.creates.Take(httpx.ClientAddr(r)); !ok {
		s.gauge.refuse(refusedCreates, "too many tables created from one address (--tables-per-hour)")
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		mins := int(wait.Minutes()) + 1
		unit := "minutes"
		if mins == 1 {
			unit = "minute"
		}
		s.writeError(w, r, httpx.Errorf(httpx.TooMany, op, "too many tables created from your address (%d an hour at most): join an open table, or try again in %d %s",
			s.opts.TablesPerHour, mins, unit).With("too_many_tables", map[string]any{"Max": s.opts.TablesPerHour, "Count": mins}))
		return func() {}, false
	}
	if max := int64(s.opts.MaxTables); max > 0 {
		if s.unfinished.Add(1) > max {
			s.unfinished.Add(-1)
			s.gauge.refuse(refusedTables, fmt.Sprintf("as many unfinished tables as it may hold (%d, --max-tables)", max))
			w.Header().Set("Retry-After", strconv.Itoa(int(fullRetry.Seconds())))
			s.writeError(w, r, httpx.Errorf(httpx.Unavailable, op, "the server holds as many unfinished tables as it may (%d): join an open table, or try again in about %d minutes, when some have finished",
				max, int(fullRetry.Minutes())).With("server_full", map[string]any{"Count": int(fullRetry.Minutes())}))
			return func() {}, false
		}
		return func() { s.unfinished.Add(-1) }, true // the reservation: load counts the table itself
	}
	return func() {}, true
}

func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	t, err := s.table(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, "table", access.TableInfo, t.id) {
		return
	}
	t.mu.Lock()
	info := t.infoJSON()
	t.mu.Unlock()
	httpx.WriteJSON(w, 200, info)
}

type joinReq struct {
	Seat *int   `json:"seat"`
	Name string `json:"name"`
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	const op = "join"
	t, err := s.table(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, op, access.TableInfo, t.id) {
		return
	}
	var req joinReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	me, signedIn := s.account(r)
	if signedIn { // the seat is the account's, under its name
		req.Name = me.Name
	} else if t.info.Rated {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "a rated table needs every person signed in: sign in to take a seat, or watch").With("rated_needs_account", nil))
		return
	}
	name, err := httpx.CleanName(req.Name)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
		return
	}
	if !signedIn {
		// A guest may not pass for a bot or an account (docs/accounts.md).
		if err := httpx.GuestName(r.Context(), op, name, s.store); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.info.Closed {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "%s", closedMsg).With("closed", nil))
		return
	}
	seat := -1
	if req.Seat != nil {
		seat = *req.Seat
	} else { // the first free seat
		for _, st := range t.info.Seats {
			if st.Kind == "human" && st.TokenHash == nil {
				seat = st.Seat
				break
			}
		}
		if seat < 0 {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "the table has no free seat; you may watch it").With("no_free_seat", nil))
			return
		}
	}
	if signedIn {
		if held, _ := t.seatOf("", me, true); held >= 0 {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "your account holds seat %d at this table already", held).With("seat_held", map[string]any{"Seat": held}))
			return
		}
	}
	if seat < 0 || seat >= len(t.info.Seats) {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "seat %d is not a seat: seats are 0 to %d", seat, len(t.info.Seats)-1))
		return
	}
	if st := t.info.Seats[seat]; st.Kind != "human" || st.TokenHash != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "seat %d is taken", seat).With("seat_taken", map[string]any{"Seat": seat}))
		return
	}
	token := httpx.RandomString(32)
	h := sha256.Sum256([]byte(token))
	if err := s.store.ClaimSeatFor(r.Context(), t.id, seat, name, h[:], me.ID); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "seat %d is taken", seat).With("seat_taken", map[string]any{"Seat": seat}))
		} else {
			s.writeError(w, r, httpx.StoreDown(op, err))
		}
		return
	}
	t.info.Seats[seat].Name, t.info.Seats[seat].TokenHash, t.info.Seats[seat].Account = name, h[:], me.ID
	t.infoVer++
	t.checkPairs(r.Context()) // the last seat taken: is the match rated?
	t.touch()
	t.publish()
	t.broadcast()
	t.schedule(0) // the last seat taken starts play
	httpx.WriteJSON(w, 200, map[string]any{"seat": seat, "token": token, "table": t.infoJSON()})
}

// tableList returns the tables in memory, taken under the server's lock
// and returned without it, so that each can then be locked on its own.
func (s *Server) tableList() []*table {
	s.mu.Lock()
	defer s.mu.Unlock()
	tables := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	return tables
}

// inMemory returns the table with id if this process holds it, or nil.
func (s *Server) inMemory(id string) *table {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tables[id]
}

// PublicTable returns the public description of table id and how many
// seats its game has, loading the table if this process does not hold it
// (for package history).
func (s *Server) PublicTable(ctx context.Context, id string) (tableinfo.Table, int, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return tableinfo.Table{}, 0, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.infoJSON(), t.match.Game.Seats(), nil
}

// Closing reports whether the server is closing (Close or Shutdown has
// begun).
func (s *Server) Closing() bool { return s.closing() }
