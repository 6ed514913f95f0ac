package bot

import (
	"fmt"
	"math"
	"os"
	"testing"

	"pitch"
)

// hardBidTurns plays the auctions of n pawnee deals (deal seeds from
// seed on) with hard bots at every seat and returns each bid turn where
// a pass was allowed, with hard's action there.
func hardBidTurns(n int, seed uint64) (turns []pitch.State, acts []pitch.Action) {
	g := pitch.MustNewGame(pitch.Pawnee)
	hard := &Search{}
	for d := range n {
		s := pitch.Deal(g, d%g.Seats(), nil, pitch.NewRand(seed+uint64(d)))
		rng := pitch.NewRand(uint64(d))
		for s.Phase() == pitch.PhaseBid {
			a := Decide(hard, &s, rng)
			if _, canPass := s.BidOptions(); canPass {
				turns = append(turns, s)
				acts = append(acts, a)
			}
			if err := s.Apply(a); err != nil {
				panic(err)
			}
		}
	}
	return turns, acts
}

// TestBidFittedFollowsHard: on deals the fit never saw, the fitted
// chance says (above or below one half) whether a hard bot bids or passes
// more often than the heuristic's bids moved by a point (the expert's
// model before it) do, and when hard bids, the fitted bid is hard's more
// often than the least bid allowed is (PW-BID-1).
func TestBidFittedFollowsHard(t *testing.T) {
	turns, acts := hardBidTurns(40, 90000)
	var fitKind, shiftKind, bids, fitLevel, lowLevel int
	for i := range turns {
		s, a := &turns[i], acts[i]
		x, h := bidFeatures(s, s.Turn()), bidShifted(s, s.Turn(), 1)
		if (bidChance(x) > 0.5) == (a.Kind == pitch.ActBid) {
			fitKind++
		}
		if h.Kind == a.Kind {
			shiftKind++
		}
		if a.Kind == pitch.ActBid {
			bids++
			if int(a.Bid) == max(5, min(fittedBid(s, x), 9), s.HighBid()+1) {
				fitLevel++
			}
			if a.Bid == int8(max(5, s.HighBid()+1)) {
				lowLevel++
			}
		}
	}
	n := len(turns)
	t.Logf("%d turns, %d bids: bid or pass as hard, fitted %d, moved heuristic %d; hard's bid, fitted %d, the least %d",
		n, bids, fitKind, shiftKind, fitLevel, lowLevel)
	if n < 100 || bids < 30 {
		t.Fatalf("%d turns and %d bids: too few to judge", n, bids)
	}
	if fitKind <= shiftKind {
		t.Errorf("the fitted model bids or passes as hard does %d times of %d, the moved heuristic %d", fitKind, n, shiftKind)
	}
	if fitLevel <= lowLevel {
		t.Errorf("the fitted model bids what hard bids %d times of %d, the least bid allowed %d", fitLevel, bids, lowLevel)
	}
}

// TestBidFittedLegal: the fitted model's action is always legal, the same
// for the same position, below the moon when it may pass, and a forced
// pawnee dealer bids exactly 5 (PW-BID-1, PW-BID-3).
func TestBidFittedLegal(t *testing.T) {
	bid, pass := 0, 0
	for _, s := range decisionPoints(pitch.Pawnee, 80, 23) {
		if s.Phase() != pitch.PhaseBid {
			continue
		}
		seat := s.Turn()
		a := bidFitted(&s, seat)
		if !legalHas(&s, a) {
			t.Fatalf("fitted bid %v is not legal", a)
		}
		if b := bidFitted(&s, seat); b != a {
			t.Fatalf("the same position gives %v and %v", a, b)
		}
		_, canPass := s.BidOptions()
		switch {
		case !canPass && a != pitch.Bid(seat, 5):
			t.Fatalf("the forced dealer bids %v, want 5 (PW-BID-3)", a)
		case canPass && a.Kind == pitch.ActBid && a.Bid == 10:
			t.Fatalf("it shoots the moon where it may pass: %v", a)
		case a.Kind == pitch.ActBid:
			bid++
		default:
			pass++
		}
	}
	if bid == 0 || pass == 0 {
		t.Errorf("%d bids and %d passes: the model should do both", bid, pass)
	}
}

