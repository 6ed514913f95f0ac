package pitch

import "math/bits"

// trumpOrder describes which cards are trumps for one trump suit and how
// they rank (C-4, C-5).
type trumpOrder struct {
	mask     CardSet
	strength [54]int8 // -1 for a card that is not a trump; higher wins
	order    [16]Card // trumps from highest to lowest
	n        int
	offJack  Card // NoCard where the off-jack is not used

	// With jokers: upper is the suit's Q K A, middle J, off-J, BJ, LJ
	// (highest first), lower the suit's 2 to T.
	upper, lower CardSet
	middle       [4]Card
}

// trumpOrders[jokers][suit]: jokers=1 for the games that use jokers and the off-jack.
// (A var with a function, not init: trickKeys below is built from it, and
// package variables are all set before any init function runs.)
var trumpOrders = buildTrumpOrders()

func buildTrumpOrders() (trumpOrders [2][4]trumpOrder) {
	for j := 0; j < 2; j++ {
		for s := Clubs; s < NoSuit; s++ {
			t := &trumpOrders[j][s]
			for i := range t.strength {
				t.strength[i] = -1
			}
			t.offJack = NoCard
			var low []Card // ranked lowest first
			for r := Two; r <= Ace; r++ {
				low = append(low, NewCard(r, s))
				if j == 1 && r == Ten {
					low = append(low, LittleJoker, BigJoker, NewCard(Jack, s.Partner()))
				}
			}
			if j == 1 {
				t.offJack = NewCard(Jack, s.Partner())
				t.upper = SetOf(NewCard(Queen, s), NewCard(King, s), NewCard(Ace, s))
				t.lower = SuitSet(s) &^ t.upper &^ NewCard(Jack, s).Set()
				t.middle = [4]Card{NewCard(Jack, s), t.offJack, BigJoker, LittleJoker}
			}
			t.n = len(low)
			for i, c := range low {
				t.strength[c] = int8(i)
				t.mask |= c.Set()
				t.order[len(low)-1-i] = c
			}
		}
	}
	return trumpOrders
}

// Trumps returns the trump cards when suit s is trump: the suit alone, or
// with jokers it also holds the off-jack and both jokers (C-4, C-5).
func Trumps(s Suit, jokers bool) CardSet {
	if s >= NoSuit {
		return 0
	}
	return trumpOrders[b2i(jokers)][s].mask
}

// TrumpOrder lists the trumps for suit s from highest to lowest (C-5);
// none for NoSuit.
func TrumpOrder(s Suit, jokers bool) []Card {
	if s >= NoSuit {
		return []Card{}
	}
	t := &trumpOrders[b2i(jokers)][s]
	return append([]Card(nil), t.order[:t.n]...)
}

