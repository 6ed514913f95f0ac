package web_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"pitch/rating"
	"pitch/server"
	"pitch/server/httpx"
	"pitch/store"
)

// shownJS counts the places where phrase shows on the screen: text nodes
// holding it whose element is laid out and seen (not hidden, not only
// for screen readers).
func shownJS(phrase string) string {
	return fmt.Sprintf(`(() => { let n = 0; const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		for (let x; (x = w.nextNode());) {
			if (!x.textContent.includes(%q)) continue;
			const e = x.parentElement;
			if (e.closest('.sr-only, [hidden], dialog:not([open])') || !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
			n++;
		}
		return n; })()`, phrase)
}

// displayed reports whether the element sel names is laid out (shown).
func (b *browser) displayed(sel string) bool {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`JSON.stringify((() => { const e = document.querySelector(%q); return !!e && e.getClientRects().length > 0 && !e.closest('[hidden]'); })())`, sel), &ok)
	return ok
}

// signInAs gives the browser a session of account id (a cookie for url),
// as signing in would.
func (s *site) signInAs(id, url string) {
	t := s.t
	t.Helper()
	token := httpx.RandomString(32)
	h := sha256.Sum256([]byte(token))
	if err := s.st.CreateSession(s.ctx, store.Session{Hash: h[:], Account: id, Created: time.Now(), Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	httpOnly := true
	if _, err := chromedp.Call(s.ctx, network.SetCookie, network.SetCookieParams{Name: "pitch_session", Value: token, URL: url + "/", Path: "/", HTTPOnly: &httpOnly}); err != nil {
		t.Fatalf("Network.setCookie: %v", err)
	}
}

// TestBrowserPasskeyWhere: the passkey buttons show only where passkeys
// can work. At an IP address (the test server's 127.0.0.1, a secure
// context all the same) the sign-in and sign-up forms and a signed-in
// account's page offer no passkey, and say why in a short line that
// names the address; at localhost they are offered and no such line
// shows. Nothing scrolls sideways at 1280 or 390 wide.
func TestBrowserPasskeyWhere(t *testing.T) {
	s := newSite(t)
	s.do("open the account page at 127.0.0.1", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-up form", "#signup-form")
	for _, sel := range []string{"#signin-passkey", "#signup-passkey"} {
		if s.displayed(sel) {
			t.Errorf("at 127.0.0.1 %s is offered: a passkey cannot work at an IP address", sel)
		}
	}
	for _, sel := range []string{"#signin-passkey-why", "#signup-passkey-why"} {
		if !s.displayed(sel) {
			t.Errorf("at 127.0.0.1 %s does not say why there is no passkey", sel)
		} else if got := s.text(sel); !strings.Contains(got, "No passkeys here") || !strings.Contains(got, "127.0.0.1") || !strings.Contains(got, "localhost") {
			t.Errorf("at 127.0.0.1 %s says %q, want why (the address is a number, a name such as localhost works)", sel, got)
		}
	}
	for _, sz := range accountSizes {
		s.do("resize", chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(sz.scale)), settled())
		s.noOverflow("the guest's account page at 127.0.0.1, " + sz.name)
		// A guest has no profile: the header offers none.
		if s.displayed("#profile-link") {
			t.Errorf("at %s the header offers a guest a profile", sz.name)
		}
	}

	// Signed in, at the IP address: no "Add a passkey", and why.
	var acct struct{ Account struct{ ID string } }
	s.evalAsync(`fetch('/api/account/signup', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Wren', password: 'a long enough password'})}).then((r) => r.text())`, &acct)
	if acct.Account.ID == "" {
		t.Fatal("the sign-up did not make an account")
	}
	s.do("the account page, signed in", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the account", "#acct-me")
	if s.displayed("#pk-add") || !s.displayed("#pk-why") || !strings.Contains(s.text("#pk-why"), "127.0.0.1") {
		t.Errorf("a signed-in account at 127.0.0.1: Add a passkey shown %v, why shown %v (%q); want no button, and why", s.displayed("#pk-add"), s.displayed("#pk-why"), s.text("#pk-why"))
	}

	// At localhost, a domain name in a secure context: offered.
	local := strings.Replace(s.url, "127.0.0.1", "localhost", 1)
	s.do("open the account page at localhost", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(local+"/account"))
	s.waitShown("the sign-up form", "#signup-form")
	for _, sel := range []string{"#signin-passkey", "#signup-passkey"} {
		if !s.displayed(sel) {
			t.Errorf("at localhost %s is not offered", sel)
		}
	}
	if n := s.count(".passkey-why:not([hidden])"); n != 0 {
		t.Errorf("at localhost %d lines say passkeys cannot work", n)
	}
}

// rateProfileMatches makes the accounts of names and rates n pawnee
// matches of the five, the first name winning each: the first player's
// rating is provisional after a few. It returns the first's account ID.
func rateProfileMatches(t *testing.T, st store.Store, names []string, n int) string {
	t.Helper()
	ctx := context.Background()
	ids := make([]string, len(names))
	for i, name := range names {
		ids[i] = "pages-" + strings.ToLower(name)
		if err := st.CreateAccount(ctx, &store.Account{ID: ids[i], Name: name, NameKey: strings.ToLower(name), Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now().Add(-time.Hour)
	for k := range n {
		m := store.RatedMatch{Table: fmt.Sprintf("pages-match-%d", k), Variant: "pawnee", At: start.Add(time.Duration(k) * time.Minute),
			Standing: rating.Standing{Sides: [][]int{{0}, {1}, {2}, {3}, {4}}, Ranks: []float64{1, 2, 3, 4, 5}}}
		for i := range 5 {
			m.Seats = append(m.Seats, store.RatedSeat{Seat: i, Account: ids[i], Hands: 10, Bids: 3, Sets: 1, Points: 10 - i})
		}
		if _, err := st.RateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	return ids[0]
}

// profileGridJS lists what is wrong with the profile's figures: a value
// not right under its name, a row of figures whose tops differ, a cell
// whose words are cut, a figure outside the screen.
const profileGridJS = `(() => {
  const out = [], W = document.documentElement.clientWidth;
  const cells = Array.from(document.querySelectorAll('#profile-pawnee .profile-stats > *'));
  if (cells.length !== 6) out.push(cells.length + ' figures, want 6');
  const rows = new Map();
  for (const c of cells) {
    const dt = c.querySelector('dt'), dd = c.querySelector('dd');
    if (!dt || !dd) { out.push('a cell without its name and value: ' + c.outerHTML.slice(0, 60)); continue; }
    const a = dt.getBoundingClientRect(), b = dd.getBoundingClientRect(), r = c.getBoundingClientRect();
    if (Math.abs(a.left - b.left) > 1 || b.top < a.bottom - 1) out.push(JSON.stringify(dt.textContent) + ': its value is not under it');
    if (r.left < 0 || r.right > W + 1) out.push(JSON.stringify(dt.textContent) + ' outside the screen');
    for (const e of [dt, dd]) if (e.scrollWidth > e.clientWidth + 1) out.push(JSON.stringify(e.textContent) + ' is cut');
    const top = Math.round(r.top);
    if (!rows.has(top)) rows.set(top, []);
    rows.get(top).push(r);
  }
  // The cells of a row share a column grid: the same width each.
  for (const [top, rs] of rows) if (rs.some((r) => Math.abs(r.width - rs[0].width) > 1)) out.push('the row at ' + top + ' has cells of different widths');
  if (document.documentElement.scrollWidth > W + 1) out.push('the page scrolls sideways');
  return JSON.stringify(out);
})()`

// TestBrowserProfilePages: a signed-in player reaches their own profile
// from the account page and the header, and back to the account from it.
// The profile says what the "?" of a provisional rating means (a title on
// it, and in words under the list of matches); its chart counts the
// matches in whole numbers; its figures stay in pairs (name over value)
// on a grid at 390, 768 and 1280 wide.
func TestBrowserProfilePages(t *testing.T) {
	s := newSite(t)
	id := rateProfileMatches(t, s.st, []string{"Prof-Ada", "Prof-Bea", "Prof-Cy", "Prof-Di", "Prof-Ed"}, 4)
	s.signInAs(id, s.url) // a cookie set for the site's address: no page of it needed yet
	s.do("the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the account", "#acct-me")
	if got := s.hrefOf("#me-profile"); got != "/u/Prof-Ada" || !s.displayed("#me-profile") {
		t.Errorf("the account page links the profile at %q (shown %v), want /u/Prof-Ada", got, s.displayed("#me-profile"))
	}
	waitFor(t, "the header's profile link", func() bool { return s.displayed("#profile-link") }, 10*time.Second)
	if got := s.hrefOf("#profile-link"); got != "/u/Prof-Ada" {
		t.Errorf("the header links the profile at %q, want /u/Prof-Ada", got)
	}
	s.click("#profile-link")
	s.waitShown("the profile's chart", "#chart-pawnee canvas")
	if !s.displayed("#profile-account") {
		t.Errorf("one's own profile does not link back to the account")
	}
	var prov struct{ Text, Title string }
	s.eval(`JSON.stringify((() => { const e = document.querySelector('#profile-pawnee .profile-number'), p = e.querySelector('[title]');
		return {text: e.textContent, title: p ? p.title : ''}; })())`, &prov)
	if !strings.HasSuffix(prov.Text, "?") || !strings.Contains(prov.Title, "Provisional") {
		t.Errorf("the provisional rating reads %q with the title %q, want a ? explained", prov.Text, prov.Title)
	}
	if !s.displayed("#profile-recent-legend") || !strings.Contains(s.text("#profile-recent-legend"), "? provisional") {
		t.Errorf("the list of rated matches does not say what its ? means: %q", s.text("#profile-recent-legend"))
	}
	whole := regexp.MustCompile(`^\d+$`)
	for _, w := range []int64{390, 768, 1280} {
		s.do(fmt.Sprint("resize to ", w), chromedp.EmulateViewport(w, 844), chromedp.Navigate(s.url+"/u/Prof-Ada"))
		s.waitShown("the profile's chart", "#chart-pawnee canvas")
		var probs []string
		s.eval(profileGridJS, &probs)
		for _, p := range probs {
			t.Errorf("the profile's figures at %d wide: %s", w, p)
		}
		ticks := strings.Split(s.attr("#chart-pawnee", "xTicks"), "|")
		if len(ticks) < 2 {
			t.Errorf("the chart at %d wide labels its x-axis %q: want at least two matches", w, ticks)
		}
		for _, tk := range ticks {
			if !whole.MatchString(tk) {
				t.Errorf("the chart at %d wide labels its x-axis %q: not a whole number of matches", w, ticks)
				break
			}
		}
	}
}

// hrefOf is the href attribute of the element sel names.
func (b *browser) hrefOf(sel string) string {
	b.t.Helper()
	var v string
	b.eval(fmt.Sprintf(`JSON.stringify((document.querySelector(%q) || {getAttribute: () => ''}).getAttribute('href') || '')`, sel), &v)
	return v
}

// TestBrowserBotNamesAround: the pages around the table call the bots as
// the table does, "Bot 1" … "Bot N" (never "bot", "bot (medium)"): the
// lobby's open tables, an event's page and its board, where the number
// of each bot is the one its table gives it. The lobby's seat list says
// nothing of "seat 0". The history shows the event's round, played out
// after its hand, as over (not "in play").
func TestBrowserBotNamesAround(t *testing.T) {
	s := newSiteFor(t, 150*time.Second, awayQuickly)
	s.createAPI(`{"variant":"auction","options":{"players":3},"seats":[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"medium"}]}`)
	s.do("the lobby", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
	waitFor(t, "the open table", func() bool { return s.count("#open-tables li") == 1 }, 10*time.Second)
	botWord := regexp.MustCompile(`(?i)\bbot\b(\s*\(|$|\s*·)`)
	if got := s.text("#open-tables li .hint"); got != "1: free · 2: Bot 1 (easy) · 3: Bot 2 (medium)" {
		t.Errorf("the lobby lists the seats as %q, want the bots as Bot 1 and Bot 2 with their levels", got)
	}
	if got := s.text("#create-form"); strings.Contains(got, "clockwise") || strings.Contains(got, "seat 0") {
		t.Errorf("the lobby's form still speaks of seat 0: %q", got)
	}

	c := s.newEvent(`{"variant":"ten-point","rounds":1,"end":"hands","hands":1,"movement":"mixed","fill":"bots","bots":"easy"}`,
		func(i int) string { return []string{"Ada", "Bea"}[i] }, 2)
	s.post("/api/events/"+c.ID+"/start", fmt.Sprintf(`{"token":%q}`, c.Token), 200, nil)
	var ev struct {
		Rounds [][]struct {
			Table string
			Seats []struct {
				Name  string
				Bot   bool
				BotNo int `json:"bot_no"`
			}
		}
	}
	getJSON(t, s.url+"/api/events/"+c.ID, &ev)
	if len(ev.Rounds) != 1 || len(ev.Rounds[0]) != 1 {
		t.Fatalf("the event's rounds: %+v, want one table", ev.Rounds)
	}
	tab := ev.Rounds[0][0]
	var info struct {
		Seats []struct {
			Name string
			Bot  int
		}
	}
	getJSON(t, s.url+"/api/tables/"+tab.Table, &info)
	for k, st := range tab.Seats {
		if st.Bot && st.Name == "" && (st.BotNo == 0 || st.BotNo != info.Seats[k].Bot || info.Seats[k].Name != fmt.Sprintf("Bot %d", st.BotNo)) {
			t.Errorf("the event numbers seat %d's bot %d, its table calls it %q (bot %d)", k, st.BotNo, info.Seats[k].Name, info.Seats[k].Bot)
		}
	}
	names := func(sel string) []string {
		var out []string
		s.eval(fmt.Sprintf(`JSON.stringify(Array.from(document.querySelectorAll(%q)).map((e) => e.firstChild.textContent).sort())`, sel), &out)
		return out
	}
	want := "[Ada Bea Bot 1 Bot 2]"
	s.do("the event's page", chromedp.Navigate(s.url+"/e/"+c.ID), chromedp.WaitVisible(chromedp.CSS("#ev-tables")))
	waitFor(t, "the table's four seats", func() bool { return s.count("#ev-tables .ev-name") == 4 }, 10*time.Second)
	if got := fmt.Sprint(names("#ev-tables .ev-name")); got != want {
		t.Errorf("the event's page names the seats %s, want %s", got, want)
	}
	if got := s.text("#ev-tables"); botWord.MatchString(got) {
		t.Errorf("the event's page says a bare bot: %q", got)
	}
	s.do("the board", chromedp.Navigate(s.url+"/e/"+c.ID+"/board"), chromedp.WaitVisible(chromedp.CSS("#bd-tables")))
	waitFor(t, "the board's four seats", func() bool { return s.count("#bd-tables .ev-name") == 4 }, 10*time.Second)
	if got := fmt.Sprint(names("#bd-tables .ev-name")); got != want {
		t.Errorf("the board names the seats %s, want %s", got, want)
	}

	// Nobody plays for Ada and Bea: the table plays their seats, its
	// hand ends the round.
	w := watch(t, s.url, tab.Table)
	waitFor(t, "the round's table to finish", func() bool {
		var ti struct{ Finished bool }
		getJSON(t, s.url+"/api/tables/"+tab.Table, &ti)
		return ti.Finished
	}, 90*time.Second)
	w.Close(1000, "")
	s.do("the history", chromedp.Navigate(s.url+"/history"), chromedp.WaitVisible(chromedp.CSS("#history-list")))
	row := fmt.Sprintf(`#history-list tr[data-id=%q]`, tab.Table)
	waitFor(t, "the round's table in the history", func() bool { return s.count(row) == 1 }, 10*time.Second)
	if got := s.text(row + " td:nth-child(3)"); !strings.HasPrefix(got, "round over") {
		t.Errorf("the history shows the finished round's table as %q, want round over", got)
	}
}

// takesRecorderJS records, each time the page holds a finished trick,
// how many places on the screen say who takes it (window.__takes).
const takesRecorderJS = `(() => {
  window.__takes = [];
  const tv = document.querySelector('#table-view');
  const count = () => %s;
  new MutationObserver(() => { if (tv.dataset.held === 'true') window.__takes.push(count()); })
    .observe(tv, { attributes: true, attributeFilter: ['data-held'] });
  return 'true';
})()`

// TestBrowserTableClutter: a page loaded with our bid pending puts the
// focus on the bid buttons; while a finished trick is held, one line on
// the screen says who takes it, not two; at the match's end "The match
// is over." shows once; the review of a hand beside the whole match's
// shows one count of hands reviewed, each seat's (no second line
// counting differently).
func TestBrowserTableClutter(t *testing.T) {
	s := newSiteFor(t, 200*time.Second, func(o *server.Options) { o.ReadyWait = time.Millisecond })
	id := s.createAPI(`{"variant":"auction","options":{"players":2,"target":1},"seats":[{"kind":"human"},{"kind":"human"}]}`)
	tokA, tokB := s.joinAPI(id, 0, "Ada"), s.joinAPI(id, 1, "Bea")
	s.openSeat(id, 0, tokA, "Ada")
	b := connectSeat(t, s.url, id, tokB)
	ourBid := func() bool { u := s.ui(); return u.Act == "bid" && !u.Pending }
	waitFor(t, "our bid", func() bool { b.move(); return ourBid() }, 30*time.Second)
	s.eval(`localStorage.setItem('pitch.speed', 'normal'), 'true'`, new(bool))
	s.do("load the page again", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
	waitFor(t, "our bid after the reload", ourBid, 20*time.Second)
	focused := func() bool {
		var ok bool
		s.eval(`JSON.stringify(!!document.activeElement && document.activeElement.matches('#action-body button[data-bid], #action-body button[data-pass]'))`, &ok)
		return ok
	}
	waitFor(t, "the focus on the bid buttons", focused, 5*time.Second)

	var ok bool
	s.eval(fmt.Sprintf(takesRecorderJS, shownJS("takes the trick.")), &ok)
	// The match ends within a few hands, not by luck: both seats are
	// played by topPlan from the first hand whose bidding it sees whole.
	play := &topPlan{seats: [2]*seatClient{connectSeat(t, s.url, id, tokA), b}}
	waitFor(t, "the match's end", func() bool {
		play.move()
		u := s.ui()
		if u.Summary {
			s.click("#summary-close")
		}
		return u.Over && !u.Summary
	}, 120*time.Second)
	t.Logf("the match ended with hand %d", s.ui().Rows)
	var takes []int
	s.eval(`JSON.stringify(window.__takes)`, &takes)
	if len(takes) == 0 {
		t.Fatal("no finished trick was held on the table")
	}
	for _, n := range takes {
		if n != 1 {
			t.Errorf("a held trick: %d places on the screen say who takes it (all: %v), want 1", n, takes)
			break
		}
	}
	var over int
	s.eval("JSON.stringify("+shownJS("The match is over.")+")", &over)
	if over != 1 {
		t.Errorf(`"The match is over." shows %d times at the match's end, want once`, over)
	}

	// The hand's review for Ada, beside the whole match's review.
	s.do("the replay of hand 1", chromedp.Navigate(s.url+"/t/"+id+"/hands/1"), chromedp.WaitVisible(chromedp.CSS("#rp-main")))
	s.choose("#rp-review-seat", "0")
	s.click("#rp-review-go")
	waitFor(t, "Ada's hand reviewed in the match's counts", func() bool { return s.count(`#rp-match .mr-seats li[data-seat="0"][data-hands="1"]`) == 1 }, 60*time.Second)
	counts := regexp.MustCompile(`(?i)reviewed:? \d+ of \d+`)
	if got := s.text("#rp-match .mr-progress"); counts.MatchString(got) {
		t.Errorf("the match review counts the hands reviewed twice: %q beside the seats' %q", got, s.text("#rp-match .mr-seats"))
	}
	if got := s.text(`#rp-match .mr-seats li[data-seat="0"]`); !strings.Contains(got, "hands reviewed: 1 of") {
		t.Errorf("Ada's line of the match review reads %q, want her hand reviewed counted", got)
	}
}

// TestBrowserEventNewChecks: the check boxes of /events/new stand in rows
// at least 40 px tall (a finger's size) at 390 and 1280 wide.
func TestBrowserEventNewChecks(t *testing.T) {
	s := newSite(t)
	for _, w := range []int64{390, 1280} {
		s.do("the form", chromedp.EmulateViewport(w, 844), chromedp.Navigate(s.url+"/events/new"), chromedp.WaitVisible(chromedp.CSS("#ev-new-form")))
		for _, mv := range []string{"progressive", "duplicate"} {
			s.choose("#ev-movement", mv)
			var rows []struct {
				Text   string
				Height float64
			}
			s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#ev-new-form input[type=checkbox]')).map((e) => e.closest('label, .check'))
				.filter((l) => l.getClientRects().length).map((l) => ({text: l.textContent.trim().slice(0, 30), height: l.getBoundingClientRect().height})))`, &rows)
			if len(rows) == 0 {
				t.Errorf("%d wide, %s: no check box shown", w, mv)
			}
			for _, r := range rows {
				if r.Height < 40 {
					t.Errorf("%d wide, %s: the check box row %q is %.0f px tall, want 40 or more", w, mv, r.Text, r.Height)
				}
			}
		}
	}
}
