package web_test

import (
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pitch/i18n"
	"pitch/server"
)

// TestBrowserSummaryCountdown: at the end of a hand the summary says how
// long is left before the table goes on ("Next hand in 15 s", counting
// down), and when that has run out it closes by itself, with nobody
// touching it: the person sees the table, and on their turn their own
// turn timer with its whole time (the server starts it when the summary
// closed). It fits the screen at desktop and phone sizes.
func TestBrowserSummaryCountdown(t *testing.T) {
	// A long wait, so that the layout checks below (seconds on a loaded
	// machine) leave the countdown time to be seen counting.
	const wait = 15 * time.Second
	s := newSiteFor(t, 120*time.Second, func(o *server.Options) { o.ReadyWait = wait })
	id := s.createAPI(`{"variant":"auction","turn_timer":30,"options":{"players":2},"seats":[{"kind":"human"},{"kind":"human"}]}`)
	tokA, tokB := s.joinAPI(id, 0, "Ada"), s.joinAPI(id, 1, "Bea")
	s.openSeat(id, 0, tokA, "Ada")
	bea := connectSeat(t, s.url, id, tokB) // says no summary in its hello: not waited for
	en := i18n.New("en")

	waitFor(t, "the end of hand 1", func() bool {
		s.actOnce()
		bea.move()
		return s.ui().Summary
	}, 90*time.Second)
	var texts []string
	for n := 1; n <= int(wait/time.Second); n++ {
		texts = append(texts, en.T("summary.nextIn", map[string]any{"Count": n}))
	}
	waitFor(t, "the countdown on the summary", func() bool { return s.count("#summary-next:not([hidden])") == 1 }, 5*time.Second)
	first := s.text("#summary-next")
	if !slices.Contains(texts, first) {
		t.Errorf("the summary says %q, want one of %q", first, texts)
	}
	for _, sz := range []screen{sizes[0], sizes[2]} {
		s.layoutAt("the summary with its countdown", sz, summaryLayoutJS)
		if sz.phone {
			s.shot("summary-countdown-phone", false)
		}
	}
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
	seen := map[string]bool{first: true}
	waitFor(t, "the summary to close by itself", func() bool {
		if tx := s.text("#summary-next"); tx != "" {
			seen[tx] = true
		}
		return !s.ui().Summary
	}, wait+10*time.Second)
	if len(seen) < 2 {
		t.Errorf("the countdown did not count down: it said only %v", seen)
	}
	// The table is in sight; on Ada's turn her clock has its whole time.
	waitFor(t, "Ada's turn in hand 2", func() bool {
		bea.move()
		u := s.ui()
		return u.Hand == 2 && u.Act != ""
	}, 20*time.Second)
	waitFor(t, "Ada's countdown", func() bool {
		return s.count("#seats .countdown:not([hidden])") == 1 && s.text("#seats .countdown") != ""
	}, 5*time.Second)
	got := s.text("#seats .countdown")
	ok := false
	for n := 25; n <= 30; n++ {
		ok = ok || got == en.T("timer.short", map[string]any{"Count": n})
	}
	if !ok {
		t.Errorf("Ada's countdown says %q at her first turn after the summary, want nearly her whole 30 s", got)
	}
}
