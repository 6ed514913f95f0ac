package pitch

import (
	"fmt"
	"math/bits"
	"strings"
)

// ActionError is a refused action (C-7): what was wrong and what is allowed.
// A refused action leaves the state unchanged.
//
// Problem says it in English; Code, Rule and Params say it for a program
// (a client that shows it in another language): Code is stable (see
// docs/protocol.md), Rule the rule ID broken when one is, and Params the
// seats, numbers and cards involved (cards as their codes, lists as slices).
type ActionError struct {
	Action  Action
	Problem string // what was wrong, e.g. "seat 2 must play a trump (holds TH, 4H)"
	Code    string
	Rule    string
	Params  map[string]any
}

func (e *ActionError) Error() string { return e.Problem }

// why is what refuse needs to say besides the English text: the code, the
// rule and the parameters.
type why struct {
	code, rule string
	params     map[string]any
}

func (s *State) refuse(a Action, w why, format string, args ...any) error {
	return s.refuseText(a, w, fmt.Sprintf(format, args...))
}

// refuseText is refuse with the problem written already.
func (s *State) refuseText(a Action, w why, problem string) error {
	p := w.params
	if p == nil {
		p = map[string]any{}
	}
	if _, ok := p["Seat"]; !ok {
		p["Seat"] = int(a.Seat)
	}
	return &ActionError{Action: a, Problem: problem, Code: w.code, Rule: w.rule, Params: p}
}

// codes lists a set's cards by code, for ActionError.Params.
func codes(set CardSet) []string {
	out := make([]string, 0, set.Len())
	for c := set; c != 0; c &= c - 1 {
		out = append(out, c.First().String())
	}
	return out
}

// bidNums lists the bids of a bid mask, for ActionError.Params.
func bidNums(bids uint16) []int {
	out := []int{}
	for ; bids != 0; bids &= bids - 1 {
		out = append(out, bits.TrailingZeros16(bids))
	}
	return out
}

// cardList is set's cards, as String writes them, with commas: "AS, 2C".
func cardList(set CardSet) string {
	var buf [54 * 4]byte
	b := buf[:0]
	for c := set; c != 0; c &= c - 1 {
		if len(b) > 0 {
			b = append(b, ", "...)
		}
		b = append(b, c.First().String()...)
	}
	return string(b)
}

// bidRule names each game's bidding rule.
var bidRule = [...]string{Auction: "AP-BID-1", TenPoint: "TP-BID-1", Pawnee: "PW-BID-1"}

// forcedRule names the rule that forces the dealer's bid in each game, and
// exactly says whether that bid is one number.
var (
	forcedRule = [...]string{Auction: "AP-BID-4", TenPoint: "TP-BID-2", Pawnee: "PW-BID-3"}
	exactly    = [...]string{Auction: "", TenPoint: "exactly ", Pawnee: "exactly "}
)

func bidList(bids uint16, canPass bool) string {
	var parts []string
	if canPass {
		parts = append(parts, "pass")
	}
	for ; bids != 0; bids &= bids - 1 {
		parts = append(parts, fmt.Sprint(bits.TrailingZeros16(bids)))
	}
	return strings.Join(parts, ", ")
}

// expect describes, for an error message, what the seat to act may do now.
func (s *State) expect() string {
	switch s.phase {
	case PhaseBid:
		b, p := s.bidOptions()
		return "bid (" + bidList(b, p) + ")"
	case PhaseCall:
		return "call a card"
	case PhaseTrump:
		return "name trump"
	case PhaseGiveStock:
		return "choose give_stock"
	case PhasePassBurn:
		if s.passLimit() > 0 {
			return "pass trumps or burn"
		}
		return "burn"
	case PhaseDiscard:
		return "discard"
	case PhasePlay:
		return "play a card"
	}
	return "nothing: the hand is over"
}

