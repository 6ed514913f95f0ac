package server_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"pitch"
)

// Deals chosen by the test, without a hook in the server: a fair deal is
// dealt from the server's secret and the values the seated pages send
// (pitch.FairSeed), the secret is in the store before its commitment is
// published, and the hub's clients are the pages. So a hub with a rig
// reads the secret of each new commitment and tries values for the
// table's human seats until the hand they deal is one the rig accepts.
// The hand is then certain, not lucky, as long as the deal takes those
// values: every human seat is one of the hub's clients, connected, and
// says so in its hello (hub.fair), so that the deal waits for them; a
// test that relies on it checks the hand it got (overSixPlan does).

// rigTries bounds the values tried for one deal. A rig should accept a
// deal often enough that this is never reached where it can accept one
// (TestOverSixDeal); where it cannot (at overSixDeal, a deal where a
// bot speaks first), the tries cost some 20 ms.
const rigTries = 1 << 12

// value is the value c contributes to the commitment m shows: a random
// one, or with a rig, the one of the values it chose for every human seat.
func (c *client) value(m *wire) string {
	h, commit := c.h, m.Fair.Next.Commitment
	if h.rig == nil {
		var v [32]byte
		for i := range v {
			v[i] = byte(h.rng.IntN(256))
		}
		return fmt.Sprintf("%x", v)
	}
	if h.rigged == nil {
		h.rigged = map[string]map[int]string{}
	}
	if _, ok := h.rigged[commit]; !ok {
		h.rigged[commit] = h.rigValues(m)
	}
	return h.rigged[commit][c.seat]
}

// rigValues picks the values of the table's human seats for the deal m
// commits to: the first of rigTries random choices whose deal the rig
// accepts, or the last tried.
func (h *hub) rigValues(m *wire) map[int]string {
	h.t.Helper()
	next := m.Fair.Next
	var secret [32]byte
	list, err := h.ts.st.Commitments(bg, h.table)
	if err != nil {
		h.t.Fatalf("the commitments of %s: %v", h.table, err)
	}
	found := false
	for _, cm := range list {
		var p struct {
			Secret string `json:"secret"`
		}
		if cm.N == next.Hand && cm.Commitment == next.Commitment && json.Unmarshal(cm.Pending, &p) == nil {
			secret, err = pitch.ParseHex32(p.Secret, "the secret")
			found = err == nil
		}
	}
	if !found {
		h.t.Fatalf("hand %d's commitment %s has no secret in the store", next.Hand, next.Commitment)
	}
	info, err := h.ts.st.Table(bg, h.table)
	if err != nil {
		h.t.Fatal(err)
	}
	g := gameOf(h.t, info)
	var contribs []pitch.Contribution
	var humans []int
	for _, s := range m.Table.Seats {
		if s.Kind == "human" {
			contribs = append(contribs, pitch.Contribution{Seat: s.Seat})
			humans = append(humans, s.Seat)
		}
	}
	for range rigTries {
		for i := range contribs {
			var v [32]byte
			for j := range v {
				v[j] = byte(h.rng.IntN(256))
			}
			contribs[i].Value = fmt.Sprintf("%x", v)
		}
		seed, err := pitch.FairSeed(secret, contribs)
		if err != nil {
			h.t.Fatal(err)
		}
		st, err := pitch.NewHand(g, next.Dealer, make([]int, len(m.View.Counts)), pitch.FairDeck(g, seed))
		if err != nil {
			h.t.Fatal(err)
		}
		if h.rig(&st, humans) {
			break
		}
	}
	out := map[int]string{}
	for _, c := range contribs {
		out[c.Seat] = c.Value
	}
	return out
}

// longestTrumps is the suit with the most trumps in hand (the first of
// equals): the test clients name it at ten-point (hub.choose).
func longestTrumps(hand pitch.CardSet) pitch.Suit {
	best, most := pitch.Clubs, -1
	for su := pitch.Clubs; su < pitch.NoSuit; su++ {
		if n := (hand & pitch.Trumps(su, true)).Len(); n > most {
			best, most = su, n
		}
	}
	return best
}

