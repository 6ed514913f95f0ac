package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pitch"
	"pitch/server"
	"pitch/store"
	"pitch/web"
)

// The end-to-end tests drive the real UI in headless Chromium against the
// real server (in process, SQLite in a temporary directory, bots that wait
// 20ms). Each creates a table in the lobby, joins it with a name and plays
// by clicking (and by keyboard) until it has played a whole hand as the
// bidder; then it checks that the stored hand record holds exactly the
// moves it made, and that the score sheet and the hand summary show the
// engine's own scoring of that record.
//
// PITCH_SCREENSHOTS=1 writes a screenshot of each phase to docs/screenshots/.

// chromiumPath finds the browser, or "" when none is installed.
func chromiumPath() string {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// site is a running server and a browser tab on it.
type site struct {
	*browser
	url   string
	drops *hijacked
	srv   *server.Server
	st    store.Store // the server's store, for a test to fill
	// onTurn, when set, runs at each of our decisions before playUntilOurBid
	// acts; onWait while others act.
	onTurn, onWait func(u ui)
}

// hijacked keeps the connections the server took over for WebSockets, so
// a test can cut them as a network failure would.
type hijacked struct {
	mu    sync.Mutex
	conns []net.Conn
	// blocked refuses new WebSockets (503), as a network that is down.
	blocked atomic.Bool
}

func (h *hijacked) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.blocked.Load() && strings.HasSuffix(r.URL.Path, "/ws") {
			http.Error(w, "the network is down", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(&hijackWriter{ResponseWriter: w, h: h}, r)
	})
}

// cut closes every WebSocket connection without a close frame.
func (h *hijacked) cut() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.conns)
	for _, c := range h.conns {
		c.Close()
	}
	h.conns = nil
	return n
}

type hijackWriter struct {
	http.ResponseWriter
	h *hijacked
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err == nil {
		w.h.mu.Lock()
		w.h.conns = append(w.h.conns, c)
		w.h.mu.Unlock()
	}
	return c, rw, err
}

// browser is one headless tab.
type browser struct {
	t     *testing.T
	ctx   context.Context
	shots string // where screenshots go; "": none are taken (PITCH_SCREENSHOTS)

	mu      sync.Mutex
	console []string // errors and exceptions the page logged
	expect  []string // console errors holding one of these are expected
}

// newSite starts the server and a browser; both stop when the test ends.
func newSite(t *testing.T) *site {
	t.Helper()
	return newSiteWith(t, nil)
}

// newSiteWith is newSite with the server's options changed by tweak.
func newSiteWith(t *testing.T, tweak func(*server.Options)) *site {
	t.Helper()
	return newSiteFor(t, 100*time.Second, tweak)
}

// newSiteFor is newSiteWith for a test that may take up to d in all.
func newSiteFor(t *testing.T, d time.Duration, tweak func(*server.Options)) *site {
	t.Helper()
	tab := newTab(t, d) // first: it skips the test when no Chromium is installed
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter(d))
	t.Cleanup(cancel)

	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pitch.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// AwayDelay is long: no stand-in bot may take our turns.
	opts := server.Options{BotDelay: 20 * time.Millisecond, AwayDelay: time.Minute, Static: web.FS()}
	if tweak != nil {
		tweak(&opts)
	}
	srv, err := server.New(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	drops := &hijacked{}
	ts := httptest.NewServer(drops.wrap(srv.Handler()))
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)

	shots := "" // none taken
	if os.Getenv("PITCH_SCREENSHOTS") == "1" {
		shots = filepath.Join("..", "docs", "screenshots")
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b := &browser{t: t, ctx: tab, shots: shots}
	b.watchConsole()
	b.do("start the browser", chromedp.EmulateViewport(1280, 900))
	return &site{browser: b, url: ts.URL, drops: drops, srv: srv, st: st}
}

// watchConsole collects the page's errors: a script error or a
// Content-Security-Policy violation fails the test.
func (b *browser) watchConsole() {
	msgs := chromedp.Console(b.ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.console = append(b.console, string(m.Type)+": "+m.Text+" "+m.URL)
				b.mu.Unlock()
			}
		}
	}()
	b.t.Cleanup(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, m := range b.console {
			if !slices.ContainsFunc(b.expect, func(x string) bool { return strings.Contains(m, x) }) {
				b.t.Errorf("the page logged %s", m)
			}
		}
	})
}