var phaseActions = [...]string{PhaseBid: "bid or pass", PhaseCall: "call", PhaseTrump: "trump",
	PhaseGiveStock: "give_stock", PhasePassBurn: "pass_trumps or discard", PhaseDiscard: "discard", PhasePlay: "play", PhaseDone: "none"}

// Apply checks action a against the rules and, if they allow it, carries it
// out. A refused action returns an *ActionError and changes nothing (C-7).
func (s *State) Apply(a Action) error {
	if s.phase == PhasePlay && a.Kind == ActPlay && int(a.Seat) == int(s.turn) {
		return s.applyPlay(a) // the hot path of every playout
	}
	if s.phase == PhaseDone {
		return s.refuse(a, why{code: "hand_over", rule: "C-7"}, "the hand is over: no more actions are allowed")
	}
	if int(a.Seat) != int(s.turn) {
		if s.phase == PhaseBid && s.variant == Pawnee && a.Seat >= 0 && a.Seat < s.n && s.passed&(1<<a.Seat) != 0 {
			// PW-BID-1: say why, not only whose turn it is.
			return s.refuse(a, why{code: "passed", rule: "PW-BID-1", params: map[string]any{"Turn": int(s.turn)}},
				"seat %d has passed and may not bid again; it is seat %d's turn to %s", a.Seat, s.turn, s.expect())
		}
		return s.refuse(a, why{code: "not_your_turn", rule: "C-7", params: map[string]any{"Turn": int(s.turn), "Phase": s.phase.String()}},
			"it is seat %d's turn to %s, not seat %d's", s.turn, s.expect(), a.Seat)
	}
	ok := false
	switch s.phase {
	case PhaseBid:
		ok = a.Kind == ActBid || a.Kind == ActPass
	case PhaseCall:
		ok = a.Kind == ActCall
	case PhaseTrump:
		ok = a.Kind == ActTrump
	case PhaseGiveStock:
		ok = a.Kind == ActGiveStock
	case PhasePassBurn:
		ok = a.Kind == ActPassTrumps || a.Kind == ActDiscard
	case PhaseDiscard:
		ok = a.Kind == ActDiscard
	case PhasePlay:
		ok = a.Kind == ActPlay
	}
	if !ok {
		return s.refuse(a, why{code: "wrong_phase", rule: "C-7", params: map[string]any{"Kind": a.Kind.String(), "Phase": s.phase.String()}},
			"seat %d may not %s now: the hand is at %s, where the action is %s", a.Seat, a.Kind, s.phase, phaseActions[s.phase])
	}
	switch a.Kind {
	case ActBid, ActPass:
		return s.applyBid(a)
	case ActCall:
		return s.applyCall(a)
	case ActTrump:
		if a.Suit >= NoSuit {
			return s.refuse(a, why{code: "bad_trump", rule: "TP-TR-1"}, "trump must be one of C, D, H, S")
		}
		s.applyTrump(a.Suit)
		return nil
	case ActGiveStock:
		s.applyGiveStock(a.Give)
		return nil
	case ActPassTrumps:
		return s.applyPassTrumps(a)
	case ActDiscard:
		return s.applyDiscard(a)
	}
	return s.applyPlay(a)
}

