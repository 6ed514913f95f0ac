package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pitch"
	"pitch/server"
)

// The table as a person meets it: every card seen, one screen at desktop
// and phone sizes, turns and time, refusals explained, the keyboard.

// screen is a browser window's size.
type screen struct {
	name          string
	width, height int64
	phone         bool
}

// sizes are the screens the table must fit without scrolling.
var sizes = []screen{
	{"desktop", 1280, 720, false},
	{"laptop", 1366, 768, false},
	{"phone", 390, 844, true},
}

// recorderJS records, as the page changes, every state of the trick on the
// felt (its cards, and whether each is wholly in view) and every opening of
// the hand summary, in window.__log.
const recorderJS = `(() => {
  window.__log = [];
  const trick = document.querySelector('#trick');
  const rec = () => {
    const cards = Array.from(trick.querySelectorAll('.tcard:not(.faded)'));
    const key = cards.map((e) => e.dataset.card).join(',');
    const last = window.__log.filter((x) => x.t === 'trick').pop();
    if (last && last.key === key) return;
    const visible = cards.every((e) => {
      const r = e.getBoundingClientRect(), st = getComputedStyle(e);
      return r.width > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1 &&
        st.visibility !== 'hidden' && Number(st.opacity) > 0.5;
    });
    window.__log.push({ t: 'trick', key, cards: cards.map((e) => e.dataset.card), visible });
  };
  new MutationObserver(rec).observe(trick, { childList: true });
  new MutationObserver(() => { if (document.querySelector('#summary').open) window.__log.push({ t: 'summary' }); })
    .observe(document.querySelector('#summary'), { attributes: true, attributeFilter: ['open'] });
  return 'true';
})()`

// layoutHelpersJS starts a layout check run in the page: probs collects
// what is wrong; inView(e, what) says e is not wholly in the viewport,
// inside(e, box) that e is not wholly inside box, tapsOK(sel) that on a
// phone a target sel matches is under 40 px, and sideways() that the page
// scrolls sideways.
const layoutHelpersJS = `
  const probs = [];
  const vw = innerWidth, vh = innerHeight;
  const $ = (s) => document.querySelector(s), $$ = (s) => Array.from(document.querySelectorAll(s));
  const rect = (e) => e.getBoundingClientRect();
  const name = (e) => e.id ? '#' + e.id : e.dataset.card ? 'card ' + e.dataset.card : e.className ? '.' + String(e.className).split(' ')[0] : e.tagName;
  const inView = (e, what) => {
    if (!e) return;
    const r = rect(e);
    if (r.width === 0 && r.height === 0) { probs.push(what + ' is not shown'); return; }
    if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1)
      probs.push(what + ' is outside the ' + vw + 'x' + vh + ' viewport: ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
  };
  const inside = (e, box) => {
    const a = rect(e), b = rect(box);
    if (a.width === 0) return;
    if (a.left < b.left - 1 || a.top < b.top - 1 || a.right > b.right + 1 || a.bottom > b.bottom + 1)
      probs.push(name(e) + ' overflows ' + name(box) + ': ' + [a.left, a.top, a.right, a.bottom].map(Math.round).join(',') +
        ' in ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(','));
  };
  const tapsOK = (sel) => {
    if (vw >= 600) return;
    $$(sel).forEach((e) => {
      const r = rect(e);
      if (r.width > 0 && (r.width < 40 || r.height < 40)) probs.push(name(e) + ' is a ' + Math.round(r.width) + 'x' + Math.round(r.height) + ' tap target');
    });
  };
  const sideways = () => {
    if (document.documentElement.scrollWidth > vw + 1) probs.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
  };
`