// TestFitPawneeBids measures pawneeBidFit again from hard bots' own bids
// and prints the weights to paste into bidmodel.go. It takes a few
// minutes, so it runs only when FIT is set:
//
//	FIT=1 go test -run TestFitPawneeBids -v ./bot
func TestFitPawneeBids(t *testing.T) {
	if os.Getenv("FIT") == "" {
		t.Skip("set FIT=1 to fit the pawnee bid model")
	}
	turns, acts := hardBidTurns(1200, 5000)
	var xs, xr [][8]float64
	var ys, yr []float64
	for i := range turns {
		x := bidFeatures(&turns[i], turns[i].Turn())
		xs = append(xs, x)
		if acts[i].Kind == pitch.ActBid {
			ys = append(ys, 1)
			xr = append(xr, x)
			yr = append(yr, float64(int(acts[i].Bid)-turns[i].HighBid()))
		} else {
			ys = append(ys, 0)
		}
	}
	bid := fitLogistic(xs, ys)
	raise := fitLinear(xr, yr)
	fmt.Printf("%d bid turns, %d bids\n", len(xs), len(xr))
	fmt.Printf("bid:   %#v\nraise: %#v\n", bid, raise)
}

// fitLogistic returns the weights of a logistic regression of y on x, by
// Newton's method.
func fitLogistic(x [][8]float64, y []float64) [8]float64 {
	var w [8]float64
	for range 30 {
		var h [8][8]float64
		var g [8]float64
		for n := range x {
			p := sigmoid(dot(w, x[n]))
			for j := range 8 {
				g[j] += (y[n] - p) * x[n][j]
				for k := range 8 {
					h[j][k] += p * (1 - p) * x[n][j] * x[n][k]
				}
			}
		}
		step := solveLinear(h, g)
		for j := range w {
			w[j] += step[j]
		}
	}
	return w
}

// fitLinear returns the least-squares weights of y on x.
func fitLinear(x [][8]float64, y []float64) [8]float64 {
	var a [8][8]float64
	var b [8]float64
	for n := range x {
		for j := range 8 {
			b[j] += y[n] * x[n][j]
			for k := range 8 {
				a[j][k] += x[n][j] * x[n][k]
			}
		}
	}
	return solveLinear(a, b)
}

// solveLinear solves a·x = b by Gaussian elimination with partial
// pivoting, with a little ridge so that an unused feature stays at 0.
func solveLinear(a [8][8]float64, b [8]float64) [8]float64 {
	const n = 8
	for i := range n {
		a[i][i] += 1e-6
	}
	for i := range n {
		p := i
		for k := i + 1; k < n; k++ {
			if math.Abs(a[k][i]) > math.Abs(a[p][i]) {
				p = k
			}
		}
		a[i], a[p] = a[p], a[i]
		b[i], b[p] = b[p], b[i]
		for k := i + 1; k < n; k++ {
			f := a[k][i] / a[i][i]
			for j := i; j < n; j++ {
				a[k][j] -= f * a[i][j]
			}
			b[k] -= f * b[i]
		}
	}
	var x [8]float64
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= a[i][j] * x[j]
		}
		x[i] = s / a[i][i]
	}
	return x
}