// OffJack returns the other jack of the trump suit's colour (C-4).
func OffJack(s Suit) Card { return NewCard(Jack, s.Partner()) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// highest returns the highest trump in set, or NoCard. The trumps fall
// into runs that card numbers order as the trump order does (C-5): the
// suit's Q K A, then J, off-J, BJ, LJ one by one, then the suit's 2 to T.
func (t *trumpOrder) highest(set CardSet) Card {
	set &= t.mask
	if t.offJack == NoCard { // plain order: card numbers rank the suit
		if set == 0 {
			return NoCard
		}
		return Card(63 - bits.LeadingZeros64(uint64(set)))
	}
	if hi := set & t.upper; hi != 0 {
		return Card(63 - bits.LeadingZeros64(uint64(hi)))
	}
	for _, c := range t.middle {
		if set.Has(c) {
			return c
		}
	}
	if set == 0 {
		return NoCard
	}
	return Card(63 - bits.LeadingZeros64(uint64(set&t.lower)))
}

// lowest returns the lowest trump in set, or NoCard.
func (t *trumpOrder) lowest(set CardSet) Card {
	set &= t.mask
	if t.offJack == NoCard {
		if set == 0 {
			return NoCard
		}
		return Card(bits.TrailingZeros64(uint64(set)))
	}
	if lo := set & t.lower; lo != 0 {
		return Card(bits.TrailingZeros64(uint64(lo)))
	}
	for i := len(t.middle) - 1; i >= 0; i-- {
		if set.Has(t.middle[i]) {
			return t.middle[i]
		}
	}
	if set == 0 {
		return NoCard
	}
	return Card(bits.TrailingZeros64(uint64(set & t.upper)))
}

// RankSet returns the four cards of rank r.
func RankSet(r Rank) CardSet {
	const clubs = 1 | 1<<13 | 1<<26 | 1<<39
	return CardSet(clubs) << r
}

// gameValue is the Game value of the cards in set (AP-PT-4): each ten 10,
// ace 4, king 3, queen 2, jack 1. The five counting ranks lie next to each
// other in every suit, so each suit's part is one lookup.
func gameValue(set CardSet) int {
	return int(suitGameValue[set>>Ten&31] + suitGameValue[set>>(13+Ten)&31] +
		suitGameValue[set>>(26+Ten)&31] + suitGameValue[set>>(39+Ten)&31])
}

// suitGameValue[b] is the Game value of one suit's ten, jack, queen, king
// and ace as bits 0 to 4 of b.
var suitGameValue = func() (v [32]uint8) {
	worth := [5]uint8{10, 1, 2, 3, 4} // T J Q K A
	for b := range v {
		for i, w := range worth {
			if b&(1<<i) != 0 {
				v[b] += w
			}
		}
	}
	return v
}()

// trickKeys[jokers][trump][led][c] ranks card c in a trick: 32 + its trump
// strength for a trump, its rank for a card of the suit led, -1 for any
// other card. The card with the highest key wins the trick (AP-PLAY-3,
// TP-PLAY-2, PW-PLAY-2); led is NoSuit when a joker was led.
var trickKeys = func() (k [2][4][5][64]int8) {
	for j := range 2 {
		for t := Clubs; t < NoSuit; t++ {
			order := &trumpOrders[j][t]
			for led := Clubs; led <= NoSuit; led++ {
				for c := range Card(54) {
					switch {
					case order.strength[c] >= 0:
						k[j][t][led][c] = 32 + order.strength[c]
					case c.Suit() == led:
						k[j][t][led][c] = int8(c.Rank())
					default:
						k[j][t][led][c] = -1
					}
				}
			}
		}
	}
	return k
}()

// displaySuits is the order the suits are shown in a sorted hand, so that
// the colours alternate: ♠ ♥ ♣ ♦.
var displaySuits = [4]Suit{Spades, Hearts, Clubs, Diamonds}

// SortHand lists hand in the order a player sorts it: the trumps first,
// highest first (C-5); then the jokers when no trump is named yet (big
// before little); then each other suit in the order ♠ ♥ ♣ ♦, highest
// first. trump is NoSuit before the trump suit is known; jokers is the
// game's (Game.Jokers).
func SortHand(hand CardSet, trump Suit, jokers bool) []Card {
	return AppendSortedHand(make([]Card, 0, hand.Len()), hand, trump, jokers)
}

// AppendSortedHand appends hand, sorted as SortHand sorts it, to out.
func AppendSortedHand(out []Card, hand CardSet, trump Suit, jokers bool) []Card {
	rest := hand
	if trump < NoSuit {
		t := &trumpOrders[b2i(jokers)][trump]
		for _, c := range t.order[:t.n] {
			if hand.Has(c) {
				out = append(out, c)
			}
		}
		rest &^= Trumps(trump, jokers)
	}
	for _, c := range [2]Card{BigJoker, LittleJoker} {
		if rest.Has(c) {
			out = append(out, c)
		}
	}
	for _, s := range displaySuits {
		for r := int(Ace); r >= int(Two); r-- {
			if c := NewCard(Rank(r), s); rest.Has(c) {
				out = append(out, c)
			}
		}
	}
	return out
}
