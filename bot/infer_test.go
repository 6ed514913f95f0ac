package bot

import (
	"testing"

	"pitch"
)

// TestSeenPlaysRebuildThePast: in hands played by the heuristic (every
// game and table of testGames), at each decision of play, every play the
// view shows in order (seenPlays) is rebuilt, from the view rolled back
// and the true hands, as the position it was made in: the same hands for
// every seat, the same trick, the same seat to act and legal cards, where the heuristic decides alike. And
// since the heuristic made every play, the true deal reads as fully
// likely (playLikelihood 1), while worlds drawn from the view are,
// across the hands, often less likely.
func TestSeenPlaysRebuildThePast(t *testing.T) {
	for _, v := range pitch.Variants {
		rng := pitch.NewRand(5)
		checked, lessLikely := 0, 0
		for d := range 30 {
			s := testDeal(v, d, rng)
			var past []pitch.State // the position before each play
			for !s.Terminal() {
				if s.Phase() == pitch.PhasePlay {
					past = append(past, s)
					view := s.View(s.Turn())
					for _, p := range seenPlays(&view) {
						// The position p was made in: the play of p.card by p.seat.
						var want *pitch.State
						for k := len(past) - 1; k >= 0; k-- {
							if past[k].Turn() == p.seat && past[k].Hand(p.seat).Has(p.card) && !s.Hand(p.seat).Has(p.card) {
								want = &past[k]
								break
							}
						}
						if want == nil {
							t.Fatalf("%v: no position where seat %d played %v", v, p.seat, p.card)
						}
						before := p.before
						for i := range s.Seats() {
							if i != view.Seat {
								before.KnownIn[i] = s.Hand(i) | p.since[i]
							}
						}
						got := before.Resample(rng)
						for i := range s.Seats() {
							if got.Hand(i) != want.Hand(i) {
								t.Fatalf("%v: seat %d's hand before %v: got %v, want %v", v, i, p.card, got.Hand(i), want.Hand(i))
							}
						}
						if got.Turn() != want.Turn() || got.TrickLen() != want.TrickLen() || got.LegalPlays() != want.LegalPlays() || got.Tricks() != want.Tricks() {
							t.Fatalf("%v: the position before %v by seat %d is not rebuilt: turn %d/%d, trick %d/%d, legal %v/%v", v, p.card, p.seat,
								got.Turn(), want.Turn(), got.TrickLen(), want.TrickLen(), got.LegalPlays(), want.LegalPlays())
						}
						if a, b := policy(&got), policy(want); a != b {
							t.Fatalf("%v: the heuristic decides %v in the rebuilt position, %v in the true one", v, a, b)
						}
						checked++
					}
					if plays := seenPlays(&view); len(plays) > 0 {
						if l := playLikelihood(&s, &view, plays, rng); l != 1 {
							t.Fatalf("%v: the true deal, played by the heuristic, reads as %v likely", v, l)
						}
						w := view.Resample(rng)
						if playLikelihood(&w, &view, plays, rng) < 1 {
							lessLikely++
						}
					}
				}
				if err := s.Apply(Decide(Heuristic{}, &s, rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if checked < 100 || lessLikely == 0 {
			t.Errorf("%v: %d plays rebuilt, %d drawn worlds read as less likely", v, checked, lessLikely)
		}
		t.Logf("%v: %d plays rebuilt, %d drawn worlds less likely", v, checked, lessLikely)
	}
}
