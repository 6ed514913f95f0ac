package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/coder/websocket"

	"pitch"
)

// expectedSteps replays a record as the replay page must show it: every
// seat's cards after the deal and after each action (and after a
// give_stock the record leaves out), as the engine has them.
func expectedSteps(t *testing.T, rec *pitch.Record) [][]string {
	t.Helper()
	start := *rec
	start.Actions = nil
	s, err := start.State()
	if err != nil {
		t.Fatal(err)
	}
	snap := func() []string {
		var out []string
		for seat := range s.Seats() {
			var cs []string
			for _, c := range s.Hand(seat).Cards() {
				cs = append(cs, c.String())
			}
			out = append(out, strings.Join(cs, " "))
		}
		return out
	}
	steps := [][]string{snap()}
	for _, a := range rec.Actions {
		if s.Phase() == pitch.PhaseGiveStock && a.Kind != pitch.ActGiveStock {
			if err := s.Apply(pitch.GiveStock(s.Bidder(), false)); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, snap())
		}
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, snap())
	}
	return steps
}

// TestReplayPage drops a hand record of each game on the replay page,
// steps it forward to the end by the → key and back to the start by the
// ← key, and checks at every step that every seat's cards shown are the
// record's, as the engine replays it; then End and Home.
func TestReplayPage(t *testing.T) {
	s := newSite(t)
	for _, name := range []string{"auction-best", "ten-point-best", "pawnee-best"} {
		raw, err := os.ReadFile(filepath.Join("..", "testdata", "review", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := pitch.ReadRecord(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		want := expectedSteps(t, rec)
		s.do("open the replay page", chromedp.Navigate(s.url+"/replay"), chromedp.WaitVisible(chromedp.CSS("#rp-drop")))
		var ok bool
		s.eval(fmt.Sprintf(`(() => { const dt = new DataTransfer(); dt.items.add(new File([%q], 'hand.json', {type: 'application/json'}));
			document.querySelector('#rp-drop').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
			return 'true'; })()`, string(raw)), &ok)
		s.do("wait for the replay", chromedp.WaitVisible(chromedp.CSS("#rp-main")))
		s.checkReplaySteps(name, want, false)
	}
}

// normalize sorts a space-separated list of cards.
func normalize(s string) string {
	f := strings.Fields(s)
	m := map[string]bool{}
	for _, c := range f {
		m[c] = true
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// checkReplaySteps steps the replay page shown from its first step to the
// last and back, by the buttons or by the keys → and ←, then to the end
// and the start (End and Home, or the ▶| and |◀ buttons), and checks at every step that
// the cards shown in every seat's hand are want's for that step; at the
// end, that the result is shown.
func (b *browser) checkReplaySteps(name string, want [][]string, buttons bool) {
	t := b.t
	t.Helper()
	move := func(what, key, button string) {
		t.Helper()
		if buttons {
			b.click(button)
		} else {
			b.do(what, chromedp.KeyEvent(key))
		}
	}
	check := func(k int) {
		t.Helper()
		// The cards drawn, seat by seat, and the list the page keeps of them.
		var got []struct {
			Seat  string   `json:"seat"`
			Cards []string `json:"cards"`
			Kept  string   `json:"kept"`
		}
		b.eval(`JSON.stringify([...document.querySelectorAll('#rp-seats .rp-seat')].map((e) => ({seat: e.dataset.seat,
			cards: [...e.querySelectorAll('.rp-cards [data-card]')].map((c) => c.dataset.card), kept: e.querySelector('.rp-cards').dataset.cards})))`, &got)
		if len(got) != len(want[k]) {
			t.Fatalf("%s, step %d: %d seats shown, want %d", name, k, len(got), len(want[k]))
		}
		for seat, g := range got {
			if g.Seat != fmt.Sprint(seat) || normalize(strings.Join(g.Cards, " ")) != normalize(want[k][seat]) || normalize(g.Kept) != normalize(want[k][seat]) {
				t.Fatalf("%s, step %d, seat %d: the page shows %v (%q), the record %q", name, k, seat, g.Cards, g.Kept, want[k][seat])
			}
		}
	}
	last := len(want) - 1
	check(0)
	if buttons && b.count("#rp-prev:disabled") != 1 {
		t.Errorf("%s: at the start, Back is not disabled", name)
	}
	for k := 1; k <= last; k++ {
		move("step forward", kb.ArrowRight, "#rp-next")
		check(k)
	}
	if buttons {
		if b.count("#rp-next:disabled, #rp-last:disabled") != 2 {
			t.Errorf("%s: at the end, Forward and To the end are not disabled", name)
		}
	} else {
		b.do("past the end", chromedp.KeyEvent(kb.ArrowRight))
		check(last)
	}
	var result string
	b.eval(`JSON.stringify(document.querySelector('#rp-result').hidden ? '' : document.querySelector('#rp-result').textContent)`, &result)
	if result == "" {
		t.Errorf("%s: no result shown at the end", name)
	}
	for k := last - 1; k >= 0; k-- {
		move("step back", kb.ArrowLeft, "#rp-prev")
		check(k)
	}
	move("to the end", kb.End, "#rp-last")
	check(last)
	move("to the start", kb.Home, "#rp-first")
	check(0)
}

// getJSON decodes the answer to GET path, which must be 200.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// reviewCounts are GET /api/tables/{id}/reviews.
type reviewCounts struct {
	Hands   int `json:"hands"`
	Reviews []struct {
		Hand     int `json:"hand"`
		Seat     int `json:"seat"`
		Mistakes int `json:"mistakes"`
		Blunders int `json:"blunders"`
	} `json:"reviews"`
}

// checkMatchReview waits for the match review in box (#rp-match,
// #history-mr) to say every finished hand is reviewed for the seats which
// says ("" every seat, or one), and checks its counts by seat against the
// server's. It returns the seat reviewed with the most mistakes and
// blunders (the first, when none has any).
func (s *site) checkMatchReview(b *browser, box, id string, seats int, which string) int {
	t := s.t
	t.Helper()
	var hands []json.RawMessage
	getJSON(t, s.url+"/api/tables/"+id+"/hands", &hands)
	var p struct {
		Done, Idle bool
		Text       string
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b.eval(fmt.Sprintf(`(() => { const p = document.querySelector('%[1]s .mr-progress');
			return JSON.stringify({done: !!p && p.dataset.done === p.dataset.total && p.dataset.total === '%[2]d',
				idle: !!document.querySelector('%[1]s .mr-go:not(:disabled)'), text: p ? p.textContent : ''}); })()`, box, len(hands)), &p)
		if p.Done && p.Idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("table %s: the match review of %d hands in %s is not done after a minute: it says %q", id, len(hands), box, p.Text)
		}
	}
	var rc reviewCounts
	getJSON(t, s.url+"/api/tables/"+id+"/reviews", &rc)
	reviewed := reviewedSeats(seats, which)
	made := map[[2]int]bool{}
	for _, r := range rc.Reviews {
		made[[2]int{r.Hand, r.Seat}] = true
	}
	for n := 1; n <= len(hands); n++ {
		for _, seat := range reviewed {
			if !made[[2]int{n, seat}] {
				t.Errorf("after the match review the server has no review of hand %d for seat %d", n, seat)
			}
		}
	}
	if rc.Hands != len(hands) {
		t.Errorf("GET reviews says %d hands finished, GET hands lists %d", rc.Hands, len(hands))
	}
	type sum struct{ Mistakes, Blunders, Hands int }
	want := make([]sum, seats)
	for _, r := range rc.Reviews {
		want[r.Seat].Mistakes += r.Mistakes
		want[r.Seat].Blunders += r.Blunders
		want[r.Seat].Hands++
	}
	var got []struct{ Mistakes, Blunders, Hands string }
	b.eval(fmt.Sprintf(`JSON.stringify([...document.querySelectorAll('%s .mr-seats li')].map((e) => e.dataset))`, box), &got)
	if len(got) != seats {
		t.Fatalf("the match review lists %d seats, want %d", len(got), seats)
	}
	worst := reviewed[0]
	for seat, g := range got {
		w := want[seat]
		if g.Mistakes != fmt.Sprint(w.Mistakes) || g.Blunders != fmt.Sprint(w.Blunders) || g.Hands != fmt.Sprint(w.Hands) {
			t.Errorf("the match review shows seat %d with %+v, the server %+v", seat, g, w)
		}
		if slices.Contains(reviewed, seat) && w.Mistakes+w.Blunders > want[worst].Mistakes+want[worst].Blunders {
			worst = seat
		}
	}
	return worst
}

// checkReviewPanel asks the replay page of hand n for the review of seat
// and checks it against the server's: a line per decision, each marked as
// the server marks it (mistake, blunder or good).
func (s *site) checkReviewPanel(b *browser, id string, n, seat int) {
	t := s.t
	t.Helper()
	b.choose("#rp-review-seat", fmt.Sprint(seat))
	b.click("#rp-review-go")
	var r struct {
		Review struct {
			Seat      int `json:"seat"`
			Decisions []struct {
				Index   int    `json:"index"`
				Verdict string `json:"verdict"`
			} `json:"decisions"`
		} `json:"review"`
	}
	waitFor(t, "the review shown", func() bool {
		return b.count("#rp-review-out .rp-decision") > 0 || strings.Contains(b.text("#rp-review-out"), "No decision to review")
	}, 60*time.Second)
	getJSON(t, fmt.Sprintf("%s/api/tables/%s/hands/%d/review?seat=%d", s.url, id, n, seat), &r)
	var got []struct{ Index, Class string }
	b.eval(`JSON.stringify([...document.querySelectorAll('#rp-review-out .rp-decision')].map((e) => ({index: e.dataset.index, class: e.className})))`, &got)
	if r.Review.Seat != seat || len(got) != len(r.Review.Decisions) {
		t.Fatalf("hand %d seat %d: the page shows %d decisions, the server's review %d", n, seat, len(got), len(r.Review.Decisions))
	}
	for i, d := range r.Review.Decisions {
		mark := d.Verdict
		if mark == "" {
			mark = "ok"
		}
		if got[i].Index != fmt.Sprint(d.Index) || !slices.Contains(strings.Fields(got[i].Class), mark) {
			t.Errorf("hand %d seat %d, decision %d: the page shows action %s marked %q, the server action %d %q", n, seat, i, got[i].Index, got[i].Class, d.Index, mark)
		}
	}
}

// TestBrowserReplayTable: for each game a table of bots plays on the
// server while we watch; we open a finished hand's replay from the table
// page (the score sheet, the hand records, and the records' "Review the
// match"), review the whole match and check its counts by seat, check the
// review of the seat with the most mistakes marks what the server marks,
// and step the hand forward to the end and back to the start, checking at
// every step the cards shown against the hand record the server serves.
// A visitor with no seat (another browser context) does the same from the
// hand's own address. The pages fit the desktop and the phone; the last
// match is reviewed from the history page too.
func TestBrowserReplayTable(t *testing.T) {
	s := newSiteFor(t, 200*time.Second, nil) // three hands played, reviewed and replayed twice
	tab, cancel := chromedp.NewContext(s.ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	visitor := &browser{t: t, ctx: tab, shots: s.shots}
	visitor.watchConsole()
	const taps = ".rp-controls button, #rp-review-go, #rp-review-seat, .mr-ask button, .mr-ask select"
	const controls = "#rp-first, #rp-prev, #rp-step, #rp-next, #rp-last"
	games := []struct {
		variant string
		seats   int
		open    string // the link of the table page that opens the replay
		review  string // the seats the match review is for: "" every seat
		id      string
		watch   *websocket.Conn // a spectator's, till the table has a finished hand
	}{
		{"auction", 4, `#sheet a.replay-link`, "", "", nil},
		{"ten-point", 4, `#records a.replay-link`, "2", "", nil},
		{"pawnee", 5, `#records a.review-match`, "", "", nil},
	}
	// A table of bots for each game, watched by a spectator's WebSocket
	// (bots play while someone watches) until it has finished a hand: a
	// hand ends in a bounded number of moves, 20 ms each.
	for i := range games {
		g := &games[i]
		bots := strings.TrimSuffix(strings.Repeat(`{"kind":"bot","level":"easy"},`, g.seats), ",")
		g.id = s.createAPI(`{"variant":"` + g.variant + `","seats":[` + bots + `]}`)
		g.watch = watch(t, s.url, g.id)
	}
	waitFor(t, "a finished hand at every table", func() bool {
		done := 0
		for i := range games {
			g := &games[i]
			if g.watch != nil {
				var hands []json.RawMessage
				getJSON(t, s.url+"/api/tables/"+g.id+"/hands", &hands)
				if len(hands) == 0 {
					continue
				}
				g.watch.Close(websocket.StatusNormalClosure, "") // the table stops when nobody watches
				g.watch = nil
			}
			done++
		}
		return done == len(games)
	}, 60*time.Second)

	for i, g := range games {
		s.do("watch "+g.variant, chromedp.Navigate(s.url+"/t/"+g.id+"?watch=1"), chromedp.WaitVisible(chromedp.CSS("#felt")))
		waitFor(t, g.variant+": the finished hand on the table page", func() bool { return s.count(g.open) > 0 }, 10*time.Second)
		// The first such link: hand 1, or (review-match) the last hand.
		// The bots play on while we watch, and the list may be drawn
		// again at any moment: the link is found and clicked in one go.
		var clicked bool
		s.eval(fmt.Sprintf(`(() => { const a = document.querySelector(%q); if (a) a.click(); return JSON.stringify(!!a); })()`, g.open), &clicked)
		if !clicked {
			t.Fatalf("%s: no link %s to click", g.variant, g.open)
		}
		s.do("the replay", chromedp.WaitVisible(chromedp.CSS("#rp-main")))
		loc, err := chromedp.Run(s.ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if _, err := fmt.Sscanf(loc, s.url+"/t/"+g.id+"/hands/%d", &n); err != nil || n < 1 {
			t.Fatalf("%s: the link opened %s, want %s/t/%s/hands/N", g.variant, loc, s.url, g.id)
		}
		// The table page, left, let its connection go: the table waits.
		waitFor(t, "the table page to let its connection go", func() bool {
			var st struct{ Connections int }
			getJSON(t, s.url+"/api/stats", &st)
			return st.Connections == 0
		}, 10*time.Second)
		if g.open != `#records a.review-match` { // that one starts the match review for every seat
			s.choose("#rp-match-seat", g.review)
			s.click("#rp-match .mr-go")
		}
		worst := s.checkMatchReview(s.browser, "#rp-match", g.id, g.seats, g.review)
		s.checkReviewPanel(s.browser, g.id, n, worst)
		waitFor(t, g.variant+": the hand's summary", func() bool { return s.count("#rp-summary li") == len(reviewedSeats(g.seats, g.review)) }, 10*time.Second)
		s.checkPage(g.variant+" replay with its review", controls, taps)
		want := expectedSteps(t, fetchRecord(t, s.url, g.id, n))
		s.checkReplaySteps(fmt.Sprintf("%s hand %d", g.variant, n), want, i%2 == 0)

		// A visitor with no seat, by the hand's own address.
		visitor.do("open the shared replay", chromedp.Navigate(fmt.Sprintf("%s/t/%s/hands/%d", s.url, g.id, n)), chromedp.WaitVisible(chromedp.CSS("#rp-main")))
		visitor.checkReplaySteps(fmt.Sprintf("%s hand %d, a visitor", g.variant, n), want, i%2 == 1)
		s.checkReviewPanel(visitor, g.id, n, worst)
		visitor.checkPage(g.variant+" replay, a visitor", controls, taps)
	}

	// The history: the last match's row reviews the whole match.
	g := games[len(games)-1]
	s.do("the history", chromedp.Navigate(s.url+"/history"), chromedp.WaitVisible(chromedp.CSS("#history-list")))
	row := fmt.Sprintf(`#history-list tr[data-id=%q]`, g.id)
	waitFor(t, "the match in the history", func() bool { return s.count(row+" .review-match") == 1 }, 10*time.Second)
	// The button reads as a link before anyone focuses it: underlined,
	// and not in the text's colour.
	var look struct{ Line, Color, Text string }
	s.eval(`(() => { const b = document.querySelector(`+strconv.Quote(row+" .review-match")+`), cs = getComputedStyle(b);
		return JSON.stringify({line: cs.textDecorationLine, color: cs.color, text: getComputedStyle(b.closest('tr')).color}); })()`, &look)
	if !strings.Contains(look.Line, "underline") || look.Color == look.Text {
		t.Errorf("the history's review button looks like plain text: decoration %q, colour %s (the row's: %s)", look.Line, look.Color, look.Text)
	}
	s.click(row + " .review-match")
	s.do("the match review", chromedp.WaitVisible(chromedp.CSS("#history-review")))
	s.checkMatchReview(s.browser, "#history-mr", g.id, g.seats, "")
	s.checkPage("the history with a match review", "#history-h", ".mr-ask button, .mr-ask select")
}

// watch connects to table id as a spectator, reading (and dropping) what
// the server sends until the connection is closed.
func watch(t *testing.T, base, id string) *websocket.Conn {
	t.Helper()
	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/tables/"+id+"/ws", nil)
	if err != nil {
		t.Fatalf("watching %s: %v", id, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatalf("watching %s: %v", id, err)
	}
	go func() {
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	return c
}

// reviewedSeats are the seats a match review of seats ("" for every seat,
// or one) is for.
func reviewedSeats(n int, seats string) []int {
	if seats != "" {
		s, _ := strconv.Atoi(seats)
		return []int{s}
	}
	var out []int
	for i := range n {
		out = append(out, i)
	}
	return out
}
