package web_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pitch"
	"pitch/server"
)

// The end of a hand, as a person meets it: one paused sequence.

// endRecorderJS records, in window.__end, what the page shows when a
// finished hand's last trick starts to be held (data-ended), and when the
// summary opens: the hand number, the facts, the seat boxes, the log, the
// last trick, the live region, the banner, the move panel, the trick on
// the felt and whether the focus fell to <body>.
const endRecorderJS = `(() => {
  window.__end = [];
  const tv = document.querySelector('#table-view');
  const txt = (s) => { const e = document.querySelector(s); return e && !e.hidden ? e.textContent : ''; };
  const snap = (kind) => ({
    kind, hand: Number(tv.dataset.hand), title: txt('#t-title'), info: txt('#table-info'),
    seats: Array.from(document.querySelectorAll('#seats .seat')).map((s) => s.querySelector('.s-stats').firstChild.textContent),
    log: Array.from(document.querySelectorAll('#log li')).map((e) => e.textContent),
    lastTrick: txt('#last-trick'), announce: document.querySelector('#announce').textContent, banner: txt('#banner'),
    actions: txt('#actions'), trick: Array.from(document.querySelectorAll('#trick .tcard')).map((e) => e.dataset.card),
    body: document.activeElement === document.body || !document.activeElement, rows: Number(tv.dataset.rows),
  });
  let held = false;
  new MutationObserver(() => {
    const now = tv.dataset.ended === 'true' && tv.dataset.held === 'true';
    if (now && !held) window.__end.push(snap('held'));
    held = now;
  }).observe(tv, { attributes: true, attributeFilter: ['data-ended', 'data-held'] });
  new MutationObserver(() => { if (document.querySelector('#summary').open) window.__end.push(snap('summary')); })
    .observe(document.querySelector('#summary'), { attributes: true, attributeFilter: ['open'] });
  return 'true';
})()`

// endSnap is one of endRecorderJS's records.
type endSnap struct {
	Kind, Title, Info, LastTrick, Announce, Banner, Actions string
	Hand, Rows                                              int
	Seats, Log, Trick                                       []string
	Body                                                    bool
}

// openSeat opens table id in the browser as the person holding token.
func (s *site) openSeat(id string, seat int, token, name string) {
	s.t.Helper()
	s.do("open the lobby", chromedp.Navigate(s.url+"/"))
	s.eval(fmt.Sprintf(`localStorage.setItem('pitch.seat.%s', JSON.stringify({seat: %d, token: %q, name: %q})), localStorage.setItem('pitch.speed', 'instant'), 'true'`,
		id, seat, token, name), new(bool))
	s.do("open the table", chromedp.Navigate(s.url+"/t/"+id), chromedp.WaitVisible(chromedp.CSS("#felt")))
	waitFor(s.t, "the seat", func() bool { return s.ui().Seat == seat }, 20*time.Second)
}

// actOnce makes our move, if one is asked: the first choice the page
// offers, cards by the keyboard. It reports whether it moved. On a table
// with a turn timer the server may move for us between our look and our
// click: a click whose button has gone is then not a failure, and
// actOnce reports that it did not move.
func (s *site) actOnce() bool {
	t := s.t
	t.Helper()
	u := s.ui()
	if u.Pending || u.Act == "" || u.Summary {
		return false
	}
	// movedOn reports whether the table is no longer at the decision we
	// read, which explains a button that went away under the click.
	movedOn := func() bool {
		now := s.ui()
		return now.Seq != u.Seq || now.Act != u.Act
	}
	click := func(sel string) bool {
		t.Helper()
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
			// The button went away under the click: the table moved on, or
			// the page drew the panel again (the caller looks again).
			if movedOn() || strings.Contains(err.Error(), "Could not find node") {
				return false
			}
			t.Fatalf("click %s: %v", sel, err)
		}
		return true
	}
	first := func(sel string) (string, bool) {
		if c := s.cards(sel); len(c) > 0 {
			return c[0], true
		}
		if movedOn() {
			return "", false
		}
		t.Fatalf("our %s offers no card %s", u.Act, sel)
		return "", false
	}
	switch u.Act {
	case "bid":
		sel := `#actions button[data-bid]`
		if s.count(`#actions button[data-pass]`) > 0 {
			sel = `#actions button[data-pass]`
		}
		if !click(sel) {
			return false
		}
	case "call":
		var c string
		for _, suit := range []string{"S", "H", "C", "D"} {
			if !click(fmt.Sprintf(`#actions button[data-suit=%q]`, suit)) {
				return false
			}
			if free := s.cards("#call-picker button.can:not(.mine)"); len(free) > 0 {
				c = free[0]
				break
			}
		}
		if !click(fmt.Sprintf(`#call-picker button[data-card=%q]`, c)) || !click("#call-confirm") {
			return false
		}
	case "trump":
		if !click(`#actions button[data-trump]`) {
			return false
		}
	case "give_stock":
		if !click(`#actions button[data-give="false"]`) {
			return false
		}
	case "discard":
		n, _ := strconv.Atoi(s.attr("#actions", "remaining"))
		for range n {
			c, ok := first("#hand button.can:not(.sel)")
			if !ok || !click(fmt.Sprintf(`#hand button[data-card=%q]`, c)) {
				return false
			}
		}
		if !click("#discard-confirm") {
			return false
		}
	case "play":
		c, ok := first("#hand button.can")
		if !ok {
			return false
		}
		sel := fmt.Sprintf(`#hand button[data-card=%q]`, c)
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent(kb.Enter))
		cancel()
		if err != nil {
			if movedOn() {
				return false
			}
			t.Fatalf("play by keyboard: %v", err)
		}
	default:
		t.Fatalf("unexpected decision %q", u.Act)
	}
	waitFor(t, "the server takes our "+u.Act, func() bool { return s.ui().Seq != u.Seq }, 10*time.Second)
	return true
}