// layoutJS lists what is wrong with the table on this screen: what matters
// (the prompt, the hand, the trick, the seat to act) outside the viewport,
// an element outside its container, seat boxes over trick cards, sideways
// scrolling, and on a phone text under 12 px and tap targets under 40 px.
const layoutJS = `(() => {` + layoutHelpersJS + `
  const tv = $('#table-view').dataset;
  const seated = Number(tv.seat) >= 0;
  inView($('#actions'), 'the prompt');
  inView($('#felt'), 'the table');
  inView($('#seats .seat.turn'), 'the seat to act');
  if (seated) { inView($('#hand-area'), 'your hand'); $$('#hand .card').forEach((c) => { inView(c, 'card ' + c.dataset.card); inside(c, $('#hand-area')); }); }
  const still = (e) => !e.getAnimations().some((a) => a.playState === 'running');
  $$('#trick .tcard').filter(still).forEach((c) => inside(c, $('#felt')));
  $$('#seats .seat').forEach((s) => inside(s, $('#felt')));
  $$('#action-body *, #hand-actions *').forEach((e) => inside(e, $('#actions').contains(e) ? $('#actions') : $('#hand-area')));
  $$('#seats .seat').forEach((s) => $$('#trick .tcard').filter(still).forEach((c) => {
    const a = rect(s), b = rect(c);
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) probs.push('seat ' + s.dataset.seat + ' covers trick card ' + c.dataset.card);
  }));
  $$('#sheet th, #sheet td').forEach((e) => inside(e, $('#sheet').closest('.panel')));
  sideways();
  if (vw < 600) {
    $$('#table-view .badge, #table-view .s-stats, #table-view .c-tag, #table-view .c-label, #actions .hint, #table-info').forEach((e) => {
      if (rect(e).width > 0 && parseFloat(getComputedStyle(e).fontSize) < 12) probs.push(name(e) + ' text is ' + getComputedStyle(e).fontSize);
    });
  }
  tapsOK('#actions button, #hand button.card, #hand-actions button');
  return JSON.stringify(probs);
})()`

// checkLayout checks the table at every size (and takes its screenshot,
// named for the phase, the first time). It puts the desktop size back.
func (s *site) checkLayout(what string, shots map[string]bool) {
	t := s.t
	t.Helper()
	for _, sz := range sizes {
		s.layoutAt(what, sz, layoutJS)
		if name := what + "-" + sz.name; !shots[name] && sz.name != "laptop" {
			shots[name] = true
			s.shot("table-"+name, false)
		}
	}
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
}

// layoutAt resizes the page to sz and fails the test with each problem
// the layout check js (layoutJS, pageLayoutJS) finds.
func (b *browser) layoutAt(what string, sz screen, js string) {
	b.t.Helper()
	scale := 1.0
	if sz.phone {
		scale = 2
	}
	b.do("resize to "+sz.name, chromedp.EmulateViewport(sz.width, sz.height, chromedp.EmulateScale(scale)), settled())
	var probs []string
	b.eval(js, &probs)
	for _, p := range probs {
		b.t.Errorf("%s at %s %dx%d: %s", what, sz.name, sz.width, sz.height, p)
	}
}

// pageLayoutJS lists what is wrong with a page other than the table on
// this screen: what view matches outside the viewport at the top of the
// page, an element outside its panel, sideways scrolling, and on a phone
// tap targets that taps matches under 40 px.
func pageLayoutJS(view, taps string) string {
	return `(() => {` + layoutHelpersJS + fmt.Sprintf(`
  scrollTo(0, 0);
  $$(%q).forEach((e) => inView(e, name(e)));
  $$('main .panel').filter((p) => rect(p).width > 0).forEach((p) => p.querySelectorAll('*').forEach((e) => {
    if (!e.closest('.sr-only') && !e.parentElement.closest('.table-scroll')) inside(e, p);
  }));
  sideways();
  tapsOK(%q);
  return JSON.stringify(probs);
})()`, view, taps)
}

// checkPage checks a page other than the table at every size with
// pageLayoutJS(view, taps), takes its screenshot at desktop and phone
// size (named for what, "page-…"), and puts the desktop size back.
func (b *browser) checkPage(what, view, taps string) {
	b.t.Helper()
	name := "page-" + strings.Join(strings.FieldsFunc(strings.ToLower(what), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), "-")
	for _, sz := range sizes {
		b.layoutAt(what, sz, pageLayoutJS(view, taps))
		if sz.name != "laptop" {
			b.shot(name+"-"+sz.name, false)
		}
	}
	b.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
}

