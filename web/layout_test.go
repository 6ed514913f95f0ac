package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The crowded table: a whole trick of 3 to 7 cards on the felt, every card
// readable and in front of the one who played it, at desktop and phone
// sizes.

// gateJS wraps the page's WebSocket so that a test can stop the server's
// messages where it wants the table to stay: window.__gate.until(m), when
// set, is asked of each state; the first state it accepts is delivered and
// every message after it is held back (window.__gate.held counts them).
// It asks for whole states (protocol 1, docs/protocol.md), which an old
// page gets and this one still reads.
const gateJS = `(() => {
  const Real = window.WebSocket;
  const gate = window.__gate = { until: null, closed: false, held: 0 };
  class Gated extends Real {
    set onmessage(f) {
      super.onmessage = (ev) => {
        if (gate.closed) { gate.held++; return; }
        if (gate.until) {
          let m = null;
          try { m = JSON.parse(ev.data); } catch (e) { /* not a state */ }
          if (m && m.type === 'state' && gate.until(m)) { gate.closed = true; gate.state = m; }
        }
        f.call(this, ev);
      };
    }
    get onmessage() { return super.onmessage; }
    // The gate reads whole states: the hello asks for protocol 1.
    send(data) {
      if (typeof data === 'string' && data.includes('"hello"')) {
        try { const m = JSON.parse(data); if (m.type === 'hello') { delete m.protocol; data = JSON.stringify(m); } } catch (e) { /* sent as it is */ }
      }
      super.send(data);
    }
  }
  window.WebSocket = Gated;
})();`

// withGate makes every page the browser opens from now on load gateJS
// before its own scripts.
func (b *browser) withGate() {
	b.t.Helper()
	b.do("install the WebSocket gate", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: gateJS})
		return err
	}))
}

// trickLayoutJS lists what is wrong with the trick and the seats on the
// felt: a trick card over another's rank or suit (or its own trump mark
// over its rank), a card nearer another seat than its player's, seat boxes
// over each other or less than 2 px apart, over a trick card or outside
// the felt's rounded edge (with the countdown), and the winning card
// unmarked.
const trickLayoutJS = `(() => { const withCards = true;` + feltLayoutJS

// seatsLayoutJS is trickLayoutJS for the seat boxes alone (and their
// countdowns): over each other or less than 2 px apart, or outside the
// felt's rounded edge.
const seatsLayoutJS = `(() => { const withCards = false;` + feltLayoutJS

