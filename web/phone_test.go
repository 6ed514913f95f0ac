package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/coder/websocket"

	"pitch/store/boardtest"
)

// The pages on a phone (390×844): every control a finger can hit, every
// word readable, the history a list, the replay's trick in its own place;
// and at desktop size, a review's decision shows its position.

// phoneJS lists, on the page as it is, every visible control (a link, a
// button, a field, a <summary>, a role=button) whose clickable box — its
// own with its padding, and its <label>s' — is under 40 px either way,
// and every visible piece of text under 12 px.
const phoneJS = `(() => {
  const probs = new Set();
  const rect = (e) => e.getBoundingClientRect();
  const what = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  const say = (e) => what(e) + ' ' + JSON.stringify((e.textContent || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 30));
  const hidden = (e) => !!e.closest('.sr-only, [hidden], script, style, template, option, svg');
  for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]')) {
    if (hidden(e)) continue;
    const r = rect(e);
    if (r.width === 0 || r.height === 0 || r.right <= 0 || getComputedStyle(e).visibility === 'hidden') continue;
    let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (const l of e.labels || []) {
      const q = rect(l);
      if (q.width === 0) continue;
      box = { left: Math.min(box.left, q.left), top: Math.min(box.top, q.top), right: Math.max(box.right, q.right), bottom: Math.max(box.bottom, q.bottom) };
    }
    const w = box.right - box.left, h = box.bottom - box.top;
    if (w < 39.5 || h < 39.5) probs.add('tap target ' + say(e) + ' is ' + Math.round(w) + 'x' + Math.round(h) + ' px');
  }
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());) {
    const p = n.parentElement;
    if (!n.data.trim() || !p || hidden(p)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rs = Array.from(range.getClientRects()).filter((q) => q.width > 0 && q.height > 0 && q.right > 0);
    const st = getComputedStyle(p);
    if (!rs.length || st.visibility === 'hidden') continue;
    const size = parseFloat(st.fontSize);
    if (size < 11.95) probs.add('text ' + what(p) + ' ' + JSON.stringify(n.data.trim().slice(0, 30)) + ' is ' + size.toFixed(1) + ' px');
  }
  return JSON.stringify(Array.from(probs));
})()`

