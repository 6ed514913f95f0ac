package server_test

// The test harness of the server's tests: a real server over a real store
// (SQLite always; PostgreSQL too when PITCH_TEST_POSTGRES holds a URL, each
// test in a schema of its own), HTTP helpers, WebSocket test clients that
// play legal actions as the server offers them, and checks of what every
// message may show, made against the authoritative match rebuilt from the
// stored log and deals with pitch.NewMatch (tables from before fair deals)
// or pitch.NewMatchByDeck.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch"
	"pitch/server"
	pwire "pitch/server/wire"
	"pitch/store"
	"pitch/store/storetest"
)

var bg = context.Background()

// storeKind runs f once per store: "sqlite" always, "postgres" when
// PITCH_TEST_POSTGRES is set. fresh gives the DSN of an empty database of
// the test's own, which stays the same database when opened again.
func forEachStore(t *testing.T, f func(t *testing.T, fresh func(t *testing.T) string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		f(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "pitch.db") })
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PITCH_TEST_POSTGRES")
		if base == "" {
			t.Skip("PITCH_TEST_POSTGRES is not set")
		}
		t.Parallel()
		f(t, func(t *testing.T) string { return storetest.FreshPostgres(t, base) })
	})
}

// --- the server under test ---

// logBuf collects what the server logs at warning level or above: a test
// server logs none unless something went wrong.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// take returns what was logged and empties the log, for a test that
// expects a warning.
func (l *logBuf) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	l.b.Reset()
	return s
}

type testServer struct {
	t       *testing.T
	dsn     string
	st      store.Store
	srv     *server.Server
	hs      *httptest.Server
	logs    *logBuf
	all     *logBuf // everything the server logs, debug level and up
	stopped bool
}

// fastOptions are the options of most tests: bots at once, and nobody
// stands in for a human who drops out while the test runs.
func fastOptions() server.Options {
	return server.Options{BotDelay: time.Millisecond, AwayDelay: time.Minute, RetryDelay: 20 * time.Millisecond, DealWait: 50 * time.Millisecond}
}

// startServer opens the store at dsn and serves a new server over it on
// 127.0.0.1 at a free port.
func startServer(t *testing.T, dsn string, opts server.Options) *testServer {
	t.Helper()
	st, err := store.Open(bg, dsn)
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	logs, all := &logBuf{}, &logBuf{}
	opts.Logger = slog.New(teeHandler{slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}),
		slog.NewTextHandler(all, &slog.HandlerOptions{Level: slog.LevelDebug})})
	srv, err := server.New(bg, st, opts)
	if err != nil {
		st.Close()
		t.Fatalf("server.New: %v", err)
	}
	ts := &testServer{t: t, dsn: dsn, st: st, srv: srv, hs: httptest.NewServer(srv.Handler()), logs: logs, all: all}
	t.Cleanup(func() {
		ts.stop()
		if l := unexpectedWarnings(logs.String()); l != "" {
			t.Errorf("the server logged warnings:\n%s", l)
		}
	})
	return ts
}

