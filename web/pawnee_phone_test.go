package web_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The pawnee bidder's call and discard on a phone: every part of the call
// panel seen and uncovered, every card of the hand readable with its
// widow mark.

// uncoveredJS lists what is wrong with the move panel on this screen: its
// status, title, explanation or a button (of want, a list of selectors
// that must match) missing, outside the viewport, or covered where its
// middle is (elementFromPoint finds another element there, such as the
// felt); and sideways scrolling.
func uncoveredJS(want ...string) string {
	return `(() => {` + layoutHelpersJS + fmt.Sprintf(`
  const parts = [];
  %s.forEach((sel) => {
    const es = $$(sel);
    if (!es.length) probs.push('nothing matches ' + sel);
    es.forEach((e) => parts.push([sel + (es.length > 1 ? ' (' + (e.dataset.card || e.dataset.key || e.textContent) + ')' : ''), e]));
  });
  parts.forEach(([what, e]) => {
    inView(e, what);
    const r = rect(e);
    const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!at || (at !== e && !e.contains(at))) {
      const over = at ? at.closest('[id]') : null;
      probs.push(what + ' is covered at its middle by ' + (at ? name(at) + (over ? ' in #' + over.id : '') : 'nothing'));
    }
  });
  if (document.scrollingElement.scrollWidth > innerWidth) probs.push('the page is ' + document.scrollingElement.scrollWidth + ' px wide in a ' + innerWidth + ' px window');
  return JSON.stringify(probs);
})()`, jsList(want))
}

// jsList writes ss as a JavaScript array of strings.
func jsList(ss []string) string {
	out := "["
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += fmt.Sprintf("%q", s)
	}
	return out + "]"
}

// widowJS lists what is wrong with the hand's widow marks: the number of
// cards marked (want, from the hand's growth) not right, a mark over its
// card's rank or suit, outside its card, its word cut or broken inside a
// word, a card outside the viewport, and the page wider than the window.
const widowJS = `((want) => {` + layoutHelpersJS + `
  const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const cards = $$('#hand .card');
  const marked = cards.filter((c) => c.querySelector('.c-label.widow'));
  if (marked.length !== want) probs.push(marked.length + ' cards are marked as from the widow, want ' + want);
  marked.forEach((c) => {
    const tag = c.querySelector('.c-label.widow'), tr = rect(tag);
    if (tr.width === 0) { probs.push('the widow mark of ' + c.dataset.card + ' is not shown'); return; }
    c.querySelectorAll('.c-rank, .c-suit').forEach((g) => {
      const gr = rect(g);
      if (gr.width > 0 && hit(tr, gr)) probs.push('the widow mark ' + JSON.stringify(tag.textContent) + ' covers the ' + g.className.slice(2) + ' of ' + c.dataset.card +
        ': mark ' + [tr.left, tr.top, tr.right, tr.bottom].map(Math.round) + ', ' + g.className.slice(2) + ' ' + [gr.left, gr.top, gr.right, gr.bottom].map(Math.round));
    });
    inside(tag, c);
    if (tag.scrollWidth > tag.clientWidth + 1) probs.push('the widow mark ' + JSON.stringify(tag.textContent) + ' is cut on ' + c.dataset.card);
    // Where each line of the mark starts: only after a space (no word
    // broken in two).
    const node = tag.firstChild, text = node.textContent, range = document.createRange();
    let top = null;
    for (let i = 0; i < text.length; i++) {
      range.setStart(node, i); range.setEnd(node, i + 1);
      const y = Math.round(range.getBoundingClientRect().top);
      if (top !== null && y > top + 2 && text[i - 1] !== ' ' && text[i] !== ' ') probs.push('the widow mark ' + JSON.stringify(text) + ' breaks inside a word on ' + c.dataset.card);
      top = y;
    }
  });
  // The other marks ("must go") clear the corner too: with a widow
  // card that must go, two marks would reach it on a phone's card.
  cards.forEach((c) => c.querySelectorAll('.c-label:not(.widow)').forEach((tag) => {
    const tr = rect(tag);
    if (tr.width === 0) return;
    c.querySelectorAll('.c-rank, .c-suit').forEach((g) => {
      const gr = rect(g);
      if (gr.width > 0 && hit(tr, gr)) probs.push('the mark ' + JSON.stringify(tag.textContent) + ' covers the ' + g.className.slice(2) + ' of ' + c.dataset.card);
    });
  }));
  cards.forEach((c) => inView(c, 'card ' + c.dataset.card));
  if (document.scrollingElement.scrollWidth > innerWidth) probs.push('the page is ' + document.scrollingElement.scrollWidth + ' px wide in a ' + innerWidth + ' px window');
  return JSON.stringify(probs);
})`