// overSixDeal reports, for a ten-point hand as dealt, the seat that speaks
// first if that seat, bidding the moon (which closes the auction at once,
// TP-BID-1), naming its longest trump suit and keeping the stock as the
// test clients do, then holds 8 trumps or more and may pass some to its
// partner (TP-TR-5): it acts first in that step, and whatever it passes
// (at most all but 7, as the clients do) it burns after. ok is false for
// any other hand.
func overSixDeal(s *pitch.State) (seat int, ok bool) {
	if s.Game().Variant != pitch.TenPoint || s.Phase() != pitch.PhaseBid {
		return 0, false
	}
	x := s.Turn()
	st := *s
	for _, a := range []pitch.Action{pitch.Bid(x, 10), pitch.NameTrump(x, longestTrumps(st.Hand(x))), pitch.GiveStock(x, false)} {
		if st.Apply(a) != nil {
			return 0, false
		}
	}
	return x, st.Phase() == pitch.PhasePassBurn && st.Turn() == x && st.Hand(x).Len() >= 8 && st.PassLimit() > 0
}

// overSixPlan is a hub's plan and rig at a ten-point table whose human
// seats are all the hub's clients: every deal is one where a human speaks
// first and, bidding the moon, holds over 6 trumps with a partner under
// 6 (overSixDeal); that human bids the moon, and its first choice between
// passing and burning is a pass. So the hand shows a pass of trumps and a
// burn (TP-TR-5) for certain. The plan reads the hand from the store (the
// test may see every card): it bids the moon only when the deal is one
// of those, whatever the rig did.
func overSixPlan(h *hub) {
	h.fair = true // the values chosen are in the deal, not only when in time
	h.rig = func(s *pitch.State, humans []int) bool {
		x, ok := overSixDeal(s)
		return ok && slices.Contains(humans, x)
	}
	h.plan = func(c *client, m *wire) (pitch.Action, bool) {
		n := len(m.View.Counts)
		if m.View.Phase != "bid" || m.View.Turn != c.seat || c.seat != (m.View.Dealer+1)%n {
			return pitch.Action{}, false
		}
		_, _, snaps := replay(h.t, h.ts.st, h.table)
		if m.Seq >= len(snaps) {
			return pitch.Action{}, false
		}
		if x, ok := overSixDeal(&snaps[m.Seq].st); !ok || x != c.seat {
			return pitch.Action{}, false
		}
		// The next choice between passing and burning is the hub's odd
		// one: a pass (of at most all but 7), then a burn.
		*h.overSix &^= 1
		h.t.Logf("hand %d: %s, over 6 trumps as dealt, bids the moon", m.HandNo, c.name)
		return pitch.Bid(c.seat, 10), true
	}
}

// TestOverSixDeal: the rig's test of a deal agrees with the engine on a
// hand it accepts, and accepts a fair share of hands.
func TestOverSixDeal(t *testing.T) {
	g := pitch.MustNewGame(pitch.TenPoint)
	rng := pitch.NewRand(3)
	accepted := 0
	for i := range 2000 {
		s := pitch.Deal(g, i%4, []int{0, 0, 0, 0}, rng)
		x, ok := overSixDeal(&s)
		if !ok {
			continue
		}
		accepted++
		for _, a := range []pitch.Action{pitch.Bid(x, 10), pitch.NameTrump(x, longestTrumps(s.Hand(x))), pitch.GiveStock(x, false)} {
			if err := s.Apply(a); err != nil {
				t.Fatalf("deal %d: %v", i, err)
			}
		}
		if s.Turn() != x || s.PassLimit() < 1 || s.Hand(x).Len() < 8 {
			t.Fatalf("deal %d: seat %d holds %v, pass limit %d, turn %d", i, x, s.Hand(x), s.PassLimit(), s.Turn())
		}
	}
	if accepted < 100 {
		t.Errorf("%d of 2000 deals accepted; the rig would try long", accepted)
	}
	t.Logf("%d of 2000 deals accepted", accepted)
}