func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval runs JavaScript that returns a JSON string and decodes it into v.
func (b *browser) eval(expr string, v any) {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	// A page that is navigating (a click that loads another) has no
	// document to evaluate in for a moment: try again, for up to 5 s.
	for try := 0; err != nil && navigating(err) && try < 50; try++ {
		time.Sleep(100 * time.Millisecond)
		s, err = chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	}
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		b.t.Fatalf("decoding %s from %s: %v", s, expr, err)
	}
}

// navigating reports whether err is the browser's answer to an evaluation
// while the page is being replaced by another.
func navigating(err error) bool {
	m := err.Error()
	return strings.Contains(m, "navigated or closed") || strings.Contains(m, "Execution context was destroyed") ||
		strings.Contains(m, "Cannot find context with specified id")
}

// click clicks the element sel as a person would, once it is shown and
// has stopped moving: a page still drawing around a button moves it, and
// a click where it was lands on something else.
func (b *browser) click(sel string) {
	b.t.Helper()
	b.do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
	// Three equal reads of its place 20 ms apart, for at most about a
	// second (an element that never stops moving is clicked anyway).
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(async (sel) => {
		let last = '', same = 0;
		for (let i = 0; i < 50 && same < 2; i++) {
			const e = document.querySelector(sel), r = e && e.getBoundingClientRect();
			const at = r ? [r.x, r.y, r.width, r.height].join() : '';
			same = at && at === last ? same + 1 : 0;
			last = at;
			await new Promise((ok) => setTimeout(ok, 20));
		}
		return true;
	})(%q)`, sel), chromedp.EvalAwaitPromise))
	if err != nil && !navigating(err) {
		b.t.Fatalf("waiting for %s to stand still: %v", sel, err)
	}
	b.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// choose picks an option of a <select> as a person would: it sets the
// value and fires the change event the page listens to.
func (b *browser) choose(sel, value string) {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`(() => { const s = document.querySelector(%q); if (!s) return 'false';
		s.value = %q; s.dispatchEvent(new Event('change', {bubbles: true})); return JSON.stringify(s.value === %q); })()`, sel, value, value), &ok)
	if !ok {
		b.t.Fatalf("select %s has no option %q", sel, value)
	}
}

// shot saves a screenshot of the page as docs/screenshots/name.png when
// PITCH_SCREENSHOTS=1 (full: the whole page, not only the viewport).
func (b *browser) shot(name string, full bool) {
	b.t.Helper()
	if b.shots == "" {
		return
	}
	act := chromedp.CaptureScreenshot()
	if full {
		act = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(b.ctx, act)
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) count(sel string) int {
	b.t.Helper()
	var n int
	b.eval(fmt.Sprintf(`JSON.stringify(document.querySelectorAll(%q).length)`, sel), &n)
	return n
}

// cards lists the data-card values of the elements sel matches.
func (b *browser) cards(sel string) []string {
	b.t.Helper()
	var out []string
	b.eval(fmt.Sprintf(`JSON.stringify(Array.from(document.querySelectorAll(%q)).map(e => e.dataset.card))`, sel), &out)
	return out
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	var s string
	b.eval(fmt.Sprintf(`JSON.stringify((document.querySelector(%q) || {}).textContent || '')`, sel), &s)
	return s
}

func (b *browser) value(sel string) string {
	b.t.Helper()
	var s string
	b.eval(fmt.Sprintf(`JSON.stringify((document.querySelector(%q) || {}).value || '')`, sel), &s)
	return s
}

// rows returns the text of each cell of each row that sel matches.
func (b *browser) rows(sel string) [][]string {
	b.t.Helper()
	var out [][]string
	b.eval(fmt.Sprintf(`JSON.stringify(Array.from(document.querySelectorAll(%q)).map(tr => Array.from(tr.children).map(c => c.textContent)))`, sel), &out)
	return out
}

// ui is what the page shows about the game: the data-* attributes the UI
// keeps on #table-view, whether the hand summary is open, and how many
// cards lie in the trick.
type ui struct {
	Phase   string `json:"phase"`
	Seq     int    `json:"seq"`
	Act     string `json:"act"`
	Hand    int    `json:"hand"`
	Rows    int    `json:"rows"`
	Seat    int    `json:"seat"`
	Pending bool   `json:"pending"`
	Over    bool   `json:"over"`
	Summary bool   `json:"summary"`
	Trick   int    `json:"trick"`
}

func (b *browser) ui() ui {
	b.t.Helper()
	var u ui
	// A page still being parsed (just after a navigation) may have the
	// table's view and not yet the summary below it: it reads as no seat.
	b.eval(`(() => { const v = document.querySelector('#table-view'), sum = document.querySelector('#summary');
		if (!v || !sum) return JSON.stringify({seq: -1, seat: -2});
		const d = v.dataset;
		return JSON.stringify({phase: d.phase || '', seq: Number(d.seq || -1), act: d.act || '', hand: Number(d.hand || 0),
			rows: Number(d.rows || 0), seat: d.seat === undefined ? -2 : Number(d.seat), pending: d.pending === 'true',
			over: d.over === 'true', summary: sum.open,
			trick: document.querySelectorAll('#trick .tcard:not(.faded)').length}); })()`, &u)
	return u
}

// pollEvery is how long a test waits between two looks at the page.
const pollEvery = 20 * time.Millisecond

// waitFor looks at ok every pollEvery until it holds; the test fails if
// it still does not after d.
func waitFor(t *testing.T, what string, ok func() bool, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(pollEvery)
	}
}

// createTable fills in the lobby's form for variant with seat 0 a person
// and the other seats easy bots, creates the table, and returns its id.
// It opens the lobby, unless the page shows it already.
func (s *site) createTable(variant string, seats int, shot string) string {
	t := s.t
	t.Helper()
	if loc, err := chromedp.Run(s.ctx, chromedp.Location()); err != nil || loc != s.url+"/" {
		s.do("open the lobby", chromedp.Navigate(s.url+"/"))
	}
	s.waitShown("the lobby", "#create-form")
	// The bots' moves are paced for people; these tests play whole hands,
	// so they take the "instant" pace (holds a finished trick briefly).
	s.eval(`localStorage.setItem('pitch.speed', 'instant'), 'true'`, new(bool))
	s.choose("#game", variant)
	if variant == "auction" {
		s.choose("#opt-players", strconv.Itoa(seats))
	}
	if got := s.count("#seat-list select"); got != seats {
		t.Errorf("the lobby offers %d seats for %s, want %d", got, variant, seats)
	}
	for i := 1; i < seats; i++ {
		s.choose(fmt.Sprintf("#seat-%d", i), "bot:easy")
	}
	if shot != "" {
		s.shot(shot, true)
	}
	return s.create()
}

// create creates the table the lobby's form describes and returns its
// id, once its page is open at /t/ID with that address as its invite.
func (s *site) create() string {
	t := s.t
	t.Helper()
	s.click("#create")
	s.do("open the new table", chromedp.WaitVisible(chromedp.CSS("#join-name")))
	loc, err := chromedp.Run(s.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	id := loc[strings.LastIndex(loc, "/")+1:]
	if !strings.HasPrefix(loc, s.url+"/t/") || id == "" {
		t.Fatalf("after creating, the page is %s, want %s/t/ID", loc, s.url)
	}
	if got := s.value("#invite"); got != loc {
		t.Errorf("invite link = %q, want the table's address %q", got, loc)
	}
	return id
}

// join takes a seat with the name; play starts as it is the only person.
func (s *site) join(name string) {
	t := s.t
	t.Helper()
	s.do("type a name", chromedp.SendKeys(chromedp.CSS("#join-name"), name))
	s.click("#join-btn")
	waitFor(t, "joining gives seat 0", func() bool { return s.ui().Seat == 0 }, 20*time.Second)
	if got := s.text(".seat.me .s-name"); !strings.Contains(got, name) {
		t.Errorf("my seat is labelled %q, want it to hold the name %s", got, name)
	}
	if got := s.count("#join:not([hidden])"); got != 0 {
		t.Error("the join form is still shown after joining")
	}
}

// hand is what the test did in one hand, in order, as hand-record actions.
type hand struct {
	actions []pitch.Action
	bidder  bool // we called (pawnee) or named trump (ten-point)
}

// playUntilOurBid plays hands until one in which we were the bidder is
// over, its summary open. It bids the most it may (easy bots never bid
// 10, so our bid stands), and takes the screenshots named in shots (phase
// name → file name) the first time each phase comes.
func (s *site) playUntilOurBid(shots map[string]string) []hand {
	t := s.t
	t.Helper()
	var hands []hand
	cur := hand{}
	keyboard := true // alternate keyboard and mouse plays
	taken := map[string]bool{}
	shoot := func(phase string) {
		if name := shots[phase]; name != "" && !taken[phase] {
			taken[phase] = true
			s.shot(name, true)
		}
	}
	deadline := time.Now().Add(150 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("no hand with our bid finished in time; %d hands done", len(hands))
		}
		u := s.ui()
		if u.Summary {
			if u.Rows != len(hands)+1 {
				t.Fatalf("the summary is open with %d rows in the sheet, want %d", u.Rows, len(hands)+1)
			}
			hands = append(hands, cur)
			if cur.bidder {
				return hands
			}
			cur = hand{}
			s.click("#summary-close")
			continue
		}
		if u.Over && u.Rows == len(hands) { // the last hand's summary was seen and closed
			t.Fatalf("the match ended before we played a hand as the bidder (%d hands)", len(hands))
		}
		if u.Pending || u.Act == "" {
			if s.onWait != nil && !u.Pending && !u.Over {
				s.onWait(u)
			}
			time.Sleep(pollEvery)
			continue
		}
		if s.onTurn != nil {
			s.onTurn(u)
		}
		switch u.Act {
		case "bid":
			shoot("bid")
			var bids []int
			s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#actions button[data-bid]')).map(e => Number(e.dataset.bid)))`, &bids)
			if len(bids) == 0 {
				t.Fatal("bidding: no bid buttons")
			}
			top := slices.Max(bids)
			s.click(fmt.Sprintf(`#actions button[data-bid="%d"]`, top))
			cur.actions = append(cur.actions, pitch.Bid(0, top))
			if top == 4 { // an auction pitch ends the bidding; a ten-point dealer's forced 4 wins it
				cur.bidder = true
			}
		case "call":
			// Pick the suit, then the rank: 13 ranks in each of the 4 suits,
			// no jokers (PW-CALL-1).
			var picker, free []string
			for _, suit := range []string{"S", "H", "C", "D"} {
				s.click(fmt.Sprintf(`#actions button[data-suit=%q]`, suit))
				ranks := s.cards("#call-picker button.rank")
				if len(ranks) != 13 {
					t.Fatalf("the call picker shows %d ranks of %s: %v", len(ranks), suit, ranks)
				}
				picker = append(picker, ranks...)
				free = append(free, s.cards("#call-picker button.can:not(.mine)")...)
			}
			slices.Sort(picker)
			if len(slices.Compact(picker)) != 52 {
				t.Fatalf("the call picker offers %d distinct cards, want the 52 without jokers (PW-CALL-1)", len(picker))
			}
			if len(free) == 0 {
				t.Fatal("no callable card outside our hand")
			}
			// Call in the suit we hold most of: it is trump (PW-CALL-1), so
			// we keep trumps and play the hand. Called in a suit we lacked,
			// we folded from every trick (PW-PLAY-2) and never played.
			held := map[string]int{}
			for _, h := range s.cards("#hand button.card") {
				held[h[1:]]++
			}
			c := free[0]
			for _, f := range free {
				if held[f[1:]] > held[c[1:]] {
					c = f
				}
			}
			s.click(fmt.Sprintf(`#actions button[data-suit=%q]`, c[1:]))
			s.click(fmt.Sprintf(`#call-picker button[data-card=%q]`, c))
			if got := s.text("#call-confirm"); !strings.Contains(got, cardText(c)) {
				t.Fatalf("after picking %s the call button says %q", c, got)
			}
			// The rank picker open: every rank inside the prompt, at
			// every size.
			for _, sz := range sizes {
				s.layoutAt("the call picker", sz, layoutJS)
			}
			s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
			shoot("call")
			s.click("#call-confirm")
			cur.actions = append(cur.actions, pitch.Call(0, pitch.MustParseCard(c)))
			cur.bidder = true
		case "trump":
			// Name the suit we hold most trumps of (the buttons say how many).
			var suit string
			s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#actions button[data-trump]'))
				.map(e => [e.dataset.trump, Number(/\((\d+)\)/.exec(e.textContent)[1])])
				.sort((a, b) => b[1] - a[1])[0][0])`, &suit)
			shoot("trump")
			s.click(fmt.Sprintf(`#actions button[data-trump=%q]`, suit))
			st, err := pitch.ParseSuit(suit)
			if err != nil {
				t.Fatal(err)
			}
			cur.actions = append(cur.actions, pitch.NameTrump(0, st))
			cur.bidder = true
		case "give_stock":
			shoot("give_stock")
			s.click(`#actions button[data-give="false"]`)
			cur.actions = append(cur.actions, pitch.GiveStock(0, false))
		case "discard":
			var remaining string
			s.eval(`JSON.stringify(document.querySelector('#actions').dataset.remaining || '')`, &remaining)
			n, err := strconv.Atoi(remaining)
			if err != nil {
				t.Fatalf("discard: remaining = %q", remaining)
			}
			for range n {
				can := s.cards("#hand button.can:not(.sel)")
				if len(can) == 0 {
					t.Fatal("discard: no card left to choose")
				}
				s.click(fmt.Sprintf(`#hand button[data-card=%q]`, can[0]))
			}
			if left := s.cards("#hand button.can:not(.sel)"); len(left) != 0 {
				t.Errorf("after choosing the whole discard, cards %v are still offered", left)
			}
			sel := s.cards("#hand button.sel")
			all := s.cards("#hand button.card")
			if len(all)-len(sel) != 6 {
				t.Errorf("throwing %d of %d cards leaves %d, want 6 (PW-DIS-1, TP-TR-5)", len(sel), len(all), len(all)-len(sel))
			}
			shoot("discard")
			s.click("#discard-confirm")
			cur.actions = append(cur.actions, pitch.Discard(0, pitch.SetOf(parseCards(t, sel)...)))
		case "play":
			s.checkHandShown()
			can := s.cards("#hand button.can")
			if len(can) == 0 {
				t.Fatal("play: no playable card")
			}
			if u.Trick > 0 && shots["play"] != "" && !taken["play"] {
				shoot("play")
				if phone := shots["play-phone"]; phone != "" {
					s.do("phone width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
						chromedp.Evaluate[chromedp.Void](`document.querySelector('#status').scrollIntoView()`))
					s.shot(phone, false)
					s.do("desktop width", chromedp.EmulateViewport(1280, 900))
				}
			}
			sel := fmt.Sprintf(`#hand button[data-card=%q]`, can[0])
			if keyboard {
				s.do("play by keyboard", chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent(kb.Enter))
			} else {
				s.click(sel)
			}
			keyboard = !keyboard
			cur.actions = append(cur.actions, pitch.Play(0, pitch.MustParseCard(can[0])))
		default:
			t.Fatalf("unexpected action %q asked of us", u.Act)
		}
		// The server has taken the move when the state moves on.
		waitFor(t, "the server takes our "+u.Act, func() bool { return s.ui().Seq != u.Seq }, 10*time.Second)
	}
}

