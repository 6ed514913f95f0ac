package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"pitch/i18n"
	"pitch/server"
	"pitch/store/boardtest"
)

// TestBrowserRatedMatch signs up with a password, sees the lobby's Rated
// box and the bots' ratings, creates a rated table with two bots (through
// the page's fetch), takes the seat, plays the match out on that seat
// signed in (from the test, with the page's seat and cookie: the table's
// page is tested elsewhere), comes back to the finished match and finds
// its rating change under the banner, then finds the match on the
// profile with its chart drawn (a canvas with pixels), at desktop and
// phone sizes, and the leaderboard page. The table waits only a moment
// (ReadyWait) for a hand's summary to be read.
func TestBrowserRatedMatch(t *testing.T) {
	s := newSiteFor(t, 100*time.Second, func(o *server.Options) { o.BotDelay, o.ReadyWait = time.Millisecond, time.Millisecond })
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
	// Rated: the game's standard target, which cannot be changed.
	var target []any
	s.eval(`(() => { document.querySelector('#target').value = '3'; const r = document.querySelector('#rated'); r.checked = true; r.dispatchEvent(new Event('change'));
		const out = JSON.stringify([document.querySelector('#target').value, document.querySelector('#target').disabled]);
		r.checked = false; r.dispatchEvent(new Event('change')); return out; })()`, &target)
	if fmt.Sprint(target) != "[7 true]" {
		t.Errorf("a rated auction's target in the lobby: %v, want [7 true] (the standard target, fixed)", target)
	}
	var id string
	s.evalAsync(`fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({
		variant: 'auction', options: {players: 3}, rated: true, turn_timer: 1,
		seats: [{kind: 'human'}, {kind: 'bot', level: 'easy'}, {kind: 'bot', level: 'medium'}]})}).then((r) => r.json()).then((j) => JSON.stringify(j.id || ''))`, &id)
	if id == "" {
		t.Fatal("no rated table was created")
	}
	s.do("open the table", chromedp.Navigate(s.url+"/t/"+id), chromedp.WaitVisible(chromedp.CSS("#join-btn")))
	s.click("#join-btn")
	// The match itself is played from here, on the seat the page joined
	// (the table's pages are tested elsewhere; a whole match drawn in a
	// browser costs the suite a minute of CPU): its first choice each
	// turn, at once, on a connection with the page's token. The page
	// leaves meanwhile, and comes back to the finished match.
	var seat struct{ Token string }
	waitFor(t, "the page to keep its seat", func() bool {
		s.eval(fmt.Sprintf(`localStorage.getItem('pitch.seat.%s') || '{}'`, id), &seat)
		return seat.Token != ""
	}, 10*time.Second)
	cookies, err := chromedp.Call(s.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{s.url}})
	if err != nil {
		t.Fatal(err)
	}
	var jar []string
	for _, c := range cookies.Cookies {
		jar = append(jar, c.Name+"="+c.Value)
	}
	sc := connectSeatAs(t, s.url, id, seat.Token, strings.Join(jar, "; "))
	s.do("leave the table", chromedp.Navigate("about:blank"))
	waitFor(t, "the match's end", func() bool {
		sc.move()
		sc.mu.Lock()
		defer sc.mu.Unlock()
		return sc.last.MatchOver
	}, 100*time.Second)
	s.do("open the finished match", chromedp.Navigate(s.url+"/t/"+id))
	waitFor(t, "its rating change", func() bool { return strings.Contains(s.text("#rating-changes"), "Rated-Ada: rating") }, 20*time.Second)
	change := s.text("#rating-changes")
	if !strings.Contains(change, "Rated match") || !strings.Contains(change, "?") {
		t.Errorf("the rating change reads %q, want the rated match and a provisional rating", change)
	}
	// Our rating line leads to our profile, and its "?" is explained: a
	// title on the line, and in words after the lines.
	var line struct{ Href, Title, Key string }
	s.eval(`JSON.stringify((() => { const a = document.querySelector('#rating-changes a.mine'), k = document.querySelector('#rating-changes .rating-key');
		return {href: a ? a.getAttribute('href') : '', title: a ? a.title : '', key: k && k.getClientRects().length ? k.textContent : ''}; })())`, &line)
	if line.Href != "/u/Rated-Ada" || !strings.Contains(line.Title, "Provisional") || !strings.Contains(line.Key, "? provisional") {
		t.Errorf("our rating line links %q with the title %q and the key %q: want our profile, the ? explained", line.Href, line.Title, line.Key)
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

// TestBrowserLeaderboard fills the board with twelve settled players and
// pages it five at a time as a person would: Lower, Lower, Higher, To the
// bottom, To the top, and a reload keeps the page; each page's ranks and
// names are those of the whole board (the API's). A link with a bad place
// shows the error and the first page. Then, in every language but
// English: the lobby's seat list gives the bots' ratings in the
// language, and the leaderboard and a player's profile (its chart drawn)
// show no English and fit a desktop and a phone.
func TestBrowserLeaderboard(t *testing.T) {
	s := newSiteFor(t, 240*time.Second, nil)
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("Board-%02d", i))
	}
	if err := boardtest.Settle(context.Background(), s.st, names); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(s.url + "/api/leaderboard?game=pawnee&limit=100")
	if err != nil {
		t.Fatal(err)
	}
	var all struct{ Rows []struct{ Name string } }
	err = json.NewDecoder(resp.Body).Decode(&all)
	resp.Body.Close()
	if err != nil || len(all.Rows) != 12 {
		t.Fatalf("the whole board: %+v (%v), want 12 players", all, err)
	}
	var bots map[string]map[string]struct{ Rating int }
	if resp, err := http.Get(s.url + "/api/ratings/bots"); err != nil {
		t.Fatal(err)
	} else {
		err = json.NewDecoder(resp.Body).Decode(&bots)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	hard := bots["auction"]["hard"].Rating
	shown := func() string { // the page's rows: "rank name" each
		var rows []string
		s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#leaderboard-list tr')).map((tr) => tr.cells[0].textContent + ' ' + tr.cells[1].textContent))`, &rows)
		return strings.Join(rows, ",")
	}
	want := func(from, to int) string {
		var rows []string
		for r := from; r <= to; r++ {
			rows = append(rows, fmt.Sprintf("%d %s", r, all.Rows[r-1].Name))
		}
		return strings.Join(rows, ",")
	}
	expect := func(what string, from, to int) {
		t.Helper()
		waitFor(t, what+": ranks "+fmt.Sprint(from, " to ", to), func() bool { return shown() == want(from, to) }, 10*time.Second)
	}
	disabled := func(sel string) bool {
		var d bool
		s.eval(`JSON.stringify(document.querySelector('`+sel+`').disabled)`, &d)
		return d
	}
	s.do("open the leaderboard", chromedp.Navigate(s.url+"/leaderboard?game=pawnee&limit=5"))
	expect("the first page", 1, 5)
	if !disabled("#leaderboard-prev") || !disabled("#leaderboard-top") || disabled("#leaderboard-next") || disabled("#leaderboard-bottom") {
		t.Error("on the first page, Higher and To the top must be off, Lower and To the bottom on")
	}
	s.click("#leaderboard-next")
	expect("Lower", 6, 10)
	s.click("#leaderboard-next")
	expect("Lower again", 11, 12)
	if !disabled("#leaderboard-next") || !disabled("#leaderboard-bottom") || disabled("#leaderboard-prev") {
		t.Error("on the last page, Lower and To the bottom must be off, Higher on")
	}
	s.click("#leaderboard-prev")
	expect("Higher", 6, 10)
	var loc string
	s.eval(`JSON.stringify(location.search)`, &loc)
	if !strings.Contains(loc, "before=") {
		t.Errorf("the URL %q does not keep the page", loc)
	}
	s.do("reload", chromedp.Reload())
	expect("the reloaded page", 6, 10)
	s.click("#leaderboard-bottom")
	expect("To the bottom", 8, 12)
	s.click("#leaderboard-top")
	expect("To the top", 1, 5)
	s.do("a link with a bad place", chromedp.Navigate(s.url+"/leaderboard?game=pawnee&limit=5&after=nowhere"))
	s.waitShown("the error", "#alert")
	expect("the first page after the bad link", 1, 5)
	s.expectRefused("/api/leaderboard?game=pawnee&limit=5&after=nowhere", 400)

	for _, l := range i18n.Languages {
		if l.Tag == "en" {
			continue
		}
		english := englishLeft(t, l.Tag)
		s.eval(`localStorage.setItem('pitch.lang', '`+l.Tag+`'), 'true'`, new(bool))
		// The lobby's seat list gives each bot level its rating, in the
		// language: "{{.Bot}} · rating {{.Rating}}" as its catalog says it.
		s.do("open the lobby in "+l.Name, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
		s.choose("#game", "auction")
		cat := catalog(t, l.Tag)
		label := strings.NewReplacer("{{.Bot}}", cat["lobby.bot.hard"], "{{.Rating}}", "").Replace(cat["lobby.botRating"])
		var opt string
		waitFor(t, l.Tag+": the hard bot's rating in the seat list", func() bool {
			opt = s.text("#seat-1 option[value='bot:hard']")
			return strings.HasPrefix(opt, strings.TrimSpace(label))
		}, 10*time.Second)
		if digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, strings.TrimPrefix(opt, strings.TrimSpace(label))); digits != fmt.Sprint(hard) {
			t.Errorf("%s: the hard bot reads %q, want its rating %d", l.Tag, opt, hard)
		}
		for _, page := range []struct{ path, ready string }{
			{"/leaderboard?game=pawnee&limit=5&last=1", "#leaderboard-list tr"},
			{"/u/" + all.Rows[0].Name, "#chart-pawnee canvas"},
		} {
			for _, sz := range accountSizes {
				s.do("open "+page.path+" in "+l.Name+" at "+sz.name, chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(sz.scale)), chromedp.Navigate(s.url+page.path))
				s.waitShown(page.path, page.ready)
				var text string
				s.eval(`JSON.stringify(document.body.innerText + '\n' + Array.from(document.querySelectorAll('[aria-label]')).map((e) => e.getAttribute('aria-label')).join('\n'))`, &text)
				for _, frag := range english {
					if strings.Contains(text, frag) {
						t.Errorf("%s, %s at %s: English left: %q", l.Tag, page.path, sz.name, frag)
					}
				}
				if strings.HasPrefix(page.path, "/u/") {
					var painted int
					s.eval(`(() => { const c = document.querySelector('#chart-pawnee canvas');
						const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
						let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++; return String(n); })()`, &painted)
					if painted < 100 {
						t.Errorf("%s, the profile at %s: the chart has %d painted pixels", l.Tag, sz.name, painted)
					}
				}
				s.noOverflow(fmt.Sprintf("%s, %s at %s", l.Tag, page.path, sz.name))
			}
		}
	}
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
}

// catalog is a language's messages that are plain strings.
func catalog(t *testing.T, tag string) map[string]string {
	t.Helper()
	b, err := fs.ReadFile(i18n.Catalogs(), tag+".json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range all {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}
