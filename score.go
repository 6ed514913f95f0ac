package pitch

import (
	"fmt"
	"math/bits"
	"sort"
)

// PointKind names one kind of point a hand can award.
type PointKind uint8

// The kinds of point, in the order hand records list them.
const (
	PointHigh PointKind = iota
	PointLow
	PointJack
	PointOffJack
	PointGame
	PointBigJoker
	PointLittleJoker
	PointTen
	PointThree
	PointTwo
	PointAce
)

var pointKindNames = [...]string{"high", "low", "jack", "off_jack", "game", "big_joker", "little_joker", "ten", "three", "two", "ace"}

// String returns the name used in hand records.
func (k PointKind) String() string {
	if int(k) < len(pointKindNames) {
		return pointKindNames[k]
	}
	return fmt.Sprintf("PointKind(%d)", k)
}

// ParsePointKind reads a name written by String.
func ParsePointKind(s string) (PointKind, error) {
	for i, n := range pointKindNames {
		if n == s {
			return PointKind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown point kind %q", s)
}

// Point is one point awarded: its kind, the card (NoCard for game) and
// the seat credited.
type Point struct {
	Kind PointKind
	Card Card
	Seat int8
}

// value is what the point is worth: 3 for the trump three (TP-PT-1, PW-PT-1), else 1.
func (p Point) value() int {
	if p.Kind == PointThree {
		return 3
	}
	return 1
}

// outcome is a scored hand, kept in fixed arrays so that scoring allocates nothing.
type outcome struct {
	points  [12]Point
	np      int8
	taken   [MaxSeats]int16 // points each seat's side took
	delta   [MaxSeats]int32
	made    bool
	winners uint8 // seats that won the match on this hand
}

// kindCard returns the trump card that scores a point of kind k.
func kindCard(k PointKind, trump Suit) Card {
	switch k {
	case PointBigJoker:
		return BigJoker
	case PointLittleJoker:
		return LittleJoker
	case PointOffJack:
		return OffJack(trump)
	case PointJack:
		return NewCard(Jack, trump)
	case PointTen:
		return NewCard(Ten, trump)
	case PointThree:
		return NewCard(Three, trump)
	case PointTwo:
		return NewCard(Two, trump)
	case PointAce:
		return NewCard(Ace, trump)
	}
	return NoCard
}

// owner returns the seat whose won tricks hold c, or -1 while c lies in
// no finished trick.
func (s *State) owner(c Card) int8 {
	for seat := range s.n {
		if s.won[seat].Has(c) {
			return seat
		}
	}
	return -1
}

func (s *State) player(c Card) int8 {
	for seat := range s.n {
		if s.played[seat].Has(c) {
			return seat
		}
	}
	return -1
}

// awardPoints lists the points won so far: only cards lying in finished
// tricks count, and Game only when the hand is over. On a finished hand
// this is every point of the hand.
func (s *State) awardPoints(out *[12]Point) int {
	if s.trump == NoSuit {
		return 0
	}
	n := 0
	add := func(k PointKind, c Card, seat int8) {
		if seat >= 0 {
			out[n] = Point{k, c, seat}
			n++
		}
	}
	t := s.tord
	switch s.variant {
	case Auction:
		inPlay := (s.g.Deck() &^ s.undlt) & t.mask
		hi, lo := t.highest(inPlay), t.lowest(inPlay)
		if hi == NoCard {
			return 0
		}
		add(PointHigh, hi, s.owner(hi)) // AP-PT-1, AP-PT-5
		lowSeat := s.owner(lo)          // AP-PT-2
		if s.g.Options.LowToHolder && lowSeat >= 0 {
			for seat := range s.n {
				if s.dealt[seat].Has(lo) {
					lowSeat = seat
				}
			}
		}
		add(PointLow, lo, lowSeat)
		if j := NewCard(Jack, s.trump); inPlay.Has(j) { // AP-PT-3
			add(PointJack, j, s.owner(j))
		}
		if s.phase == PhaseDone { // AP-PT-4
			var value [MaxSeats]int
			for seat := range s.n {
				value[s.sideKey(seat)] += gameValue(s.won[seat])
			}
			best, bestKey, tie := -1, int8(-1), false
			for k := range s.n {
				switch {
				case value[k] > best:
					best, bestKey, tie = value[k], k, false
				case value[k] == best:
					tie = true
				}
			}
			if !tie && best > 0 {
				add(PointGame, NoCard, bestKey)
			}
		}
	case TenPoint: // TP-PT-1
		n = s.addCardPoints(out, n, tenPointPoints(s.trump))
	case Pawnee: // PW-PT-1, PW-PT-2
		hi, lo := t.highest(s.inPlay), t.lowest(s.inPlay)
		if hi != NoCard && s.owner(hi) >= 0 {
			add(PointHigh, hi, s.player(hi))
		}
		if lo != NoCard && s.owner(lo) >= 0 {
			add(PointLow, lo, s.player(lo))
		}
		n = s.addCardPoints(out, n, pawneePoints(s.trump))
	}
	return n
}

// cardPointOrder is the hand-record order of the card kinds after game.
var cardPointOrder = [...]PointKind{PointJack, PointOffJack, PointBigJoker, PointLittleJoker, PointTen, PointThree, PointTwo, PointAce}

// addCardPoints appends a point for each point card in play that lies in a
// finished trick, credited to the trick's winner, in record order.
func (s *State) addCardPoints(out *[12]Point, n int, pts CardSet) int {
	have := pts & s.inPlay
	for _, k := range cardPointOrder {
		card := kindCard(k, s.trump)
		if !have.Has(card) {
			continue
		}
		if w := s.owner(card); w >= 0 {
			out[n] = Point{k, card, w}
			n++
		}
	}
	return n
}

// sideKey returns a representative of the seat's side: its lowest seat.
func (s *State) sideKey(seat int8) int8 {
	return int8(bits.TrailingZeros8(s.sides[seat]))
}

// score fills s.res once the hand is done (AP-SC, TP-SC, TP-MOON,
// TP-END, PW-SC, PW-MOON, PW-END, AP-END).
func (s *State) score() {
	r := &s.res
	*r = outcome{}
	r.np = int8(s.awardPoints(&r.points))
	var bySide [MaxSeats]int16 // by each side's lowest seat
	for _, p := range r.points[:r.np] {
		bySide[s.sideKey(p.Seat)] += int16(p.value())
	}
	for seat := range s.n {
		r.taken[seat] = bySide[s.sideKey(seat)]
	}
	b := s.bidder
	bid := int32(s.bid)
	r.made = int32(r.taken[b]) >= bid
	target := int32(s.g.Options.Target)
	var after [MaxSeats]int32
	switch s.variant {
	case Auction:
		for seat := range s.n {
			r.delta[seat] = int32(r.taken[seat]) // AP-SC-2
			if s.sameSide(seat, b) && !r.made {
				r.delta[seat] = -bid // AP-SC-1
			}
			after[seat] = s.scores[seat] + r.delta[seat]
		}
		if after[b] >= target { // AP-END-1
			r.winners = s.sideMask(b)
		}
	case TenPoint:
		moon := s.bid == 10
		if moon {
			r.made = r.taken[b] >= 10 // TP-MOON-1
		}
		for seat := range s.n {
			switch {
			case !s.sameSide(seat, b):
				r.delta[seat] = int32(r.taken[seat]) // TP-SC-2
			case moon && r.made && s.scores[seat] < 0:
				r.delta[seat] = -s.scores[seat] // TP-MOON-1: back to 0
			case r.made:
				r.delta[seat] = bid // TP-SC-1
			default:
				r.delta[seat] = -bid
			}
			after[seat] = s.scores[seat] + r.delta[seat]
		}
		other := s.next(b)
		switch {
		case moon && r.made && s.scores[b] >= 0:
			r.winners = s.sideMask(b)
		case moon && !r.made:
			r.winners = s.sideMask(other)
		case after[b] >= target: // TP-END-1: the pitcher's side wins a tie
			r.winners = s.sideMask(b)
		case after[other] >= target:
			r.winners = s.sideMask(other)
		}
	case Pawnee:
		var tricks [MaxSeats]int32
		for seat := range s.n {
			tricks[s.sideKey(seat)] += int32(s.trickWins[seat])
		}
		for seat := range s.n {
			amount := int32(r.taken[seat])
			if s.g.Options.ScoreTricks {
				amount = tricks[s.sideKey(seat)]
			}
			switch {
			case !s.sameSide(seat, b) || r.made: // PW-SC-1, PW-SC-2
				r.delta[seat] = amount
			case seat == b || !s.g.Options.FailBidderOnly:
				r.delta[seat] = -bid
			}
			after[seat] = s.scores[seat] + r.delta[seat]
		}
		if s.bid == 10 && r.made { // PW-MOON-1
			r.winners = 1 << b
			break
		}
		// PW-END-1: a successful bidder at the target wins, whatever the
		// others hold; otherwise only a lone player at the target wins.
		if r.made && after[b] >= target {
			r.winners = 1 << b
			break
		}
		var at uint8
		for seat := range s.n {
			if after[seat] >= target {
				at |= 1 << seat
			}
		}
		if bits.OnesCount8(at) == 1 {
			r.winners = at
		}
	}
}

func (s *State) sideMask(seat int8) uint8 { return s.sides[seat] }

// Result is what a hand came to, as far as it has gone (HAND-RECORD.md).
type Result struct {
	Complete bool
	Bidder   int     // -1 until the auction is over
	Bid      int     // 0 until the auction is over
	Trump    Suit    // NoSuit until known
	Partner  int     // pawnee: the called card's holder, -1 alone or before the call
	Teams    [][]int // the sides, bidder's first; nil until known
	Points   []Point
	Taken    []int // points each seat's side took
	Made     bool  // meaningful only when Complete
	Delta    []int // change of match score per seat (zeros until Complete)
	Scores   []int // match scores after the hand (before it, until Complete)
	Winner   []int // seats that won the match on this hand; nil for none
}

// Result returns what the hand came to so far.
func (s *State) Result() Result {
	r := Result{Complete: s.phase == PhaseDone, Bidder: -1, Trump: s.trump, Partner: -1}
	auctionOver := s.phase > PhaseBid
	if auctionOver {
		r.Bidder, r.Bid = int(s.bidder), int(s.bid)
		if s.variant != Pawnee || s.phase > PhaseCall {
			r.Teams = s.teams()
		}
		r.Partner = int(s.partner)
	}
	var out outcome
	if r.Complete {
		out = s.res
	} else {
		out.np = int8(s.awardPoints(&out.points))
	}
	r.Points = append([]Point{}, out.points[:out.np]...)
	r.Taken = make([]int, s.n)
	r.Delta = make([]int, s.n)
	r.Scores = make([]int, s.n)
	for seat := range s.n {
		for _, p := range r.Points {
			if auctionOver && s.sameSide(seat, p.Seat) || p.Seat == seat {
				r.Taken[seat] += p.value()
			}
		}
		r.Scores[seat] = int(s.scores[seat])
		if r.Complete {
			r.Delta[seat] = int(out.delta[seat])
			r.Scores[seat] += r.Delta[seat]
		}
	}
	if r.Complete {
		r.Made = out.made
		for seat := range s.n {
			if out.winners&(1<<seat) != 0 {
				r.Winner = append(r.Winner, int(seat))
			}
		}
	}
	return r
}

// teams lists the sides, the bidder's first and the others by lowest seat.
func (s *State) teams() [][]int {
	var sides [][]int
	seen := uint8(0)
	add := func(seat int8) {
		if seen&(1<<seat) != 0 {
			return
		}
		var side []int
		for k := range s.n {
			if s.sameSide(k, seat) {
				side = append(side, int(k))
				seen |= 1 << k
			}
		}
		sides = append(sides, side)
	}
	add(s.bidder)
	for seat := range s.n {
		add(seat)
	}
	sort.SliceStable(sides[1:], func(i, j int) bool { return sides[1+i][0] < sides[1+j][0] })
	return sides
}

// NewScores returns the match scores after a finished hand.
func (s *State) NewScores() []int {
	out := make([]int, s.n)
	for i := range out {
		out[i] = int(s.scores[i] + s.res.delta[i])
	}
	return out
}

// Winners returns the seats that won the match on this finished hand, or nil.
func (s *State) Winners() []int {
	var w []int
	for seat := range int(s.n) {
		if s.res.winners&(1<<seat) != 0 {
			w = append(w, seat)
		}
	}
	return w
}
