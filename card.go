package pitch

import (
	"fmt"
	"math/bits"
	"strings"
)

// Suit is one of the four suits. NoSuit marks "not yet known".
type Suit uint8

// The four suits in the order C D H S (C-3), and NoSuit.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
	NoSuit
)

// String returns the one-letter name used in hand records: C, D, H or S.
func (s Suit) String() string {
	if s < NoSuit {
		return "CDHS"[s : s+1]
	}
	return "-"
}

// Red reports whether the suit is hearts or diamonds (C-4).
func (s Suit) Red() bool { return s == Diamonds || s == Hearts }

// Partner returns the other suit of the same colour (C-4).
func (s Suit) Partner() Suit {
	switch s {
	case Clubs:
		return Spades
	case Spades:
		return Clubs
	case Diamonds:
		return Hearts
	case Hearts:
		return Diamonds
	}
	return NoSuit
}

// ParseSuit reads C, D, H or S (either case).
func ParseSuit(s string) (Suit, error) {
	if len(s) == 1 {
		if i := strings.IndexByte("CDHS", upper(s[0])); i >= 0 {
			return Suit(i), nil
		}
	}
	return NoSuit, fmt.Errorf("unknown suit %q: a suit is C, D, H or S", s)
}

// Rank is a card's rank within its printed suit, 2 lowest (0) to ace highest (12).
type Rank uint8

// The thirteen ranks.
const (
	Two Rank = iota
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

const rankLetters = "23456789TJQKA"

// String returns the rank's letter as written in C-3.
func (r Rank) String() string {
	if r <= Ace {
		return rankLetters[r : r+1]
	}
	return "?"
}

// Card is one of the 54 cards: suit*13+rank for the 52, then the two jokers.
type Card uint8

// The jokers (C-3) and the "no card" marker.
const (
	BigJoker    Card = 52
	LittleJoker Card = 53
	NoCard      Card = 255
)

// NewCard returns the card of the given rank and suit.
func NewCard(r Rank, s Suit) Card { return Card(uint8(s)*13 + uint8(r)) }

// Suit returns the printed suit; jokers have NoSuit.
func (c Card) Suit() Suit { return suitOf[c&63] }

// suitOf is Card.Suit as a table: the playout path asks it for every card.
var suitOf = func() (t [64]Suit) {
	for c := range t {
		t[c] = NoSuit
		if c < 52 {
			t[c] = Suit(c / 13)
		}
	}
	return t
}()

// Rank returns the printed rank; meaningless for jokers.
func (c Card) Rank() Rank { return Rank(c % 13) }

// IsJoker reports whether c is BJ or LJ.
func (c Card) IsJoker() bool { return c == BigJoker || c == LittleJoker }

// Valid reports whether c names one of the 54 cards.
func (c Card) Valid() bool { return c < 54 }

// cardNames are the 52 suited cards' names (String), made once: a card's
// name is asked for in every refusal and log line.
var cardNames = func() (t [BigJoker]string) {
	for c := range t {
		t[c] = string([]byte{rankLetters[Card(c).Rank()], "CDHS"[Card(c).Suit()]})
	}
	return t
}()

// String writes the card as in C-3: rank then suit ("TH", "2C"), or BJ / LJ.
func (c Card) String() string {
	switch {
	case c == BigJoker:
		return "BJ"
	case c == LittleJoker:
		return "LJ"
	case c < BigJoker:
		return cardNames[c]
	}
	return "??"
}

// MarshalText writes the card as String does.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("invalid card %d", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a card as ParseCard does.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// ParseCard reads a card written as in C-3: "TH", "10h", "jd", "BJ", "lj".
func ParseCard(s string) (Card, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	switch t {
	case "BJ":
		return BigJoker, nil
	case "LJ":
		return LittleJoker, nil
	}
	if strings.HasPrefix(t, "10") {
		t = "T" + t[2:]
	}
	if len(t) == 2 {
		r := strings.IndexByte(rankLetters, t[0])
		su := strings.IndexByte("CDHS", t[1])
		if r >= 0 && su >= 0 {
			return NewCard(Rank(r), Suit(su)), nil
		}
	}
	return NoCard, fmt.Errorf("unknown card %q: a card is a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S), or BJ / LJ", s)
}

// MustParseCard is ParseCard for constants in tests and examples; it panics on a bad card.
func MustParseCard(s string) Card {
	c, err := ParseCard(s)
	if err != nil {
		panic(err)
	}
	return c
}

// CardSet is a set of cards as a 64-bit mask: bit c is card c.
type CardSet uint64

// Deck52 holds the 52 ordinary cards; Deck54 adds the two jokers.
const (
	Deck52 CardSet = 1<<52 - 1
	Deck54 CardSet = 1<<54 - 1
)

// SuitSet returns the 13 cards printed in suit s.
func SuitSet(s Suit) CardSet { return CardSet(1<<13-1) << (13 * uint(s)) }

// SetOf returns the set holding the given cards.
func SetOf(cards ...Card) CardSet {
	var s CardSet
	for _, c := range cards {
		s |= c.Set()
	}
	return s
}

// Set returns the one-card set {c}.
func (c Card) Set() CardSet { return 1 << c }

// bit is Set for a card known to be valid: one shift, no range check, for
// the hot paths.
func (c Card) bit() CardSet { return 1 << (c & 63) }

// Has reports whether c is in s.
func (s CardSet) Has(c Card) bool { return c < 64 && s&(1<<c) != 0 }

// Len returns the number of cards in s.
func (s CardSet) Len() int { return bits.OnesCount64(uint64(s)) }

// Empty reports whether s holds no card.
func (s CardSet) Empty() bool { return s == 0 }

// First returns the lowest-numbered card of s, or NoCard.
func (s CardSet) First() Card {
	if s == 0 {
		return NoCard
	}
	return Card(bits.TrailingZeros64(uint64(s)))
}

// Nth returns the n-th card of s (0-based, in card-number order), or NoCard.
func (s CardSet) Nth(n int) Card {
	if uint(n) < 8 {
		if s = s.dropFew(n); s == 0 {
			return NoCard
		}
		return Card(bits.TrailingZeros64(uint64(s)))
	}
	for ; s != 0; s &= s - 1 {
		if n == 0 {
			return Card(bits.TrailingZeros64(uint64(s)))
		}
		n--
	}
	return NoCard
}

// dropFew removes the n lowest cards of s, for n from 0 to 7, in steps of
// 1, 2 and 4 chosen by n's bits: no branch on n, for random playouts that
// call it with a random n, where a loop's exit would be mispredicted.
func (s CardSet) dropFew(n int) CardSet {
	d1 := s & (s - 1)
	if n&1 != 0 {
		s = d1
	}
	d2 := s & (s - 1)
	d2 &= d2 - 1
	if n&2 != 0 {
		s = d2
	}
	d4 := s & (s - 1)
	d4 &= d4 - 1
	d4 &= d4 - 1
	d4 &= d4 - 1
	if n&4 != 0 {
		s = d4
	}
	return s
}

// Cards lists the cards of s in card-number order (suit by suit, 2 up to ace, then BJ, LJ).
func (s CardSet) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for ; s != 0; s &= s - 1 {
		out = append(out, Card(bits.TrailingZeros64(uint64(s))))
	}
	return out
}

// String writes the set's cards separated by spaces.
func (s CardSet) String() string {
	var b strings.Builder
	for i, c := range s.Cards() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// ParseCards reads cards separated by spaces or commas.
func ParseCards(s string) ([]Card, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
	out := make([]Card, 0, len(f))
	for _, w := range f {
		c, err := ParseCard(w)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