// tricksOf lists a record's tricks in order, each as its cards in play
// order, by replaying it with the engine.
func tricksOf(t *testing.T, rec *pitch.Record) [][]string {
	t.Helper()
	var out [][]string
	tricks := 0
	for k := range rec.Actions {
		cut := *rec
		cut.Actions = rec.Actions[:k+1]
		st, err := cut.State()
		if err != nil {
			t.Fatal(err)
		}
		v := st.View(-1)
		if v.Tricks > tricks {
			tricks = v.Tricks
			var cards []string
			for _, c := range v.Last {
				cards = append(cards, c.String())
			}
			out = append(out, cards)
		}
	}
	return out
}

type logEntry struct {
	T       string   `json:"t"`
	Cards   []string `json:"cards"`
	Visible bool     `json:"visible"`
}

// checkEveryCardSeen checks the recorded table against the stored records
// of hands 1..n: each trick was on the table whole and in view, in order,
// before the next trick began; each hand's last trick before its summary.
func (s *site) checkEveryCardSeen(id string, n int) {
	t := s.t
	t.Helper()
	var log []logEntry
	s.eval(`JSON.stringify(window.__log)`, &log)
	pos := 0
	for hand := 1; hand <= n; hand++ {
		tricks := tricksOf(t, fetchRecord(t, s.url, id, hand))
		for i, trick := range tricks {
			want := strings.Join(trick, ",")
			found := false
			for ; pos < len(log); pos++ {
				e := log[pos]
				if e.T == "trick" && strings.Join(e.Cards, ",") == want {
					found = true
					if !e.Visible {
						t.Errorf("hand %d trick %d (%s) was on the table but not wholly in view", hand, i+1, want)
					}
					break
				}
				if e.T == "summary" {
					t.Errorf("hand %d: the summary opened before trick %d (%s) was shown whole", hand, i+1, want)
				}
			}
			if !found {
				t.Fatalf("hand %d trick %d (%s) was never on the table whole (log %v)", hand, i+1, want, log)
			}
		}
		// The summary comes after the last trick and before the next hand's.
		for ; pos < len(log) && log[pos].T != "summary"; pos++ {
			if e := log[pos]; e.T == "trick" && len(e.Cards) > 0 && !strings.Contains(strings.Join(tricks[len(tricks)-1], ","), e.Cards[0]) {
				t.Errorf("hand %d: a new trick (%v) began before the hand's summary", hand, e.Cards)
				break
			}
		}
		if pos == len(log) {
			t.Errorf("hand %d: no summary after its last trick", hand)
		}
	}
}

