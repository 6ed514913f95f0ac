package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"pitch"
)

// The messages made from the engine's values: what each seat may see.

// SuitTrumps counts, for each suit, the trumps of hand if it were trump.
func SuitTrumps(g *pitch.Game, hand pitch.CardSet) map[string]int {
	out := map[string]int{}
	for t := pitch.Clubs; t < pitch.NoSuit; t++ {
		out[t.String()] = (hand & pitch.Trumps(t, g.Jokers())).Len()
	}
	return out
}

// DiscardOf describes the discard or burn the seat to act in s must make.
func DiscardOf(s *pitch.State) *Discard {
	must, pool, k := s.DiscardChoice()
	called, points, trumps, over := s.DiscardKeep()
	d := &Discard{Kind: "discard", Count: must.Len() + k, Must: Cards(must), Pool: Cards(pool), Choose: k,
		PassLimit: s.PassLimit(), Keep: map[pitch.Card]string{}, OverProtected: over}
	pointWhy := "point"
	if s.Game().Variant == pitch.TenPoint {
		d.Kind, pointWhy = "burn", "burn_point"
	}
	d.Rule = discardRule(d.Kind, must, pool, k)
	for _, r := range []struct {
		set pitch.CardSet
		why string
	}{{called, "called"}, {points, pointWhy}, {trumps, "trump"}} {
		for _, c := range r.set.Cards() {
			d.Keep[c] = r.why
		}
	}
	return d
}

// discardRule says in words what a discard or burn of kind must be: all
// of must and k of pool.
func discardRule(kind string, must, pool pitch.CardSet, k int) string {
	n := must.Len() + k
	switch {
	case must == 0:
		return fmt.Sprintf("%s %d of: %s", kind, k, pool)
	case k == 0:
		return fmt.Sprintf("%s exactly: %s", kind, must)
	}
	return fmt.Sprintf("%s %d cards: all of %s, and %d of %s", kind, n, must, k, pool)
}

// Cards is set's cards in card order; [] (never null) for none.
func Cards(set pitch.CardSet) []pitch.Card {
	c := set.Cards()
	if c == nil {
		c = []pitch.Card{}
	}
	return c
}

// ToView is v as the wire shows it: only what its seat may see, the hand
// sorted as a player sorts it (AppendStateViews writes the same straight
// from v).
func ToView(v *pitch.View) View {
	n := v.Game.Seats()
	out := View{Phase: v.Phase.String(), Dealer: v.Dealer, Turn: v.Turn, Scores: v.Scores[:n:n],
		Hand: pitch.SortHand(v.Hand, v.Trump, v.Game.Jokers()), Trumps: pitch.TrumpOrder(v.Trump, v.Game.Jokers()), Counts: v.Counts[:n:n], Bid: v.Bid, Bidder: v.Bidder, Passed: []int{},
		PartnerKnown: v.PartnerKnown, Widow: Cards(v.Widow), Shown: Cards(v.Shown), Out: Cards(v.Out),
		Trick: []TrickCard{}, LastTrick: []TrickCard{}, LastWinner: v.LastWon, Tricks: v.Tricks,
		TrickWins: v.TrickWins[:n:n], StockLeft: v.StockLeft}
	if v.Game.Variant == pitch.TenPoint && v.Phase >= pitch.PhaseGiveStock {
		out.FillGot = v.FillGot[:n:n]
	}
	for i := range n {
		if v.Passed&(1<<i) != 0 {
			out.Passed = append(out.Passed, i)
		}
	}
	if v.Trump != pitch.NoSuit {
		t := v.Trump.String()
		out.Trump = &t
	}
	if v.Called != pitch.NoCard {
		c := v.Called
		out.Called = &c
	}
	if v.PartnerKnown && v.Partner >= 0 {
		p := v.Partner
		out.Partner = &p
	}
	for i, c := range v.Trick {
		out.Trick = append(out.Trick, TrickCard{v.TrickSeat[i], c})
	}
	for i, c := range v.Last {
		out.LastTrick = append(out.LastTrick, TrickCard{v.LastSeat[i], c})
	}
	return out
}