func (s *State) applyBid(a Action) error {
	bids, canPass := s.bidOptions()
	if a.Kind == ActPass {
		if !canPass {
			return s.refuse(a, why{code: "dealer_must_bid", rule: forcedRule[s.variant], params: map[string]any{"Bids": bidNums(bids)}},
				"seat %d is the dealer and everyone else passed: the dealer must bid %s%s (%s)", a.Seat, exactly[s.variant], bidList(bids, false), forcedRule[s.variant])
		}
		s.passed |= 1 << a.Seat
	} else {
		if a.Bid < 0 || a.Bid > 15 || bids&(1<<a.Bid) == 0 {
			if !canPass && s.variant != Auction { // TP-BID-2, PW-BID-3
				return s.refuse(a, why{code: "dealer_exact", rule: forcedRule[s.variant], params: map[string]any{"Bid": int(a.Bid), "Bids": bidNums(bids)}},
					"seat %d may not bid %d: the dealer, after everyone else passed, must bid exactly %s (%s)", a.Seat, a.Bid, bidList(bids, false), forcedRule[s.variant])
			}
			if s.variant == Pawnee && a.Bid == 10 && s.bid < 10 && s.scores[a.Seat] < 0 { // PW-BID-4
				return s.refuse(a, why{code: "moon_negative", rule: "PW-BID-4", params: map[string]any{"Score": int(s.scores[a.Seat]), "Bids": bidNums(bids), "Pass": canPass}},
					"seat %d may not bid 10: its score %d is negative; allowed are %s", a.Seat, s.scores[a.Seat], bidList(bids, canPass))
			}
			return s.refuse(a, why{code: "bid_not_allowed", rule: bidRule[s.variant], params: map[string]any{"Bid": int(a.Bid), "Bids": bidNums(bids), "Pass": canPass}},
				"seat %d may not bid %d: allowed are %s", a.Seat, a.Bid, bidList(bids, canPass))
		}
		s.bid, s.bidder = a.Bid, a.Seat
	}
	s.logBid(a)
	over := false
	switch s.variant {
	case Auction:
		over = s.bid == 4 || s.nbids == s.n // AP-BID-1, AP-BID-2
	case TenPoint:
		over = s.bid == 10 || s.nbids == s.n // TP-BID-1
	case Pawnee:
		over = s.bid == 10 || (s.bid > 0 && bits.OnesCount8(s.passed) == int(s.n)-1) // PW-BID-2
	}
	if !over {
		t := s.next(s.turn)
		for s.passed&(1<<t) != 0 {
			t = s.next(t)
		}
		s.turn = t
		return nil
	}
	s.turn = s.bidder
	switch s.variant {
	case Auction:
		s.startPlay(s.bidder) // AP-PLAY-1
	case TenPoint:
		s.phase = PhaseTrump
	case Pawnee:
		s.phase = PhaseCall
	}
	return nil
}

func (s *State) applyCall(a Action) error {
	if !a.Card.Valid() || a.Card.IsJoker() {
		return s.refuse(a, why{code: "call_joker", rule: "PW-CALL-1", params: map[string]any{"Card": a.Card.String()}},
			"seat %d may not call %s: the called card must be one of the 52 cards, not a joker", a.Seat, a.Card)
	}
	if !s.callAllowed(a.Card) {
		return s.refuse(a, why{code: "call_own", rule: "PW-CALL-1", params: map[string]any{"Card": a.Card.String()}},
			"seat %d may not call %s: it is in the bidder's own hand and call_own_card is off; call a card you do not hold", a.Seat, a.Card)
	}
	s.called = a.Card
	s.setTrump(a.Card.Suit())    // PW-CALL-1
	s.hands[s.bidder] |= s.widow // PW-WID-1
	s.partner = -1
	for seat := range s.n {
		if seat != s.bidder && s.hands[seat].Has(a.Card) {
			s.partner = seat
		}
	}
	s.setSides()
	s.phase, s.turn = PhaseDiscard, s.next(s.dealer) // PW-DIS-1
	return nil
}

// applyTrump runs TP-TR-1 to TP-TR-3: trump is named, everyone drops
// their non-trumps face down, and the fill comes from the top of the
// stock. The pitcher then decides on the rest of the stock (TP-TR-4),
// knowing how many cards each seat drew and how many are left.
func (s *State) applyTrump(t Suit) {
	s.setTrump(t)
	tr := s.trumps()
	for seat := range s.n {
		s.hidden[seat] |= s.hands[seat] &^ tr
		s.out[seat] |= s.hands[seat] &^ tr
		s.hands[seat] &= tr
		s.notIn[seat] = ^tr // after TP-TR-2 every hand holds only trumps
	}
	seat := s.dealer
	for range s.n {
		seat = s.next(seat)
		if c := s.hands[seat].Len(); c < 6 {
			s.takeStock(seat, 6-c)
		}
	}
	s.phase = PhaseGiveStock
}

