package wire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pitch"
)

// TestHandLog plays whole matches of every game and checks, after every
// action and for every viewer, that the shared log writes what the
// viewer's own entries (LogEntryFor) joined as an array would, that a
// log taken earlier does not change as entries are added, and that an
// entry every viewer sees alike is kept once. PW-DIS-2: a pawnee
// discard is the discarder's own; TP-TR-5: ten-point burns are shown.
func TestHandLog(t *testing.T) {
	for _, v := range pitch.Variants {
		t.Run(v.String(), func(t *testing.T) {
			g := pitch.MustNewGame(v)
			rng := rand.New(rand.NewPCG(41, uint64(v)))
			m := pitch.NewMatch(g, rng.Uint64())
			viewers := g.Seats() + 1
			log := NewHandLog(g.Seats())
			want := make([][]LogEntry, viewers)
			hidden, finished, everHidden := 0, 0, 0
			for step := range 600 {
				if m.Over() { // a match may end in one hand (a moon): play another
					m = pitch.NewMatch(g, rng.Uint64())
				}
				s := m.State()
				legal := s.Legal(nil)
				if len(legal) == 0 {
					t.Fatalf("step %d: no legal action in phase %v", step, s.Phase())
				}
				a := legal[rng.IntN(len(legal))]
				raw, err := AppendAction(nil, a)
				if err != nil {
					t.Fatal(err)
				}
				before := make([]LogJSON, viewers)
				beforeJSON := make([][]byte, viewers)
				for i := range viewers {
					before[i] = log.For(i - 1)
					beforeJSON[i] = before[i].AppendTo(nil)
				}
				hands := len(m.Records())
				if err := m.Apply(a); err != nil {
					t.Fatal(err)
				}
				by := []string{"", "timer", "stand-in"}[step%3]
				log.Add(g, a, raw, by)
				alike := true
				for i := range viewers {
					e := LogEntryFor(g, a, raw, i-1)
					e.By = by
					want[i] = append(want[i], e)
					if i > 0 && !bytes.Equal(appendLogEntry(nil, &e), appendLogEntry(nil, &want[0][len(want[0])-1])) {
						alike = false
					}
				}
				if !alike {
					hidden++
					everHidden++
				}
				for i := range viewers {
					got := log.For(i - 1).AppendTo(nil)
					w, _ := json.Marshal(want[i])
					if !bytes.Equal(got, w) {
						t.Fatalf("step %d viewer %d: the log is\n%s\nwant\n%s", step, i-1, got, w)
					}
					if log.For(i-1).Len() != len(want[i]) {
						t.Fatalf("step %d viewer %d: Len %d, want %d", step, i-1, log.For(i-1).Len(), len(want[i]))
					}
					if again := before[i].AppendTo(nil); !bytes.Equal(again, beforeJSON[i]) {
						t.Fatalf("step %d viewer %d: a log taken before the action changed:\n%s\nwas\n%s", step, i-1, again, beforeJSON[i])
					}
				}
				// Kept once when alike, once a viewer when not.
				if got, want := len(log.ends), log.Len()+hidden*(viewers-1); got != want {
					t.Fatalf("step %d: %d segments for %d entries (%d hidden), want %d", step, got, log.Len(), hidden, want)
				}
				if len(m.Records()) > hands {
					finished++
					log, want, hidden = NewHandLog(g.Seats()), make([][]LogEntry, viewers), 0
				}
			}
			// Seeded: these hold for the seed, and say the test saw what it
			// is for (hands ended, and hidden actions where a game has them).
			if finished < 2 {
				t.Errorf("%d hands finished in 600 actions: too few to test a new hand's log", finished)
			}
			if v != pitch.TenPoint && v != pitch.Auction && everHidden == 0 {
				t.Error("no hidden action was logged")
			}
		})
	}
}

// TestHandLogEmpty: an empty log, or none, is written [] and left out
// where the field may be.
func TestHandLogEmpty(t *testing.T) {
	var none *HandLog
	for _, l := range []LogJSON{{}, none.For(0), NewHandLog(4).For(-1)} {
		if got := string(l.AppendTo(nil)); got != "[]" || !l.IsZero() {
			t.Errorf("%+v: %s (zero %v), want [] and zero", l, got, l.IsZero())
		}
	}
	b, err := json.Marshal(HandSummary{Points: []Point{}})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(`"log"`)) {
		t.Errorf("a summary without a log is written with one: %s", b)
	}
}