// LogEntryFor describes one action as seat may see it (-1: a spectator):
// a discard or a pass shows its cards only to those the rules let see them,
// to others only a text that counts them. raw is the action's JSON, shared
// by every seat that may see it all; a client words such an entry from
// the action, in its own language, so no text goes with it.
func LogEntryFor(g *pitch.Game, a pitch.Action, raw json.RawMessage, seat int) LogEntry {
	e := LogEntry{Seat: int(a.Seat)}
	switch a.Kind {
	case pitch.ActDiscard:
		// Ten-point burns are shown (TP-TR-5); a pawnee discard is the
		// discarder's own (its trumps are shown in view.shown once all
		// have discarded, PW-DIS-2).
		if g.Variant != pitch.TenPoint && int(a.Seat) != seat {
			e.Kind, e.Text = a.Kind.String(), fmt.Sprintf("seat %d discards %d cards", a.Seat, a.Cards.Len())
			return e
		}
	case pitch.ActPassTrumps:
		if int(a.Seat) != seat && (int(a.Seat)+2)%4 != seat {
			e.Kind, e.Text = a.Kind.String(), fmt.Sprintf("seat %d passes %d trumps to the partner", a.Seat, a.Cards.Len())
			return e
		}
	}
	e.Action = raw
	return e
}

// Summarize is the summary of hand number n, finished in s, shared by
// every seat (without its View and Log).
func Summarize(n int, s *pitch.State) *HandSummary {
	r := s.Result()
	h := &HandSummary{Hand: n, Bidder: r.Bidder, Bid: r.Bid, Trump: r.Trump.String(), Trumps: pitch.TrumpOrder(r.Trump, s.Game().Jokers()), Teams: r.Teams, Taken: r.Taken,
		Made: r.Made, Delta: r.Delta, Scores: r.Scores, Winner: r.Winner, Points: []Point{}}
	if r.Partner >= 0 {
		p := r.Partner
		h.Partner = &p
	}
	v := s.View(-1)
	h.LastTrick, h.LastWinner, h.Tricks = []TrickCard{}, v.LastWon, v.Tricks
	for i, c := range v.Last {
		h.LastTrick = append(h.LastTrick, TrickCard{v.LastSeat[i], c})
	}
	for _, p := range r.Points {
		pj := Point{Kind: p.Kind.String(), Seat: int(p.Seat)}
		if p.Card != pitch.NoCard {
			c := p.Card
			pj.Card = &c
		}
		h.Points = append(h.Points, pj)
	}
	return h
}

// Refusals says why each card of the acting seat's hand that it may not
// play is refused, in the engine's words (C-7), so that the page can say
// it without knowing the rules. s is in PhasePlay. Cards refused for the
// same reason (nearly always all of them: the reason is the trick's, not
// the card's) share one Refusal, in the order of their first card's name.
func Refusals(s *pitch.State) []Refusal {
	seat := s.Turn()
	var out []Refusal
	legal := s.LegalPlays()
	for c := s.Hand(seat) &^ legal; c != 0; c &= c - 1 {
		card := c.First()
		var ae *pitch.ActionError
		if err := s.CheckPlay(card); errors.As(err, &ae) {
			params := ae.Params // a new map each call: ours
			if params == nil {
				params = map[string]any{}
			}
			if _, ok := params["Rule"]; !ok { // the engine's own, if it has one, as before
				params["Rule"] = ae.Rule
			}
			delete(params, "Card") // the client's to set: the same reason for each card
			i := slices.IndexFunc(out, func(r Refusal) bool {
				return r.Code == ae.Code && r.Message == ae.Problem && reflect.DeepEqual(r.Params, params)
			})
			if i < 0 {
				out = append(out, Refusal{Message: ae.Problem, Code: ae.Code, Params: params})
				i = len(out) - 1
			}
			out[i].Cards = append(out[i].Cards, card)
		}
	}
	for _, r := range out {
		slices.SortFunc(r.Cards, func(x, y pitch.Card) int { return strings.Compare(cardNames[x], cardNames[y]) })
	}
	slices.SortFunc(out, func(x, y Refusal) int { return strings.Compare(cardNames[x.Cards[0]], cardNames[y.Cards[0]]) })
	return out
}