// feltLayoutJS is the body of trickLayoutJS and seatsLayoutJS, which say
// whether it checks the trick's cards (withCards).
const feltLayoutJS = layoutHelpersJS + `
  const felt = $('#felt'), fr = rect(felt), fs = getComputedStyle(felt);
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const cards = withCards ? $$('#trick .tcard') : [], seats = $$('#seats .seat');
  const seatOf = (i) => seats.find((s) => s.dataset.seat === String(i));
  const centre = (r) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });
  const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
  cards.forEach((c) => {
    inside(c, felt);
    const marks = Array.from(c.querySelectorAll('.c-rank, .c-suit')).map(rect).filter((r) => r.width > 0);
    if (!marks.length) probs.push('card ' + c.dataset.card + ' shows no rank');
    cards.forEach((o) => {
      if (o === c) return;
      marks.forEach((m) => { if (hit(m, rect(o))) probs.push('card ' + o.dataset.card + ' covers the rank or suit of ' + c.dataset.card); });
    });
    c.querySelectorAll('.c-tag, .c-label').forEach((tag) => {
      marks.forEach((m) => { if (rect(tag).width > 0 && hit(m, rect(tag))) probs.push('the mark ' + JSON.stringify(tag.textContent) + ' covers the rank of ' + c.dataset.card); });
    });
    // A trump's mark is smaller than its rank: the rank stays the most
    // visible thing on the card.
    c.querySelectorAll('.c-tag').forEach((tag) => {
      const tr = rect(tag), rr = rect(c.querySelector('.c-corner'));
      if (tr.width === 0) return;
      const size = (e) => parseFloat(getComputedStyle(e).fontSize);
      if (tr.width * tr.height > rr.width * rr.height || size(tag) > size(c.querySelector('.c-rank')) || tag.innerText.trim().length > 1)
        probs.push('the trump mark ' + JSON.stringify(tag.innerText) + ' on ' + c.dataset.card + ' (' + Math.round(tr.width) + 'x' + Math.round(tr.height) +
          ') outweighs its rank and suit (' + Math.round(rr.width) + 'x' + Math.round(rr.height) + ')');
    });
    const own = seatOf(c.dataset.seat);
    if (!own) { probs.push('card ' + c.dataset.card + ' has no seat'); return; }
    // The distance from the card's middle to the nearest point of a box.
    const to = (r) => Math.hypot(Math.max(r.left - cc.x, 0, cc.x - r.right), Math.max(r.top - cc.y, 0, cc.y - r.bottom));
    const cc = centre(rect(c)), d = to(rect(own));
    seats.forEach((s) => {
      if (s === own) return;
      const e = to(rect(s));
      if (d > 0.75 * e) probs.push('card ' + c.dataset.card + ' of seat ' + c.dataset.seat + ' lies ' + Math.round(d) + ' px from its seat and ' + Math.round(e) + ' px from seat ' + s.dataset.seat);
    });
  });
  // Each seat box (its countdown too) inside the felt's rounded edge.
  const bw = parseFloat(fs.borderLeftWidth);
  const rx = parseFloat(fs.borderTopLeftRadius.split(' ')[0]) * (fs.borderTopLeftRadius.includes('%') ? fr.width / 100 : 1) - bw;
  const ryRaw = fs.borderTopLeftRadius.split(' ')[1] || fs.borderTopLeftRadius.split(' ')[0];
  const ry = parseFloat(ryRaw) * (ryRaw.includes('%') ? fr.height / 100 : 1) - bw;
  const inner = { left: fr.left + bw, top: fr.top + bw, right: fr.right - bw, bottom: fr.bottom - bw };
  const inFelt = (x, y) => {
    if (x < inner.left - 1 || x > inner.right + 1 || y < inner.top - 1 || y > inner.bottom + 1) return false;
    const cx = x < inner.left + rx ? inner.left + rx : x > inner.right - rx ? inner.right - rx : x;
    const cy = y < inner.top + ry ? inner.top + ry : y > inner.bottom - ry ? inner.bottom - ry : y;
    if (cx === x || cy === y || rx <= 0 || ry <= 0) return true;
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.02;
  };
  const inShape = (e, what) => {
    const r = rect(e);
    if (r.width === 0) return;
    if (![[r.left, r.top], [r.right, r.top], [r.left, r.bottom], [r.right, r.bottom]].every(([x, y]) => inFelt(x, y)))
      probs.push(what + ' is cut by the felt\'s edge: ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ' in ' +
        [inner.left, inner.top, inner.right, inner.bottom].map(Math.round).join(',') + ' rounded ' + Math.round(rx) + '/' + Math.round(ry));
  };
  seats.forEach((s) => {
    inShape(s, 'seat ' + s.dataset.seat);
    s.querySelectorAll('.countdown').forEach((c) => inShape(c, 'the countdown of seat ' + s.dataset.seat));
    // Two boxes keep a visible gap between them (2 px at least).
    seats.forEach((o) => {
      if (o === s || Number(o.dataset.seat) < Number(s.dataset.seat)) return;
      const a = rect(s), b = rect(o), gap = Math.max(b.left - a.right, a.left - b.right, b.top - a.bottom, a.top - b.bottom);
      if (gap < 1.95) probs.push('seat ' + s.dataset.seat + (gap < 0 ? ' overlaps' : ' touches') + ' seat ' + o.dataset.seat + ' (a gap of ' + gap.toFixed(1) + ' px)');
    });
    cards.forEach((c) => { if (hit(rect(s), rect(c))) probs.push('seat ' + s.dataset.seat + ' covers trick card ' + c.dataset.card); });
  });
  return JSON.stringify(probs);
})()`

// crowdSizes are the screens of the crowded-table checks.
var crowdSizes = []screen{
	{"desktop", 1280, 720, false},
	{"laptop", 1366, 768, false},
	{"phone", 390, 844, true},
}

