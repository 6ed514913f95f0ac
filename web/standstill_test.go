package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPagesStandStill opens the pages a person clicks on as soon
// as they show, on a phone and a desktop, signed in with a table in play:
// the lobby (Play now's buttons come from the server, above the form),
// the account page (its tables and passkeys, above its buttons), the
// person's own profile (the link to their account, above the rest), the
// history and the leaderboard (their rows, above the pager), /daily
// (each game's part) and an event's page (drawn from its WebSocket). None may move what is on screen once it shows
// (layout shifts, shiftJS): a page drawn in pieces moves a button down
// under a finger, and a click meant for it lands on something else.
func TestBrowserPagesStandStill(t *testing.T) {
	s := newSiteFor(t, 60*time.Second, nil)
	s.do("open the lobby", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
	var id string
	s.evalAsync(`fetch('/api/account/signup', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Still-Ada', password: 'analytical engine'})})
		.then(() => fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({variant: 'pawnee', seats: [{kind: 'human'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'easy'}]})}))
		.then((r) => r.json()).then((j) => JSON.stringify(j.id || ''))`, &id)
	if id == "" {
		t.Fatal("no table was created")
	}
	// The account's seat at it (the page keeps a seat's token in
	// localStorage too; the account page lists the account's seats).
	var taken bool
	s.evalAsync(`fetch('/api/tables/`+id+`/join', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({seat: 0, name: 'Still-Ada'})})
		.then((r) => JSON.stringify(r.ok))`, &taken)
	if !taken {
		t.Fatal("the account could not take its seat")
	}
	// An event with people in it (its page comes over a WebSocket).
	ev := s.newEvent(`{"variant":"ten-point","rounds":2,"end":"hands","hands":1,"movement":"progressive","switch_partners":true}`,
		func(i int) string { return fmt.Sprintf("Player %d", i+1) }, 6)
	s.recordShifts()
	for _, sz := range []screen{sizes[2], sizes[0]} {
		scale := 1.0
		if sz.phone {
			scale = 2
		}
		s.do("resize to "+sz.name, chromedp.EmulateViewport(sz.width, sz.height, chromedp.EmulateScale(scale)))
		for _, pg := range []struct{ path, done string }{
			{"/", "#pn-games button"},
			{"/account", "#me-seats li"},
			{"/u/Still-Ada", "#profile-account"},
			{"/history", "#history-list tr"},
			{"/leaderboard?game=pawnee", "#leaderboard-none"},
			{"/daily", ".dl-game"},
			{"/e/" + ev.ID, "#ev-title"},
		} {
			s.do("open "+pg.path, chromedp.Navigate(s.url+pg.path), chromedp.WaitVisible(chromedp.CSS(pg.done)), settled())
			var got shifts
			s.eval(`JSON.stringify(window.__shifts)`, &got)
			if got.Sum > 0.001 {
				t.Errorf("%s at %s: what showed moved by %.4f (%d shifts):", pg.path, sz.name, got.Sum, got.N)
				for _, e := range got.List {
					t.Errorf("  %.4f at %d ms: %s", e.Value, e.At, strings.Join(e.Moved, "; "))
				}
			}
		}
	}
}