// takeStock gives seat up to k cards from the top of the stock; the
// non-trumps among them go straight out of play, face down (TP-TR-3,
// TP-TR-4).
func (s *State) takeStock(seat int8, k int) {
	tr := s.trumps()
	for ; k > 0 && int(s.stockTop) < len(s.stock); k-- {
		c := s.stock[s.stockTop]
		s.stockTop++
		s.fillGot[seat]++
		if tr.Has(c) {
			s.hands[seat] |= c.Set()
		} else {
			s.hidden[seat] |= c.Set()
			s.out[seat] |= c.Set()
		}
	}
}

// applyGiveStock finishes TP-TR-4: the rest of the stock goes to the
// pitcher, or to the partner if the pitcher gives it.
func (s *State) applyGiveStock(give bool) {
	s.give = give
	s.receiver = s.bidder
	if give {
		s.receiver = (s.bidder + 2) % 4
	}
	s.takeStock(s.receiver, len(s.stock))
	s.phase = PhasePassBurn
	s.passBurn = 0
	s.turn = s.dealer
	s.advancePassBurn()
}

// advancePassBurn moves to the next seat, from the dealer's left, that holds
// more than 6 trumps (TP-TR-5), or starts play.
func (s *State) advancePassBurn() {
	for s.passBurn < s.n {
		s.passBurn++
		seat := (s.dealer + s.passBurn) % s.n
		if s.hands[seat].Len() > 6 {
			s.turn = seat
			return
		}
	}
	lead := s.bidder // TP-PLAY-1
	s.startPlay(lead)
}

func (s *State) applyPassTrumps(a Action) error {
	lim := s.passLimit()
	h := s.hands[a.Seat]
	partner := (a.Seat + 2) % 4
	if lim == 0 {
		reason := fmt.Sprintf("its partner, seat %d, holds %d", partner, s.hands[partner].Len())
		code := "pass_partner_full"
		if s.passedTo[a.Seat] != 0 {
			reason, code = "it has passed once already", "pass_once"
		}
		return s.refuse(a, why{code: code, rule: "TP-TR-5", params: map[string]any{"Partner": int(partner), "Count": h.Len() - 6, "Held": codes(h)}},
			"seat %d may not pass trumps: %s; it must burn %d of %s", a.Seat, reason, h.Len()-6, cardList(h))
	}
	if a.Cards&^h != 0 || a.Cards.Len() == 0 || a.Cards.Len() > lim {
		return s.refuse(a, why{code: "pass_count", rule: "TP-TR-5", params: map[string]any{"Count": lim, "Partner": int(partner), "Cards": codes(a.Cards)}},
			"seat %d may pass 1 to %d of its own trumps (%s) to seat %d, not %s", a.Seat, lim, cardList(h), partner, cardList(a.Cards))
	}
	s.hands[a.Seat] &^= a.Cards
	s.hands[partner] |= a.Cards
	s.passedTo[a.Seat] = a.Cards
	if s.hands[a.Seat].Len() <= 6 {
		s.advancePassBurn()
	}
	return nil
}

