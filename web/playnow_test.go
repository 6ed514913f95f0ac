package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Play now (README.md "Play now") as people meet it.

// seatBoxes is what the felt's seat boxes say: each box's name line and
// its badges.
func (s *site) seatBoxes() []struct{ Name, Badges string } {
	s.t.Helper()
	var out []struct{ Name, Badges string }
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#seats .seat')).map((e) => ({
		name: e.querySelector('.s-name').textContent, badges: (e.querySelector('.s-badges') || {}).textContent || '' })))`, &out)
	return out
}

// pressPlay opens the home page, checks that the Play now panel fits the
// screen at desktop and phone sizes, and presses Play for auction as a
// guest named name; it returns once the table's page holds the seat
// (seat -1: a pending takeover, watched).
func (s *site) pressPlay(name string, seat int) string {
	t := s.t
	t.Helper()
	s.do("open the home page", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#pn-games button[data-variant="auction"]`)))
	s.eval(`localStorage.setItem('pitch.speed', 'instant'), 'true'`, new(bool))
	for _, size := range accountSizes {
		s.do(size.name, chromedp.EmulateViewport(size.w, size.h, chromedp.EmulateScale(size.scale)), settled())
		for _, p := range s.layoutProblems(`#playnow h2, #playnow label, #pn-name, #pn-pace, #pn-games button`, 12, false) {
			t.Errorf("the Play now panel at %s: %s", size.name, p)
		}
		var inView bool
		s.eval(`(() => { const r = document.querySelector('#pn-games button').getBoundingClientRect();
			return JSON.stringify(r.top >= 0 && r.bottom <= innerHeight); })()`, &inView)
		if !inView {
			t.Errorf("the first Play button is not in view at %s without scrolling", size.name)
		}
	}
	s.do("desktop", chromedp.EmulateViewport(1280, 900))
	s.fill("#pn-name", name)
	s.choose("#pn-pace", "fast")
	s.click(`#pn-games button[data-variant="auction"]`)
	s.do("the table opens", chromedp.WaitVisible(chromedp.CSS("#felt")))
	waitFor(t, name+"'s seat", func() bool { return s.ui().Seat == seat }, 20*time.Second)
	var id string
	s.eval(`JSON.stringify(location.pathname.split('/')[2])`, &id)
	return id
}