// sitAt opens table id at the pace speed (localStorage pitch.speed), stops
// its messages after the first state until accepts, takes seat 0 and plays
// as a person would (passing or bidding the least, the first card it may)
// until the gate closes.
func (s *site) sitAt(id, until, speed string) {
	t := s.t
	t.Helper()
	s.do("open the table", chromedp.Navigate(s.url+"/t/"+id), chromedp.WaitVisible(chromedp.CSS("#join-name")))
	s.eval(fmt.Sprintf(`localStorage.setItem('pitch.speed', %q), window.__gate.until = %s, 'true'`, speed, until), new(bool))
	s.do("type a name", chromedp.SendKeys(chromedp.CSS("#join-name"), "Ada"))
	s.click("#join-btn")
	deadline := time.Now().Add(60 * time.Second)
	for {
		// What the page shows first, then whether the gate closed: a
		// state the gate let through closed it before the page showed it,
		// so that we never act on the state the test waits for.
		u := s.ui()
		var closed bool
		s.eval(`JSON.stringify(window.__gate.closed)`, &closed)
		if closed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the table never reached the state the test waits for")
		}
		if u.Pending || u.Act == "" || u.Summary {
			if u.Summary {
				s.click("#summary-close")
			}
			time.Sleep(pollEvery)
			continue
		}
		switch u.Act {
		case "bid":
			if s.count(`#actions button[data-pass]`) > 0 {
				s.click(`#actions button[data-pass]`)
			} else {
				s.click(`#actions button[data-bid]`)
			}
		case "call":
			for _, suit := range []string{"S", "H", "C", "D"} {
				s.click(fmt.Sprintf(`#actions button[data-suit=%q]`, suit))
				if free := s.cards("#call-picker button.can:not(.mine)"); len(free) > 0 {
					s.click(fmt.Sprintf(`#call-picker button[data-card=%q]`, free[0]))
					break
				}
			}
			s.click("#call-confirm")
		case "trump":
			s.click(`#actions button[data-trump]`)
		case "give_stock":
			s.click(`#actions button[data-give="false"]`)
		case "discard":
			for range 12 {
				can := s.cards("#hand button.can:not(.sel)")
				var left string
				s.eval(`JSON.stringify(document.querySelector('#actions').dataset.remaining || '0')`, &left)
				if len(can) == 0 || left == "0" {
					break
				}
				s.click(fmt.Sprintf(`#hand button[data-card=%q]`, can[0]))
			}
			s.click("#discard-confirm")
		case "play":
			can := s.cards("#hand button.can")
			if len(can) == 0 {
				t.Fatal("play: no playable card")
			}
			s.click(fmt.Sprintf(`#hand button[data-card=%q]`, can[0]))
		default:
			t.Fatalf("unexpected action %q asked of us", u.Act)
		}
		waitFor(t, "the server takes our "+u.Act, func() bool {
			var closed bool
			s.eval(`JSON.stringify(window.__gate.closed)`, &closed)
			return closed || s.ui().Seq != u.Seq
		}, 10*time.Second)
	}
}

// firstTrickDone accepts the state in which the hand's first trick is
// complete.
const firstTrickDone = `(m) => m.view && m.view.tricks >= 1`

// TestBrowserCrowdedTrick holds the first whole trick of a hand on the
// table at 3 to 7 players and checks, at desktop, laptop and phone sizes,
// that no trick card covers another's rank or suit, that each card lies
// nearer its player's seat than any other, that the seat boxes neither
// overlap nor leave the felt's rounded edge, and that the winning card's
// ring shows (in auction the first trick is always won by a trump, the
// suit led: AP-PLAY-1); and at the desktop and laptop sizes that no word
// of a seat box is cut (at 6 and 7 seats the felt takes the whole width,
// the move panel beside the hand).
func TestBrowserCrowdedTrick(t *testing.T) {
	for _, g := range []struct {
		variant string
		seats   int
	}{{"auction", 3}, {"auction", 5}, {"auction", 6}, {"auction", 7}, {"pawnee", 5}, {"ten-point", 4}} {
		t.Run(fmt.Sprintf("%s-%d", g.variant, g.seats), func(t *testing.T) {
			s := newSiteFor(t, 180*time.Second, nil)
			s.withGate()
			seats := []string{`{"kind":"human"}`}
			for range g.seats - 1 {
				seats = append(seats, `{"kind":"bot","level":"easy"}`)
			}
			opts := ""
			if g.variant == "auction" {
				opts = fmt.Sprintf(`,"options":{"players":%d}`, g.seats)
			}
			id := s.createAPI(fmt.Sprintf(`{"variant":%q,"seats":[%s]%s}`, g.variant, strings.Join(seats, ","), opts))
			s.sitAt(id, firstTrickDone, "still")
			// A pawnee seat without a trump is passed over (PW-PLAY-2), so
			// the first trick holds as many cards as the server's state
			// says, not always one a seat.
			var cards int
			s.eval(`JSON.stringify(window.__gate.state.view.last_trick.length)`, &cards)
			if cards < 2 || cards > g.seats {
				t.Fatalf("the held state's last trick has %d cards at %d seats", cards, g.seats)
			}
			waitFor(t, "the whole trick on the table", func() bool { return s.count("#trick .tcard") == cards }, 10*time.Second)
			s.checkWinnerRing(g.variant == "auction")
			for _, sz := range crowdSizes {
				s.layoutAt(fmt.Sprintf("%d-card trick", cards), sz, trickLayoutJS)
				s.layoutAt(fmt.Sprintf("%d-seat table", g.seats), sz, layoutJS)
				if !sz.phone {
					s.checkSeatText(fmt.Sprintf("%d seats at %s", g.seats, sz.name))
				}
				if g.variant == "auction" && g.seats == 7 && sz.name != "laptop" {
					s.shot("trick-7-"+sz.name, false)
				}
			}
		})
	}
}

