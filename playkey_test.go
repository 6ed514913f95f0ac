package pitch

import (
	"fmt"
	"slices"
	"testing"
)

// playKeyTuple is what PlayKey hashes, read field by field: states with
// equal tuples must have equal keys, and (barring collisions) only they.
func playKeyTuple(s *State) string {
	t := fmt.Sprint(s.turn, s.trump, s.tricks, s.trickLen, s.leader, s.win)
	for i := range s.n {
		t += fmt.Sprint("|", s.hands[i], s.played[i], s.won[i], s.trickWins[i])
	}
	for i := range s.trickLen {
		t += fmt.Sprint("/", s.trick[i], s.trickSeat[i])
	}
	return t
}

// TestPlayKeyTranspositions: from one deal's first trick, random lines of
// play reach positions; two positions with the same key hold the same
// cards, tricks and trick on the table (AP-PLAY-2, TP-PLAY-1, PW-PLAY-2:
// what decides the rest of the hand), and a position reached by two
// different orders of play (a transposition) plays on alike: the rest of
// one line applies to the other and scores every seat the same
// (AP-SC-1, TP-SC-1, PW-SC-1).
func TestPlayKeyTranspositions(t *testing.T) {
	transposed := 0
	for _, g := range []*Game{MustNewGame(Auction), MustNewGame(Auction, WithPlayers(3)), MustNewGame(TenPoint), MustNewGame(Pawnee), MustNewGame(Pawnee, WithScoreTricks(true))} {
		rng := NewRand(41)
		for deal := range 6 {
			s0 := Deal(g, deal%int(g.seats), nil, rng)
			for s0.phase != PhasePlay {
				if err := s0.Apply(s0.RandomAction(rng)); err != nil {
					t.Fatal(err)
				}
			}
			type seen struct {
				tuple string
				line  []Action // from s0
			}
			at := map[uint64]seen{}
			for range 300 {
				s := s0
				var line []Action
				var states []State
				for !s.Terminal() {
					states = append(states, s)
					a := s.RandomAction(rng)
					line = append(line, a)
					if err := s.Apply(a); err != nil {
						t.Fatal(err)
					}
				}
				for k, st := range states {
					key, tuple := st.PlayKey(), playKeyTuple(&st)
					prev, ok := at[key]
					if !ok {
						at[key] = seen{tuple, line[:k:k]}
						continue
					}
					if prev.tuple != tuple {
						t.Fatalf("%s: one key for two positions:\n%s\n%s", g.Variant, prev.tuple, tuple)
					}
					if slices.Equal(prev.line, line[:k]) {
						continue
					}
					// A transposition: the rest of this line from the other
					// position.
					x := s0
					for _, a := range prev.line {
						if err := x.Apply(a); err != nil {
							t.Fatal(err)
						}
					}
					for _, a := range line[k:] {
						if err := x.Apply(a); err != nil {
							t.Fatalf("%s: the rest of a line refused in its transposition: %v", g.Variant, err)
						}
					}
					for i := range s.n {
						if x.Delta(int(i)) != s.Delta(int(i)) {
							t.Fatalf("%s: seat %d scores %d and %d in two transpositions", g.Variant, i, x.Delta(int(i)), s.Delta(int(i)))
						}
					}
					transposed++
				}
			}
		}
	}
	t.Logf("%d transpositions", transposed)
	if transposed < 100 {
		t.Fatalf("only %d transpositions checked", transposed)
	}
}