// TestBrowserPlayNow: a guest taps Play and plays a hand with bots; a
// second person taps Play mid-hand and watches, their takeover of Bot 1's
// seat shown to both, until the hand ends; then the seat is theirs, both
// pages say "took over from Bot 1"; the first leaves, a bot takes their
// seat at once and the second plays on with it.
func TestBrowserPlayNow(t *testing.T) {
	ann := newSiteFor(t, 150*time.Second, nil)
	id := ann.pressPlay("Ann", 0)
	if boxes := ann.seatBoxes(); len(boxes) != 4 || !strings.Contains(boxes[1].Name, "Bot 1") {
		t.Fatalf("Ann's table: %+v; want four seats, Bot 1 in seat 1", boxes)
	}
	// A guest's table is casual, and its page says so.
	waitFor(t, "the table's information", func() bool { return strings.Contains(ann.text("#table-info"), "casual") }, 10*time.Second)
	// Ann plays a few moves of hand 1.
	for moved := 0; moved < 2; {
		if ann.actOnce() {
			moved++
		} else {
			time.Sleep(pollEvery)
		}
	}
	// Bob taps Play mid-hand: he watches, and both pages show him coming.
	bob := &site{browser: &browser{t: t, ctx: newTab(t, 150*time.Second), shots: ann.shots}, url: ann.url, srv: ann.srv, st: ann.st}
	bob.watchConsole()
	if got := bob.pressPlay("Bob", -1); got != id {
		t.Fatalf("Bob was sent to table %s, want Ann's %s", got, id)
	}
	if bob.count("#hand button.card") != 0 {
		t.Error("Bob, waiting for the seat, sees cards in a hand")
	}
	for _, who := range []*site{ann, bob} {
		waitFor(t, "the pending takeover shown", func() bool {
			b := who.seatBoxes()
			return len(b) == 4 && strings.Contains(b[1].Badges, "Bob")
		}, 10*time.Second)
	}
	// The marks fit the seat boxes at every size.
	ann.checkLayout("playnow-pending", map[string]bool{})
	// Ann finishes the hand: at the boundary Bob takes seat 1.
	ann.playToSummary("")
	waitFor(t, "Bob seated", func() bool { return bob.ui().Seat == 1 }, 30*time.Second)
	for _, who := range []*site{ann, bob} {
		waitFor(t, "the takeover shown", func() bool {
			b := who.seatBoxes()
			return len(b) == 4 && strings.Contains(b[1].Name, "Bob") && strings.Contains(b[1].Badges, "Bot 1")
		}, 10*time.Second)
	}
	// The score sheet's hand 1 was Bot 1's in seat 1, though Bob holds
	// the seat now: the cell names who played it then.
	for _, who := range []*site{ann, bob} {
		var cell string
		who.eval(`JSON.stringify(document.querySelector('#sheet tbody tr.made td:nth-child(4), #sheet tbody tr.set td:nth-child(4)').title)`, &cell)
		if cell != "Bot 1" {
			t.Errorf("the score sheet names seat 1's hand 1 %q, want Bot 1", cell)
		}
	}
	if bob.ui().Summary { // the hand he watched: closed, to see the felt
		bob.click("#summary-close")
	}
	bob.checkLayout("playnow-tookover", map[string]bool{})
	// Ann leaves from the table's menu: her page goes home, a bot plays her
	// seat at once, and Bob plays on.
	ann.click("#summary-close")
	ann.click(".tools summary")
	ann.click("#pn-leave")
	ann.do("back home", chromedp.WaitVisible(chromedp.CSS("#playnow")))
	// The home page says who plays now (Bob), and lists Bob's table with
	// a Play button: a bot holds Ann's old seat.
	waitFor(t, "the count of people playing", func() bool { return strings.Contains(ann.text("#pn-playing"), "Auction Pitch 1") }, 15*time.Second)
	waitFor(t, "Bob's table in the lobby", func() bool { return ann.count("#open-tables button.primary") == 1 }, 15*time.Second)
	waitFor(t, "a bot in seat 0 at Bob's table", func() bool {
		b := bob.seatBoxes()
		return len(b) == 4 && strings.Contains(b[0].Name, "Bot 4")
	}, 10*time.Second)
	events, err := ann.st.Events(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	left := len(events)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if bob.ui().Summary {
			bob.click("#summary-close")
		} else if !bob.actOnce() {
			time.Sleep(pollEvery)
		}
		events, err := ann.st.Events(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		botMoved := false
		for _, e := range events[left:] {
			var a struct{ Seat int }
			if json.Unmarshal(e.Action, &a) == nil && a.Seat == 0 && e.By == "" {
				botMoved = true
			}
		}
		if botMoved {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no move of seat 0's bot in %d events since Ann left", len(events)-left)
		}
	}
	info, err := ann.st.Table(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if s0, s1 := info.Seats[0], info.Seats[1]; s0.Kind != "bot" || s1.Name != "Bob" || s1.TookOver == nil || s1.TookOver.Bot != 1 {
		t.Errorf("stored seats %+v, %+v: want a bot in seat 0 and Bob's takeover of Bot 1 in seat 1", s0, s1)
	}
}

// TestBrowserPlayNowRules: beside auction's Play button the home page
// shows one for the house rules most played here (to 11, as the server
// names them), in view without scrolling and fitting at desktop and
// phone sizes, also when tables wait for players (listed before the
// create form on a phone, after Play now); pressing it seats the person
// at a table of those rules.
func TestBrowserPlayNowRules(t *testing.T) {
	s := newSiteFor(t, 90*time.Second, nil)
	for range 2 {
		resp, err := http.Post(s.url+"/api/tables", "application/json", strings.NewReader(`{"variant":"auction","options":{"target":11}}`))
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("creating a table to 11: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	rules := `#pn-games button.pn-rules[data-variant="auction"]`
	s.do("open the home page", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS(rules)))
	if got := s.text(rules); !strings.Contains(got, "Auction Pitch") || !strings.Contains(got, "to 11") {
		t.Errorf("the most played rules' button says %q; want auction to 11", got)
	}
	if n := s.count(`#pn-games button.pn-rules`); n != 1 {
		t.Errorf("%d house-rules buttons, want 1 (auction's)", n)
	}
	for _, size := range accountSizes {
		s.do(size.name, chromedp.EmulateViewport(size.w, size.h, chromedp.EmulateScale(size.scale)), settled())
		for _, p := range s.layoutProblems(`#pn-games button`, 12, false) {
			t.Errorf("the Play buttons at %s: %s", size.name, p)
		}
		var inView bool
		s.eval(`(() => { const r = document.querySelector('`+rules+`').getBoundingClientRect();
			return JSON.stringify(r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth); })()`, &inView)
		if !inView {
			t.Errorf("the house rules' Play button is not in view at %s without scrolling", size.name)
		}
	}
	s.do("desktop", chromedp.EmulateViewport(1280, 900))
	s.fill("#pn-name", "Ann")
	s.click(rules)
	s.do("the table opens", chromedp.WaitVisible(chromedp.CSS("#felt")))
	var id string
	s.eval(`JSON.stringify(location.pathname.split('/')[2])`, &id)
	tb, err := s.st.Table(t.Context(), id)
	if err != nil || !tb.PlayNow || !strings.Contains(string(tb.Options), `"target":11`) {
		t.Errorf("the table opened: %+v (%v); want a play-now table to 11", tb, err)
	}
}
