package pitch

import "testing"

// TestResampleKeepsTrickWinner: a world drawn from a view mid-trick must
// know which card is winning the trick, as the real hand does, or bots
// reasoning on it would misjudge every card they could play
// (AP-PLAY-3, TP-PLAY-2, PW-PLAY-2).
func TestResampleKeepsTrickWinner(t *testing.T) {
	for _, v := range Variants {
		g := MustNewGame(v)
		rng := NewRand(17)
		checked := 0
		for hand := 0; hand < 300; hand++ {
			s := Deal(g, hand%g.Seats(), nil, rng)
			for !s.Terminal() {
				if s.phase == PhasePlay && s.trickLen >= 2 {
					wantCard, wantSeat := s.Winning()
					for seat := -1; seat < g.Seats(); seat++ {
						view := s.View(seat)
						w := view.Resample(rng)
						if c, st := w.Winning(); c != wantCard || st != wantSeat {
							t.Fatalf("%s: world from seat %d's view says %s (seat %d) wins the trick; the hand says %s (seat %d)",
								v, seat, c, st, wantCard, wantSeat)
						}
						checked++
					}
				}
				if err := s.Apply(s.RandomAction(rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if checked == 0 {
			t.Fatalf("%s: no trick with two cards was checked", v)
		}
	}
}

// TestBeatsMatchesTheRules: the trick bookkeeping play keeps (a key table
// per trick) says a card beats the trick exactly when the rules, worked
// out afresh, say it would take the lead (AP-PLAY-3, TP-PLAY-2, PW-PLAY-2).
func TestBeatsMatchesTheRules(t *testing.T) {
	for _, v := range Variants {
		g := MustNewGame(v)
		rng := NewRand(23)
		for hand := 0; hand < 300; hand++ {
			s := Deal(g, hand%g.Seats(), nil, rng)
			for !s.Terminal() {
				if s.phase == PhasePlay && s.trickLen > 0 {
					if got, want := int(s.best()), s.trickWinner(); got != want {
						t.Fatalf("%s: play says card %d wins %v; the rules say %d", v, got, s.trick[:s.trickLen], want)
					}
					for p := s.legalPlays(); p != 0; p &= p - 1 {
						c := p.First()
						x := s
						x.trick[x.trickLen] = c
						x.trickLen++
						if got, want := s.Beats(c), x.trickWinner() == int(x.trickLen)-1; got != want {
							t.Fatalf("%s: Beats(%s) on %v = %v, the rules say %v", v, c, s.trick[:s.trickLen], got, want)
						}
					}
				}
				if err := s.Apply(s.RandomAction(rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
