package pitch

// trumpOrder describes which cards are trumps for one trump suit and how
// they rank (C-4, C-5).
type trumpOrder struct {
	mask     CardSet
	strength [54]int8 // -1 for a card that is not a trump; higher wins
	order    [16]Card // trumps from highest to lowest
	n        int
	offJack  Card // NoCard where the off-jack is not used
}

// trumpOrders[jokers][suit]: jokers=1 for the games that use jokers and the off-jack.
var trumpOrders [2][4]trumpOrder

func init() {
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
			}
			t.n = len(low)
			for i, c := range low {
				t.strength[c] = int8(i)
				t.mask |= c.Set()
				t.order[len(low)-1-i] = c
			}
		}
	}
}

// Trumps returns the trump cards when suit s is trump: the suit alone, or
// with jokers it also holds the off-jack and both jokers (C-4, C-5).
func Trumps(s Suit, jokers bool) CardSet {
	if s >= NoSuit {
		return 0
	}
	return trumpOrders[b2i(jokers)][s].mask
}

// TrumpOrder lists the trumps for suit s from highest to lowest (C-5).
func TrumpOrder(s Suit, jokers bool) []Card {
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

// highest returns the highest trump in set, or NoCard.
func (t *trumpOrder) highest(set CardSet) Card {
	set &= t.mask
	for i := 0; i < t.n && set != 0; i++ {
		if set.Has(t.order[i]) {
			return t.order[i]
		}
	}
	return NoCard
}

// lowest returns the lowest trump in set, or NoCard.
func (t *trumpOrder) lowest(set CardSet) Card {
	set &= t.mask
	for i := t.n - 1; i >= 0 && set != 0; i-- {
		if set.Has(t.order[i]) {
			return t.order[i]
		}
	}
	return NoCard
}

// cardValue is the Game value of a card in auction pitch (AP-PT-4).
func cardValue(c Card) int {
	if c.IsJoker() {
		return 0
	}
	switch c.Rank() {
	case Ten:
		return 10
	case Ace:
		return 4
	case King:
		return 3
	case Queen:
		return 2
	case Jack:
		return 1
	}
	return 0
}
