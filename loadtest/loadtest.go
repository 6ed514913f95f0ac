// Package loadtest drives a running pitch server the way many players
// would: it creates tables, joins every seat with a client over a real
// WebSocket, plays legal actions after a pause, and measures the time from
// each action to the update that confirms it. Everything it does is bounded
// in count and time.
package loadtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Config says what load to put on the server.
type Config struct {
	URL      string        // the server, e.g. http://127.0.0.1:8080
	Tables   int           // tables played at once
	Duration time.Duration // how long to play
	Variant  string        // auction, ten-point or pawnee (default pawnee)
	Think    time.Duration // mean pause before a client acts (default 1s; 0 acts at once)
	Seed     uint64
	// Reconnect makes clients redial (with backoff) when their connection
	// drops, as browsers do, instead of counting an error and stopping.
	Reconnect bool
	// Protocol1 makes the seats' clients speak protocol 1 (a whole state
	// every time) rather than 2 (deltas), as old clients do: to compare
	// the bytes (Report.StateBytes) and the server's CPU.
	Protocol1 bool
	// Once plays one match per table; otherwise a table whose match ends
	// is replaced by a new one while time is left.
	Once bool
	// Options are the house rules of every table (e.g. {"target": 1000}
	// for matches that outlast the run); nil for the game's defaults.
	Options map[string]any
	// SetupTimeout bounds creating the tables and joining their seats,
	// before play (default 30s and 25ms a table): a server that cannot
	// set them up in that time fails the run.
	SetupTimeout time.Duration
	// SetupAtOnce, above 0, is how many tables are set up at a time (a
	// table's place is freed once it is dealt); 0 sets them all up at
	// once.
	SetupAtOnce int
	// Marks, if not nil, gets the line "pitch loadtest: play begins" as
	// play begins and "pitch loadtest: play ends" as its time is up: a
	// script can sample the server's process at those moments
	// (tools/pinned-load.sh).
	Marks io.Writer
	// Event, above 0, plays one progressive event of that many people
	// instead of Tables tables (event.go): EventRounds rounds (default 3)
	// of EventHands hands (default 2), the run its host.
	Event       int
	EventRounds int
	EventHands  int
	// EventJoinGap is the time between one person's joining the event
	// and the next's, as people arrive at a club (0: all at once).
	EventJoinGap time.Duration
	// Trace keeps each seat's last messages, sent and received, and adds
	// them to that seat's error samples: a test's failure then says what
	// the client saw.
	Trace bool
	// Latencies, if not nil, gets a line for each action confirmed: the
	// seconds since play began, the action's latency in milliseconds,
	// the table and the action's event number, space-separated. The
	// run writes one line at a time, never two at once.
	Latencies io.Writer
}

// trace is a seat's last messages when Config.Trace is set.
type trace struct {
	on    bool
	start time.Time
	lines []string
}

func (tr *trace) add(format string, args ...any) {
	if !tr.on {
		return
	}
	if len(tr.lines) == 16 {
		tr.lines = tr.lines[1:]
	}
	tr.lines = append(tr.lines, fmt.Sprintf("%6dms ", time.Since(tr.start).Milliseconds())+fmt.Sprintf(format, args...))
}

func (tr *trace) String() string {
	if !tr.on {
		return ""
	}
	return "; its last messages:\n\t" + strings.Join(tr.lines, "\n\t")
}

// A refusal is the server saying no to the load: an HTTP 429 or 503, or
// a WebSocket closed with 1013 (try again later). The first one ends the
// run: the load asked for is not the load the server takes.
type refusal struct {
	Kind   string // the server's error code, or the limit a close reason names
	Detail string // the status or close code and the server's words
}

func (e *refusal) Error() string { return e.Detail }

// The kinds of refusal, and the `pitch serve` flag that sets each limit.
var refusalFlags = map[string]string{
	"rate_addr":       "--addr-rate 0 (requests and messages a second from one address)",
	"too_many_tables": "--tables-per-hour 0 (tables one address may create in an hour)",
	"server_full":     "--max-tables 0 (unfinished tables the server holds)",
	"addr_full":       "--addr-conns 0 (WebSockets one address may hold open)",
	"conns_full":      "--max-conns 0 (WebSockets the server holds open)",
	"overloaded":      "--overload-lag 0 (how far behind the server may run; or give it more CPU, or ask for fewer tables)",
}

