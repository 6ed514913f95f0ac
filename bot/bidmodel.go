package bot

import (
	"math"
	"math/bits"

	"pitch"
)

// pawneeBidFit is a model of how hard bots bid in pawnee, fitted to their
// own bids (self-play): 6,995 bid turns with a pass allowed, from 1,200
// deals of hard bots only (deal seeds 5000 on; `FIT=1 go test -run
// TestFitPawneeBids ./bot` measures it again). Both are weights of
// bidFeatures:
//
//   - bid: the log-odds that the seat bids rather than passes (it
//     predicts 89% of the turns, against 82% for the heuristic's bids
//     moved by a point);
//   - raise: how far above the standing bid it bids (for an opening bid,
//     the bid itself), rounded; it gives the bid exactly 70% of the time,
//     against 43% for the least bid allowed.
var pawneeBidFit = struct{ bid, raise [8]float64 }{
	bid:   [8]float64{6.9832, 0.9444, 1.0792, -0.1173, 2.4457, -2.6839, -15.8537, -0.1625},
	raise: [8]float64{2.2337, 0.2176, 0.1597, -0.1328, 0.3232, -0.4462, 3.2150, -0.0596},
}

// bidFeatures describes seat's bid turn in s for pawneeBidFit: a
// constant, the heuristic's estimate of its best suit, how many trumps of
// that suit it holds, the points of its point cards there, how many of
// the suit's three top trumps, the standing bid (0 when none), whether it
// opens (no bid yet) and how many seats have passed.
func bidFeatures(s *pitch.State, seat int) [8]float64 {
	g := s.Game()
	t, e := bestSuit(s, seat)
	tr := s.Hand(seat) & pitch.Trumps(t, g.Jokers())
	pts := 0.0
	for c := tr & pointsFor(g.Variant, t); c != 0; c &= c - 1 {
		pts += pointValue(c.First())
	}
	top := 0
	for _, o := range trumpOrders[b2i(g.Jokers())][t][:3] {
		if tr.Has(o) {
			top++
		}
	}
	opens := 0.0
	if s.HighBid() == 0 {
		opens = 1
	}
	passed := 0
	for i := range s.Seats() {
		if s.HasPassed(i) {
			passed++
		}
	}
	return [8]float64{1, e, float64(tr.Len()), pts, float64(top), float64(s.HighBid()), opens, float64(passed)}
}

// bidChance is the fitted chance that a hard bot bids on the turn x
// describes.
func bidChance(x [8]float64) float64 {
	return sigmoid(dot(pawneeBidFit.bid, x))
}

// fittedBid is the bid the fit expects of a hard bot that bids on the
// turn x describes in s.
func fittedBid(s *pitch.State, x [8]float64) int {
	return s.HighBid() + int(math.Round(dot(pawneeBidFit.raise, x)))
}

func dot(w, x [8]float64) float64 {
	z := 0.0
	for i := range w {
		z += w[i] * x[i]
	}
	return z
}

// bidFitted bids for seat in a pawnee auction as pawneeBidFit predicts a
// hard bot would: it bids with the fitted chance, decided by a number
// drawn from the deal (the same seat with the same cards decides alike
// at every turn, and differently in each world a search draws), and then
// as high as the fit says, within the bids allowed and below the moon.
// A seat that may not pass bids the least it may.
func bidFitted(s *pitch.State, seat int) pitch.Action {
	bids, canPass := s.BidOptions()
	lowest := bits.TrailingZeros16(bids) // 16 when there is none
	x := bidFeatures(s, seat)
	if canPass && (lowest >= 10 || float64(s.PlayKey()>>11)/(1<<53) >= bidChance(x)) {
		return pitch.Pass(seat)
	}
	for b := max(lowest, min(fittedBid(s, x), 9)); b > lowest; b-- {
		if bids&(1<<b) != 0 {
			return pitch.Bid(seat, b)
		}
	}
	return pitch.Bid(seat, lowest)
}