func TestBrowserPawneeHand(t *testing.T) {
	s := newSite(t)
	id := s.createTable("pawnee", 5, "lobby")
	s.join("Ada")

	// A dropped connection comes back by itself, with the seat.
	seq := s.ui().Seq
	if n := s.drops.cut(); n == 0 {
		t.Fatal("no WebSocket connection to cut")
	}
	waitFor(t, "the page notices the drop", func() bool { return s.count("#conn.offline") == 1 }, 5*time.Second)
	waitFor(t, "the page reconnects", func() bool { return s.count("#conn.online") == 1 }, 10*time.Second)
	if u := s.ui(); u.Seat != 0 || u.Seq < seq {
		t.Fatalf("after reconnecting the page shows seat %d at seq %d, want seat 0 at seq >= %d", u.Seat, u.Seq, seq)
	}

	hands := s.playUntilOurBid(map[string]string{"bid": "bidding", "call": "call", "discard": "discard",
		"play": "play", "play-phone": "play-phone"})
	s.shot("hand-summary", false)
	s.checkLastHand(id, hands, 5)

	// The seat token is kept: a reload takes the seat back.
	s.click("#summary-close")
	s.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
	waitFor(t, "the reloaded page takes seat 0 back", func() bool { return s.ui().Seat == 0 }, 10*time.Second)
	if !s.ui().Over {
		waitFor(t, "the reloaded page shows our hand", func() bool { return s.count("#hand button.card") > 0 }, 10*time.Second)
	}
	if s.ui().Summary {
		t.Error("after the reload the summary of a hand already seen opens again")
	}

	// A spectator (another person: a fresh browser context, so no saved
	// seat) sees the table but no hand, and is not offered a full table.
	tab, cancel := chromedp.NewContext(s.ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	spec := &browser{t: t, ctx: tab, shots: s.shots}
	spec.watchConsole()
	spec.do("watch", chromedp.Navigate(s.url+"/t/"+id+"?watch=1"), chromedp.WaitVisible(chromedp.CSS("#felt")))
	waitFor(t, "the spectator's first state", func() bool { return spec.ui().Seq >= 0 }, 10*time.Second)
	if got := spec.ui().Seat; got != -1 {
		t.Errorf("the spectator holds seat %d, want -1", got)
	}
	if got := spec.count("#hand-area:not([hidden])"); got != 0 {
		t.Error("the spectator is shown a hand")
	}
	if got := spec.count("#felt .seat"); got != 5 {
		t.Errorf("the spectator sees %d seats, want 5", got)
	}
	if got := spec.count("#join:not([hidden]), #show-join:not([hidden])"); got != 0 {
		t.Error("the spectator is offered a seat at a full table")
	}
	if got := spec.rows("#sheet tbody tr"); len(got) != len(hands) {
		t.Errorf("the spectator's score sheet has %d rows, want %d", len(got), len(hands))
	}
}

func TestBrowserTenPointHand(t *testing.T) {
	s := newSite(t)

	// The lobby's auction form: 2 to 7 players, partnerships only for 4
	// or 6 (AP-1), one seat row per player; the target follows the game (C-8).
	s.do("open the lobby", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
	s.choose("#game", "auction")
	if got := s.value("#target"); got != "7" {
		t.Errorf("auction's default target in the lobby = %q, want 7", got)
	}
	for _, c := range []struct {
		players     string
		partnerable bool
	}{{"2", false}, {"3", false}, {"4", true}, {"5", false}, {"6", true}, {"7", false}} {
		s.choose("#opt-players", c.players)
		if got := strconv.Itoa(s.count("#seat-list select")); got != c.players {
			t.Errorf("auction with %s players: %s seat rows", c.players, got)
		}
		if got := s.count("#opt-partnerships:not(:disabled)") == 1; got != c.partnerable {
			t.Errorf("auction with %s players: partnerships enabled %v, want %v", c.players, got, c.partnerable)
		}
	}
	s.choose("#game", "ten-point")
	if got := s.value("#target"); got != "52" {
		t.Errorf("ten-point's default target in the lobby = %q, want 52", got)
	}
	id := s.createTable("ten-point", 4, "")
	s.join("Bea")
	if got := s.count("#felt .seat .badge.team"); got != 4 {
		t.Errorf("%d seats show their team, want 4 (TP-1)", got)
	}
	hands := s.playUntilOurBid(map[string]string{"trump": "trump", "give_stock": "give-stock", "discard": "burn"})
	s.checkLastHand(id, hands, 4)
}

func cardText(c string) string {
	rank := c[:1]
	if rank == "T" {
		rank = "10"
	}
	return rank + map[byte]string{'C': "♣", 'D': "♦", 'H': "♥", 'S': "♠"}[c[1]]
}

func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func parseCards(t *testing.T, cs []string) []pitch.Card {
	t.Helper()
	var out []pitch.Card
	for _, c := range cs {
		card, err := pitch.ParseCard(c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, card)
	}
	return out
}

func actionsJSON(t *testing.T, as []pitch.Action) string {
	t.Helper()
	b, err := json.Marshal(as)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fetchRecord(t *testing.T, base, id string, n int) *pitch.Record {
	t.Helper()
	res, err := http.Get(fmt.Sprintf("%s/api/tables/%s/hands/%d", base, id, n))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET hand %d: %s", n, res.Status)
	}
	rec, err := pitch.ReadRecord(res.Body)
	if err != nil {
		t.Fatalf("hand %d's record: %v", n, err)
	}
	return rec
}

// TestBrowserServerRestart: a graceful shutdown (what SIGTERM does) while
// a person plays shows "The server is restarting; reconnecting…" and the
// page reconnects by itself to the server started again on the same
// address and database, with its seat and the same state.
func TestBrowserServerRestart(t *testing.T) {
	bctx := newTab(t, 100*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Second)
	t.Cleanup(cancel)
	db := filepath.Join(t.TempDir(), "pitch.db")
	serve := func(addr string) (*server.Server, *http.Server, store.Store, string) {
		t.Helper()
		return serveDB(t, ctx, db, addr, server.Options{BotDelay: 20 * time.Millisecond, AwayDelay: time.Minute})
	}
	srv, hs, st, addr := serve("127.0.0.1:0")

	// The page's own errors fail the test, but not the browser's note of
	// a WebSocket that could not connect while the server was down.
	var mu sync.Mutex
	var console []string
	msgs := chromedp.Console(bctx) // before the browser starts, as watchConsole does
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if (m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException) && !strings.Contains(m.Text, "WebSocket connection to") {
				mu.Lock()
				console = append(console, string(m.Type)+": "+m.Text)
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range console {
			t.Errorf("the page logged %s", m)
		}
	})
	b := &browser{t: t, ctx: bctx, shots: t.TempDir()}
	b.do("start the browser", chromedp.EmulateViewport(1280, 900))
	s := &site{browser: b, url: "http://" + addr}
	id := s.createTable("pawnee", 5, "")
	s.join("Ada")
	waitFor(t, "play to reach us", func() bool { return s.ui().Act != "" }, 20*time.Second)
	before := s.ui()

	sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx, hs); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	st.Close()
	waitFor(t, "the page to say the server is restarting", func() bool {
		return strings.Contains(strings.ToLower(s.text("#conn")), "the server is restarting; reconnecting…")
	}, 10*time.Second)

	srv2, hs2, st2, _ := serve(addr)
	t.Cleanup(func() {
		srv2.Close()
		hs2.Close()
		st2.Close()
	})
	waitFor(t, "the page to reconnect", func() bool { return s.count("#conn.online") == 1 }, 30*time.Second)
	after := s.ui()
	if after.Seat != 0 || after.Seq != before.Seq || after.Act != before.Act {
		t.Errorf("after the restart the page shows seat %d, seq %d, act %q; before it showed seat 0, seq %d, act %q",
			after.Seat, after.Seq, after.Act, before.Seq, before.Act)
	}
	if got := s.text("#conn"); got != "Connected" {
		t.Errorf("after reconnecting the status says %q", got)
	}
	_ = id
}