// unexpectedWarnings is what a test server logged less the warnings of a
// cluster's periodic rounds (heartbeat, presence, leases) that the
// database answered too slowly on a loaded machine: the next round tries
// again, and the tests check what players see of it.
func unexpectedWarnings(logged string) string {
	var out []string
	for _, line := range strings.SplitAfter(logged, "\n") {
		slow := strings.Contains(line, "context deadline exceeded") || strings.Contains(line, "timeout")
		round := false
		for _, msg := range roundWarnings {
			round = round || strings.Contains(line, `msg="cluster: `+msg+`"`)
		}
		if line != "" && !(slow && round) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// roundWarnings are the warnings of the cluster's periodic rounds
// (server/cluster.go).
var roundWarnings = []string{"heartbeat failed", "reading presence failed", "reading the live processes failed",
	"renewing leases failed", "sweeping dead processes' leases failed", "taking leases failed", "taking released leases failed"}

// teeHandler logs to two handlers, each at its own level.
type teeHandler [2]slog.Handler

func (h teeHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h[0].Enabled(ctx, l) || h[1].Enabled(ctx, l)
}

func (h teeHandler) Handle(ctx context.Context, r slog.Record) error {
	for _, x := range h {
		if x.Enabled(ctx, r.Level) {
			if err := x.Handle(ctx, r.Clone()); err != nil {
				return err
			}
		}
	}
	return nil
}

func (h teeHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return teeHandler{h[0].WithAttrs(as), h[1].WithAttrs(as)}
}

func (h teeHandler) WithGroup(name string) slog.Handler {
	return teeHandler{h[0].WithGroup(name), h[1].WithGroup(name)}
}

// stop stops the server as `pitch serve` does on a signal, then closes the store.
func (ts *testServer) stop() {
	if ts.stopped {
		return
	}
	ts.stopped = true
	ts.srv.Close()
	ts.hs.Close()
	ts.st.Close()
}

// do sends a request and returns the response (body read) and its body.
func (ts *testServer) do(method, path, body string) (*http.Response, []byte) {
	ts.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.hs.URL+path, rd)
	if err != nil {
		ts.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := ts.hs.Client().Do(req)
	if err != nil {
		ts.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		ts.t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	checkSecurityHeaders(ts.t, method+" "+path, resp)
	return resp, b
}

// checkSecurityHeaders checks the headers every response carries.
func checkSecurityHeaders(t *testing.T, what string, resp *http.Response) {
	t.Helper()
	want := map[string]string{
		"Content-Security-Policy": "default-src 'self'",
		"X-Content-Type-Options":  "nosniff",
		"X-Frame-Options":         "DENY",
		"Referrer-Policy":         "no-referrer",
	}
	if strings.HasPrefix(resp.Request.URL.Path, "/api/") {
		want["Cache-Control"] = "no-store"
	}
	for k, v := range want {
		if got := resp.Header.Get(k); !strings.Contains(got, v) {
			t.Errorf("%s (%d): header %s is %q, want %q", what, resp.StatusCode, k, got, v)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("%s: Content-Security-Policy %q lacks frame-ancestors 'none'", what, csp)
	}
}

// tableJSON is a table as the API describes it.
type tableJSON struct {
	ID        string         `json:"id"`
	Variant   string         `json:"variant"`
	Options   map[string]any `json:"options"`
	TurnTimer int            `json:"turn_timer"`
	Finished  bool           `json:"finished"`
	Hints     bool           `json:"hints"`
	Seats     []seatJSON     `json:"seats"`
	URL       string         `json:"url"`
	Event     string         `json:"event"` // the event whose round the table plays
}

type seatJSON struct {
	Seat  int    `json:"seat"`
	Kind  string `json:"kind"`
	Level string `json:"level"`
	Name  string `json:"name"`
	Taken bool   `json:"taken"`
}

// create creates a table from a request body and returns it.
func (ts *testServer) create(body string) tableJSON {
	ts.t.Helper()
	resp, b := ts.do("POST", "/api/tables", body)
	if resp.StatusCode != http.StatusCreated {
		ts.t.Fatalf("create %s: status %d: %s", body, resp.StatusCode, b)
	}
	var tj tableJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		ts.t.Fatalf("create: %v: %s", err, b)
	}
	return tj
}

// join takes seat at table id and returns its token.
func (ts *testServer) join(id string, seat int, name string) string {
	ts.t.Helper()
	resp, b := ts.do("POST", "/api/tables/"+id+"/join", fmt.Sprintf(`{"seat":%d,"name":%q}`, seat, name))
	if resp.StatusCode != http.StatusOK {
		ts.t.Fatalf("join seat %d: status %d: %s", seat, resp.StatusCode, b)
	}
	var r struct {
		Seat  int    `json:"seat"`
		Token string `json:"token"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.Token == "" || r.Seat != seat {
		ts.t.Fatalf("join seat %d: %s (%v)", seat, b, err)
	}
	return r.Token
}

// seatsBody writes the seats of a create request: "h" for a human, a
// level (e.g. "easy") for a bot.
func seatsBody(kinds ...string) string {
	var parts []string
	for _, k := range kinds {
		if k == "h" {
			parts = append(parts, `{"kind":"human"}`)
		} else {
			parts = append(parts, fmt.Sprintf(`{"kind":"bot","level":%q}`, k))
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// --- messages as a client reads them (the protocol, independent of the server's types) ---

type wire struct {
	Type     string            `json:"type"`
	Message  string            `json:"message"`
	Seat     int               `json:"seat"`
	Table    tableJSON         `json:"table"`
	Seq      int               `json:"seq"`
	HandNo   int               `json:"hand_no"`
	View     viewWire          `json:"view"`
	Log      []logWire         `json:"log"`
	Legal    []json.RawMessage `json:"legal"`
	Discard  *discardWire      `json:"discard"`
	Sheet    []sheetWire       `json:"sheet"`
	LastHand *summaryWire      `json:"last_hand"`
	Over     bool              `json:"match_over"`
	Winner   []int             `json:"winner"`
	Away     []bool            `json:"away"`
	Waiting  bool              `json:"waiting"`
	Paused   bool              `json:"paused"`
	Timer    *struct {
		Seat    int   `json:"seat"`
		LeftMS  int64 `json:"left_ms"`
		TotalMS int64 `json:"total_ms"`
	} `json:"timer"`
	Refusals []struct {
		Cards   []pitch.Card   `json:"cards"`
		Message string         `json:"message"`
		Code    string         `json:"code"`
		Params  map[string]any `json:"params"`
	} `json:"refusals"`
	SuitTrumps map[string]int `json:"suit_trumps"`
	Code       string         `json:"code"`
	Params     map[string]any `json:"params"`
	NextTable  string         `json:"next_table"`
	Ratings    []struct {
		Seat, Rating, Change int
	} `json:"ratings"`
	NextBy  *int      `json:"next_by"`
	Fair    *fairWire `json:"fair"`
	Reading []int     `json:"reading"`
	// ReadingLeftMS: how long the table still waits for its readers.
	ReadingLeftMS int64 `json:"reading_left_ms"`
	// Invited: the seats invited to a new match, not yet come.
	Invited []int `json:"invited"`
	// chat and hint messages
	Name    string `json:"name"`
	Text    string `json:"text"`
	Options []struct {
		Action json.RawMessage `json:"action"`
		Text   string          `json:"text"`
		Value  float64         `json:"value"`
		Make   *float64        `json:"make"`
	} `json:"options"`

	raw []byte
	// for an error: the state the client held when it arrived, and the
	// cards the refused action itself named
	atSeq int
	named pitch.CardSet
}

// fairWire is a state's fair deals (docs/fairness.md).
type fairWire struct {
	Dealing bool `json:"dealing"`
	Next    *struct {
		Hand        int    `json:"hand"`
		Commitment  string `json:"commitment"`
		CommittedAt string `json:"committed_at"`
		Dealer      int    `json:"dealer"`
		Contributed []int  `json:"contributed"`
		Shared      bool   `json:"shared"`
	} `json:"next"`
	Hand *struct {
		Hand       int    `json:"hand"`
		Commitment string `json:"commitment"`
	} `json:"hand"`
	Last *struct {
		Hand       int    `json:"hand"`
		Commitment string `json:"commitment"`
		Secret     string `json:"secret"`
	} `json:"last"`
}

type viewWire struct {
	Phase  string       `json:"phase"`
	Dealer int          `json:"dealer"`
	Turn   int          `json:"turn"`
	Scores []int        `json:"scores"`
	Hand   []pitch.Card `json:"hand"`
	Trumps []pitch.Card `json:"trumps"`
	Counts []int        `json:"counts"`
	Bid    int          `json:"bid"`
	Bidder int          `json:"bidder"`
	Called *pitch.Card  `json:"called"`
	Widow  []pitch.Card `json:"widow"`
	Shown  []pitch.Card `json:"shown"`
	Out    []pitch.Card `json:"out"`
}

type logWire struct {
	Seat   int             `json:"seat"`
	Kind   string          `json:"kind"` // only on an entry whose action is hidden
	Text   string          `json:"text"`
	Action json.RawMessage `json:"action"`
	By     string          `json:"by"`
}

// kind is the entry's kind: its own, or its action's (as the page reads
// it, from the action's one field besides the seat).
func (e logWire) kind() string {
	if e.Kind != "" || e.Action == nil {
		return e.Kind
	}
	var a pitch.Action
	if err := json.Unmarshal(e.Action, &a); err != nil {
		return "bad action " + string(e.Action)
	}
	return a.Kind.String()
}

type discardWire struct {
	Kind      string                `json:"kind"`
	Count     int                   `json:"count"`
	Must      []pitch.Card          `json:"must"`
	Pool      []pitch.Card          `json:"pool"`
	Choose    int                   `json:"choose"`
	PassLimit int                   `json:"pass_limit"`
	Rule      string                `json:"rule"`
	Keep      map[pitch.Card]string `json:"keep"`
	Over      bool                  `json:"over_protected"`
}

type sheetWire struct {
	Hand   int   `json:"hand"`
	Bidder int   `json:"bidder"`
	Bid    int   `json:"bid"`
	Made   bool  `json:"made"`
	Delta  []int `json:"delta"`
	Scores []int `json:"scores"`
}

type pointWire struct {
	Kind string      `json:"kind"`
	Card *pitch.Card `json:"card"`
	Seat int         `json:"seat"`
}

type summaryWire struct {
	Hand      int         `json:"hand"`
	Bidder    int         `json:"bidder"`
	Bid       int         `json:"bid"`
	Trump     string      `json:"trump"`
	Partner   *int        `json:"partner"`
	Teams     [][]int     `json:"teams"`
	Points    []pointWire `json:"points"`
	Taken     []int       `json:"taken"`
	Made      bool        `json:"made"`
	Delta     []int       `json:"delta"`
	Scores    []int       `json:"scores"`
	Winner    []int       `json:"winner"`
	LastTrick []struct {
		Seat int        `json:"seat"`
		Card pitch.Card `json:"card"`
	} `json:"last_trick"`
	LastWinner int `json:"last_winner"`
	Tricks     int `json:"tricks"`
	// the finished hand as the seat saw it at its end, until the next
	// hand's first move
	View *viewWire `json:"view"`
	Log  []logWire `json:"log"`
}

func setOf(cards []pitch.Card) pitch.CardSet { return pitch.SetOf(cards...) }

// --- WebSocket clients ---

// delivery is one message (or the end of the connection) from a client's reader.
type delivery struct {
	c    *client
	data []byte
	err  error
}

// hub drives the clients of one table from the test goroutine: every
// client's messages come in on one channel, in the order each client got
// them, and the humans answer the states that ask them to act.
type hub struct {
	t     *testing.T
	ts    *testServer
	table string
	in    chan delivery
	rng   *mrand.Rand

	clients []*client
	badRate float64 // how often a human first sends a refused action
	// plan, when set, picks a human's action before the random choice
	// does (ok false: no opinion): a strategy that a test relies on.
	plan func(c *client, m *wire) (a pitch.Action, ok bool)
	// hold, when it returns true, keeps c from acting on m (for now).
	hold func(c *client, m *wire) bool
	// noContribute keeps the seated clients from contributing to deals,
	// as a page does by itself on each new commitment.
	noContribute bool
	// fair makes the seated clients say in their hello that they send a
	// value for each commitment, as a page does: a due deal then waits
	// for their values (long: play's awaitsOnline) rather than for the
	// table's deal wait alone, so that they are in the deal whatever the
	// machine's load.
	fair bool
	// summary makes the seated clients say in their hello that they show
	// each hand's summary (and so are waited for until they say ready).
	summary bool
	// httpClient, when set, dials the connections (its cookies: a
	// signed-in browser's).
	httpClient *http.Client
	// rig, when set, chooses the values the clients contribute to each
	// fair deal so that the hand dealt is one it accepts, given the
	// table's human seats (rig_test.go); rigged holds them by commitment
	// and seat.
	rig    func(s *pitch.State, humans []int) bool
	rigged map[string]map[int]string
	// follow: each client takes the seat each state names (-1 for none),
	// as a person's page does whose seat is handed over (play now).
	follow bool
	// overSix counts the ten-point choices between passing trumps and
	// burning them (TP-TR-5) the hub's clients have made: even, they pass
	// (fewer than would take them to 6 when they hold 8 or more, so a
	// burn follows), odd, they burn at once. The choices alternate across
	// seats, and across hubs that share the counter, so that both are seen
	// as soon as two such choices were made, not by luck.
	overSix *int
	// protocol, when not 0, is said in the hello of the connections made
	// while it is set: 2, deltas, which the client reduces to states
	// (pwire.Held) before it looks at them.
	protocol int
}

func newHub(t *testing.T, ts *testServer, table string, seed uint64) *hub {
	return &hub{t: t, ts: ts, table: table, in: make(chan delivery, 1<<16), rng: mrand.New(mrand.NewPCG(seed, 7)), overSix: new(int)}
}

// client is one WebSocket connection: a seat's, or a spectator's (seat -1).
type client struct {
	h      *hub
	name   string
	seat   int
	token  string
	ws     *websocket.Conn
	cancel context.CancelFunc
	auto   bool // plays legal actions when asked
	// passedIn: in this hand (its number, 0 for none) c has passed
	// trumps at its ten-point turn (TP-TR-5) and burns next.
	passedIn int

	// proto is the protocol c's hello said (0: none, 1); held is what a
	// protocol-2 client holds, deltas how many it was sent.
	proto  int
	held   pwire.Held
	deltas int

	msgs []*wire // everything received, in order
	last *wire   // the last state
	// contributed holds the value c sent for each commitment it saw.
	contributed map[string]string
	actedSeq    int     // the seq of the state last acted on
	bad         []*wire // refused actions sent and not yet answered (named, atSeq)
	gone        bool    // the connection ended
	goneErr     error
	quiet       bool // the end of the connection is expected

	// client-side pacing, below the server's 10 a second (burst 20)
	tokens   float64
	lastTick time.Time
	queue    [][]byte
}

const (
	clientRate  = 8.0
	clientBurst = 16.0
)

// wsURL is the WebSocket address of table id.
func (ts *testServer) wsURL(id string) string {
	return "ws" + strings.TrimPrefix(ts.hs.URL, "http") + "/api/tables/" + id + "/ws"
}

// connect opens a connection for seat (-1: a spectator, with no token) and
// says hello.
func (h *hub) connect(name string, seat int, token string, auto bool) *client {
	h.t.Helper()
	ctx, cancel := context.WithCancel(bg)
	ws, _, err := websocket.Dial(ctx, h.ts.wsURL(h.table), &websocket.DialOptions{HTTPClient: h.httpClient})
	if err != nil {
		cancel()
		h.t.Fatalf("%s: dial: %v", name, err)
	}
	ws.SetReadLimit(1 << 22)
	c := &client{h: h, name: name, seat: seat, token: token, ws: ws, cancel: cancel, auto: auto, actedSeq: -1,
		tokens: clientBurst, lastTick: time.Now(), proto: h.protocol}
	say := map[string]any{"type": "hello", "token": token, "summary": h.summary}
	if h.fair && !h.noContribute {
		say["fair"] = true
	}
	hello, _ := json.Marshal(say)
	if token == "" {
		hello = []byte(`{"type":"hello"}`)
	}
	if h.protocol != 0 {
		hello = fmt.Appendf(hello[:len(hello)-1], `,"protocol":%d}`, h.protocol)
	}
	if h.protocol >= pwire.ProtocolDeltas { // the deltas' every op, as the page
		hello = fmt.Appendf(hello[:len(hello)-1], `,"ops":["copy","push"]}`)
	}
	if err := ws.Write(ctx, websocket.MessageText, hello); err != nil {
		h.t.Fatalf("%s: hello: %v", name, err)
	}
	go func() {
		for {
			_, data, err := ws.Read(ctx)
			select {
			case h.in <- delivery{c, data, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	h.clients = append(h.clients, c)
	h.t.Cleanup(c.close)
	return c
}

// close ends the connection from the client's side.
func (c *client) close() {
	c.quiet = true
	c.cancel()
	c.ws.CloseNow()
}

// send queues a client message, sent as pacing allows.
func (c *client) send(v any) {
	c.h.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.h.t.Fatal(err)
	}
	c.queue = append(c.queue, b)
	c.flush(time.Now())
}

func (c *client) flush(now time.Time) {
	for len(c.queue) > 0 && !c.gone {
		c.tokens = min(clientBurst, c.tokens+now.Sub(c.lastTick).Seconds()*clientRate)
		c.lastTick = now
		if c.tokens < 1 {
			return
		}
		c.tokens--
		ctx, cancel := context.WithTimeout(bg, 5*time.Second)
		err := c.ws.Write(ctx, websocket.MessageText, c.queue[0])
		cancel()
		if err != nil {
			c.h.t.Errorf("%s: write: %v", c.name, err)
			c.gone = true
			return
		}
		c.queue = c.queue[1:]
	}
}

// due is when the next queued message may go, or zero.
func (c *client) due() time.Time {
	if len(c.queue) == 0 || c.gone {
		return time.Time{}
	}
	return c.lastTick.Add(time.Duration((1 - c.tokens) / clientRate * float64(time.Second)))
}

// sendText queues a text message as it is, JSON or not.
func (c *client) sendText(text string) {
	c.queue = append(c.queue, []byte(text))
	c.flush(time.Now())
}

// action sends an action.
func (c *client) action(a any) {
	var raw json.RawMessage
	switch a := a.(type) {
	case json.RawMessage:
		raw = a
	case string:
		raw = json.RawMessage(a)
	default:
		b, err := json.Marshal(a)
		if err != nil {
			c.h.t.Fatal(err)
		}
		raw = b
	}
	c.send(map[string]any{"type": "action", "action": raw})
}

// refused sends an action the server must refuse with a message holding
// want; named are the cards the action itself names.
func (c *client) refused(a any, want string, named pitch.CardSet) {
	seq := -1
	if c.last != nil {
		seq = c.last.Seq
	}
	c.bad = append(c.bad, &wire{Message: want, atSeq: seq, named: named})
	c.action(a)
}

// refusedText sends a client message (JSON or not) the server must answer
// with an error holding want.
func (c *client) refusedText(text, want string) {
	c.bad = append(c.bad, &wire{Message: want, atSeq: lastSeq(c)})
	c.sendText(text)
}

// run handles messages until done() holds, failing the test after d.
func (h *hub) run(d time.Duration, what string, done func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(d)
	for !done() {
		now := time.Now()
		if now.After(deadline) {
			var b strings.Builder
			for _, c := range h.clients {
				fmt.Fprintf(&b, "\n%s: gone %v, %d queued, %d refusals pending, last: ", c.name, c.gone, len(c.queue), len(c.bad))
				if c.last != nil {
					b.Write(c.last.raw)
				}
			}
			h.t.Fatalf("timed out after %v waiting for %s%s", d, what, b.String())
		}
		wait := deadline.Sub(now)
		for _, c := range h.clients {
			c.flush(now)
			if due := c.due(); !due.IsZero() && due.Sub(now) < wait {
				wait = max(due.Sub(now), 0)
			}
		}
		timer := time.NewTimer(wait)
		select {
		case dv := <-h.in:
			timer.Stop()
			h.handle(dv)
		case <-timer.C:
		}
	}
}

// handle takes in one delivery.
func (h *hub) handle(dv delivery) {
	h.t.Helper()
	c := dv.c
	if dv.err != nil {
		if !c.gone && !c.quiet {
			h.t.Errorf("%s: the connection ended: %v", c.name, dv.err)
		}
		c.gone, c.goneErr = true, dv.err
		return
	}
	if c.proto == pwire.ProtocolDeltas {
		// A delta is looked at as the state it makes of what c holds.
		switch {
		case bytes.HasPrefix(dv.data, []byte(`{"type":"delta",`)):
			c.deltas++
			if err := c.held.Apply(dv.data); err != nil {
				h.t.Errorf("%s: the delta %s does not apply: %v", c.name, dv.data, err)
				return
			}
			dv.data = c.held.JSON(nil)
		case bytes.HasPrefix(dv.data, []byte(`{"type":"state",`)):
			if err := c.held.Reset(dv.data); err != nil {
				h.t.Errorf("%s: %v", c.name, err)
				return
			}
		}
	}
	m := &wire{raw: dv.data}
	if err := json.Unmarshal(dv.data, m); err != nil {
		h.t.Errorf("%s: a message that is not the JSON expected: %v: %s", c.name, err, dv.data)
		return
	}
	c.msgs = append(c.msgs, m)
	switch m.Type {
	case "state":
		c.last = m
		if h.follow {
			c.seat = m.Seat
		}
		c.contribute(m)
		if c.auto {
			c.play(m)
		}
	case "error":
		if len(c.bad) == 0 {
			h.t.Errorf("%s: unexpected error message %q", c.name, m.Message)
			return
		}
		want := c.bad[0]
		c.bad = c.bad[1:]
		m.atSeq, m.named = want.atSeq, want.named
		if !strings.Contains(m.Message, want.Message) {
			h.t.Errorf("%s: error %q, want one saying %q", c.name, m.Message, want.Message)
		}
	case "chat", "hint":
	default:
		h.t.Errorf("%s: message of unknown type %q", c.name, m.Type)
	}
}

// contribute sends c's random value for a new commitment, as the browser
// page does, and remembers it.
func (c *client) contribute(m *wire) {
	if c.seat < 0 || c.quiet || c.h.noContribute || m.Fair == nil || m.Fair.Next == nil || m.Fair.Next.Shared || slices.Contains(m.Fair.Next.Contributed, c.seat) {
		return
	}
	if c.contributed == nil {
		c.contributed = map[string]string{}
	}
	commit := m.Fair.Next.Commitment
	if _, ok := c.contributed[commit]; ok {
		return
	}
	c.contributed[commit] = c.value(m)
	c.send(map[string]string{"type": "contribute", "commitment": commit, "value": c.contributed[commit]})
}

// toAct reports whether m asks c to act now, and c has not acted on it.
func (c *client) toAct(m *wire) bool {
	return c.seat >= 0 && !m.Over && !m.Waiting && m.View.Turn == c.seat && m.Seq > c.actedSeq &&
		(len(m.Legal) > 0 || m.Discard != nil)
}

// play answers a state that asks c to act with a random legal action,
// sometimes sending a refused one first (the state cannot change
// meanwhile: it is c's turn).
func (c *client) play(m *wire) {
	h := c.h
	if c.quiet || !c.toAct(m) || (h.hold != nil && h.hold(c, m)) {
		return
	}
	c.actedSeq = m.Seq
	if h.badRate > 0 && h.rng.Float64() < h.badRate {
		c.sendBad(m)
	}
	c.action(c.choose(m))
}

// choose picks a legal action from what the state offers: the hub's
// plan's, if it has one, else a random one.
func (c *client) choose(m *wire) json.RawMessage {
	rng := c.h.rng
	if c.h.plan != nil {
		if a, ok := c.h.plan(c, m); ok {
			return c.offered(m, a)
		}
	}
	if len(m.Legal) > 0 {
		// Not a moon bid while there is another choice: a moon ends a
		// ten-point match at once (TP-MOON-1), and the tests want long ones.
		legal := slices.DeleteFunc(slices.Clone(m.Legal), func(r json.RawMessage) bool { return strings.Contains(string(r), `"bid":10`) })
		if len(legal) == 0 {
			legal = m.Legal
		}
		// Ten-point: name the longest trump suit and keep the stock, as
		// people do; it makes seats with over 6 trumps (TP-TR-5) common.
		switch m.View.Phase {
		case "trump":
			b, _ := json.Marshal(pitch.NameTrump(c.seat, longestTrumps(setOf(m.View.Hand))))
			return b
		case "give_stock":
			b, _ := json.Marshal(pitch.GiveStock(c.seat, false))
			return b
		}
		return legal[rng.IntN(len(legal))]
	}
	d := m.Discard
	if d.PassLimit > 0 && c.passedIn != m.HandNo {
		*c.h.overSix++
		if *c.h.overSix%2 == 1 {
			c.passedIn = m.HandNo
			held := len(m.View.Hand)
			n := d.PassLimit
			if held >= 8 {
				n = min(n, held-7)
			}
			hand := slices.Clone(m.View.Hand)
			rng.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
			b, _ := json.Marshal(pitch.PassTrumps(c.seat, pitch.SetOf(hand[:1+rng.IntN(n)]...)))
			return b
		}
	}
	c.passedIn = 0
	pool := slices.Clone(d.Pool)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	b, _ := json.Marshal(pitch.Discard(c.seat, pitch.SetOf(d.Must...)|pitch.SetOf(pool[:d.Choose]...)))
	return b
}

// offered returns a as the state m offers it, failing the test if m does
// not offer it: a plan the rules do not allow is the test's error.
func (c *client) offered(m *wire, a pitch.Action) json.RawMessage {
	c.h.t.Helper()
	for _, r := range m.Legal {
		var x pitch.Action
		if json.Unmarshal(r, &x) == nil && x == a {
			return r
		}
	}
	c.h.t.Fatalf("%s: the plan chose %s, which is not among the legal actions %s", c.name, a, m.Legal)
	return nil
}

// sendBad sends one of several actions the server must refuse while it is
// c's turn: someone else's, a card c does not hold, the wrong kind, a
// discard of the wrong size.
func (c *client) sendBad(m *wire) {
	rng := c.h.rng
	hand := setOf(m.View.Hand)
	other := (c.seat + 1 + rng.IntN(len(m.View.Counts)-1)) % len(m.View.Counts)
	switch rng.IntN(3) {
	case 0:
		var a pitch.Action
		// A choice made only to be spoiled: it must not count as one of
		// c's choices between passing and burning.
		passedIn, overSix := c.passedIn, *c.h.overSix
		_ = json.Unmarshal(c.choose(m), &a)
		c.passedIn, *c.h.overSix = passedIn, overSix
		a.Seat = int8(other)
		named := a.Cards | a.Card.Set()
		if a.Kind != pitch.ActPlay && a.Kind != pitch.ActCall {
			named = a.Cards
		}
		c.refused(a, "not yours to take", named)
	case 1:
		if m.View.Phase == "play" {
			var notHeld []pitch.Card
			for _, x := range allCards {
				if !hand.Has(x) {
					notHeld = append(notHeld, x)
				}
			}
			x := notHeld[rng.IntN(len(notHeld))]
			c.refused(pitch.Play(c.seat, x), "", x.Set())
		} else if len(m.View.Hand) > 0 {
			c.refused(pitch.Play(c.seat, m.View.Hand[0]), "may not play now", 0)
		}
	default:
		if m.Discard != nil {
			c.refused(pitch.Discard(c.seat, hand), "must", 0)
		} else {
			c.refused(`{"seat":`+fmt.Sprint(c.seat)+`,"discard":[]}`, "", 0)
		}
	}
}

// allCards is every card of the 54.
var allCards = func() []pitch.Card {
	var out []pitch.Card
	for c := range pitch.Card(54) {
		out = append(out, c)
	}
	return out
}()

// lastSeq is the seq of c's last state, or -1.
func lastSeq(c *client) int {
	if c.last == nil {
		return -1
	}
	return c.last.Seq
}

// --- the authoritative match, rebuilt from the store ---

// snap is the match after some number of logged actions.
type snap struct {
	// predeal, at a table with fair deals where these actions ended a
	// hand, is the match before the next hand was dealt (the states sent
	// while it is dealing).
	predeal  *snap
	st       pitch.State
	actions  []pitch.Action // the hand's actions so far (the last hand's once the match is over)
	over     bool
	held     [pitch.MaxSeats]pitch.CardSet // every card each seat has held this hand
	undealt  pitch.CardSet                 // widow, stock or unused cards of this deal
	awaiting bool                          // the hand is not dealt yet
}

// replay rebuilds a table's match from the store: the game, the log's
// actions and the match after each of them (snaps[k] follows k actions;
// at a table with fair deals, dealt from the stored deals).
func replay(t *testing.T, st store.Store, id string) (*pitch.Game, []pitch.Action, []snap) {
	g, actions, snaps, _ := replayDeals(t, st, id)
	return g, actions, snaps
}

// replayDeals is replay, with the table's stored deals by hand.
func replayDeals(t *testing.T, st store.Store, id string) (*pitch.Game, []pitch.Action, []snap, map[int]*pitch.Fairness) {
	t.Helper()
	info, err := st.Table(bg, id)
	if err != nil {
		t.Fatalf("store.Table: %v", err)
	}
	events, err := st.Events(bg, id)
	if err != nil {
		t.Fatalf("store.Events: %v", err)
	}
	g := gameOf(t, info)
	var actions []pitch.Action
	for i, e := range events {
		if e.Seq != i {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		var a pitch.Action
		if err := json.Unmarshal(e.Action, &a); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		actions = append(actions, a)
	}
	deals := map[int]*pitch.Fairness{}
	m := pitch.NewMatch(g, info.Seed)
	if info.FairDeals {
		m = pitch.NewMatchByDeck(g, info.Seed)
		stored, err := st.Deals(bg, id)
		if err != nil {
			t.Fatalf("store.Deals: %v", err)
		}
		for _, d := range stored {
			f, err := pitch.ParseFairness(d.Data)
			if err != nil {
				t.Fatalf("deal %d: %v", d.N, err)
			}
			deals[d.N] = f
		}
	}
	// deal deals the awaited hand from its stored deal, if any, and returns
	// the snap of the match before the deal.
	deal := func() *snap {
		if !m.AwaitingDeal() {
			return nil
		}
		before := newSnap(g, m, nil)
		f := deals[len(m.Records())+1]
		if f == nil {
			return nil // not dealt yet
		}
		secret, err := pitch.ParseHex32(f.Secret, "secret")
		if err != nil {
			t.Fatal(err)
		}
		seed, err := pitch.FairSeed(secret, f.Contributions)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.DealNext(pitch.FairDeck(g, seed)); err != nil {
			t.Fatal(err)
		}
		return &before
	}
	pre := deal()
	snaps := []snap{newSnap(g, m, nil)}
	snaps[0].predeal = pre
	for i, a := range actions {
		hands := len(m.Records())
		if err := m.Apply(a); err != nil {
			t.Fatalf("the stored log does not replay: action %d (%s): %v", i, a, err)
		}
		pre := deal()
		var prev *snap
		if (len(m.Records()) == hands || m.Over()) && pre == nil {
			prev = &snaps[len(snaps)-1]
		}
		snaps = append(snaps, newSnap(g, m, prev))
		snaps[len(snaps)-1].predeal = pre
	}
	return g, actions, snaps, deals
}

func newSnap(g *pitch.Game, m *pitch.Match, prev *snap) snap {
	s := snap{st: *m.State(), actions: slices.Clone(m.HandActions()), over: m.Over(), awaiting: m.AwaitingDeal()}
	if s.over {
		recs := m.Records()
		s.actions = slices.Clone(recs[len(recs)-1].Actions)
	}
	if prev != nil {
		s.held, s.undealt = prev.held, prev.undealt
	} else {
		dealt := pitch.CardSet(0)
		for i := range g.Seats() {
			dealt |= s.st.Hand(i)
		}
		s.undealt = g.Deck() &^ dealt
	}
	for i := range g.Seats() {
		s.held[i] |= s.st.Hand(i)
	}
	return s
}

func gameOf(t *testing.T, info *store.Table) *pitch.Game {
	t.Helper()
	v, err := pitch.ParseVariant(info.Variant)
	if err != nil {
		t.Fatal(err)
	}
	var opts map[string]json.RawMessage
	if err := json.Unmarshal(info.Options, &opts); err != nil {
		t.Fatal(err)
	}
	g, err := pitch.ParseOptions(v, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// visible is every card seat (-1: a spectator) may see at this point:
// its own hand and cards put out, every card played, every card shown, the
// called card, and the trumps it passed to its partner. Once the match is
// over every card of the last hand is public (its record is).
func (s *snap) visible(seat int) pitch.CardSet {
	if s.over {
		return pitch.SetOf(allCards...)
	}
	vis := s.st.PlayedAll() | s.st.Shown()
	if c := s.st.Called(); c < pitch.BigJoker {
		vis |= c.Set()
	}
	if seat < 0 {
		return vis
	}
	v := s.st.View(seat)
	vis |= s.st.Hand(seat) | v.Out
	for _, a := range s.actions {
		if a.Kind == pitch.ActPassTrumps && int(a.Seat) == seat {
			vis |= a.Cards
		}
	}
	return vis
}

// cardTokens lists the cards written in s (as C-3 writes them, or 10H).
func cardTokens(s string) []pitch.Card {
	var out []pitch.Card
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z')
	}) {
		ok := len(f) == 2 && strings.ContainsRune("23456789TJQKA", rune(f[0])) && strings.ContainsRune("CDHS", rune(f[1])) ||
			len(f) == 3 && f[:2] == "10" && strings.ContainsRune("CDHS", rune(f[2])) || f == "BJ" || f == "LJ"
		if ok {
			out = append(out, pitch.MustParseCard(f))
		}
	}
	return out
}

// scanCards calls found for every card written anywhere in v (a decoded
// JSON value), with the path to it, skipping the top-level keys in skip;
// and reports keys named "seed" (the match seed would give away every deal).
func scanCards(v any, path string, skip map[string]bool, found func(path string, c pitch.Card)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if path == "" && skip[k] {
				continue
			}
			if strings.EqualFold(k, "seed") {
				found(path+"."+k+" (a seed)", pitch.NoCard)
			}
			scanCards(x, path+"."+k, skip, found)
		}
	case []any:
		for i, x := range v {
			scanCards(x, fmt.Sprintf("%s[%d]", path, i), skip, found)
		}
	case string:
		for _, c := range cardTokens(v) {
			found(path+" "+fmt.Sprintf("%q", v), c)
		}
	}
}

// checkMessages checks every message the clients of a table received
// against the match rebuilt from the store (see checkState and checkError).
func checkMessages(t *testing.T, st store.Store, id string, clients []*client) (states int) {
	t.Helper()
	g, _, snaps, deals := replayDeals(t, st, id)
	for _, c := range clients {
		finished := 0 // hands over when the message came
		for i, m := range c.msgs {
			if t.Failed() {
				return states
			}
			where := fmt.Sprintf("%s message %d (seq %d)", c.name, i, m.Seq)
			if m.Type == "state" {
				finished = len(m.Sheet)
			}
			checkSecrets(t, deals, finished, m, where)
			switch m.Type {
			case "state":
				checkFair(t, snaps, deals, c.seat, m, where)
				checkState(t, g, snaps, c.seat, m, where)
				states++
			case "error":
				checkError(t, snaps, c.seat, m, where)
			}
		}
	}
	return states
}

// checkSecrets checks that a message shows no secret of a deal whose hand
// was not over (finished hands were over) when it was sent.
func checkSecrets(t *testing.T, deals map[int]*pitch.Fairness, finished int, m *wire, where string) {
	t.Helper()
	for n, f := range deals {
		if n > finished && strings.Contains(strings.ToLower(string(m.raw)), f.Secret) {
			t.Errorf("%s: the message shows the secret of hand %d with %d hands over: %s", where, n, finished, m.raw)
		}
	}
}

// checkFair checks a state's fair deals against the stored deals: the hand
// in play's commitment is its deal's, the last hand's secret and
// commitment are its deal's, and a seat's values are never shown.
func checkFair(t *testing.T, snaps []snap, deals map[int]*pitch.Fairness, seat int, m *wire, where string) {
	t.Helper()
	if len(deals) == 0 {
		if m.Fair != nil {
			t.Errorf("%s: fair deals at a table from before them: %+v", where, m.Fair)
		}
		return
	}
	f := m.Fair
	if f == nil {
		t.Errorf("%s: no fair object at a table with fair deals", where)
		return
	}
	if m.Seq >= 0 && m.Seq < len(snaps) {
		s := &snaps[m.Seq]
		if f.Dealing && s.predeal == nil && !s.awaiting {
			t.Errorf("%s: dealing, but the log shows hand %d dealt", where, m.HandNo)
		}
		if !f.Dealing && s.awaiting && !m.Over {
			t.Errorf("%s: not dealing, but the log has no deal of hand %d", where, m.HandNo)
		}
	}
	if h := f.Hand; h != nil {
		if d := deals[h.Hand]; d == nil || d.Commitment != h.Commitment || h.Hand != m.HandNo || f.Dealing {
			t.Errorf("%s: hand %+v in play (hand_no %d, dealing %v), but its deal is %+v", where, *h, m.HandNo, f.Dealing, d)
		}
	}
	if l := f.Last; l != nil {
		if d := deals[l.Hand]; d == nil || d.Secret != l.Secret || d.Commitment != l.Commitment || l.Hand != len(m.Sheet) {
			t.Errorf("%s: last hand %+v (sheet %d rows), but its deal is %+v", where, *l, len(m.Sheet), d)
		}
	} else if len(m.Sheet) > 0 {
		t.Errorf("%s: %d hands over and no last hand's secret", where, len(m.Sheet))
	}
	if f.Next != nil && strings.Contains(string(m.raw), `"value"`) {
		t.Errorf("%s: a state shows contributed values: %s", where, m.raw)
	}
}

// checkState checks one state message to seat: its hand is the seat's
// true hand, the counts are right, it offers exactly the engine's legal
// actions when the seat is to act, the widow shows only to the pawnee
// bidder (and to all after the hand), and no card the seat may not see is
// written anywhere in it.
func checkState(t *testing.T, g *pitch.Game, snaps []snap, seat int, m *wire, where string) {
	t.Helper()
	if m.Seat != seat {
		t.Errorf("%s: seat %d, want %d", where, m.Seat, seat)
	}
	if m.Seq < 0 || m.Seq >= len(snaps) {
		t.Errorf("%s: seq %d, but the log holds %d actions", where, m.Seq, len(snaps)-1)
		return
	}
	s := &snaps[m.Seq]
	if m.Fair != nil && m.Fair.Dealing && s.predeal != nil {
		s = s.predeal
	}
	st := &s.st
	n := g.Seats()
	if m.Over != s.over {
		t.Errorf("%s: match_over %v, want %v", where, m.Over, s.over)
	}
	// The hand, the counts and what is out.
	var want pitch.CardSet
	if seat >= 0 {
		want = st.Hand(seat)
	}
	if got := setOf(m.View.Hand); got != want || len(m.View.Hand) != want.Len() {
		t.Errorf("%s: view.hand %v, want %v", where, m.View.Hand, want)
	} else if sorted := pitch.SortHand(want, st.Trump(), g.Jokers()); !slices.Equal(m.View.Hand, sorted) {
		t.Errorf("%s: view.hand %v, want it sorted %v", where, m.View.Hand, sorted)
	}
	// The trump cards, a function of the public trump suit (C-4, C-5).
	wantTrumps := pitch.TrumpOrder(st.Trump(), g.Jokers())
	if m.View.Trumps == nil || !slices.Equal(m.View.Trumps, wantTrumps) {
		t.Errorf("%s: view.trumps %v with trump %v, want %v", where, m.View.Trumps, st.Trump(), wantTrumps)
	}
	if len(m.View.Counts) != n {
		t.Errorf("%s: %d counts for %d seats", where, len(m.View.Counts), n)
	} else {
		for i := range n {
			if m.View.Counts[i] != st.Hand(i).Len() {
				t.Errorf("%s: counts[%d] = %d, want %d", where, i, m.View.Counts[i], st.Hand(i).Len())
			}
		}
	}
	if seat < 0 && len(m.View.Out) > 0 {
		t.Errorf("%s: a spectator is shown out cards %v", where, m.View.Out)
	}
	if seat >= 0 {
		mine := s.held[seat]
		if g.Variant == pitch.TenPoint {
			mine |= s.undealt // the fill: non-trumps drawn from the stock go straight out
		}
		if out := setOf(m.View.Out); out&^mine != 0 {
			t.Errorf("%s: view.out %v holds cards the seat never had: %v", where, m.View.Out, out&^mine)
		}
	}
	// The widow (PW-WID-1): the bidder's once taken, everyone's after the hand.
	if len(m.View.Widow) > 0 {
		ok := g.Variant == pitch.Pawnee && (st.Phase() == pitch.PhaseDone ||
			seat >= 0 && seat == st.Bidder() && st.Called() < pitch.BigJoker)
		if !ok {
			t.Errorf("%s: seat %d is shown the widow %v in phase %s", where, seat, m.View.Widow, st.Phase())
		} else if got := setOf(m.View.Widow); got != s.undealt {
			t.Errorf("%s: widow %v, want %v", where, m.View.Widow, s.undealt)
		}
	}
	// The log: every action of the hand, others' hidden ones as counts.
	if len(m.Log) != len(s.actions) {
		t.Errorf("%s: %d log entries, want %d", where, len(m.Log), len(s.actions))
	} else {
		for i, e := range m.Log {
			a := s.actions[i]
			if e.Seat != int(a.Seat) || e.kind() != a.Kind.String() {
				t.Errorf("%s: log[%d] is seat %d %s, want %s", where, i, e.Seat, e.kind(), a)
			}
			if (e.Kind != "") != (e.Action == nil) {
				t.Errorf("%s: log[%d] has kind %q and action %s: want a kind only for a hidden action", where, i, e.Kind, e.Action)
			}
			hidden := !s.over && seat != int(a.Seat) &&
				(a.Kind == pitch.ActPassTrumps && seat != (int(a.Seat)+2)%4 ||
					a.Kind == pitch.ActDiscard && g.Variant == pitch.Pawnee)
			if hidden && e.Action != nil {
				t.Errorf("%s: log[%d] shows seat %d the hidden action %s", where, i, seat, e.Action)
			}
			if !hidden && !s.over {
				b, _ := json.Marshal(a)
				if string(e.Action) != string(b) {
					t.Errorf("%s: log[%d].action %s, want %s", where, i, e.Action, b)
				}
			}
		}
	}
	// What the seat may do: exactly the engine's choices, to the seat to act only.
	myTurn := seat >= 0 && !s.over && !m.Waiting && st.Turn() == seat
	discarding := st.Phase() == pitch.PhaseDiscard || st.Phase() == pitch.PhasePassBurn
	wantLegal := map[string]bool{}
	if myTurn && !discarding {
		for _, a := range st.Legal(nil) {
			b, _ := json.Marshal(a)
			wantLegal[string(b)] = true
		}
	}
	gotLegal := map[string]bool{}
	for _, r := range m.Legal {
		var a pitch.Action
		if err := json.Unmarshal(r, &a); err != nil {
			t.Errorf("%s: legal action %s: %v", where, r, err)
		}
		b, _ := json.Marshal(a)
		gotLegal[string(b)] = true
	}
	if len(gotLegal) != len(wantLegal) || len(m.Legal) != len(wantLegal) {
		t.Errorf("%s: %d legal actions %s, want %d", where, len(m.Legal), m.Legal, len(wantLegal))
	} else {
		for k := range wantLegal {
			if !gotLegal[k] {
				t.Errorf("%s: legal lacks %s", where, k)
			}
		}
	}
	if (m.Discard != nil) != (myTurn && discarding) {
		t.Errorf("%s: discard %+v when seat %d is to act in phase %s", where, m.Discard, st.Turn(), st.Phase())
	}
	if d := m.Discard; d != nil && myTurn && discarding {
		must, pool, k := st.DiscardChoice()
		if setOf(d.Must) != must || setOf(d.Pool) != pool || d.Choose != k || d.PassLimit != st.PassLimit() {
			t.Errorf("%s: discard %+v, want must %v pool %v choose %d pass %d", where, d, must, pool, k, st.PassLimit())
		}
		// Why each other card stays (PW-DIS-2, PW-DIS-3).
		called, points, trumps, over := st.DiscardKeep()
		why := map[string]pitch.CardSet{}
		for c, r := range d.Keep {
			why[r] |= c.Set()
		}
		pointWhy := "point"
		if g.Variant == pitch.TenPoint {
			pointWhy = "burn_point"
		}
		if d.Over != over || why["called"] != called || why[pointWhy] != points || why["trump"] != trumps || len(d.Keep) != (called|points|trumps).Len() {
			t.Errorf("%s: discard keep %v (over %v), want called %v, points %v, trumps %v (over %v)", where, d.Keep, d.Over, called, points, trumps, over)
		}
	}
	// The trumps held with each suit as trump, to the seat naming trump or
	// calling a card.
	if myTurn && (st.Phase() == pitch.PhaseCall || st.Phase() == pitch.PhaseTrump) {
		for su := pitch.Clubs; su < pitch.NoSuit; su++ {
			if got, want := m.SuitTrumps[su.String()], (st.Hand(seat) & pitch.Trumps(su, g.Jokers())).Len(); got != want || len(m.SuitTrumps) != 4 {
				t.Errorf("%s: suit_trumps %v, want %d for %v", where, m.SuitTrumps, want, su)
			}
		}
	} else if m.SuitTrumps != nil {
		t.Errorf("%s: suit_trumps %v in phase %s, seat %d to act", where, m.SuitTrumps, st.Phase(), st.Turn())
	}
	// Refusals (C-7): to the seat to act in play, why each card of its hand
	// it may not play is refused; nothing else, and nothing to others.
	var wantRefused pitch.CardSet
	if myTurn && st.Phase() == pitch.PhasePlay {
		wantRefused = st.Hand(seat) &^ st.LegalPlays()
	}
	var gotRefused pitch.CardSet
	for _, why := range m.Refusals {
		for _, c := range why.Cards {
			if gotRefused.Has(c) {
				t.Errorf("%s: %s refused twice", where, c)
			}
			gotRefused |= c.Set()
		}
		if len(why.Cards) == 0 || !strings.Contains(why.Message, fmt.Sprintf("seat %d ", seat)) || !strings.Contains(why.Message, "must") ||
			why.Code == "" || why.Params["Rule"] == nil || why.Params["Card"] != nil {
			t.Errorf("%s: the refusal of %v says %+v", where, why.Cards, why)
		}
	}
	if gotRefused != wantRefused {
		t.Errorf("%s: refusals for %v, want %v", where, gotRefused, wantRefused)
	}
	// The turn timer runs only for the seat to act, and not past its length.
	if tm := m.Timer; tm != nil && (tm.Seat != st.Turn() || tm.LeftMS < 0 || tm.LeftMS > tm.TotalMS || s.over) {
		t.Errorf("%s: timer %+v with seat %d to act", where, *tm, st.Turn())
	}
	// No card the seat may not see, anywhere in the message. The last
	// hand's summary is of a finished hand (public); a pawnee bidder's
	// calls list every card, whoever holds it, and say nothing.
	var generic map[string]any
	if err := json.Unmarshal(m.raw, &generic); err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{"table": true, "last_hand": true}
	if st.Phase() == pitch.PhaseCall && myTurn {
		skip["legal"] = true
		calls := pitch.CardSet(0)
		for _, r := range m.Legal {
			var a pitch.Action
			_ = json.Unmarshal(r, &a)
			calls |= a.Card.Set()
		}
		if all := pitch.SetOf(allCards[:52]...); (calls|st.Hand(seat))&all != all {
			t.Errorf("%s: the calls offered depend on others' hands: %v", where, all&^calls&^st.Hand(seat))
		}
	}
	if view, ok := generic["view"].(map[string]any); ok {
		delete(view, "trumps") // checked above: every trump card, wherever it is
	}
	vis := s.visible(seat)
	scanCards(generic, "", skip, func(path string, c pitch.Card) {
		if c == pitch.NoCard || !vis.Has(c) {
			t.Errorf("%s: %s shows seat %d a card it may not see (%s) in phase %s", where, path, seat, c, st.Phase())
		}
	})
	// The table description never holds the seed or a token hash.
	tb, _ := json.Marshal(generic["table"])
	// It names the moon and the fixed partnerships, so that the page
	// need not know the rules (TP-BID-1, PW-BID-1, AP-1, TP-1).
	var rules struct {
		Moon  int   `json:"moon"`
		Teams []int `json:"teams"`
	}
	if err := json.Unmarshal(tb, &rules); err != nil {
		t.Fatal(err)
	}
	var wantTeams []int
	for i := range g.Seats() {
		if team := g.Team(i); team >= 0 {
			wantTeams = append(wantTeams, team)
		}
	}
	if rules.Moon != g.MoonBid() || !slices.Equal(rules.Teams, wantTeams) {
		t.Errorf("%s: the table says moon %d, teams %v; want %d, %v", where, rules.Moon, rules.Teams, g.MoonBid(), wantTeams)
	}
	for _, bad := range []string{"seed", "token", "hash"} {
		if strings.Contains(strings.ToLower(string(tb)), bad) {
			t.Errorf("%s: the table description holds %q: %s", where, bad, tb)
		}
	}
}

// checkError checks that an error message names no card the seat may not
// see, but for those the refused action itself named.
func checkError(t *testing.T, snaps []snap, seat int, m *wire, where string) {
	t.Helper()
	if m.atSeq < 0 || m.atSeq >= len(snaps) {
		return
	}
	vis := snaps[m.atSeq].visible(seat) | m.named
	msg := m.Message
	if strings.Contains(msg, "a card is a rank") { // how to write a card: "…, or BJ / LJ"
		msg = strings.ReplaceAll(msg, "BJ / LJ", "")
	}
	for _, c := range cardTokens(msg) {
		if !vis.Has(c) {
			t.Errorf("%s: error %q names %s, a card seat %d may not see", where, m.Message, c, seat)
		}
	}
}

// wantWarning checks that the server has logged a warning holding every
// one of parts since the last check, and forgets what it logged.
func (ts *testServer) wantWarning(parts ...string) {
	ts.t.Helper()
	l := ts.logs.take()
	for _, p := range parts {
		if !strings.Contains(l, p) {
			ts.t.Errorf("the server logged %q, want a warning saying %q", l, p)
		}
	}
}

// healthJSON is GET /api/health's answer.
type healthJSON struct {
	Status      string           `json:"status"`
	LagMS       float64          `json:"lag_ms"`
	OverloadLag int64            `json:"overload_lag_ms"`
	Connections int              `json:"connections"`
	MaxConns    int              `json:"max_conns"`
	Tables      int64            `json:"tables"`
	MaxTables   int              `json:"max_tables"`
	Refused     map[string]int64 `json:"refused"`
}

// health returns GET /api/health's answer, which must be 200.
func (ts *testServer) health() healthJSON {
	ts.t.Helper()
	resp, b := ts.do("GET", "/api/health", "")
	var h healthJSON
	if err := json.Unmarshal(b, &h); err != nil || resp.StatusCode != 200 {
		ts.t.Fatalf("GET /api/health: %d %s", resp.StatusCode, b)
	}
	return h
}