// onPhone resizes the page to a phone's 390×844 (at twice the pixels).
func (b *browser) onPhone() {
	b.t.Helper()
	b.do("resize to a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)), settled())
}

// checkPhone fails the test with each problem phoneJS finds on the page
// shown at a phone's size, named where.
func (b *browser) checkPhone(where string) {
	b.t.Helper()
	b.onPhone()
	var probs []string
	b.eval(phoneJS, &probs)
	for _, p := range probs {
		b.t.Errorf("%s at 390x844: %s", where, p)
	}
}

// listJS lists what is wrong with a table of matches that a phone shows
// as a list (.as-list; box, the page's part, rows, one row a match):
// the page or a box in it scrolling sideways, a row shown as a table's row
// rather than a card of its own, a match without links, or a match's link
// (or button) reaching outside the viewport's width.
func listJS(box, rows string) string {
	return fmt.Sprintf(`((box, rowSel) => {
  const probs = [], vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw + 1) probs.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
  for (const e of document.querySelectorAll(box + ' *')) {
    const st = getComputedStyle(e);
    if (e.getBoundingClientRect().width > 0 && /auto|scroll/.test(st.overflowX) && e.scrollWidth > e.clientWidth + 1)
      probs.push('the box ' + e.tagName + '.' + e.className + ' scrolls sideways: ' + e.scrollWidth + ' > ' + e.clientWidth);
  }
  const rows = Array.from(document.querySelectorAll(rowSel));
  if (!rows.length) probs.push('no match listed');
  for (const row of rows) {
    if (getComputedStyle(row).display !== 'block') probs.push('match ' + row.dataset.id + ' is shown as a table row (' + getComputedStyle(row).display + '), not a list item');
    const links = Array.from(row.querySelectorAll('a[href], button'));
    if (!links.length) probs.push('match ' + row.dataset.id + ' has no link');
    for (const a of links) {
      const r = a.getBoundingClientRect();
      if (r.width === 0 || r.left < -1 || r.right > vw + 1)
        probs.push('match ' + row.dataset.id + ': its link ' + JSON.stringify(a.textContent) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + vw);
    }
  }
  return JSON.stringify(probs);
})(%q, %q)`, box, rows)
}

// replayTrickJS describes the replay's trick area: its label, whether it
// is wholly in the viewport, its cards with the names under them, the note
// under it, the winner marked, and any card shown in a seat's row outside
// its hand (an unlabelled card under a hand).
const replayTrickJS = `(() => {
  const area = document.querySelector('#rp-trick');
  if (!area) return JSON.stringify({});
  const r = area.getBoundingClientRect(), head = document.getElementById(area.getAttribute('aria-labelledby') || '');
  return JSON.stringify({
    label: head ? head.textContent : '',
    inView: r.width > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1,
    cards: Array.from(area.querySelectorAll('li')).map((li) => ({ seat: li.dataset.seat, card: (li.querySelector('[data-card]') || { dataset: {} }).dataset.card || '',
      name: (li.querySelector('.rp-tname') || {}).textContent || '' })),
    note: (area.querySelector('.rp-trick-note') || {}).textContent || '',
    wins: area.querySelectorAll('.wins').length, winSeat: (area.querySelector('.wins') || { dataset: {} }).dataset.seat || '',
    stray: document.querySelectorAll('#rp-seats [data-card]:not(.rp-cards [data-card])').length,
    names: Array.from(document.querySelectorAll('#rp-seats .rp-seat')).map((s) => s.querySelector('.rp-who strong').textContent),
  });
})()`

// trickShown is what replayTrickJS says.
type trickShown struct {
	Label   string
	InView  bool
	Cards   []struct{ Seat, Card, Name string }
	Note    string
	Wins    int
	WinSeat string
	Stray   int
	Names   []string
}

// TestBrowserPhonePages: a person plays a hand of auction on a phone, a
// table of bots finishes a hand of pawnee, and the pages are checked as a
// person sees them:
//   - at 390×844, every control (link, button, field) on the table mid-hand,
//     with the summary open, with the score sheet and the hand records, on
//     the replay with its review and the match review, the history, the
//     lobby, the account page (signed out and in), a profile and the
//     leaderboard is at least 40 px either way, and no text is under 12 px;
//   - the history, and a profile's recent rated matches, on a phone are a
//     list: neither the page nor a box in it scrolls sideways, each match
//     is a card of its own, and every match's links lie within the screen;
//   - the replay at 390 shows the trick in its own labelled area, each card
//     over its player's name, the completed trick with who takes it, and no
//     card outside a hand in the seats' rows;
//   - at 1280×720, choosing a decision far down a review brings the board
//     (the step's line and the trick) into view.
func TestBrowserPhonePages(t *testing.T) {
	s := newSiteFor(t, 300*time.Second, nil)
	const seats = 5
	bots := strings.TrimSuffix(strings.Repeat(`{"kind":"bot","level":"easy"},`, seats), ",")
	botTable := s.createAPI(`{"variant":"pawnee","seats":[` + bots + `]}`)
	w := watch(t, s.url, botTable) // bots play while someone watches

	id := s.createAPI(`{"variant":"auction","seats":[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]}`)
	s.openSeat(id, 0, s.joinAPI(id, 0, "Ada"), "Ada")
	waitFor(t, "our first card to play", func() bool {
		if s.ui().Act == "play" {
			return true
		}
		if !s.actOnce() {
			time.Sleep(pollEvery)
		}
		return false
	}, 90*time.Second)
	s.checkPhone("the table mid-hand")
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
	s.playToSummary("")
	s.checkPhone("the table with the hand's summary")
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
	s.click("#summary-close")
	waitFor(t, "the hand's records and its row on the sheet", func() bool {
		return s.count("#records a.review-match") == 1 && s.count("#sheet a.replay-link") == 1
	}, 10*time.Second)
	s.checkPhone("the table with the score sheet and the hand records")

	waitFor(t, "a finished hand at the bots' table", func() bool {
		var hands []json.RawMessage
		getJSON(t, s.url+"/api/tables/"+botTable+"/hands", &hands)
		return len(hands) > 0
	}, 60*time.Second)
	w.Close(websocket.StatusNormalClosure, "") // the table stops when nobody watches

	// The replay at 390: the trick in its own place, step by step.
	s.do("the replay", chromedp.Navigate(s.url+"/t/"+botTable+"/hands/1"), chromedp.WaitVisible(chromedp.CSS("#rp-main")))
	// What each step's trick is, as the server's replay has it: the trick
	// being played, or just after its last card the trick completed.
	var rp struct {
		Steps []struct {
			Action map[string]any `json:"action"`
			View   struct {
				Trick []struct {
					Seat int
					Card string
				} `json:"trick"`
				LastTrick []struct {
					Seat int
					Card string
				} `json:"last_trick"`
				LastWinner int `json:"last_winner"`
			} `json:"view"`
		} `json:"steps"`
	}
	getJSON(t, s.url+"/api/tables/"+botTable+"/hands/1/replay", &rp)
	var tr trickShown
	sawPart, sawWhole := false, false
	for k := 1; k < len(rp.Steps); k++ {
		s.do("step forward", chromedp.KeyEvent(kb.ArrowRight))
		s.eval(replayTrickJS, &tr)
		if tr.Label == "" {
			t.Error("the replay shows no labelled area for the trick")
			break
		}
		if tr.Label != "Trick" || !tr.InView {
			t.Errorf("step %d: the trick's area is labelled %q, in the viewport: %v", k, tr.Label, tr.InView)
		}
		if tr.Stray > 0 {
			t.Errorf("step %d: %d cards shown in the seats' rows outside their hands", k, tr.Stray)
		}
		st := rp.Steps[k]
		want, done := st.View.Trick, false
		if _, played := st.Action["play"]; len(want) == 0 && played {
			want, done = st.View.LastTrick, true
		}
		var got, exp []string
		for _, c := range tr.Cards {
			got = append(got, c.Seat+":"+c.Card)
			var seat int
			if _, err := fmt.Sscan(c.Seat, &seat); err != nil || seat < 0 || seat >= len(tr.Names) || c.Name != tr.Names[seat] {
				t.Errorf("step %d: the trick's card %q is shown over %q, seat %q (the seats are %q)", k, c.Card, c.Name, c.Seat, tr.Names)
			}
		}
		for _, c := range want {
			exp = append(exp, fmt.Sprintf("%d:%s", c.Seat, c.Card))
		}
		if strings.Join(got, " ") != strings.Join(exp, " ") {
			t.Errorf("step %d: the trick shows %v, the replay's step %v", k, got, exp)
		}
		switch {
		case len(want) == 0:
			if tr.Note != "No card on the table." || tr.Wins != 0 {
				t.Errorf("step %d: no card in the trick, and its area says %q with %d winners marked", k, tr.Note, tr.Wins)
			}
		case done:
			sawWhole = true
			if who := tr.Names[st.View.LastWinner]; tr.Note != who+" takes the trick." || tr.Wins != 1 || tr.WinSeat != fmt.Sprint(st.View.LastWinner) {
				t.Errorf("step %d: the trick just completed says %q with %d winners marked (seat %q), want %s takes it", k, tr.Note, tr.Wins, tr.WinSeat, who)
			}
		default:
			sawPart = true
			if tr.Note != "" || tr.Wins != 0 {
				t.Errorf("step %d: a trick being played says %q with %d winners marked", k, tr.Note, tr.Wins)
			}
		}
	}
	if tr.Label != "" && (!sawPart || !sawWhole) {
		t.Errorf("stepping through the replay never showed a trick being played (%v) and one completed (%v)", sawPart, sawWhole)
	}
	s.onPhone()
	s.shot("page-replay-trick-phone", false)

	// The review of seat 0, and the match's for seat 0.
	s.click("#rp-review-go")
	waitFor(t, "the review shown", func() bool {
		return s.count("#rp-review-out .rp-decision") > 0 || strings.Contains(s.text("#rp-review-out"), "No decision to review")
	}, 60*time.Second)
	s.choose("#rp-match-seat", "0")
	s.click("#rp-match .mr-go")
	s.checkMatchReview(s.browser, "#rp-match", botTable, seats, "0")
	s.checkPhone("the replay with its review and the match review")

	// At the desktop, a decision far down the review shows the board.
	s.do("resize to the desktop", chromedp.EmulateViewport(1280, 720))
	last := "#rp-review-out .rp-decision:last-child > button"
	s.do("scroll to the last decision", chromedp.ScrollIntoView(chromedp.CSS(last)))
	const boardJS = `(() => { const inView = (s) => { const e = document.querySelector(s), r = e && e.getBoundingClientRect();
		return !!e && r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1; }; const seats = document.querySelector('#rp-seats').getBoundingClientRect();
		return JSON.stringify({line: inView('#rp-action'), trick: inView('#rp-trick'), seats: seats.bottom > 0 && seats.top < innerHeight}); })()`
	var board struct{ Line, Trick, Seats bool }
	s.eval(boardJS, &board)
	if board.Line || board.Seats {
		t.Fatalf("the review is too short to tell: its last decision and the board are on one screen (%+v)", board)
	}
	s.click(last)
	s.eval(boardJS, &board)
	if !board.Line || !board.Trick || !board.Seats {
		t.Errorf("after choosing the last decision of the review the board is not in view: the step's line %v, the trick %v, the hands %v", board.Line, board.Trick, board.Seats)
	}
	if s.count("#rp-review-out .rp-decision:last-child.current") != 1 {
		t.Error("the decision chosen is not marked as the current one")
	}

	// The history on a phone: a list.
	s.onPhone()
	s.do("the history", chromedp.Navigate(s.url+"/history"), chromedp.WaitVisible(chromedp.CSS("#history-list")))
	waitFor(t, "both matches in the history", func() bool {
		return s.count(fmt.Sprintf(`#history-list [data-id=%q] .review-match, #history-list [data-id=%q] .review-match`, id, botTable)) == 2
	}, 10*time.Second)
	var probs []string
	s.eval(listJS("#history", "#history-list [data-id]"), &probs)
	for _, p := range probs {
		t.Errorf("the history at 390x844: %s", p)
	}
	s.shot("page-history-phone", false)
	s.checkPhone("the history")

	for _, p := range []struct{ what, path, sel string }{
		{"the lobby", "/", "#create-form"},
		{"the account page, signed out", "/account", "#signup-form"},
	} {
		s.do("open "+p.what, chromedp.Navigate(s.url+p.path), chromedp.WaitVisible(chromedp.CSS(p.sel)))
		s.checkPhone(p.what)
	}
	s.fill("#signup-name", "Phone-Ada")
	s.fill("#signup-password", "analytical engine")
	s.click("#signup-btn")
	s.waitShown("the account page", "#acct-me")
	s.checkPhone("the account page, signed in")
	// Each page is checked once its data is drawn (a state, not a time:
	// the profile's games, the leaderboard's rows or its "nobody yet").
	for _, p := range []struct{ what, path, sel, drawn string }{
		{"the profile", "/u/Phone-Ada", "#profile-h", "#profile-games > *"},
		{"the leaderboard", "/leaderboard", "#leaderboard-h", "#leaderboard-list tr, #leaderboard-none:not([hidden])"},
	} {
		s.do("open "+p.what, chromedp.Navigate(s.url+p.path), chromedp.WaitVisible(chromedp.CSS(p.sel)))
		waitFor(t, p.what+" drawn", func() bool { return s.count(p.drawn) > 0 }, 20*time.Second)
		s.checkPhone(p.what)
	}

	// A profile with its recent rated matches: on a phone a list.
	if err := boardtest.Settle(context.Background(), s.st, []string{"Rated-1", "Rated-2", "Rated-3", "Rated-4", "Rated-5"}); err != nil {
		t.Fatal(err)
	}
	s.do("open a player's profile", chromedp.Navigate(s.url+"/u/Rated-1"), chromedp.WaitVisible(chromedp.CSS("#chart-pawnee canvas")))
	waitFor(t, "the recent matches", func() bool { return s.count("#profile-recent [data-id]") > 0 }, 10*time.Second)
	s.eval(listJS("#profile-recent", "#profile-recent [data-id]"), &probs)
	for _, p := range probs {
		t.Errorf("the profile's recent matches at 390x844: %s", p)
	}
	s.eval(`document.querySelector('#profile-recent').closest('section').scrollIntoView(), 'true'`, new(bool))
	s.shot("page-profile-phone", false)
	s.checkPhone("a profile with recent matches")
}