// TestBrowserTable plays a hand of each game, as the bidder where the
// game asks the bidder more, and checks the table at three sizes at each
// of our decisions and while others play, that every card played was on
// the table in view before the next trick or the summary, and (auction)
// that a card that may not be played says why.
func TestBrowserTable(t *testing.T) {
	for _, g := range []struct {
		variant string
		seats   int
	}{{"pawnee", 5}, {"ten-point", 4}, {"auction", 3}, {"auction", 7}} {
		t.Run(fmt.Sprintf("%s-%d", g.variant, g.seats), func(t *testing.T) {
			s := newSiteFor(t, 200*time.Second, nil)
			id := s.createTable(g.variant, g.seats, "")
			s.eval(recorderJS, new(bool))
			// A spectator watches in a tab of its own.
			tab, cancel := chromedp.NewContext(s.ctx)
			defer cancel()
			spec := &browser{t: t, ctx: tab, shots: s.shots}
			spec.do("watch", chromedp.Navigate(s.url+"/t/"+id+"?watch=1"), chromedp.WaitVisible(chromedp.CSS("#felt")))
			spec.eval(recorderJS, new(bool))
			s.join("Ada")
			// The phone's pawnee call and discard are TestBrowserPawneePhone's
			// screenshots (a rank picked, the widow marked); the discard at
			// desktop size is pawnee's.
			shots := map[string]bool{"call-phone": true, "discard-phone": true, "discard-desktop": g.variant != "pawnee"}
			checked := map[string]int{}
			refusalSeen := false
			s.onTurn = func(u ui) {
				if checked[u.Act] < 2 {
					checked[u.Act]++
					s.checkLayout(u.Act, shots)
				}
				if u.Act == "play" && !refusalSeen {
					if bad := s.cards("#hand button.card:not(.can)"); len(bad) > 0 {
						refusalSeen = true
						s.click(fmt.Sprintf(`#hand button[data-card=%q]`, bad[0]))
						why := s.text("#refusal")
						if s.count("#refusal:not([hidden])") != 1 || !strings.Contains(why, "must") {
							t.Errorf("choosing %s, which may not be played, shows %q, want the engine's reason", bad[0], why)
						}
					}
				}
			}
			s.onWait = func(u ui) {
				if u.Trick > 0 && checked["watch"] < 1 {
					checked["watch"]++
					s.checkLayout("others-play", shots)
				}
			}
			hands := s.playUntilOurBid(nil)
			s.checkLayout("summary", shots)
			// The spectator saw the play but was not stopped by a summary
			// after each hand: a line says how the hand went instead.
			var specLog []logEntry
			spec.eval(`JSON.stringify(window.__log)`, &specLog)
			tricks := 0
			for _, e := range specLog {
				if e.T == "summary" {
					t.Error("the spectator got the hand summary pop-up")
				}
				if e.T == "trick" && len(e.Cards) > 0 {
					tricks++
				}
			}
			if tricks == 0 {
				t.Error("the spectator never saw a card on the table")
			}
			waitFor(t, "the spectator's line on the hand", func() bool { return strings.HasPrefix(spec.text("#notice"), "Hand ") }, 10*time.Second)
			s.checkEveryCardSeen(id, len(hands))
			s.checkLastHand(id, hands, g.seats)
			for _, phase := range []string{"bid", "play"} {
				if checked[phase] == 0 {
					t.Errorf("never checked the table at our %s", phase)
				}
			}
			if g.variant == "auction" && !refusalSeen {
				t.Log("no card was refused to us in these hands; the refusal is checked in the other runs")
			}
		})
	}
}

// createAPI creates a table through the API and returns its id.
func (s *site) createAPI(body string) string {
	s.t.Helper()
	res, err := http.Post(s.url+"/api/tables", "application/json", strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusCreated {
		s.t.Fatalf("create: %s %v", res.Status, err)
	}
	return out.ID
}

// joinAPI takes a seat through the API and returns its token.
func (s *site) joinAPI(id string, seat int, name string) string {
	s.t.Helper()
	res, err := http.Post(s.url+"/api/tables/"+id+"/join", "application/json", strings.NewReader(fmt.Sprintf(`{"seat":%d,"name":%q}`, seat, name)))
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ Token string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusOK {
		s.t.Fatalf("join: %s %v", res.Status, err)
	}
	return out.Token
}

// TestBrowserTurnNotices: with a turn timer, the seat to act shows its
// countdown; when it runs out the table plays, and the log and a notice
// say so; a player who was away is told on return which moves the table
// made for them.
func TestBrowserTurnNotices(t *testing.T) {
	// A player away for 2 s is played for by the table.
	s := newSiteWith(t, func(o *server.Options) { o.AwayDelay = 2 * time.Second })
	id := s.createAPI(`{"variant":"auction","turn_timer":2,"seats":[{"kind":"human"},{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]}`)
	tok1 := s.joinAPI(id, 1, "Bea") // never connects until the end: away
	// Bea's tab is made now, on the lobby (no connection to the table): she
	// must come back within the hand her stand-in played in, and a new tab
	// takes seconds on a loaded machine; her return is then one page load.
	tab, cancel := chromedp.NewContext(s.ctx)
	defer cancel()
	bea := &browser{t: t, ctx: tab, shots: s.shots}
	bea.do("open the lobby as Bea", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
	s.do("open the table", chromedp.Navigate(s.url+"/t/"+id), chromedp.WaitVisible(chromedp.CSS("#join-name")))
	s.eval(`localStorage.setItem('pitch.speed', 'instant'), 'true'`, new(bool))
	s.do("type a name", chromedp.SendKeys(chromedp.CSS("#join-name"), "Ada"))
	s.click("#join-btn")
	waitFor(t, "our turn with its countdown", func() bool {
		return s.count(`#seats .seat.me .countdown:not([hidden])`) == 1
	}, 30*time.Second)
	if got := s.text(`#seats .seat.me .countdown`); !strings.HasSuffix(got, " s") {
		t.Errorf("the countdown reads %q", got)
	}
	waitFor(t, "the table to play for us", func() bool { return s.count(`#log li[data-by="timer"]`) > 0 }, 20*time.Second)
	if got := s.text(`#log li[data-by="timer"]`); !strings.Contains(got, "Ada (you)") || !strings.Contains(got, "time ran out") {
		t.Errorf("the log says %q for the timer's move", got)
	}
	if got := s.text("#notice"); !strings.Contains(got, "Time ran out") {
		t.Errorf("the notice says %q, want that time ran out", got)
	}
	waitFor(t, "a stand-in's move for Bea", func() bool { return s.count(`#log li[data-by="stand-in"]`) > 0 }, 20*time.Second)
	if got := s.text(`#log li[data-by="stand-in"]`); !strings.Contains(got, "Bea") || !strings.Contains(got, "away") {
		t.Errorf("the log says %q for the stand-in's move", got)
	}
	// Bea comes back, in her tab. Her own turn may come at once, and its
	// timer's notice (2 s later) replace the one she is told on return:
	// her page keeps every notice it shows (noticesJS), from its start.
	bea.eval(fmt.Sprintf(`localStorage.setItem('pitch.seat.%s', JSON.stringify({seat: 1, token: %q, name: 'Bea'})), 'true'`, id, tok1), new(bool))
	bea.do("keep the notices", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: noticesJS})
		return err
	}))
	bea.do("open the table", chromedp.Navigate(s.url+"/t/"+id), chromedp.WaitVisible(chromedp.CSS("#felt")))
	waitFor(t, "Bea is told", func() bool {
		var shown []string
		bea.eval(`JSON.stringify(window.__notices || [])`, &shown)
		return slices.ContainsFunc(shown, func(n string) bool { return strings.Contains(n, "for you this hand") || strings.Contains(n, "away") })
	}, 20*time.Second)
}