// closeKind names the limit a 1013 close reason is about, or "" for one
// that passes (the server cannot read a table's newest state just now).
func closeKind(reason string) string {
	switch {
	case strings.Contains(reason, "overloaded"):
		return "overloaded"
	case strings.Contains(reason, "from your address"):
		return "addr_full"
	case strings.Contains(reason, "server is full"):
		return "conns_full"
	}
	return ""
}

// RefusedError is Run's error when the server refused the load: how many
// refusals of each kind, and the flags of `pitch serve` that lift them.
type RefusedError struct {
	Refused map[string]int // by kind
	Sample  map[string]string
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	b.WriteString("the server refused the load")
	kinds := slices.Sorted(maps.Keys(e.Refused))
	for _, k := range kinds {
		fmt.Fprintf(&b, "\n  %d× %s: %s", e.Refused[k], k, e.Sample[k])
	}
	b.WriteString("\nits limits are set by `pitch serve` flags; for a load test from one address start it with:")
	for _, k := range kinds {
		if f, ok := refusalFlags[k]; ok {
			fmt.Fprintf(&b, "\n  %s", f)
		}
	}
	return b.String()
}

// Report is what a run measured.
type Report struct {
	Tables    int           `json:"tables"`
	Finished  int           `json:"tables_finished"` // matches played to the end
	Hands     int           `json:"hands_finished"`
	Actions   int           `json:"actions"`
	PerSecond float64       `json:"actions_per_second"`
	P50       time.Duration `json:"p50_ns"`
	P99       time.Duration `json:"p99_ns"`
	Max       time.Duration `json:"max_ns"`
	// ServerP50 and ServerP99 are the server's own part of the latency
	// over the run (from each action's arrival to its states queued for
	// the table's connections; GET /api/stats), each the upper bound of
	// its bucket, at most 19 % above the true figure; 0 when the server
	// does not say.
	ServerP50    time.Duration `json:"server_p50_ns"`
	ServerP99    time.Duration `json:"server_p99_ns"`
	Errors       int           `json:"errors"`
	ErrorSamples []string      `json:"error_samples,omitempty"`
	Reconnects   int           `json:"reconnects"`
	// StateBytes and StateMsgs are what the seats' connections were sent
	// of states and deltas (statedelta.go): bytes and messages.
	StateBytes int64 `json:"state_bytes"`
	StateMsgs  int64 `json:"state_msgs"`
	// Refused counts the server's refusals by kind (its error code, or
	// the limit a 1013 close names); the first one ends the run.
	Refused map[string]int `json:"refused,omitempty"`
	// Closes counts how connections ended, by the server's "code reason"
	// (e.g. "1012 the server is restarting"), or "no close frame" (a dial
	// that failed, a connection cut).
	Closes      map[string]int `json:"closes,omitempty"`
	HeapBefore  uint64         `json:"server_heap_before"`
	HeapAfter   uint64         `json:"server_heap_after"`
	Connections int            `json:"server_connections"`
	// The server's memory with every client connected, at the end of
	// play (before the clients leave), and before the run: live heap,
	// goroutine stacks, and resident memory.
	Loaded   ServerMemory  `json:"server_loaded"`
	Unloaded ServerMemory  `json:"server_unloaded"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	// Setup is the time before play: creating the tables, joining their
	// seats, connecting and each table's first deal.
	Setup time.Duration `json:"setup_ns"`
	// CPU is the load test's own CPU over play (user and system, 0 if
	// unknown), and Received the bytes its WebSockets received over
	// play, on the sockets: the server's socket writes to them.
	CPU      time.Duration `json:"cpu_ns"`
	Received int64         `json:"ws_bytes_received"`
	// ServerAllocs and ServerAllocBytes are what the server allocated
	// over play, heap objects and bytes (GET /api/stats; 0 when it does
	// not say).
	ServerAllocs     uint64 `json:"server_allocs"`
	ServerAllocBytes uint64 `json:"server_alloc_bytes"`
	// Event and EventHost are the event's ID and its host's token, in
	// event mode (Config.Event).
	Event     string `json:"event,omitempty"`
	EventHost string `json:"-"`
	// In event mode, each person's follower of the event's page
	// (follow.go): how many there were, the most and the mean bytes one
	// received over the whole event (the upgrade and every frame), the
	// most messages one received, and how many ended holding an event
	// other than the server's.
	Followers         int   `json:"followers,omitempty"`
	FollowMaxBytes    int64 `json:"follow_max_bytes,omitempty"`
	FollowMeanBytes   int64 `json:"follow_mean_bytes,omitempty"`
	FollowMaxMessages int   `json:"follow_max_messages,omitempty"`
	FollowMismatch    int   `json:"follow_mismatch,omitempty"`
	// StandIns and TimerMoves count the actions made for a seat of the
	// run's by the server's stand-in (the seat was away) and by its turn
	// timer (its time ran out), as the seat's own state showed them.
	StandIns   int `json:"stand_ins"`
	TimerMoves int `json:"timer_moves"`
	// Seen is, per table, the highest event number any of its clients was
	// told of: after a crash the table's log must hold at least that many.
	Seen map[string]int `json:"-"`
	// Sent is, per table, every action a client sent that the server then
	// confirmed, by event number.
	Confirmed map[string]map[int]json.RawMessage `json:"-"`
}

// run holds a run's shared counters.
type run struct {
	cfg      Config
	client   *http.Client
	mu       sync.Mutex
	lat      []time.Duration
	t0       time.Time
	errs     []string
	nerr     atomic.Int64
	actions  atomic.Int64
	hands    atomic.Int64
	finished atomic.Int64
	reconn   atomic.Int64
	seen     map[string]int
	conf     map[string]map[int]json.RawMessage
	closes   map[string]int
	refused  map[string]int
	sample   map[string]string // a refusal of each kind, in the server's words
	madeFor  map[string]string // "table seat seq" of an action made for a seat of the run's: by whom
	stop     context.CancelFunc
	ready    sync.WaitGroup // every first table created, joined, connected and dealt
	start    chan struct{}  // closed when play may begin
	setup    chan struct{}  // a place for each table being set up (Config.SetupAtOnce); nil: no limit
	received atomic.Int64   // bytes the WebSockets received
	ws       *http.Client   // what they dial with: counts them

	// stateBytes, stateMsgs: Report's
	stateBytes, stateMsgs atomic.Int64
}

// refuse counts a refusal and ends the run.
func (r *run) refuse(e *refusal) {
	r.mu.Lock()
	r.refused[e.Kind]++
	if _, ok := r.sample[e.Kind]; !ok {
		r.sample[e.Kind] = e.Detail
	}
	r.mu.Unlock()
	r.stop()
}

func (r *run) fail(format string, args ...any) {
	r.nerr.Add(1)
	r.mu.Lock()
	if len(r.errs) < 10 {
		r.errs = append(r.errs, fmt.Sprintf(format, args...))
	}
	r.mu.Unlock()
}

// Run plays cfg.Tables tables against the server for cfg.Duration.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Event != 0 {
		if err := checkEvent(&cfg); err != nil {
			return nil, err
		}
	} else if cfg.Tables < 1 || cfg.Tables > 10000 {
		return nil, fmt.Errorf("tables must be 1 to 10000, not %d", cfg.Tables)
	}
	if err := checkSetup(&cfg); err != nil {
		return nil, err
	}
	if cfg.Duration <= 0 || cfg.Duration > 24*time.Hour {
		return nil, fmt.Errorf("duration must be above 0 and at most 24h, not %s", cfg.Duration)
	}
	if cfg.Variant == "" {
		cfg.Variant = "pawnee"
	}
	cfg.URL = strings.TrimRight(cfg.URL, "/")
	if !strings.HasPrefix(cfg.URL, "http://") && !strings.HasPrefix(cfg.URL, "https://") {
		cfg.URL = "http://" + cfg.URL
	}
	if cfg.SetupTimeout == 0 {
		cfg.SetupTimeout = 30*time.Second + time.Duration(cfg.Tables)*25*time.Millisecond
	}
	r := &run{cfg: cfg, client: &http.Client{Timeout: 30 * time.Second}, seen: map[string]int{},
		conf: map[string]map[int]json.RawMessage{}, closes: map[string]int{}, refused: map[string]int{}, sample: map[string]string{},
		madeFor: map[string]string{}}
	r.ws = countingClient(&r.received)
	if cfg.SetupAtOnce > 0 {
		r.setup = make(chan struct{}, cfg.SetupAtOnce)
	}
	rep := &Report{Tables: cfg.Tables}
	before, err := r.stats(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("the server at %s does not answer: %w", cfg.URL, err)
	}
	rep.HeapBefore = before.HeapAlloc
	rep.Unloaded = memoryOf(before)

	// Set every table up first (create, join every seat), then play: the
	// latency measured is that of tables in play, not of the rush to sit.
	setupStart := time.Now()
	r.start = make(chan struct{})
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.stop = cancel
	var wg sync.WaitGroup
	if cfg.Event > 0 {
		r.ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.event(pctx, rep)
		}()
	} else {
		r.ready.Add(cfg.Tables)
		for i := range cfg.Tables {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.table(pctx, i)
			}()
		}
	}
	setupDone := make(chan struct{})
	go func() { r.ready.Wait(); close(setupDone) }()
	select {
	case <-setupDone:
	case <-time.After(cfg.SetupTimeout):
		cancel()
		<-setupDone
		r.fail("setting up %d tables took longer than %s: the server is too slow, or its answers are failing", cfg.Tables, cfg.SetupTimeout)
	}
	rep.Setup = time.Since(setupStart)
	atStart, _ := r.stats(ctx, false) // the server's latency counts so far
	start := time.Now()
	r.t0 = start
	// Just before time is up, with every client still connected: the
	// server's memory loaded.
	probed := make(chan struct{})
	probe := time.AfterFunc(max(cfg.Duration-time.Second, cfg.Duration*9/10), func() {
		defer close(probed)
		if st, err := r.stats(ctx, true); err == nil {
			r.mu.Lock()
			rep.Loaded = memoryOf(st)
			r.mu.Unlock()
		}
	})
	defer probe.Stop()
	from := r.mark()
	var to playWindow
	var atEnd *serverStats
	var ended sync.Once
	end := func() {
		ended.Do(func() {
			to = r.mark()
			r.note("ends")
			atEnd, _ = r.stats(ctx, false)
		})
	}
	timer := time.AfterFunc(cfg.Duration, func() { end(); cancel() })
	defer timer.Stop()
	r.note("begins")
	close(r.start)
	wg.Wait()
	end() // play ended before its time (a refusal, an interrupt)
	rep.CPU, rep.Received = to.cpu-from.cpu, to.bytes-from.bytes
	if atStart.Mallocs > 0 && atEnd.Mallocs >= atStart.Mallocs {
		rep.ServerAllocs, rep.ServerAllocBytes = atEnd.Mallocs-atStart.Mallocs, atEnd.AllocBytes-atStart.AllocBytes
	}
	rep.Elapsed = time.Since(start)
	if !probe.Stop() {
		<-probed // a collection of a big heap on a busy core may outlast play: its reading is waited for
	}

	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	if after, err := r.stats(sctx, false); err == nil {
		rep.HeapAfter, rep.Connections = after.HeapAlloc, after.Connections
		if atStart != nil {
			rep.ServerP50, rep.ServerP99 = serverLatency(atStart.ActionLatency, after.ActionLatency)
		}
	}
	rep.Finished, rep.Hands, rep.Actions = int(r.finished.Load()), int(r.hands.Load()), int(r.actions.Load())
	rep.PerSecond = float64(rep.Actions) / rep.Elapsed.Seconds()
	rep.Errors, rep.ErrorSamples, rep.Reconnects = int(r.nerr.Load()), r.errs, int(r.reconn.Load())
	rep.StateBytes, rep.StateMsgs = r.stateBytes.Load(), r.stateMsgs.Load()
	rep.Seen, rep.Confirmed = r.seen, r.conf
	for _, by := range r.madeFor {
		switch by {
		case "stand-in":
			rep.StandIns++
		case "timer":
			rep.TimerMoves++
		}
	}
	if len(r.closes) > 0 {
		rep.Closes = r.closes
	}
	if len(r.refused) > 0 {
		rep.Refused = r.refused
	}
	slices.Sort(r.lat)
	if n := len(r.lat); n > 0 {
		rep.P50, rep.P99, rep.Max = r.lat[n/2], r.lat[min(n-1, n*99/100)], r.lat[n-1]
	}
	if len(r.refused) > 0 {
		return rep, &RefusedError{Refused: r.refused, Sample: r.sample}
	}
	return rep, nil
}

func (r *run) call(ctx context.Context, method, path string, body, out any) error {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.cfg.URL+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e struct{ Error, Code string }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		err := &statusError{fmt.Sprintf("%s %s: %s: %s", method, path, resp.Status, e.Error)}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable && e.Code != "" {
			kind := e.Code
			if kind == "" {
				kind = "http_429"
			}
			return &refusal{Kind: kind, Detail: err.Error() + " (Retry-After " + resp.Header.Get("Retry-After") + ")"}
		}
		return err
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// statusError is the server's answer to a request, an error status.
type statusError struct{ msg string }

func (e *statusError) Error() string { return e.msg }

// table creates one table, joins all its seats and plays them until the
// match ends or time is up; then, time allowing, it starts another.
func (r *run) table(ctx context.Context, i int) {
	free, ok := r.setupSlot(ctx)
	if !ok {
		r.ready.Done()
		return
	}
	var once sync.Once
	ready := func() { once.Do(func() { r.ready.Done(); free() }) }
	defer ready()
	for ctx.Err() == nil {
		var info struct {
			ID    string `json:"id"`
			Seats []any  `json:"seats"`
		}
		seats := seatsFor(r.cfg.Variant)
		req := map[string]any{"variant": r.cfg.Variant, "seats": seats}
		if r.cfg.Options != nil {
			req["options"] = r.cfg.Options
		}
		if err := r.call(ctx, "POST", "/api/tables", req, &info); err != nil {
			if ref := (*refusal)(nil); errors.As(err, &ref) {
				r.refuse(ref)
				return
			}
			if ctx.Err() == nil {
				r.fail("create table: %v", err)
				sleep(ctx, time.Second)
			}
			continue
		}
		tokens := make([]string, len(seats))
		for s := range seats {
			var j struct{ Token string }
			if err := r.call(ctx, "POST", "/api/tables/"+info.ID+"/join", map[string]any{"seat": s, "name": fmt.Sprintf("load%d", s)}, &j); err != nil {
				if ref := (*refusal)(nil); errors.As(err, &ref) {
					r.refuse(ref)
					return
				}
				if ctx.Err() == nil {
					r.fail("join: %v", err)
				}
				return
			}
			tokens[s] = j.Token
		}
		// The seats connect at once and answer the first deal's
		// commitment, and the second's, published as the first is dealt;
		// the table is set up once each seat has seen the first deal made
		// and its value for the second stored (or stopped), and its seats
		// act only once play begins. Otherwise every table's contributions
		// would fall in the first second of play.
		var dealt sync.WaitGroup
		dealt.Add(len(tokens))
		go func() { dealt.Wait(); ready() }()
		var wg sync.WaitGroup
		var over atomic.Bool
		for s, tok := range tokens {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var seen sync.Once
				onDealt := func() { seen.Do(dealt.Done) }
				defer onDealt()
				rng := rand.New(rand.NewPCG(r.cfg.Seed, uint64(i)<<8|uint64(s)))
				if r.seat(ctx, info.ID, s, tok, rng, onDealt) {
					over.Store(true)
				}
			}()
		}
		wg.Wait()
		if over.Load() {
			r.finished.Add(1)
		}
		if r.cfg.Once {
			return
		}
	}
}

// Seats is how many seats, each a client's WebSocket, a table of variant
// has in a load test ("": pawnee, as Run plays).
func Seats(variant string) int {
	if variant == "" {
		variant = "pawnee"
	}
	if n := map[string]int{"auction": 4, "ten-point": 4, "pawnee": 5}[variant]; n != 0 {
		return n
	}
	return 4
}

func seatsFor(variant string) []map[string]string {
	out := make([]map[string]string, Seats(variant))
	for i := range out {
		out[i] = map[string]string{"kind": "human"}
	}
	return out
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// state is the part of the server's state message a client needs
// (decodeState reads it).
type state struct {
	Type    string            `json:"type"`
	Message string            `json:"message"`
	Seq     int               `json:"seq"`
	Seat    int               `json:"seat"`
	Legal   []json.RawMessage `json:"legal"`
	Discard *struct {
		Must   []string `json:"must"`
		Pool   []string `json:"pool"`
		Choose int      `json:"choose"`
		Kind   string   `json:"kind"`
	} `json:"discard"`
	View struct {
		Turn int `json:"turn"`
	} `json:"view"`
	// Log is this hand's actions, one entry an event; LastHand's is the
	// hand before's, sent until the next hand's first action. Each is
	// kept as sent (a JSON array of logEntry): only an action being
	// confirmed is looked up in it (shows).
	Log      json.RawMessage `json:"log"`
	LastHand *struct {
		Log json.RawMessage `json:"log"`
	} `json:"last_hand"`
	Over bool `json:"match_over"`
	// Hands is how many rows the score sheet has: hands finished.
	Hands int `json:"-"`
	// Fair is the next deal's commitment, which the seat's page answers
	// with a random value, as the browser does (docs/fairness.md).
	Fair *fairPart `json:"fair"`
}

// fairPart is what a client reads of a state's fair deals.
type fairPart struct {
	Next *fairNextPart `json:"next"`
}

// fairNextPart is the next deal's commitment and who contributed.
type fairNextPart struct {
	Commitment  string `json:"commitment"`
	Contributed []int  `json:"contributed"`
}

// seat plays one seat until the match is over (true) or time is up.
// dealt is called once the seat has seen its table's first deal made and
// its value for the next deal stored (and may be called again).
func (r *run) seat(ctx context.Context, table string, seat int, token string, rng *rand.Rand, dealt func()) bool {
	wsURL := "ws" + strings.TrimPrefix(r.cfg.URL, "http") + "/api/tables/" + table + "/ws"
	backoff := 100 * time.Millisecond
	tr := &trace{on: r.cfg.Trace, start: time.Now()}
	for ctx.Err() == nil {
		over, err := r.play(ctx, wsURL, table, seat, token, rng, tr, dealt)
		if over {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		var ce websocket.CloseError
		how := "no close frame"
		if errors.As(err, &ce) {
			how = fmt.Sprintf("%d %s", ce.Code, ce.Reason)
		}
		tr.add("closed: %s (%v)", how, err)
		if ce.Code == websocket.StatusServiceRestart {
			backoff = 100 * time.Millisecond // a restart: back soon
		}
		r.mu.Lock()
		r.closes[how]++
		r.mu.Unlock()
		if ref := (*refusal)(nil); errors.As(err, &ref) {
			r.refuse(ref)
			return false
		}
		if kind := closeKind(ce.Reason); ce.Code == websocket.StatusTryAgainLater && kind != "" {
			r.refuse(&refusal{Kind: kind, Detail: how})
			return false
		}
		if !r.cfg.Reconnect {
			r.fail("table %s seat %d: %v%s", table, seat, err, tr)
			return false
		}
		r.reconn.Add(1)
		sleep(ctx, backoff+time.Duration(rng.Int64N(int64(backoff))))
		backoff = min(2*backoff, 2*time.Second)
	}
	return false
}

func (r *run) play(ctx context.Context, wsURL, table string, seat int, token string, rng *rand.Rand, tr *trace, dealt func()) (bool, error) {
	c, resp, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPClient: r.ws})
	if err != nil {
		if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
			var e struct{ Error, Code string }
			_ = json.NewDecoder(resp.Body).Decode(&e)
			kind := e.Code
			if kind == "" {
				kind = fmt.Sprintf("http_%d", resp.StatusCode)
			}
			return false, &refusal{Kind: kind, Detail: fmt.Sprintf("WebSocket upgrade: %s: %s", resp.Status, e.Error)}
		}
		return false, err
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	// write keeps to the server's limit of 10 messages a second on a
	// connection: a seat with turn after turn (a pawnee seat alone with
	// trumps) at a short think time would otherwise go over it.
	var lastWrite time.Time
	write := func(msg []byte) error {
		if d := time.Until(lastWrite.Add(writeGap)); d > 0 {
			sleep(ctx, d)
		}
		lastWrite = time.Now()
		return c.Write(ctx, websocket.MessageText, msg)
	}
	hello := r.hello(token)
	if err := write(hello); err != nil {
		return false, err
	}
	tr.add("connected")
	var held heldState
	var sentAt time.Time
	sentSeq := -1
	var sent json.RawMessage
	hands := 0
	answered := ""       // the last commitment this connection sent a value for
	scanned := 0         // the log's entries up to this event number are looked at (madeForSeat)
	var buf bytes.Buffer // each message is read into it, reused
	for {
		_, rd, err := c.Reader(ctx)
		if err != nil {
			return false, err
		}
		buf.Reset()
		if _, err := buf.ReadFrom(rd); err != nil {
			return false, err
		}
		data := buf.Bytes()
		var st state
		resync, err := r.decodeMsg(&held, data, &st)
		if err != nil {
			return false, fmt.Errorf("bad message: %v", err)
		}
		if resync {
			if err := write([]byte(`{"type":"resync"}`)); err != nil {
				return false, err
			}
			continue
		}
		if tr.on {
			tr.add("got %s seq %d turn %d log %d", st.Type, st.Seq, st.View.Turn, len(logEntries(st.Log)))
		}
		if st.Type == "error" {
			r.fail("table %s seat %d: server says: %s%s", table, seat, st.Message, tr)
			sentSeq = -1
			continue
		}
		scanned = r.madeForSeat(&st, table, seat, scanned)
		r.mu.Lock()
		if st.Seq > r.seen[table] {
			r.seen[table] = st.Seq
		}
		if sentSeq >= 0 && st.Seq > sentSeq {
			// Confirmed only when the state shows it in its place.
			if ok, _ := st.shows(sentSeq, seat, sent); ok {
				r.lat = append(r.lat, time.Since(sentAt))
				if r.cfg.Latencies != nil {
					fmt.Fprintf(r.cfg.Latencies, "%.3f %.3f %s %d\n", time.Since(r.t0).Seconds(), float64(time.Since(sentAt))/float64(time.Millisecond), table, sentSeq)
				}
				if r.conf[table] == nil {
					r.conf[table] = map[int]json.RawMessage{}
				}
				r.conf[table][sentSeq] = sent
				r.actions.Add(1)
			}
			sentSeq = -1
		}
		r.mu.Unlock()
		if f := st.Fair; f != nil && f.Next != nil && f.Next.Commitment != answered && !slices.Contains(f.Next.Contributed, seat) {
			answered = f.Next.Commitment
			// The same value for a commitment on every connection, as the
			// page keeps it: a client back through another process whose
			// state does not show its contribution yet sends it again, and
			// the driver takes the same value again but refuses another.
			v := sha256.Sum256(fmt.Appendf(nil, "%d %s %d %s", r.cfg.Seed, table, seat, answered))
			msg, _ := json.Marshal(map[string]string{"type": "contribute", "commitment": answered, "value": hex.EncodeToString(v[:])})
			tr.add("sent contribute to %.8s", answered)
			if err := write(msg); err != nil {
				return false, err
			}
		}
		if seat == 0 && st.Hands > hands {
			r.hands.Add(int64(st.Hands - hands))
			hands = st.Hands
		}
		if st.Over {
			return true, nil
		}
		setUp := st.View.Turn >= 0 && (st.Fair == nil || st.Fair.Next == nil || slices.Contains(st.Fair.Next.Contributed, seat))
		if setUp {
			dealt() // the first deal made, and the next one's value stored
		}
		if st.View.Turn != seat || sentSeq >= 0 {
			continue
		}
		select { // play begins once every table is set up
		case <-r.start:
		case <-ctx.Done():
			return false, ctx.Err()
		default:
			if !setUp {
				continue // the state that lists this seat's value comes next
			}
			select {
			case <-r.start:
			case <-ctx.Done():
				return false, ctx.Err()
			case <-time.After(5 * time.Second):
				// A long set-up: read on, or the server's pings would go
				// unanswered (a pong is sent only while reading). The
				// state asked for comes back, and the wait goes on.
				if err := write(hello); err != nil {
					return false, err
				}
				continue
			}
		}
		a := choose(&st, seat, rng)
		if a == nil {
			continue
		}
		if r.cfg.Think > 0 {
			sleep(ctx, time.Duration(rng.Int64N(int64(2*r.cfg.Think))))
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
		}
		msg, _ := json.Marshal(map[string]any{"type": "action", "action": a})
		sentSeq, sent = st.Seq, a
		err = write(msg)
		tr.add("sent %s at seq %d", a, sentSeq)
		sentAt = lastWrite // after any wait for the rate limit
		if err != nil {
			return false, err
		}
	}
}

// writeGap is the least time between two messages a client sends on one
// connection: the server takes 10 a second.
const writeGap = 105 * time.Millisecond

// choose picks a random legal action from a state message.
func choose(st *state, seat int, rng *rand.Rand) json.RawMessage {
	if d := st.Discard; d != nil {
		cards := append([]string{}, d.Must...)
		pool := append([]string{}, d.Pool...)
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		cards = append(cards, pool[:d.Choose]...)
		b, _ := json.Marshal(map[string]any{"seat": seat, "discard": cards})
		return b
	}
	if len(st.Legal) == 0 {
		return nil
	}
	return bytes.Clone(st.Legal[rng.IntN(len(st.Legal))]) // kept (Report.Confirmed) past the message it is read from
}