// TestBrowserLobbyPages: the lobby shows the open tables 20 at a time,
// with Next and Previous, and filters them by game.
func TestBrowserLobbyPages(t *testing.T) {
	s := newSite(t)
	create := func(variant string) {
		t.Helper()
		resp, err := http.Post(s.url+"/api/tables", "application/json", strings.NewReader(`{"variant":"`+variant+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create %s: %s", variant, resp.Status)
		}
	}
	for range 22 {
		create("pawnee")
	}
	for range 3 {
		create("ten-point")
	}
	s.do("open the lobby", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
	waitFor(t, "the first page", func() bool { return s.count("#open-tables li") == 20 }, 10*time.Second)
	if got := s.text("#open-count"); got != "1–20 of 25" {
		t.Errorf("the count says %q, want 1–20 of 25", got)
	}
	if s.count("#open-prev:disabled") != 1 || s.count("#open-next:disabled") != 0 {
		t.Error("on the first page Previous should be disabled and Next not")
	}
	s.click("#open-next")
	waitFor(t, "the second page", func() bool { return s.count("#open-tables li") == 5 }, 10*time.Second)
	if got := s.text("#open-count"); got != "21–25 of 25" {
		t.Errorf("the count says %q, want 21–25 of 25", got)
	}
	if s.count("#open-prev:disabled") != 0 || s.count("#open-next:disabled") != 1 {
		t.Error("on the last page Next should be disabled and Previous not")
	}
	s.click("#open-prev")
	waitFor(t, "back to the first page", func() bool { return s.text("#open-count") == "1–20 of 25" }, 10*time.Second)
	s.choose("#open-game", "ten-point")
	waitFor(t, "the ten-point tables", func() bool { return s.text("#open-count") == "1–3 of 3" }, 10*time.Second)
	if got := s.count("#open-tables li"); got != 3 {
		t.Errorf("%d ten-point tables shown, want 3", got)
	}
	if s.count("#open-next:disabled") != 1 {
		t.Error("one page of ten-point tables, yet Next is enabled")
	}
}

// serveDB serves the page and the API at addr ("127.0.0.1:0" for any
// port) from the store at db, with options o, until the test stops it:
// a server a test can stop and start again on the same address and
// database (a restart).
func serveDB(t *testing.T, ctx context.Context, db, addr string, o server.Options) (*server.Server, *http.Server, store.Store, string) {
	t.Helper()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	o.Static = web.FS()
	srv, err := server.New(ctx, st, o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer()
	go hs.Serve(ln) //nolint:errcheck // ErrServerClosed
	return srv, hs, st, ln.Addr().String()
}
