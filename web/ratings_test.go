package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pitch/server"
)

// TestBrowserRatedMatch signs up with a password, sees the lobby's Rated
// box and the bots' ratings, creates a rated table with two bots (through
// the page's fetch, with a one-second turn timer so that the timer plays
// the person's turns and the match ends in time), takes the seat, waits
// for the match's end and its rating change under the banner, then finds
// the match on the profile with its chart drawn (a canvas with pixels),
// at desktop and phone sizes, and the leaderboard page.
func TestBrowserRatedMatch(t *testing.T) {
	s := newSiteFor(t, 240*time.Second, func(o *server.Options) { o.BotDelay = time.Millisecond })
	s.do("open the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-up form", "#signup-form")
	s.fill("#signup-name", "Rated-Ada")
	s.fill("#signup-password", "analytical engine")
	s.click("#signup-btn")
	s.waitShown("the account page", "#acct-me")

	s.do("open the lobby", chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
	s.choose("#game", "auction")
	waitFor(t, "the bots' ratings in the seat list", func() bool {
		return strings.Contains(s.text("#seat-1 option[value='bot:hard']"), "rating")
	}, 10*time.Second)
	if s.count("#rated") != 1 {
		t.Fatal("the lobby has no Rated box")
	}
	var id string
	s.evalAsync(`fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({
		variant: 'auction', options: {players: 3, target: 5}, rated: true, turn_timer: 1,
		seats: [{kind: 'human'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'medium'}]})}).then((r) => r.json()).then((j) => JSON.stringify(j.id || ''))`, &id)
	if id == "" {
		t.Fatal("no rated table was created")
	}
	s.eval(`localStorage.setItem('pitch.speed', 'instant'), 'true'`, new(bool))
	s.do("open the table", chromedp.Navigate(s.url+"/t/"+id), chromedp.WaitVisible(chromedp.CSS("#join-btn")))
	s.click("#join-btn")
	waitFor(t, "the match's end and its rating change", func() bool {
		return strings.Contains(s.text("#rating-changes"), "Rated-Ada: rating")
	}, 200*time.Second)
	change := s.text("#rating-changes")
	if !strings.Contains(change, "Rated match") || !strings.Contains(change, "?") {
		t.Errorf("the rating change reads %q, want the rated match and a provisional rating", change)
	}

	s.do("open the profile", chromedp.Navigate(s.url+"/u/Rated-Ada"))
	s.waitShown("the profile's chart", "#chart-auction canvas")
	for _, sz := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		s.do("resize to "+sz.name, chromedp.EmulateViewport(sz.w, sz.h), chromedp.Navigate(s.url+"/u/Rated-Ada"))
		s.waitShown("the profile's chart", "#chart-auction canvas")
		var painted int
		s.eval(`(() => { const c = document.querySelector('#chart-auction canvas');
			const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
			let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++; return String(n); })()`, &painted)
		if painted < 100 {
			t.Errorf("%s: the chart's canvas has %d painted pixels: not drawn", sz.name, painted)
		}
		s.noOverflow("the profile at " + sz.name)
	}
	if got := s.count(`#profile-recent a[href="/t/` + id + `"]`); got != 1 {
		t.Errorf("the profile links the match %d times, want once", got)
	}
	if got := s.text("#profile-auction .profile-number"); !strings.HasSuffix(got, "?") {
		t.Errorf("the profile's rating reads %q, want a provisional mark", got)
	}
	s.do("open the leaderboard", chromedp.Navigate(s.url+"/leaderboard?game=auction"))
	s.waitShown("the leaderboard", "#leaderboard-none")
}