// TestFittedLikelihoodReads checks that reading a pawnee auction by the
// fitted model (fittedLikelihood) moves the worlds the way the bids say
// (PW-BID-1: the auction is public): weighed by it, the high bidder holds
// a stronger hand, and a seat that passed a weaker one, than in worlds
// drawn from the view alone. Strength is the fit's chance of bidding with
// the hand at the opening.
func TestFittedLikelihoodReads(t *testing.T) {
	g := pitch.MustNewGame(pitch.Pawnee)
	rng := pitch.NewRand(5)
	var bidderUp, passerDown, points int
	for _, s := range decisionPoints(pitch.Pawnee, 60, 29) {
		if s.Phase() != pitch.PhaseCall {
			continue
		}
		// A defender's view once the auction is over.
		me := (s.Bidder() + 1 + points%4) % 5
		v := s.View(me)
		var plain, weighed [5]float64
		total := 0.0
		const worlds = 400
		for range worlds {
			w := v.Resample(rng)
			l := fittedLikelihood(&w, &v)
			total += l
			for i := range 5 {
				c := bidChance(handFeatures(g, w.Dealt(i), 0, 0))
				plain[i] += c / worlds
				weighed[i] += l * c
			}
		}
		points++
		for i := range 5 {
			weighed[i] /= total
			switch {
			case i == me:
			case i == s.Bidder():
				if weighed[i] > plain[i] {
					bidderUp++
				}
			case s.HasPassed(i):
				if weighed[i] < plain[i] {
					passerDown++
				}
			}
		}
	}
	if points < 40 {
		t.Fatalf("only %d auctions read", points)
	}
	// Some forced dealers' bids say nothing, and a pass over a high bid
	// says little; most must move the right way.
	if bidderUp < points*3/4 {
		t.Errorf("the bidder's hand is stronger in the read worlds in %d of %d auctions", bidderUp, points)
	}
	if passerDown < points*3*3/4 {
		t.Errorf("a passer's hand is weaker in the read worlds %d times in %d auctions (about 3 passers each)", passerDown, points)
	}
	t.Logf("%d auctions: bidder stronger %d, passer weaker %d", points, bidderUp, passerDown)
}

// TestCallLikelihoodReads: reading the pawnee call (PW-CALL-1) favours
// worlds in which the bidder was dealt every card of the trump suit above
// the one it called, as the heuristic calls. The true deal, called by the
// heuristic, is never marked down, and the read worlds give the bidder
// those cards more often than worlds drawn from the view alone.
func TestCallLikelihoodReads(t *testing.T) {
	m := model{ReadCall: true}
	rng := pitch.NewRand(9)
	var reads, up int
	for _, s := range decisionPoints(pitch.Pawnee, 120, 31) {
		if s.Phase() != pitch.PhaseDiscard || s.View(0).Discards != 0 {
			continue
		}
		me := (s.Bidder() + 1 + reads%4) % 5 // a defender or the partner
		v := s.View(me)
		if l := callLikelihood(&s, &v, m); l != 1 {
			t.Errorf("the true deal (the heuristic called %v) read as %.3f, want 1", v.Called, l)
		}
		if got := callLikelihood(&s, &v, model{}); got != 1 {
			t.Errorf("with ReadCall off the call read as %.3f, want 1", got)
		}
		above := pitch.CardSet(0)
		for _, c := range pitch.TrumpOrder(v.Trump, true) {
			if c == v.Called {
				break
			}
			if !c.IsJoker() && c.Suit() == v.Trump {
				above |= c.Set()
			}
		}
		if above == 0 || above&v.Hand != 0 {
			continue // nothing above it to read, or this seat holds some of it
		}
		reads++
		const worlds = 300
		plain, weighed, total := 0.0, 0.0, 0.0
		for range worlds {
			w := v.Resample(rng)
			l := callLikelihood(&w, &v, m)
			held := 0.0
			if w.Dealt(s.Bidder())&above == above {
				held = 1
			}
			plain += held / worlds
			weighed += l * held
			total += l
		}
		if weighed/total > plain {
			up++
		}
	}
	if reads < 20 {
		t.Fatalf("only %d calls read", reads)
	}
	if up < reads*9/10 {
		t.Errorf("the bidder holds the cards above the call more often in the read worlds in %d of %d calls", up, reads)
	}
	t.Logf("%d calls: read worlds favour the bidder holding the cards above the call in %d", reads, up)
}
