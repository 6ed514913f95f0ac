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
// French), play an auction match to its end; Ada presses Play again and
// lands on the new table, which says it waits for Bea. Bea is not moved:
// her match-over summary shows the invitation, in French; she stays, and
// keeps her summary, the final score sheet and the replay link; later she
// joins from the move panel, and the new match starts. Each new page says
// what happened in its own language: Ada's that she started the next
// match, Bea's that Ada did. The summary with the invitation fits the
// screen at desktop and phone sizes. The moves are made from the test over
// each seat's second connection (a seat may have several), so that the
// match ends quickly: with hand 1, by a plan (topPlan), not by luck.
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
	// Both seats are played so that the match ends with hand 1 (topPlan).
	play := &topPlan{seats: [2]*seatClient{connectSeat(t, s.url, id, tokA), connectSeat(t, s.url, id, tokB)}}
	waitFor(t, "Play again at the match's end", func() bool {
		play.move()
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
	// Ada's new table waits for Bea, and says so.
	s.do("Ada's new table", chromedp.WaitVisible(chromedp.CSS("#felt")))
	wantWait := i18n.New("en").T("again.waitingFor", map[string]any{"Who": "Bea"})
	waitFor(t, "Ada's banner: waiting for Bea", func() bool { return s.text("#banner") == wantWait }, 10*time.Second)

	// Bea is invited, in French, on her summary; she is not moved.
	fr := i18n.New("fr")
	waitFor(t, "Bea's invitation", func() bool { return bea.count("#summary-invite:not([hidden])") == 1 }, 10*time.Second)
	if got, want := bea.text("#summary-invite p"), fr.T("again.invite", map[string]any{"Who": "Ada"}); got != want {
		t.Errorf("Bea's invitation says %q, want %q", got, want)
	}
	if !bea.ui().Summary {
		t.Error("Bea's match-over summary closed when Ada started the next match")
	}
	for _, sz := range []screen{sizes[0], sizes[2]} {
		bea.layoutAt("the summary with the invitation", sz, summaryLayoutJS)
	}
	bea.shot("summary-invite-phone", false)
	bea.do("back to the phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	rows := bea.ui().Rows
	bea.click(`#summary-invite button[data-key="stay"]`)
	if bea.count("#summary-invite:not([hidden])") != 0 || !bea.ui().Summary {
		t.Error("Bea stayed: the invitation is still shown, or her summary closed")
	}
	bea.click("#summary-close")
	// Still on the old table, its sheet and replay there, a way to join.
	if loc, err := chromedp.Run(bea.ctx, chromedp.Location()); err != nil || loc != s.url+"/t/"+id {
		t.Fatalf("Bea, who stayed, is at %s (%v), want the old table", loc, err)
	}
	if u := bea.ui(); !u.Over || u.Rows != rows || bea.count("#records a") == 0 {
		t.Errorf("Bea, who stayed: over %v, %d sheet rows (had %d), %d record links", u.Over, u.Rows, rows, bea.count("#records a"))
	}
	if s.text("#banner") != wantWait {
		t.Errorf("with Bea staying, Ada's banner says %q, want %q", s.text("#banner"), wantWait)
	}
	bea.click(`#actions button[data-key="join-next"]`)
	waitFor(t, "Bea on the new table", func() bool {
		loc, err := chromedp.Run(bea.ctx, chromedp.Location())
		return err == nil && loc == s.url+"/t/"+next
	}, 10*time.Second)
	waitFor(t, "the new match to start for Ada", func() bool { return s.text("#banner") != wantWait }, 10*time.Second)
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
		// Its text is set only as it is shown (pacing.js notice); it hides
		// itself 8 s later, which a loaded machine may take to get here:
		// the text, not its being in view now, is the verdict.
		if got := p.who.text("#notice"); got != want {
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

// summaryLayoutJS lists what is wrong with the open summary on this
// screen: the dialog, its invitation and countdown, and its buttons and
// links outside the viewport or the dialog, and on a phone tap targets
// under 40 px.
const summaryLayoutJS = `(() => {` + layoutHelpersJS + `
  const dlg = $('#summary');
  if (!dlg.open) return JSON.stringify(['the summary is not open']);
  inView(dlg, 'the summary');
  $$('#summary-invite:not([hidden]) *, #summary-next:not([hidden]), #summary .row-end > *').forEach((e) => {
    if (rect(e).width > 0) { inView(e, name(e)); inside(e, dlg); }
  });
  tapsOK('#summary-invite button, #summary .row-end button');
  sideways();
  return JSON.stringify(probs);
})()`