func (s *State) applyDiscard(a Action) error {
	h := s.hands[a.Seat]
	ch := s.discardChoice()
	if !ch.allows(a.Cards) {
		verb := "discard"
		if s.variant == TenPoint {
			verb = "burn"
		}
		var want string
		switch {
		case ch.must == 0:
			want = fmt.Sprintf("%d of %s", ch.k, cardList(ch.pool))
		case ch.k == 0:
			want = fmt.Sprintf("exactly %s", cardList(ch.must))
		default:
			want = fmt.Sprintf("all of %s and %d of %s", cardList(ch.must), ch.k, cardList(ch.pool))
		}
		code, rule := "discard_wrong", "PW-DIS-2"
		if s.variant == TenPoint {
			code, rule = "burn_wrong", "TP-TR-5"
		}
		return s.refuse(a, why{code: code, rule: rule, params: map[string]any{"Count": h.Len() - 6, "Must": codes(ch.must), "Pool": codes(ch.pool), "Choose": ch.k, "Cards": codes(a.Cards)}},
			"seat %d must %s %d cards (holds %s): %s, not %s%s", a.Seat, verb, h.Len()-6, cardList(h), want, cardList(a.Cards), s.discardWhy(a.Cards, ch))
	}
	s.hands[a.Seat] &^= a.Cards
	s.out[a.Seat] |= a.Cards
	tr := s.trumps()
	if s.variant == TenPoint {
		s.shown |= a.Cards // TP-TR-5: burned trumps are shown
		s.advancePassBurn()
		return nil
	}
	s.hidden[a.Seat] |= a.Cards &^ tr
	s.pending |= a.Cards & tr // PW-DIS-2: shown once all have discarded
	if a.Cards&tr != 0 {
		// A trump went, so every non-trump went first; a point card went,
		// so every unprotected card went too (PW-DIS-2, PW-DIS-3).
		s.notIn[a.Seat] |= ^tr
		if a.Cards&(pawneePoints(s.trump)|s.called.Set()) != 0 {
			s.notIn[a.Seat] |= ^(pawneePoints(s.trump) | s.called.Set())
		}
	}
	s.discards++
	if s.discards < s.n {
		s.turn = s.next(a.Seat)
		return nil
	}
	s.shown |= s.pending
	s.pending = 0
	lead := s.bidder
	if s.partner >= 0 {
		lead = s.partner // PW-PLAY-1: the holder of the called card leads it
	}
	s.startPlay(lead)
	return nil
}

// discardWhy says, for a refused pawnee discard, which part of PW-DIS-2 or
// PW-DIS-3 it breaks ("" when the listing of what is allowed says it all).
func (s *State) discardWhy(cards CardSet, ch choice) string {
	if s.variant != Pawnee {
		return ""
	}
	h := s.hands[s.turn]
	tr := s.trumps()
	pts := cards & pawneePoints(s.trump)
	switch {
	case cards&^h != 0:
		return fmt.Sprintf(" (seat %d does not hold %s)", s.turn, cardList(cards&^h))
	case cards.Len() != h.Len()-6:
		return fmt.Sprintf(" (that is %d cards)", cards.Len())
	case cards.Has(s.called):
		return fmt.Sprintf(" (%s is the called card, which may never be discarded)", s.called)
	case pts != 0 && ch.pool&pts != pts:
		return fmt.Sprintf(" (%s: a point card may be discarded only by a seat holding more than 6 protected cards)", cardList(pts))
	case cards&tr != 0 && h&^tr&^cards != 0:
		return fmt.Sprintf(" (%s: a trump may be discarded only with every non-trump)", cardList(cards&tr))
	}
	return ""
}

// startPlay begins the tricks with lead (or the next seat holding a trump).
func (s *State) startPlay(lead int8) {
	s.phase = PhasePlay
	s.openTrick()
	if s.variant == Auction {
		s.leader, s.turn = lead, lead
		return
	}
	for seat := range s.n {
		s.inPlay |= s.hands[seat] & s.trumps()
	}
	s.nextLeader(lead)
}

// openTrick sets what may be led to a new trick: any card in auction
// (AP-PLAY-2), the called card to the first pawnee trick (PW-PLAY-1), else
// a trump — a seat with none is skipped before its turn (TP-PLAY-1,
// PW-PLAY-2).
func (s *State) openTrick() {
	switch {
	case s.variant == Auction:
		s.must, s.follow = 0, 0
	case s.variant == Pawnee && s.tricks == 0:
		s.must, s.follow = s.called.Set(), s.called.Set()
	default:
		s.must, s.follow = s.tmask, s.tmask
	}
}