// noticesJS keeps, in window.__notices, each text the page's notice line
// (#notice) shows, from the page's start.
const noticesJS = `window.__notices = [];
new MutationObserver(() => {
  const n = document.querySelector('#notice');
  if (n && n.textContent && n.textContent !== window.__notices[window.__notices.length - 1]) window.__notices.push(n.textContent);
}).observe(document, { childList: true, subtree: true, characterData: true });`

// TestBrowserKeyboardPawnee plays a pawnee hand with the keyboard alone:
// after each of our moves the focus goes to the next thing to use, the
// focus ring stands out (3:1 or more), and the discard's button is one Tab
// from the hand.
func TestBrowserKeyboardPawnee(t *testing.T) {
	s := newSite(t)
	id := s.createTable("pawnee", 5, "")
	s.join("Ada")
	press := func(what string, keys ...string) {
		for _, k := range keys {
			s.do(what, chromedp.KeyEvent(k))
		}
	}
	focused := func() (string, string) {
		var f struct{ Where, Key string }
		s.eval(`(() => { const e = document.activeElement; const where = e.closest('#hand') ? 'hand' : e.closest('#hand-actions') ? 'hand-actions' : e.closest('#actions') ? 'actions' : e.closest('#summary') ? 'summary' : e.tagName;
			return JSON.stringify({where, key: e.dataset.key || e.dataset.card || e.id || ''}); })()`, &f)
		return f.Where, f.Key
	}
	ringOK := func(what string) {
		var r struct {
			Width    float64
			Contrast float64
		}
		s.eval(`(() => {
			const e = document.activeElement, st = getComputedStyle(e);
			const rgb = (c) => (c.match(/[\d.]+/g) || [0, 0, 0]).slice(0, 3).map(Number);
			const lum = (c) => { const v = rgb(c).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
			let bg = 'rgb(255,255,255)';
			for (let p = e.parentElement; p; p = p.parentElement) { const b = getComputedStyle(p).backgroundColor; if (b && !/rgba\(.*,\s*0\)$/.test(b) && b !== 'transparent') { bg = b; break; } }
			const a = lum(st.outlineColor), b = lum(bg);
			return JSON.stringify({width: parseFloat(st.outlineWidth) || 0, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)});
		})()`, &r)
		if r.Width < 2 || r.Contrast < 3 {
			t.Errorf("%s: the focus ring is %.1f px at %.1f:1 against its background, want 2 px or more at 3:1", what, r.Width, r.Contrast)
		}
	}
	moves := 0
	deadline := time.Now().Add(90 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the hand did not end in time (%d moves)", moves)
		}
		u := s.ui()
		if u.Summary {
			break
		}
		if u.Pending || u.Act == "" {
			time.Sleep(pollEvery)
			continue
		}
		where, _ := focused()
		if moves > 0 && where != "actions" && where != "hand" && where != "hand-actions" {
			t.Errorf("at our %s the focus is on %s, not on the table's controls", u.Act, where)
		}
		switch u.Act {
		case "bid":
			// Tab to the highest bid from the first control.
			s.do("focus the first bid", chromedp.Focus(chromedp.CSS(`#action-body button`)))
			ringOK("a bid button")
			n := s.count(`#action-body .btn-row button`)
			for range n - 1 {
				press("tab to the top bid", kb.Tab)
			}
			press("bid", kb.Enter)
		case "call":
			s.do("focus the suits", chromedp.Focus(chromedp.CSS(`#action-body button[data-suit]`)))
			press("choose spades", kb.Enter)
			if w, k := focused(); w != "actions" || k != "rank" {
				t.Errorf("after choosing a suit the focus is on %s %s, want the ranks", w, k)
			}
			// Walk the ranks to one we may call and do not hold.
			for range 13 {
				var ok bool
				s.eval(`JSON.stringify(document.activeElement.classList.contains('can') && !document.activeElement.classList.contains('mine'))`, &ok)
				if ok {
					break
				}
				press("next rank", kb.ArrowRight)
			}
			press("pick it", kb.Enter)
			if w, k := focused(); w != "actions" || k != "call" {
				t.Errorf("after picking a rank the focus is on %s %s, want the Call button", w, k)
			}
			press("call", kb.Enter)
		case "discard":
			var need int
			s.eval(`JSON.stringify(Number(document.querySelector('#actions').dataset.remaining))`, &need)
			s.do("focus the hand", chromedp.Focus(chromedp.CSS(`#hand button[tabindex="0"]`)))
			ringOK("a card")
			for i := 0; need > 0 && i < 30; i++ {
				var can bool
				s.eval(`JSON.stringify(document.activeElement.classList.contains('can') && !document.activeElement.classList.contains('sel'))`, &can)
				if can {
					press("choose a card", kb.Enter)
					need--
				}
				press("next card", kb.ArrowRight)
			}
			press("to the discard button", kb.Tab)
			if w, k := focused(); w != "hand-actions" || k != "discard-confirm" {
				t.Errorf("one Tab after the hand the focus is on %s %s, want the discard button", w, k)
			}
			press("discard", kb.Enter)
		case "play":
			if w, _ := focused(); w != "hand" {
				s.do("focus the hand", chromedp.Focus(chromedp.CSS(`#hand button[tabindex="0"]`)))
			}
			for range 12 {
				var can bool
				s.eval(`JSON.stringify(document.activeElement.classList.contains('can'))`, &can)
				if can {
					break
				}
				press("next card", kb.ArrowRight)
			}
			press("play", kb.Enter)
		default:
			t.Fatalf("unexpected decision %q", u.Act)
		}
		moves++
		waitFor(t, "the server takes our "+u.Act, func() bool { return s.ui().Seq != u.Seq }, 10*time.Second)
	}
	// Every decision of ours in the stored hand was made by the keyboard
	// (the record may hold moves the page never asked for only if the
	// table played for us, which it must not have).
	rec := fetchRecord(t, s.url, id, 1)
	ours := 0
	for _, a := range rec.Actions {
		if a.Seat == 0 {
			ours++
		}
	}
	if moves < 3 || moves != ours {
		t.Errorf("%d moves by keyboard, and the record holds %d of seat 0's (a pawnee bidder bids, calls and discards at least)", moves, ours)
	}
}