// bidderUntil plays from the start of a hand as its bidder (the highest
// bid; easy bots never bid 10, so ours stands) until the page asks us to
// act.
func (s *site) bidderUntil(act string) {
	t := s.t
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		u := s.ui()
		if u.Act == act && !u.Pending && !u.Summary {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never asked us to %s (%+v; log %q)", act, u, s.text("#log"))
		}
		if u.Summary {
			// A bot outbid us (a moon before our turn): the hand was
			// theirs; read on to the next one.
			s.click("#summary-close")
			continue
		}
		if u.Act == "bid" && !u.Pending {
			var bids []int
			s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#actions button[data-bid]')).map(e => Number(e.dataset.bid)))`, &bids)
			s.click(fmt.Sprintf(`#actions button[data-bid="%d"]`, slices.Max(bids)))
			waitFor(t, "the server takes our bid", func() bool { return s.ui().Seq != u.Seq }, 10*time.Second)
			continue
		}
		if !s.actOnce() {
			time.Sleep(pollEvery)
		}
	}
}

// TestBrowserPawneePhone: the pawnee bidder on a 390×844 phone. The
// call's suit buttons say what their numbers count. With the call's suit
// chosen, in every language, the seat boxes keep 2 px apart at least and
// the whole call panel — status, title, explanation, suits, ranks, Call
// and Hint — is in view and nothing (the felt) lies over it. At the discard each card taken from the widow says so, and the
// mark leaves its rank and suit wholly visible, at desktop and phone
// sizes and in every language; every card stays in the viewport and the
// page does not scroll sideways. The hand's last trick is then held on the
// table, laid out as every trick is.
func TestBrowserPawneePhone(t *testing.T) {
	s := newSiteFor(t, 300*time.Second, nil)
	s.withGate()
	id := s.createAPI(`{"variant":"pawnee","seats":[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]}`)
	tok := s.joinAPI(id, 0, "Ada")
	s.openSeat(id, 0, tok, "Ada")
	s.bidderUntil("call")
	held := s.count("#hand .card")

	phone := sizes[2]
	s.do("phone", chromedp.EmulateViewport(phone.width, phone.height, chromedp.EmulateScale(2)), settled())
	// Each suit's button says what its number counts: the trumps we
	// would hold (in words, and in full to a screen reader).
	var suits []struct{ Text, Label string }
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#actions button[data-suit]')).map((e) => ({text: e.textContent, label: e.getAttribute('aria-label')})))`, &suits)
	countSays := regexp.MustCompile(`^[♠♥♦♣]\s*\d+ trumps?$`)
	labelSays := regexp.MustCompile(`^\p{L}+: you would hold \d+ trumps?$`)
	if len(suits) != 4 {
		t.Errorf("the call offers %d suits, want 4", len(suits))
	}
	for _, b := range suits {
		if !countSays.MatchString(b.Text) || !labelSays.MatchString(b.Label) {
			t.Errorf("a suit's button reads %q (to a screen reader %q): want its symbol and the trumps we would hold", b.Text, b.Label)
		}
	}
	// Each suit's count of trumps can be read: 12 px or more.
	var small []string
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#actions button[data-suit] .held')).filter((e) => parseFloat(getComputedStyle(e).fontSize) < 12).map((e) => e.textContent + ' in ' + getComputedStyle(e).fontSize))`, &small)
	for _, x := range small {
		t.Errorf("a suit's count of trumps is too small to read: %s", x)
	}
	s.click(`#actions button[data-suit="S"]`)
	callParts := []string{"#status", "#action-body h2", "#action-body .hint", "#action-body button[data-suit]", "#call-picker button", "#call-confirm", "#action-body .hint-row button"}
	check := func(what, js string) {
		t.Helper()
		var probs []string
		s.eval(js, &probs)
		for _, p := range probs {
			t.Errorf("%s: %s", what, p)
		}
	}
	check("the call at 390x844, a suit chosen", uncoveredJS(callParts...))
	check("the seats at the call at 390x844", seatsLayoutJS)
	// The felt at its shortest, in every language (the seat boxes are
	// as tall as their words): the boxes apart, the panel uncovered.
	for _, lang := range []string{"el", "fr", "it", "ja", "ms", "en"} {
		s.eval(fmt.Sprintf(`localStorage.setItem('pitch.lang', %q), 'true'`, lang), new(bool))
		s.do("reload in "+lang, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
		waitFor(t, "the call in "+lang, func() bool { u := s.ui(); return u.Act == "call" && !u.Pending }, 20*time.Second)
		s.click(`#actions button[data-suit="S"]`)
		check("the seats at the call in "+lang, seatsLayoutJS)
		check("the call in "+lang+", a suit chosen", uncoveredJS(callParts...))
	}
	free := s.cards("#call-picker button.can:not(.mine)")
	if len(free) == 0 {
		t.Fatal("no spade to call outside our hand")
	}
	s.click(fmt.Sprintf(`#call-picker button[data-card=%q]`, free[0]))
	check("the call at 390x844, a card picked", uncoveredJS(callParts...))
	s.layoutAt("the call, a card picked", phone, layoutJS)
	s.shot("table-call-phone", false)
	s.click("#call-confirm")

	waitFor(t, "our discard", func() bool { u := s.ui(); return u.Act == "discard" && !u.Pending }, 20*time.Second)
	want := s.count("#hand .card") - held
	if want <= 0 {
		t.Fatalf("the hand went from %d cards to %d: no widow taken", held, held+want)
	}
	for _, sz := range []screen{phone, sizes[0]} {
		s.layoutAt("the discard", sz, layoutJS)
		check("the discard at "+sz.name, fmt.Sprintf("%s(%d)", widowJS, want))
		check("the discard's panel at "+sz.name, uncoveredJS("#status", "#action-body h2", "#action-body .hint"))
		if sz.phone {
			s.shot("table-discard-phone", false)
		}
	}
	// Each language's word for the widow, on a phone's card.
	s.do("phone", chromedp.EmulateViewport(phone.width, phone.height, chromedp.EmulateScale(2)))
	for _, lang := range []string{"fr", "it", "el", "ja", "ms"} {
		s.eval(fmt.Sprintf(`localStorage.setItem('pitch.lang', %q), 'true'`, lang), new(bool))
		s.do("reload in "+lang, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
		waitFor(t, "our discard in "+lang, func() bool {
			u := s.ui()
			return u.Act == "discard" && !u.Pending && s.count("#hand .c-label.widow") > 0
		}, 20*time.Second)
		// The hand's cards come in moving (a transform scales a card and
		// its marks together): measure once they stand still.
		waitFor(t, "the hand at rest in "+lang, func() bool {
			var moving int
			s.eval(`JSON.stringify(document.getAnimations().filter((a) => a.playState === 'running' && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('#hand')).length)`, &moving)
			return moving == 0
		}, 10*time.Second)
		check("the discard in "+lang, fmt.Sprintf("%s(%d)", widowJS, want))
	}

	// The hand played out in English at desktop size; its last trick is
	// then held on the table for its screenshot: nothing after the hand's
	// end reaches the page (the WebSocket gate), and as the hold begins
	// the pace becomes "still".
	s.eval(`localStorage.setItem('pitch.lang', 'en'), 'true'`, new(bool))
	s.do("reload in English at desktop size", chromedp.EmulateViewport(1280, 720), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
	// The hand we play (not always the first: a bot may have won the
	// first before our bid), whose end the gate waits for: a state of a
	// later hand carries an earlier hand's summary from its start.
	waitFor(t, "our discard again", func() bool { u := s.ui(); return u.Act == "discard" && u.Hand > 0 }, 20*time.Second)
	hand := s.ui().Hand
	s.eval(`(() => { window.__gate.until = (m) => !!m.last_hand && m.last_hand.hand >= `+strconv.Itoa(hand)+`;
		const tv = document.querySelector('#table-view');
		new MutationObserver(() => { if (tv.dataset.ended === 'true') localStorage.setItem('pitch.speed', 'still'); })
			.observe(tv, { attributes: true, attributeFilter: ['data-ended'] });
		return 'true'; })()`, new(bool))
	deadline := time.Now().Add(90 * time.Second)
	for s.attr("#table-view", "ended") != "true" {
		if u := s.ui(); time.Now().After(deadline) || u.Summary {
			t.Fatalf("the hand's last trick was not held on the table (%+v)", u)
		}
		if !s.actOnce() {
			time.Sleep(pollEvery)
		}
	}
	// The trick held is the hand's last, as the stored record has it.
	tricks := tricksOf(t, fetchRecord(t, s.url, id, hand))
	if got, want := s.cards("#trick .tcard"), tricks[len(tricks)-1]; !slices.Equal(got, want) {
		t.Errorf("the held last trick shows %v, want the record's %v", got, want)
	}
	s.layoutAt("the held last trick", sizes[0], trickLayoutJS)
	s.shot("table-held-pawnee", false)
}
