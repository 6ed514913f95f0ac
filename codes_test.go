package pitch

import (
	"errors"
	"slices"
	"testing"
)

// refusalCodes are the codes an ActionError may carry (docs/protocol.md
// lists them; the UI's catalogs translate each one).
var refusalCodes = []string{"hand_over", "passed", "not_your_turn", "wrong_phase", "bad_trump", "dealer_must_bid",
	"dealer_exact", "moon_negative", "bid_not_allowed", "call_joker", "call_own", "pass_partner_full", "pass_once",
	"pass_count", "discard_wrong", "burn_wrong", "not_held", "lead_called", "play_trump", "follow_trump", "follow_suit",
	"match_over", "not_dealt"}

// C-7: a refusal says what was wrong for a program too: a code from the
// list, the rule broken, and the seat, numbers and cards involved.
func TestRefusalCodes(t *testing.T) {
	// TP-BID-2: the forced dealer's higher bid.
	s := tpDealSplit.state(t, tpGame, nil)
	tpRun(t, &s, "1p 2p 3p")
	ae := refusal(t, &s, Bid(0, 5))
	if ae.Code != "dealer_exact" || ae.Rule != "TP-BID-2" || ae.Params["Bid"] != 5 ||
		!slices.Equal(ae.Params["Bids"].([]int), []int{4}) || ae.Params["Seat"] != 0 {
		t.Errorf("TP-BID-2: code %q rule %q params %v", ae.Code, ae.Rule, ae.Params)
	}
	// PW-BID-3: the forced dealer's pass.
	p := pwDealA.state(t, pwGame, nil)
	pwRun(t, &p, "1 pass; 2 pass; 3 pass; 4 pass")
	if ae := refusal(t, &p, Pass(0)); ae.Code != "dealer_must_bid" || ae.Rule != "PW-BID-3" {
		t.Errorf("PW-BID-3: code %q rule %q", ae.Code, ae.Rule)
	}
	// Every refusal of random actions over many states has a known code,
	// a rule and the seat.
	for _, g := range []*Game{MustNewGame(Auction), MustNewGame(TenPoint), MustNewGame(Pawnee)} {
		rng := NewRand(7)
		seen := map[string]bool{}
		for hand := range 200 {
			st := Deal(g, hand%g.Seats(), nil, rng)
			for !st.Terminal() {
				for range 3 {
					a := randomAttempt(&st, rng.IntN(1000))
					before := st
					err := st.Apply(a)
					var ae *ActionError
					if err == nil {
						st = before
						continue
					}
					if !errors.As(err, &ae) {
						t.Fatalf("%s: error %v is not an *ActionError", a, err)
					}
					seen[ae.Code] = true
					if !slices.Contains(refusalCodes, ae.Code) || ae.Rule == "" || ae.Params["Seat"] != int(a.Seat) {
						t.Fatalf("%s refused (%s) with code %q, rule %q, params %v", a, ae.Problem, ae.Code, ae.Rule, ae.Params)
					}
				}
				if err := st.Apply(st.RandomAction(rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if len(seen) < 4 {
			t.Errorf("%s: only the codes %v came up", g.Variant, seen)
		}
	}
}

func refusal(t *testing.T, s *State, a Action) *ActionError {
	t.Helper()
	var ae *ActionError
	if err := s.Apply(a); !errors.As(err, &ae) {
		t.Fatalf("%s: %v, want a refusal", a, err)
	}
	return ae
}

// randomAttempt is an action of any kind by any seat, mostly illegal.
func randomAttempt(s *State, n int) Action {
	seat := n % int(s.n)
	card := Card(n % 54)
	switch n % 8 {
	case 0:
		return Bid(seat, n%12)
	case 1:
		return Pass(seat)
	case 2:
		return Call(seat, card)
	case 3:
		return NameTrump(seat, Suit(n%5))
	case 4:
		return GiveStock(seat, n%2 == 0)
	case 5:
		return PassTrumps(seat, SetOf(card))
	case 6:
		return Discard(seat, SetOf(card, Card((n+7)%54)))
	}
	return Play(seat, card)
}