// lead sets up the trick that card c, about to be led, opens: in auction
// the first card names trump (AP-PLAY-1); the key table that ranks the
// trick's cards; and, in auction, what the others must follow with
// (AP-PLAY-2: a card of the suit led or a trump while holding the suit
// led; a trump while holding one when trump is led). Elsewhere only
// trumps are played after the lead.
func (s *State) lead(c Card) {
	led := c.Suit()
	if s.trump == NoSuit {
		s.setTrump(led) // AP-PLAY-1
	}
	s.win = 0
	s.keys = &trickKeys[b2i(s.g.jokers)][s.trump&3][led]
	if s.variant != Auction {
		s.must, s.follow = s.tmask, s.tmask
		return
	}
	// Auction's trumps are exactly the trump suit, so one formula covers
	// both cases, with no branch on the random suit led: with trump led,
	// must and follow are both the trumps.
	s.must = SuitSet(led)
	s.follow = s.must | s.tmask
}

// nextLeader sets lead, or the next seat clockwise holding a trump, to lead;
// with no trump left the hand ends (TP-PLAY-2, TP-PLAY-3, PW-PLAY-2, PW-PLAY-3).
func (s *State) nextLeader(lead int8) {
	tr := s.trumps()
	for range s.n {
		if s.hands[lead]&tr != 0 {
			s.leader, s.turn = lead, lead
			return
		}
		s.notIn[lead] |= tr // skipped: holds no trump
		lead = s.next(lead)
	}
	s.finish()
}

func (s *State) applyPlay(a Action) error {
	legal := s.legalPlays()
	if !legal.Has(a.Card) {
		return s.refusePlay(a, legal)
	}
	s.play(a.Card)
	return nil
}

// CheckPlay is the error Apply would return if the seat to act played c,
// without playing it: nil when c may be played (C-7), else a new
// *ActionError each call, whose Params the caller may change. Outside
// PhasePlay it is Apply's refusal of the play, on a copy of s.
func (s *State) CheckPlay(c Card) error {
	a := Play(int(s.turn), c)
	if s.phase != PhasePlay {
		try := *s
		return try.Apply(a)
	}
	legal := s.legalPlays()
	if legal.Has(c) {
		return nil
	}
	return s.refusePlay(a, legal)
}

// refusePlay is the refusal of a, a play of a card outside legal by the
// seat to act.
func (s *State) refusePlay(a Action, legal CardSet) error {
	w, msg := s.playProblem(a, legal)
	return s.refuseText(a, w, msg)
}

// play puts c, a legal card of the seat to act, on the trick and moves on.
func (s *State) play(c Card) {
	if s.trickLen == 0 {
		s.lead(c)
	}
	seat, n, bit := s.turn&7, s.trickLen&7, c.bit()
	// Branch-free updates: which card wins and whether a seat shows a
	// void are random in a playout, so branches on them mispredict.
	// Two cards of a trick never share a key, but for the -1 of cards
	// that can never win, so max of key and index picks the winner.
	s.win = max(s.win, int16(s.keys[c&63]+1)<<3|int16(n))
	// A card outside follow shows that the seat holds no must card: in
	// auction a void in the suit led (AP-PLAY-2), public knowledge for
	// views and resampling. The card led is always inside follow.
	void := s.must
	if bit&s.follow != 0 {
		void = 0
	}
	s.notIn[seat] |= void
	s.hands[seat] &^= bit
	s.played[seat] |= bit
	s.trick[n] = c
	s.trickSeat[n] = seat
	s.trickSet |= bit
	s.trickLen = n + 1
	if s.variant == Auction { // everyone plays every trick
		if n+1 != s.n {
			s.turn = s.next(seat)
			return
		}
		s.finishTrick()
		return
	}
	// Next seat in this trick: clockwise from seat, back to the leader,
	// skipping seats with no trump.
	tr := s.trumps()
	for t := s.next(seat); t != s.leader; t = s.next(t) {
		if s.hands[t]&tr != 0 {
			s.turn = t
			return
		}
		s.notIn[t] |= tr // folded: holds no trump (TP-PLAY-1, PW-PLAY-2)
	}
	s.finishTrick()
}

