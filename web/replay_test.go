package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pitch"
)

// expectedSteps replays a record as the replay page must show it: every
// seat's cards after the deal and after each action (and after a
// give_stock the record leaves out), as the engine has them.
func expectedSteps(t *testing.T, rec *pitch.Record) [][]string {
	t.Helper()
	start := *rec
	start.Actions = nil
	s, err := start.State()
	if err != nil {
		t.Fatal(err)
	}
	snap := func() []string {
		var out []string
		for seat := range s.Seats() {
			var cs []string
			for _, c := range s.Hand(seat).Cards() {
				cs = append(cs, c.String())
			}
			out = append(out, strings.Join(cs, " "))
		}
		return out
	}
	steps := [][]string{snap()}
	for _, a := range rec.Actions {
		if s.Phase() == pitch.PhaseGiveStock && a.Kind != pitch.ActGiveStock {
			if err := s.Apply(pitch.GiveStock(s.Bidder(), false)); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, snap())
		}
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, snap())
	}
	return steps
}

// TestReplayPage drops a hand record of each game on the replay page,
// steps it forward to the end by the → key and back to the start by the
// ← key, and checks at every step that every seat's cards shown are the
// record's, as the engine replays it; then End and Home.
func TestReplayPage(t *testing.T) {
	s := newSite(t)
	for _, name := range []string{"auction-best", "ten-point-best", "pawnee-best"} {
		raw, err := os.ReadFile(filepath.Join("..", "testdata", "review", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := pitch.ReadRecord(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		want := expectedSteps(t, rec)
		s.do("open the replay page", chromedp.Navigate(s.url+"/replay"), chromedp.WaitVisible(chromedp.CSS("#rp-drop")))
		var ok bool
		s.eval(fmt.Sprintf(`(() => { const dt = new DataTransfer(); dt.items.add(new File([%q], 'hand.json', {type: 'application/json'}));
			document.querySelector('#rp-drop').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
			return 'true'; })()`, string(raw)), &ok)
		s.do("wait for the replay", chromedp.WaitVisible(chromedp.CSS("#rp-main")))
		shown := func() []string {
			var got []string
			s.eval(`JSON.stringify([...document.querySelectorAll('#rp-seats .rp-cards')].map((e) => e.dataset.cards))`, &got)
			return got
		}
		check := func(k int) {
			t.Helper()
			got := shown()
			for seat := range want[k] {
				if seat >= len(got) || normalize(got[seat]) != normalize(want[k][seat]) {
					t.Fatalf("%s, step %d: the page shows %q, the record %q", name, k, got, want[k])
				}
			}
		}
		last := len(want) - 1
		check(0)
		for k := 1; k <= last; k++ {
			s.do("step forward", chromedp.KeyEvent(kb.ArrowRight))
			check(k)
		}
		s.do("past the end", chromedp.KeyEvent(kb.ArrowRight))
		check(last)
		var result string
		s.eval(`JSON.stringify(document.querySelector('#rp-result').hidden ? '' : document.querySelector('#rp-result').textContent)`, &result)
		if result == "" {
			t.Errorf("%s: no result shown at the end", name)
		}
		for k := last - 1; k >= 0; k-- {
			s.do("step back", chromedp.KeyEvent(kb.ArrowLeft))
			check(k)
		}
		s.do("to the end", chromedp.KeyEvent(kb.End))
		check(last)
		s.do("to the start", chromedp.KeyEvent(kb.Home))
		check(0)
	}
}

// normalize sorts a space-separated list of cards.
func normalize(s string) string {
	f := strings.Fields(s)
	m := map[string]bool{}
	for _, c := range f {
		m[c] = true
	}
	b, _ := json.Marshal(m)
	return string(b)
}
