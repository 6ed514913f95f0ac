package web_test

import (
	"encoding/json"

	"pitch"
)

// topPlan plays both seats of a two-player auction match, held by the
// test, so that a match to 1 ends within a bounded number of hands, not
// by luck (first-legal or random play can set a pitcher hand after hand
// and take its score below 0). In each hand whose bidding it sees from
// the start it finds the seat X holding the top card dealt of a suit (the
// test sees both hands): the non-dealer bids 1 and the dealer passes, or
// steals at 1 when it is X (AP-BID-3); X leads that card, which makes it
// trump and is the top trump dealt (AP-PLAY-1): X takes the first trick
// and High (AP-PT-1), makes its bid and gains at least 1, and nobody's
// score goes down (AP-SC-1, AP-SC-2). So to 1, the first planned hand
// from scores of 0 or more ends the match (AP-END-1); the argument is
// pitchTopCard's, in server/play_test.go. Other moves are the first legal.
type topPlan struct {
	seats [2]*seatClient
	hand  int        // the hand planned
	x     int        // its pitcher
	lead  pitch.Card // its pitcher's first lead
}

// move makes the move of either seat, if one is asked, and reports
// whether one moved.
func (p *topPlan) move() bool {
	var st [2]wsState
	for i, sc := range p.seats {
		sc.mu.Lock()
		st[i] = sc.last
		sc.mu.Unlock()
	}
	for i, sc := range p.seats {
		m, o := st[i], st[1-i]
		if !sc.asked(m) {
			continue
		}
		if m.HandNo != p.hand && m.View.Phase == "bid" && m.View.Bid == 0 && m.View.Turn == (m.View.Dealer+1)%2 {
			// The hand's first bid: plan it once the other seat's state
			// of this hand is in.
			if o.Type != "state" || o.HandNo != m.HandNo {
				continue
			}
			p.plan(m, o)
		}
		a, ok := p.choose(m)
		if !ok {
			return sc.send(m, m.Legal)
		}
		for _, raw := range m.Legal {
			var x pitch.Action
			if json.Unmarshal(raw, &x) == nil && x == a {
				return sc.send(m, []json.RawMessage{raw})
			}
		}
		sc.t.Fatalf("the plan chose %s, which is not among the legal actions %s", a, m.Legal)
	}
	return false
}

// plan finds the hand's pitcher and its lead from the two hands dealt.
func (p *topPlan) plan(m, o wsState) {
	held := map[int]pitch.CardSet{m.Seat: pitch.SetOf(m.View.Hand...), o.Seat: pitch.SetOf(o.View.Hand...)}
	for su := pitch.Clubs; su < pitch.NoSuit; su++ {
		top := pitch.NoCard
		for _, h := range held {
			for _, c := range h.Cards() {
				if c.Suit() == su && (top == pitch.NoCard || c.Rank() > top.Rank()) {
					top = c
				}
			}
		}
		if top == pitch.NoCard {
			continue
		}
		for seat, h := range held {
			if h.Has(top) {
				p.hand, p.x, p.lead = m.HandNo, seat, top
				return
			}
		}
	}
}

// choose is the planned move for m, if its hand is planned and the move
// is.
func (p *topPlan) choose(m wsState) (pitch.Action, bool) {
	if m.HandNo != p.hand {
		return pitch.Action{}, false
	}
	switch m.View.Phase {
	case "bid":
		if m.Seat != m.View.Dealer || m.Seat == p.x {
			return pitch.Bid(m.Seat, 1), true
		}
		return pitch.Pass(m.Seat), true
	case "play":
		if m.Seat == p.x && len(m.View.Hand) == 6 {
			return pitch.Play(m.Seat, p.lead), true
		}
	}
	return pitch.Action{}, false
}