// attr is data-NAME of the element sel matches.
func (s *site) attr(sel, name string) string {
	s.t.Helper()
	var v string
	s.eval(fmt.Sprintf(`JSON.stringify((document.querySelector(%q) || {dataset: {}}).dataset[%q] || '')`, sel, name), &v)
	return v
}

// playToSummary plays our moves until the summary of the hand opens; in
// the hand's last tricks it slows the page down, so that the held last
// trick can be shot, as shot if set. The shot is kept only when
// PITCH_SCREENSHOTS=1 asks for screenshots: otherwise it is not taken, and
// the page is not slowed down for it (what the tests check of a held
// trick, the page records as it happens: endRecorderJS).
func (s *site) playToSummary(shot string) {
	t := s.t
	t.Helper()
	if os.Getenv("PITCH_SCREENSHOTS") != "1" {
		shot = ""
	}
	slow, shotTaken := false, false
	deadline := time.Now().Add(100 * time.Second)
	for !s.ui().Summary {
		if time.Now().After(deadline) {
			t.Fatal("the hand's summary did not open in time")
		}
		if !slow && shot != "" && s.attr("#table-view", "phase") == "play" && s.count("#hand button.card") <= 2 {
			slow = true
			s.eval(`localStorage.setItem('pitch.speed', 'slow'), 'true'`, new(bool))
		}
		if shot != "" && !shotTaken && s.attr("#table-view", "ended") == "true" {
			shotTaken = true
			s.do("desktop", chromedp.EmulateViewport(1280, 720))
			s.shot(shot, false)
			s.do("back", chromedp.EmulateViewport(1280, 900))
		}
		if !s.actOnce() {
			time.Sleep(pollEvery)
		}
	}
	if shot != "" && !shotTaken {
		t.Logf("the held last trick came and went too fast for the screenshot %s", shot)
	}
	s.eval(`localStorage.setItem('pitch.speed', 'instant'), 'true'`, new(bool))
}

