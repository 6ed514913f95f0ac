package bot

import (
	"math"
	"testing"

	"pitch"
)

// TestJunkKeepsJackAndLow: following a trump lead it cannot beat, the
// heuristic throws its cheapest trump: the queen before the jack of trump
// (AP-PT-3) and a middle trump before one that may be Low (AP-PT-2, which
// goes to the trick's taker).
func TestJunkKeepsJackAndLow(t *testing.T) {
	for _, c := range []struct{ hand, want string }{
		{"QC JC 7S 8S 9S TS", "QC"},
		{"2C 8C 7S 8S 9S TS", "8C"},
		{"JC 3C 7S 8S 9S TS", "3C"}, // the jack is worth more than a possible Low
	} {
		s := fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: []string{
			"2D 3D 4D 5D 6D 7D", "KC AD 8D 9D TD JD", c.hand, "2H 3H 4H 5H 6H 7H",
		}}.state(t)
		play(t, &s, pitch.Bid(1, 2), pitch.Pass(2), pitch.Pass(3), pitch.Pass(0), pitch.Play(1, card("KC")))
		for seed := range uint64(3) {
			if a := Decide(Heuristic{}, &s, pitch.NewRand(seed)); a != pitch.Play(2, card(c.want)) {
				t.Errorf("holding %s under KC: heuristic played %v, want %s", c.hand, a, c.want)
			}
		}
	}
}

// TestUnseenLeavesPassedTrumps: in ten-point a seat knows where the trumps
// it passed to its partner are (TP-TR-5), so they are not among the cards
// it cannot place.
func TestUnseenLeavesPassedTrumps(t *testing.T) {
	s := fixedDeal{g: pitch.MustNewGame(pitch.TenPoint), dealer: 3, hands: []string{
		"AH KH QH JH JD BJ LJ 2C 3C", "2H 3H 4H 4C 5C 6C 7C 8C 9C",
		"TC JC QC KC AC 3S 4S 5S 6S", "5H 6H 7H 8H 9H TH 7S 8S 9S",
	}}.state(t)
	play(t, &s, pitch.Bid(0, 5), pitch.Pass(1), pitch.Pass(2), pitch.Pass(3),
		pitch.NameTrump(0, pitch.Hearts), pitch.GiveStock(0, false))
	if s.Phase() != pitch.PhasePassBurn || s.Turn() != 0 || s.PassLimit() != 1 {
		t.Fatalf("setup: phase %s, seat %d to act, pass limit %d", s.Phase(), s.Turn(), s.PassLimit())
	}
	play(t, &s, pitch.PassTrumps(0, cards("LJ")))
	if u := unseen(&s, 0); u.Has(card("LJ")) || !u.Has(card("TH")) {
		t.Errorf("unseen by seat 0 after passing LJ: %v; want TH but not LJ", u)
	}
}

// TestAlphaBetaAgreesWithFullSearch: with two sides (ten-point teams, a
// pawnee bidder's side against the defenders) the pruned minimax gives
// every late position the same value as the unpruned search in which
// each seat picks its own best card (solve).
func TestAlphaBetaAgreesWithFullSearch(t *testing.T) {
	for _, v := range []pitch.Variant{pitch.TenPoint, pitch.Pawnee} {
		n := 0
		for _, s := range decisionPoints(v, 80, 91+uint64(v)) {
			if s.Phase() != pitch.PhasePlay || s.Tricks() < 4 {
				continue
			}
			seat := s.Turn()
			want, got := solve(&s)[seat], solveFor(&s, seat)
			if math.Abs(want-got) > 1e-9 {
				t.Fatalf("%s, trick %d, seat %d: alpha-beta %v, full search %v", v, s.Tricks()+1, seat, got, want)
			}
			n++
		}
		if n < 20 {
			t.Fatalf("%s: only %d late positions", v, n)
		}
	}
}

// TestAuctionLikelihoodReadsPasses: a world in which a seat that passed
// (AP-BID-1) holds A K J T 3 2 of a suit is much less likely than one in
// which it holds nothing, and the high bidder with nothing is less likely
// than with that suit.
func TestAuctionLikelihoodReadsPasses(t *testing.T) {
	strong, weak := "AS KS JS TS 3S 2S", "4C 6D 8H 9C 5D 7H"
	deal := func(h1, h2 string) pitch.State {
		others := []string{"QH JH 9D TC 2H 3H", h1, h2, "KD QD 8D 4S 5S 6S"}
		return fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: others}.state(t)
	}
	bid := func(s *pitch.State) {
		play(t, s, pitch.Pass(1), pitch.Bid(2, 3), pitch.Pass(3))
	}
	a, b := deal(strong, weak), deal(weak, strong)
	bid(&a)
	bid(&b)
	v := a.View(0)
	la, lb := auctionLikelihood(&a, &v), auctionLikelihood(&b, &v)
	if !(lb > 4*la) {
		t.Errorf("passer strong, bidder weak: %.4f; passer weak, bidder strong: %.4f; want the second over 4 times the first", la, lb)
	}
}
