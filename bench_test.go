package pitch

import "testing"

// BenchmarkRandomHand plays one full hand per iteration: shuffle and deal,
// random legal bids and decisions, every trick, and the score.
func BenchmarkRandomHand(b *testing.B) {
	for _, v := range Variants {
		b.Run(v.String(), func(b *testing.B) {
			g := MustNewGame(v)
			rng := NewRand(1)
			b.ReportAllocs()
			var s State
			for i := 0; b.Loop(); i++ {
				s.Deal(g, i%g.seats, nil, rng)
				s.PlayRandom(rng)
			}
		})
	}
}