// checkWinnerRing checks that the held trick's winning card wears the
// ring (the turn colour in its box-shadow), trump or not; trump says the
// winner must be a trump.
func (s *site) checkWinnerRing(trump bool) {
	t := s.t
	t.Helper()
	var got struct {
		Card, Shadow string
		Trump        bool
	}
	waitFor(t, "the winning card marked", func() bool { return s.count("#trick .tcard.wins") == 1 }, 5*time.Second)
	s.eval(`(() => { const e = document.querySelector('#trick .tcard.wins');
		return JSON.stringify({card: e.dataset.card, shadow: getComputedStyle(e).boxShadow, trump: e.classList.contains('trump')}); })()`, &got)
	if trump && !got.Trump {
		t.Errorf("the winning card %s is not marked a trump", got.Card)
	}
	if !strings.Contains(got.Shadow, "rgb(255, 213, 79)") {
		t.Errorf("the winning card %s (trump %v) has box-shadow %q, want the ring in the turn colour rgb(255, 213, 79)", got.Card, got.Trump, got.Shadow)
	}
}

// ourTurnMidTrick accepts the state in which we are to play, our turn
// timer running, with two or more cards already in the trick.
const ourTurnMidTrick = `(m) => m.view && m.view.phase === 'play' && m.view.turn === m.seat && m.view.trick.length >= 2 && !!m.timer && m.timer.seat === m.seat`

// TestBrowserTrickOnOurTurn: a trick part-played when it is our turn to
// play, our countdown running, at 5 and 7 players. The move panel and the
// hand then take much of a phone's screen (the more so in Greek) and the
// felt is at its shortest. At desktop, laptop and phone sizes, in English
// and in Greek, no trick card may cover another's rank or suit, each lies
// nearer its player's seat than any other, the seat boxes keep apart
// (what TestBrowserCrowdedTrick checks of a whole trick held), the table
// fits the screen, and at the desktop and laptop sizes no word of a seat
// box is cut.
func TestBrowserTrickOnOurTurn(t *testing.T) {
	s := newSiteFor(t, 300*time.Second, nil)
	s.withGate()
	for _, n := range []int{5, 7} {
		seats := []string{`{"kind":"human"}`}
		for range n - 1 {
			seats = append(seats, `{"kind":"bot","level":"easy"}`)
		}
		id := s.createAPI(fmt.Sprintf(`{"variant":"auction","turn_timer":600,"options":{"players":%d},"seats":[%s]}`, n, strings.Join(seats, ",")))
		s.sitAt(id, ourTurnMidTrick, "instant")
		var cards int
		s.eval(`JSON.stringify(window.__gate.state.view.trick.length)`, &cards)
		// The server waits for our card (the timer is long): a reload
		// shows the same state, in another language.
		for _, lang := range []string{"en", "el"} {
			if lang != "en" {
				s.eval(fmt.Sprintf(`localStorage.setItem('pitch.lang', %q), 'true'`, lang), new(bool))
				s.do("reload in "+lang, chromedp.EmulateViewport(1280, 720), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
			}
			waitFor(t, "the trick on the table and our countdown", func() bool {
				return s.ui().Act == "play" && s.count("#trick .tcard") == cards && s.count("#seats .seat.me .countdown:not([hidden])") == 1
			}, 10*time.Second)
			what := fmt.Sprintf("%d players, our turn, %d cards played, in %s", n, cards, lang)
			for _, sz := range crowdSizes {
				s.layoutAt(what, sz, trickLayoutJS)
				s.layoutAt(what, sz, layoutJS)
				if !sz.phone {
					s.checkSeatText(what + " at " + sz.name)
				}
				if n == 7 && lang == "en" && sz.phone {
					s.shot("trick-7-turn-phone", false)
				}
			}
		}
		s.eval(`localStorage.setItem('pitch.lang', 'en'), 'true'`, new(bool))
	}
}
