package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pitch/i18n"
	"pitch/server"
)

// TestBrowserPlayAgainNotice: two people, Ada (in English) and Bea (in
// French), play an auction match to its end; Ada presses Play again. Both
// pages land on the new table, and each says what happened in its own
// language: Ada's that she started the next match, Bea's that Ada did.
// The moves are made from the test over each seat's second connection
// (a seat may have several), so that the match ends quickly.
func TestBrowserPlayAgainNotice(t *testing.T) {
	s := newSiteFor(t, 150*time.Second, func(o *server.Options) { o.ReadyWait = time.Millisecond })
	id := s.createAPI(`{"variant":"auction","options":{"players":2,"target":1},"seats":[{"kind":"human"},{"kind":"human"}]}`)
	tokA, tokB := s.joinAPI(id, 0, "Ada"), s.joinAPI(id, 1, "Bea")
	s.openSeat(id, 0, tokA, "Ada")
	tab, cancel := chromedp.NewContext(s.ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	bea := &site{browser: &browser{t: t, ctx: tab, shots: s.shots}, url: s.url}
	bea.watchConsole()
	bea.do("open the lobby", chromedp.Navigate(s.url+"/"), chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	bea.eval(`localStorage.setItem('pitch.lang', 'fr'), 'true'`, new(bool))
	bea.openSeat(id, 1, tokB, "Bea")

	start := time.Now()
	a, b := connectSeat(t, s.url, id, tokA), connectSeat(t, s.url, id, tokB)
	waitFor(t, "Play again at the match's end", func() bool {
		a.move()
		b.move()
		if s.ui().Summary {
			s.click("#summary-close")
		}
		return s.count(`#actions button[data-key="again"]`) == 1 && !s.ui().Summary
	}, 90*time.Second)
	t.Logf("match over after %v, %d hands", time.Since(start), s.ui().Rows)
	s.click(`#actions button[data-key="again"]`)

	var next string
	waitFor(t, "Ada on the new table", func() bool {
		loc, err := chromedp.Run(s.ctx, chromedp.Location())
		next = strings.TrimPrefix(loc, s.url+"/t/")
		return err == nil && next != "" && next != id && !strings.Contains(next, "/")
	}, 10*time.Second)
	waitFor(t, "Bea on the new table", func() bool {
		loc, err := chromedp.Run(bea.ctx, chromedp.Location())
		return err == nil && loc == s.url+"/t/"+next
	}, 10*time.Second)
	for _, p := range []struct {
		who  *site
		lang string
		id   string
		data map[string]any
		seat int
	}{{s, "en", "again.startedYou", nil, 0}, {bea, "fr", "again.started", map[string]any{"Who": "Ada"}, 1}} {
		want := i18n.New(p.lang).T(p.id, p.data)
		p.who.do("the new table's page", chromedp.WaitVisible(chromedp.CSS("#felt")))
		waitFor(t, p.lang+": the notice on the new table", func() bool { return p.who.text("#notice") != "" }, 10*time.Second)
		if got := p.who.text("#notice"); got != want || p.who.count("#notice:not([hidden])") != 1 {
			t.Errorf("%s: the new table's notice says %q, want %q", p.lang, got, want)
		}
		if p.lang != "en" && strings.Contains(p.who.text("#notice"), i18n.New("en").T(p.id, p.data)) {
			t.Errorf("%s: the notice is in English", p.lang)
		}
		if got := p.who.ui().Seat; got != p.seat {
			t.Errorf("%s: on the new table the page holds seat %d, want %d", p.lang, got, p.seat)
		}
	}
}
