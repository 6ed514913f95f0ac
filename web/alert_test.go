package web_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"pitch/i18n"
)

// hiddenJS makes the page believe its tab is hidden (hide true) or shown
// again, as a switch of tabs would, and tells it (visibilitychange).
func hiddenJS(hide bool) string {
	v := "false"
	if hide {
		v = "true"
	}
	return `(() => {
  if (!window.__hiddenSet) {
    window.__hiddenSet = true;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => !!window.__hidden });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => window.__hidden ? 'hidden' : 'visible' });
  }
  window.__hidden = ` + v + `;
  document.dispatchEvent(new Event('visibilitychange'));
  return 'true';
})()`
}

// alertState is what the page shows of the turn alert: its title, its
// icon, and the counts the table keeps (alert.js).
type alertState struct {
	Title, Icon                string
	Alerts, Sounds, Vibrations int
}

func (b *browser) alertState() alertState {
	b.t.Helper()
	var a alertState
	b.eval(`(() => { const d = document.querySelector('#table-view').dataset;
		return JSON.stringify({Title: document.title, Icon: document.querySelector('link[rel="icon"]').getAttribute('href'),
			Alerts: Number(d.alerts || 0), Sounds: Number(d.sounds || 0), Vibrations: Number(d.vibrations || 0)}); })()`, &a)
	return a
}

// TestBrowserTurnInHiddenTab: Ada waits for Bea with her tab hidden. When
// her turn comes, the title and the icon say so, once, and go back when
// the tab is shown again; no sound plays while sound is off (the
// default). With the table's sound button on (remembered in
// localStorage), her next turn in a hidden tab plays the tone once; a
// reconnection that brings the same turn again repeats nothing.
func TestBrowserTurnInHiddenTab(t *testing.T) {
	s := newSite(t)
	id := s.createAPI(`{"variant":"auction","options":{"players":2},"seats":[{"kind":"human"},{"kind":"human"}]}`)
	tokA, tokB := s.joinAPI(id, 0, "Ada"), s.joinAPI(id, 1, "Bea")
	s.openSeat(id, 0, tokA, "Ada")
	bea := connectSeat(t, s.url, id, tokB)
	en := i18n.New("en")
	alertTitle := en.T("title.alert", nil)
	turnTitle := en.T("title.yourTurn", map[string]any{"Game": en.T("game.auction", nil)})

	// beaToMove brings the table to Bea's turn: Ada moves if it is hers.
	beaToMove := func() {
		t.Helper()
		waitFor(t, "Bea's turn", func() bool {
			s.actOnce()
			bea.mu.Lock()
			defer bea.mu.Unlock()
			return bea.last.Type == "state" && bea.last.View.Turn == 1 && len(bea.last.Legal) > 0
		}, 20*time.Second)
	}
	// hiddenTurn hides the tab on Bea's turn and waits for Ada's: what
	// the page showed before and after.
	hiddenTurn := func(what string) (before, after alertState) {
		t.Helper()
		beaToMove()
		s.eval(hiddenJS(true), new(bool))
		if before = s.alertState(); before.Title == alertTitle {
			t.Fatalf("%s: the title says it is Ada's turn before it is", what)
		}
		// Bea moves (as often as the game asks her) until it is Ada's turn.
		waitFor(t, what+": the title to say it is Ada's turn", func() bool {
			bea.move()
			return s.alertState().Title == alertTitle
		}, 10*time.Second)
		waitFor(t, what+": the table to show the turn", func() bool { return s.ui().Act != "" }, 10*time.Second)
		return before, s.alertState()
	}

	if a := s.alertState(); a.Alerts != 0 || a.Sounds != 0 {
		t.Fatalf("before any turn: %+v", a)
	}
	_, a := hiddenTurn("sound off")
	if a.Alerts != 1 || a.Sounds != 0 || !strings.HasSuffix(a.Icon, "favicon-turn.svg") {
		t.Errorf("Ada's turn in a hidden tab, sound off: %+v; want one alert, the turn icon, no sound", a)
	}
	s.eval(hiddenJS(false), new(bool))
	if a := s.alertState(); a.Title != turnTitle || a.Icon != "/favicon.svg" || a.Alerts != 1 {
		t.Errorf("the tab shown again: %+v; want the title %q and the plain icon", a, turnTitle)
	}

	// Sound on, from the table's button: remembered.
	if got := s.attrOf("#sound", "aria-pressed"); got != "false" {
		t.Errorf("the sound button is pressed=%s before it was pressed, want off by default", got)
	}
	s.click("#sound")
	var stored string
	s.eval(`JSON.stringify(localStorage.getItem('pitch.sound') || '')`, &stored)
	if stored != "on" || s.attrOf("#sound", "aria-pressed") != "true" {
		t.Errorf("after the sound button: stored %q, pressed %s", stored, s.attrOf("#sound", "aria-pressed"))
	}
	// (Ada's turns while the tab is shown sound too, now: counted before.)
	b, a := hiddenTurn("sound on")
	if a.Alerts != 2 || a.Sounds != b.Sounds+1 {
		t.Errorf("Ada's next turn in a hidden tab, sound on: %+v after %+v; want 2 alerts, 1 more sound", a, b)
	}
	// A dropped connection brings the same turn again: nothing repeats.
	s.drops.cut()
	waitFor(t, "the page to see the drop", func() bool { return s.count("#conn.offline") == 1 || s.count("#conn.connecting") == 1 }, 10*time.Second)
	waitFor(t, "the page back online", func() bool { return s.count("#conn.online") == 1 && s.ui().Act != "" }, 20*time.Second)
	if r := s.alertState(); r.Alerts != 2 || r.Sounds != a.Sounds || r.Title != alertTitle {
		t.Errorf("after a reconnection on the same turn: %+v; want it as before, %+v", r, a)
	}
	s.eval(hiddenJS(false), new(bool))
	if a := s.alertState(); a.Title != turnTitle {
		t.Errorf("shown again: the title is %q, want %q", a.Title, turnTitle)
	}
}

// attrOf is the attribute name of the element sel matches ("" for none).
func (b *browser) attrOf(sel, name string) string {
	b.t.Helper()
	var v string
	b.eval(`JSON.stringify((document.querySelector(`+jsString(sel)+`) || {getAttribute: () => ''}).getAttribute(`+jsString(name)+`) || '')`, &v)
	return v
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { return strconv.Quote(s) }