func (s *State) playProblem(a Action, legal CardSet) (why, string) {
	h := s.hands[a.Seat]
	p := map[string]any{"Card": a.Card.String(), "Legal": codes(legal)}
	switch {
	case !h.Has(a.Card) && legal != h: // C-7: say what may be played, not just what is held
		return why{"not_held", "C-7", p}, fmt.Sprintf("seat %d does not hold %s (holds %s; may play %s)", a.Seat, a.Card, cardList(h), cardList(legal))
	case !h.Has(a.Card):
		return why{"not_held", "C-7", p}, fmt.Sprintf("seat %d does not hold %s (holds %s)", a.Seat, a.Card, cardList(h))
	case s.variant == Pawnee && s.tricks == 0 && s.trickLen == 0:
		p["Called"] = s.called.String()
		return why{"lead_called", "PW-PLAY-1", p}, fmt.Sprintf("seat %d must lead the called card %s", a.Seat, s.called)
	case s.variant != Auction:
		rule := "TP-PLAY-1"
		if s.variant == Pawnee {
			rule = "PW-PLAY-2"
		}
		return why{"play_trump", rule, p}, fmt.Sprintf("seat %d must play a trump (holds %s)", a.Seat, cardList(legal))
	case s.trick[0].Suit() == s.trump:
		return why{"follow_trump", "AP-PLAY-2", p}, fmt.Sprintf("seat %d must follow trump (holds %s)", a.Seat, cardList(legal))
	}
	p["Suit"] = s.trick[0].Suit().String()
	return why{"follow_suit", "AP-PLAY-2", p}, fmt.Sprintf("seat %d must follow %s or play a trump (may play %s)", a.Seat, s.trick[0].Suit(), cardList(legal))
}

// beats reports whether card c, played to the trick, beats the card
// winning it so far.
func (s *State) beats(c Card) bool { return int16(s.keys[c&63]+1)<<3 > s.win }

// best returns the index in the trick of the card winning it so far.
func (s *State) best() int8 { return int8(s.win & 7) }

// trickWinner works out afresh, from the rules rather than the key table
// play uses, the index of the card winning the trick in progress: the
// highest trump wins; with no trump, the highest card of the suit led
// (AP-PLAY-3, TP-PLAY-2, PW-PLAY-2). Resample uses it, and tests check
// play's bookkeeping against it.
func (s *State) trickWinner() int {
	t := s.g.trump(s.trump)
	led := s.trick[0].Suit()
	best := 0
	for i := 1; i < int(s.trickLen); i++ {
		c, b := s.trick[i], s.trick[best]
		cs, bs := t.strength[c], t.strength[b]
		switch {
		case cs >= 0 || bs >= 0:
			if cs > bs {
				best = i
			}
		case c.Suit() == led && (b.Suit() != led || c.Rank() > b.Rank()):
			best = i
		}
	}
	return best
}

func (s *State) finishTrick() {
	w := s.trickSeat[s.best()]
	s.won[w] |= s.trickSet
	s.trickSet = 0
	s.trickWins[w]++
	s.tricks++
	s.last, s.lastSeat, s.lastLen, s.lastWon = s.trick, s.trickSeat, s.trickLen, w
	s.trickLen = 0
	if s.tricks == 6 { // AP-PLAY-3, TP-PLAY-3, PW-PLAY-3
		s.finish()
		return
	}
	s.openTrick()
	if s.variant == Auction {
		s.leader, s.turn = w, w
		return
	}
	s.nextLeader(w)
}

func (s *State) finish() {
	s.phase = PhaseDone
	s.turn = -1
	s.trickLen = 0
	s.score()
}