// TestBrowserHandEnd: the last trick of a hand is held on the hand as it
// was — its number, bid and trump, the scores before it, its log ending
// with the last card (which the live region says too), the last trick —
// and only then do the next hand or the match's end, and the summary,
// appear. At the match's end the seat boxes show the final scores. The
// summary's headline and Continue button are in view at every size. The
// focus never falls to <body>: after our last card, after the summary.
// Closing the summary lets play go on at once (the page says ready).
func TestBrowserHandEnd(t *testing.T) {
	for _, g := range []struct {
		variant, options string
		seats            int
	}{{"pawnee", `{}`, 5}, {"ten-point", `{}`, 4}, {"auction", `{"target":1}`, 4}} {
		t.Run(g.variant, func(t *testing.T) {
			// A long wait for ready: play going on at once proves the page said it.
			s := newSiteFor(t, 4*time.Minute, func(o *server.Options) { o.ReadyWait = time.Minute })
			kinds := []string{`{"kind":"human"}`}
			for range g.seats - 1 {
				kinds = append(kinds, `{"kind":"bot","level":"easy"}`)
			}
			id := s.createAPI(fmt.Sprintf(`{"variant":%q,"options":%s,"seats":[%s]}`, g.variant, g.options, strings.Join(kinds, ",")))
			tok := s.joinAPI(id, 0, "Ada")
			s.openSeat(id, 0, tok, "Ada")
			s.eval(endRecorderJS, new(bool))
			// Auction (target 1) is played to the match's end; the others
			// for one hand.
			before := make([]int, g.seats)
			over := false
			for n := 1; ; n++ {
				if n > 1 {
					s.click("#summary-close")
				}
				shot := ""
				if n == 1 {
					shot = "table-held-" + g.variant
				}
				s.playToSummary(shot)

				rec := fetchRecord(t, s.url, id, n)
				out, err := rec.Score()
				if err != nil {
					t.Fatal(err)
				}
				var snaps []endSnap
				s.eval(`JSON.stringify(window.__end)`, &snaps)
				if len(snaps) < 2 || snaps[len(snaps)-2].Kind != "held" || snaps[len(snaps)-1].Kind != "summary" {
					t.Fatalf("the page did not hold the last trick on the finished hand before the summary: %+v", snaps)
				}
				held, sum := snaps[len(snaps)-2], snaps[len(snaps)-1]
				last := rec.Actions[len(rec.Actions)-1]
				if last.Kind != pitch.ActPlay {
					t.Fatalf("the record ends with %s, not a card", last)
				}
				card := cardText(last.Card.String())
				if held.Hand != n || held.Rows != n-1 || !strings.HasSuffix(held.Title, fmt.Sprintf("hand %d", n)) {
					t.Errorf("while the last trick is held the page shows hand %d (%q) with %d sheet rows, want hand %d with %d", held.Hand, held.Title, held.Rows, n, n-1)
				}
				suit := map[string]string{"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[*out.Trump]
				if strings.Contains(held.Info, "none yet") || strings.Contains(held.Info, "not yet") || !strings.Contains(held.Info, "Trump: "+suit) {
					t.Errorf("while the last trick is held the facts read %q, want the finished hand's bid and trump", held.Info)
				}
				for i, sc := range held.Seats {
					if want := fmt.Sprintf("%d pt", before[i]); !strings.HasPrefix(sc, want) {
						t.Errorf("while the last trick of hand %d is held seat %d shows %q, want the score before the hand (%s)", n, i, sc, want)
					}
				}
				if n := len(held.Log); n != len(rec.Actions) || !strings.Contains(held.Log[n-1], "plays "+card) {
					t.Errorf("while the last trick is held the log has %d entries ending %q, want the hand's %d ending with %s", n, held.Log, len(rec.Actions), card)
				}
				if !strings.Contains(held.Announce, "plays "+card) {
					t.Errorf("the live region says %q when the last card falls, want it to say %s", held.Announce, card)
				}
				if strings.Contains(held.LastTrick, "None yet") || held.LastTrick == "" {
					t.Errorf("while the last trick is held the last-trick panel says %q", held.LastTrick)
				}
				if len(held.Trick) == 0 || held.Trick[len(held.Trick)-1] != last.Card.String() {
					t.Errorf("the held trick is %v, want it to end with %s", held.Trick, last.Card)
				}
				if held.Body {
					t.Error("after our last card the focus fell to <body>")
				}
				if strings.Contains(held.Banner, "Match over") || strings.Contains(held.Actions, "Play again") {
					t.Errorf("before the last trick is gathered the page says %q / %q", held.Banner, held.Actions)
				}
				over = out.Winner != nil
				if over {
					if !strings.Contains(sum.Banner, "Match over") {
						t.Errorf("at the match's end the banner says %q", sum.Banner)
					}
					for i, sc := range sum.Seats {
						if want := fmt.Sprintf("%d pt", out.Scores[i]); !strings.HasPrefix(sc, want) {
							t.Errorf("at the match's end seat %d shows %q, want the final score %s", i, sc, want)
						}
					}
				}
				if over || g.variant != "auction" {
					break
				}
				if n == 8 {
					t.Fatal("the auction match to 1 did not end in 8 hands")
				}
				before = out.Scores
			}

			// The summary's headline and Continue button, at every size.
			for _, sz := range sizes {
				s.do("resize", chromedp.EmulateViewport(sz.width, sz.height))
				var probs []string
				s.eval(`(() => {`+layoutHelpersJS+`
					inView($('#summary-h'), 'the summary headline'); inView($('#summary-close'), 'the Continue button');
					return JSON.stringify(probs); })()`, &probs)
				for _, p := range probs {
					t.Errorf("%s: %s", sz.name, p)
				}
				if sz.name == "desktop" && g.variant == "pawnee" {
					s.shot("table-summary-1280x720", false)
				}
			}
			s.do("back", chromedp.EmulateViewport(1280, 900))

			u := s.ui()
			s.click("#summary-close")
			var body bool
			s.eval(`JSON.stringify(document.activeElement === document.body || !document.activeElement)`, &body)
			if body {
				t.Error("after closing the summary the focus fell to <body>")
			}
			if !over {
				// Play goes on at once, not after the server's minute: a
				// bot moves (we answer our own turns).
				ours := 0
				waitFor(t, "a bot to move after the summary", func() bool {
					if s.actOnce() {
						ours++
					}
					return s.ui().Seq-u.Seq > ours
				}, 15*time.Second)
			}
		})
	}
}

// TestBrowserReloadDuringHold: a page reloaded while the last trick of a
// hand is held shows that hand's summary.
func TestBrowserReloadDuringHold(t *testing.T) {
	s := newSiteWith(t, func(o *server.Options) { o.ReadyWait = time.Minute })
	id := s.createAPI(`{"variant":"auction","options":{"target":21},"seats":[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]}`)
	tok := s.joinAPI(id, 0, "Ada")
	s.openSeat(id, 0, tok, "Ada")
	deadline := time.Now().Add(60 * time.Second)
	for s.attr("#table-view", "ended") != "true" {
		if time.Now().After(deadline) || s.ui().Summary {
			t.Fatal("never saw the last trick held")
		}
		if s.attr("#table-view", "phase") == "play" && s.count("#hand button.card") <= 2 {
			s.eval(`localStorage.setItem('pitch.speed', 'slow'), 'true'`, new(bool))
		}
		if !s.actOnce() {
			time.Sleep(pollEvery)
		}
	}
	s.do("reload during the hold", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
	waitFor(t, "the summary after the reload", func() bool { return s.ui().Summary }, 20*time.Second)
	if got := s.text("#summary-h"); !strings.HasPrefix(got, "Hand 1:") {
		t.Errorf("after the reload the summary says %q, want hand 1's", got)
	}
}

// TestBrowserDisconnected: a person whose connection dropped sees it
// plainly — a banner and a status saying so — with no move offered, no
// card raised to play and no countdown, until the connection is back.
func TestBrowserDisconnected(t *testing.T) {
	s := newSite(t)
	s.expect = []string{"WebSocket connection to"} // the browser's note of each refused reconnection
	id := s.createAPI(`{"variant":"pawnee","turn_timer":600,"seats":[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]}`)
	tok := s.joinAPI(id, 0, "Ada")
	s.openSeat(id, 0, tok, "Ada")
	waitFor(t, "our turn", func() bool { return s.ui().Act != "" }, 30*time.Second)
	waitFor(t, "our countdown", func() bool { return s.count(`#seats .seat.me .countdown:not([hidden])`) == 1 }, 10*time.Second)
	s.drops.blocked.Store(true)
	if s.drops.cut() == 0 {
		t.Fatal("no connection to cut")
	}
	waitFor(t, "the page to see the connection gone", func() bool { return s.attr("#table-view", "offline") == "true" }, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	if u := s.ui(); u.Act != "" {
		t.Errorf("disconnected, the page still asks us to %s", u.Act)
	}
	for sel, what := range map[string]string{
		"#hand button.can":                   "a card offered to play",
		"#hand.choosing":                     "the hand raised for a choice",
		"#action-body button:not(:disabled)": "a move button",
		`#seats .countdown:not([hidden])`:    "the countdown",
	} {
		if n := s.count(sel); n > 0 {
			t.Errorf("disconnected, the page shows %s (%s)", what, sel)
		}
	}
	for _, sel := range []string{"#banner", "#status"} {
		if got := s.text(sel); !strings.Contains(got, "Disconnected — reconnecting") {
			t.Errorf("disconnected, %s says %q", sel, got)
		}
	}
	if s.count("#banner:not([hidden]).offline") != 1 {
		t.Error("disconnected, no banner says so")
	}
	s.do("desktop", chromedp.EmulateViewport(1280, 720))
	s.shot("table-disconnected", false)
	s.do("phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)), settled())
	if got := s.count("#banner.offline:not([hidden])"); got != 1 || s.attr("#table-view", "offline") != "true" {
		t.Error("disconnected, at phone size no banner says so")
	}
	s.shot("table-disconnected-phone", false)
	s.do("back", chromedp.EmulateViewport(1280, 900))
	s.drops.blocked.Store(false)
	waitFor(t, "the page to reconnect", func() bool { return s.attr("#table-view", "offline") == "false" && s.ui().Act != "" }, 30*time.Second)
	if s.count("#banner.offline:not([hidden])") != 0 {
		t.Error("reconnected, the banner still says disconnected")
	}
}
