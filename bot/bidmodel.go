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
	passed := 0
	for i := range s.Seats() {
		if s.HasPassed(i) {
			passed++
		}
	}
	return handFeatures(s.Game(), s.Hand(seat), s.HighBid(), passed)
}

// handFeatures is bidFeatures for a seat holding hand, with standing the
// standing bid and passed the seats that have passed.
func handFeatures(g *pitch.Game, hand pitch.CardSet, standing, passed int) [8]float64 {
	t, e := pitch.Clubs, -1.0
	for s := pitch.Clubs; s < pitch.NoSuit; s++ {
		if x := estimateHand(g, hand, s, pointsFor(g.Variant, s)); x > e {
			t, e = s, x
		}
	}
	tr := hand & pitch.Trumps(t, g.Jokers())
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
	if standing == 0 {
		opens = 1
	}
	return [8]float64{1, e, float64(tr.Len()), pts, float64(top), float64(standing), opens, float64(passed)}
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

// fittedLikelihood is how likely the pawnee auction the view shows is in
// world w if every other seat bid as pawneeBidFit says hard bots do: a
// pass has the fitted chance of passing, a bid the fitted chance of
// bidding times a bell (bidSpread wide) around the bid the fit expects.
// Each has a floor, since people and other bots bid otherwise; a forced
// bid says nothing.
func fittedLikelihood(w *pitch.State, v *pitch.View) float64 {
	const floor = 0.08
	n := v.Game.Seats()
	standing, passed := 0, 0
	l := 1.0
	for _, a := range v.Auction {
		i := int(a.Seat)
		if i != v.Seat && (standing > 0 || passed < n-1) {
			x := handFeatures(v.Game, w.Dealt(i), standing, passed)
			p := 1 - bidChance(x)
			if a.Kind == pitch.ActBid {
				want := float64(standing) + dot(pawneeBidFit.raise, x)
				want = math.Max(float64(max(standing+1, 5)), math.Min(want, 9))
				d := (float64(a.Bid) - want) / bidSpread
				p = (1 - p) * math.Exp(-d*d/2)
			}
			l *= floor + (1-floor)*p
		}
		if a.Kind == pitch.ActBid {
			standing = int(a.Bid)
		} else {
			passed++
		}
	}
	return l
}

// bidSpread is how far, in points, hard bots' bids stray from the
// fitted ones (pawneeBidFit.raise gives the bid exactly 70% of the time).
const bidSpread = 0.75
