package pitch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The card names of C-3, written out here independently of card.go.
const (
	crdRanks = "23456789TJQKA"
	crdSuits = "CDHS"
)

// crdAllNames lists the 54 card names in card-number order (suit by suit,
// 2 up to ace, then BJ and LJ).
func crdAllNames() []string {
	var out []string
	for _, s := range crdSuits {
		for _, r := range crdRanks {
			out = append(out, string(r)+string(s))
		}
	}
	return append(out, "BJ", "LJ")
}

// C-3: every one of the 54 cards is written rank then suit, parses back to
// itself, and is numbered suit*13+rank with the jokers after the 52.
func TestCardWriteParseRoundTrip(t *testing.T) {
	names := crdAllNames()
	if len(names) != 54 {
		t.Fatalf("test table has %d names", len(names))
	}
	for i, name := range names {
		c := Card(i)
		if got := c.String(); got != name {
			t.Errorf("Card(%d).String() = %q, want %q", i, got, name)
		}
		got, err := ParseCard(name)
		if err != nil || got != c {
			t.Errorf("ParseCard(%q) = %v, %v; want %v", name, got, err, c)
		}
		// lower case and surrounding blanks are accepted (C-3)
		if got, err := ParseCard(" " + strings.ToLower(name) + " "); err != nil || got != c {
			t.Errorf("ParseCard(lower %q) = %v, %v; want %v", name, got, err, c)
		}
		// 10 for T (C-3)
		if name[0] == 'T' {
			for _, alt := range []string{"10" + name[1:], "10" + strings.ToLower(name[1:])} {
				if got, err := ParseCard(alt); err != nil || got != c {
					t.Errorf("ParseCard(%q) = %v, %v; want %v", alt, got, err, c)
				}
			}
		}
		b, err := c.MarshalText()
		if err != nil || string(b) != name {
			t.Errorf("Card(%d).MarshalText() = %q, %v; want %q", i, b, err, name)
		}
		var back Card
		if err := back.UnmarshalText([]byte(strings.ToLower(name))); err != nil || back != c {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", strings.ToLower(name), back, err, c)
		}
		if !c.Valid() {
			t.Errorf("Card(%d).Valid() = false", i)
		}
	}
}

// C-3: rank, suit and joker accessors agree with the written names.
func TestCardRankSuit(t *testing.T) {
	tests := []struct {
		name  string
		rank  Rank
		suit  Suit
		joker bool
	}{
		{"2C", Two, Clubs, false},
		{"TH", Ten, Hearts, false},
		{"JD", Jack, Diamonds, false},
		{"AS", Ace, Spades, false},
		{"QS", Queen, Spades, false},
		{"BJ", 0, NoSuit, true},
		{"LJ", 0, NoSuit, true},
	}
	for _, tt := range tests {
		c := MustParseCard(tt.name)
		if c.Suit() != tt.suit || c.IsJoker() != tt.joker {
			t.Errorf("%s: suit %v joker %v, want %v %v", tt.name, c.Suit(), c.IsJoker(), tt.suit, tt.joker)
		}
		if !tt.joker {
			if c.Rank() != tt.rank || NewCard(tt.rank, tt.suit) != c {
				t.Errorf("%s: rank %v, NewCard %v", tt.name, c.Rank(), NewCard(tt.rank, tt.suit))
			}
			if got, want := c.Rank().String()+c.Suit().String(), tt.name; got != want {
				t.Errorf("rank+suit strings = %q, want %q", got, want)
			}
		}
	}
	if BigJoker.String() != "BJ" || LittleJoker.String() != "LJ" {
		t.Errorf("jokers written %s %s, want BJ LJ", BigJoker, LittleJoker)
	}
	if NoCard.Valid() || Card(54).Valid() {
		t.Errorf("cards 54 and NoCard must not be valid")
	}
}

// C-3: bad cards are refused with a message that names the input and says
// how a card is written.
func TestParseCardErrors(t *testing.T) {
	for _, in := range []string{"", " ", "1H", "11H", "1OH", "TX", "ZZ", "J", "H", "BJJ", "10", "JOKER",
		"T", "HT", "AHS", "0H", "JJ", "BL", "B J", "AH,", "10HH", "\x00H"} {
		c, err := ParseCard(in)
		if err == nil {
			t.Errorf("ParseCard(%q) = %v, want an error", in, c)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, fmt.Sprintf("%q", in)) || !strings.Contains(msg, "rank") || !strings.Contains(msg, "suit") {
			t.Errorf("ParseCard(%q) error %q should quote the input and say how a card is written", in, msg)
		}
		if c != NoCard {
			t.Errorf("ParseCard(%q) returned %v with its error, want NoCard", in, c)
		}
		var u Card = 7
		if u.UnmarshalText([]byte(in)) == nil || u != 7 {
			t.Errorf("UnmarshalText(%q) accepted or changed the card: %v", in, u)
		}
	}
	for _, c := range []Card{54, 63, NoCard} {
		if _, err := c.MarshalText(); err == nil {
			t.Errorf("Card(%d).MarshalText() should fail", c)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("MustParseCard(\"XX\") did not panic")
			}
		}()
		MustParseCard("XX")
	}()
	// a card list in a JSON record goes through UnmarshalText
	var cs []Card
	if err := json.Unmarshal([]byte(`["TH","10d","XX"]`), &cs); err == nil || !strings.Contains(err.Error(), `"XX"`) {
		t.Errorf("json card list with XX: err %v", err)
	}
}

// C-3: suits are C D H S in either case; anything else is refused.
func TestParseSuit(t *testing.T) {
	for i, name := range crdSuits {
		for _, in := range []string{string(name), strings.ToLower(string(name))} {
			got, err := ParseSuit(in)
			if err != nil || got != Suit(i) {
				t.Errorf("ParseSuit(%q) = %v, %v; want %v", in, got, err, Suit(i))
			}
		}
		if got := Suit(i).String(); got != string(name) {
			t.Errorf("Suit(%d).String() = %q, want %q", i, got, string(name))
		}
	}
	for _, in := range []string{"", "X", "CD", "hearts", "1"} {
		if _, err := ParseSuit(in); err == nil || !strings.Contains(err.Error(), "C, D, H or S") {
			t.Errorf("ParseSuit(%q) error %v, want one listing C, D, H or S", in, err)
		}
	}
}

func TestParseCards(t *testing.T) {
	got, err := ParseCards("TH, 10d jc,BJ  lj")
	want := []Card{NewCard(Ten, Hearts), NewCard(Ten, Diamonds), NewCard(Jack, Clubs), BigJoker, LittleJoker}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ParseCards = %v, %v; want %v", got, err, want)
	}
	if _, err := ParseCards("TH QQ"); err == nil || !strings.Contains(err.Error(), `"QQ"`) {
		t.Errorf("ParseCards with QQ: err %v", err)
	}
	if got, err := ParseCards(""); err != nil || len(got) != 0 {
		t.Errorf("ParseCards(\"\") = %v, %v", got, err)
	}
}

func crdSet(t *testing.T, s string) CardSet {
	t.Helper()
	cs, err := ParseCards(s)
	if err != nil {
		t.Fatal(err)
	}
	return SetOf(cs...)
}

func TestCardSetOps(t *testing.T) {
	s := crdSet(t, "AS 2C BJ TH 2C")
	if got, want := s.Len(), 4; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
	// Cards and String list in card-number order: clubs, diamonds, hearts, spades, BJ, LJ.
	if got, want := s.String(), "2C TH AS BJ"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := fmt.Sprint(s.Cards()), "[2C TH AS BJ]"; got != want {
		t.Errorf("Cards = %s, want %s", got, want)
	}
	for _, name := range []string{"AS", "2C", "BJ", "TH"} {
		if !s.Has(MustParseCard(name)) {
			t.Errorf("set lacks %s", name)
		}
	}
	for _, name := range []string{"AH", "3C", "LJ", "TS"} {
		if s.Has(MustParseCard(name)) {
			t.Errorf("set has %s", name)
		}
	}
	if s.Has(NoCard) || s.Has(64) {
		t.Errorf("Has of a non-card must be false")
	}
	if got, want := s.First(), MustParseCard("2C"); got != want {
		t.Errorf("First = %v, want %v", got, want)
	}
	for i, want := range []string{"2C", "TH", "AS", "BJ"} {
		if got := s.Nth(i); got != MustParseCard(want) {
			t.Errorf("Nth(%d) = %v, want %s", i, got, want)
		}
	}
	if s.Nth(4) != NoCard || CardSet(0).First() != NoCard {
		t.Errorf("Nth past the end / First of empty must be NoCard")
	}
	if !CardSet(0).Empty() || s.Empty() {
		t.Errorf("Empty wrong")
	}
	if CardSet(0).String() != "" || len(CardSet(0).Cards()) != 0 {
		t.Errorf("empty set should write as nothing")
	}
	if got := SetOf(); got != 0 {
		t.Errorf("SetOf() = %v", got)
	}
	// the decks
	if Deck52.Len() != 52 || Deck54.Len() != 54 || Deck54&^Deck52 != SetOf(BigJoker, LittleJoker) {
		t.Errorf("decks: %d %d", Deck52.Len(), Deck54.Len())
	}
	for i, su := range crdSuits {
		want := crdSet(t, strings.Join(strings.Split(crdRanks, ""), string(su)+" ")+string(su))
		if got := SuitSet(Suit(i)); got != want {
			t.Errorf("SuitSet(%c) = %v, want %v", su, got, want)
		}
	}
}

// C-4: the off-jack is the other jack of the trump suit's colour.
func TestOffJackAndColour(t *testing.T) {
	tests := []struct {
		trump   Suit
		offJack string
		partner Suit
		red     bool
	}{
		{Clubs, "JS", Spades, false},
		{Spades, "JC", Clubs, false},
		{Hearts, "JD", Diamonds, true},
		{Diamonds, "JH", Hearts, true},
	}
	for _, tt := range tests {
		if got := OffJack(tt.trump); got != MustParseCard(tt.offJack) {
			t.Errorf("OffJack(%v) = %v, want %s", tt.trump, got, tt.offJack)
		}
		if got := tt.trump.Partner(); got != tt.partner {
			t.Errorf("%v.Partner() = %v, want %v", tt.trump, got, tt.partner)
		}
		if tt.trump.Red() != tt.red || tt.partner.Red() != tt.red {
			t.Errorf("%v / %v colour wrong", tt.trump, tt.partner)
		}
	}
	if NoSuit.Partner() != NoSuit {
		t.Errorf("NoSuit.Partner() = %v", NoSuit.Partner())
	}
}

// C-5: the trump order, highest first, written out per suit.
var crdTrumpOrders = map[Suit][2]string{
	// {without jokers (AP-2), with jokers and off-jack (TP-2, PW-2)}
	Clubs:    {"AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "AC KC QC JC JS BJ LJ TC 9C 8C 7C 6C 5C 4C 3C 2C"},
	Diamonds: {"AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "AD KD QD JD JH BJ LJ TD 9D 8D 7D 6D 5D 4D 3D 2D"},
	Hearts:   {"AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AH KH QH JH JD BJ LJ TH 9H 8H 7H 6H 5H 4H 3H 2H"},
	Spades:   {"AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS KS QS JS JC BJ LJ TS 9S 8S 7S 6S 5S 4S 3S 2S"},
}

// C-4, C-5, AP-2, TP-2, PW-2: which cards are trumps and their order.
func TestTrumpOrder(t *testing.T) {
	for su, orders := range crdTrumpOrders {
		for j, want := range orders {
			jokers := j == 1
			if got := fmt.Sprint(TrumpOrder(su, jokers)); got != "["+want+"]" {
				t.Errorf("TrumpOrder(%v, %v) = %s, want [%s]", su, jokers, got, want)
			}
			if got := Trumps(su, jokers); got != crdSet(t, want) {
				t.Errorf("Trumps(%v, %v) = %v, want %v", su, jokers, got, crdSet(t, want))
			}
			// C-4: with jokers the off-jack is a trump and not a card of its printed suit
			// for the hand; without jokers it is a plain card.
			if got := Trumps(su, jokers).Has(OffJack(su)); got != jokers {
				t.Errorf("Trumps(%v, %v) has off-jack: %v", su, jokers, got)
			}
		}
	}
	if Trumps(NoSuit, true) != 0 || len(TrumpOrder(NoSuit, true)) != 0 || TrumpOrder(NoSuit, false) == nil {
		t.Errorf("Trumps(NoSuit) and TrumpOrder(NoSuit) must be empty (and TrumpOrder not nil, for JSON)")
	}
	// TrumpOrder returns a copy: changing it does not change the next call.
	o := TrumpOrder(Hearts, true)
	o[0] = LittleJoker
	if TrumpOrder(Hearts, true)[0] != MustParseCard("AH") {
		t.Errorf("TrumpOrder shares its slice")
	}
}

// C-5: SortHand shows the trumps first in their order, then the jokers
// while no trump is named, then ♠ ♥ ♣ ♦ high to low.
func TestSortHand(t *testing.T) {
	for _, c := range []struct {
		hand   string
		trump  Suit
		jokers bool
		want   string
	}{
		{"2C JD BJ AS 5H LJ", NoSuit, true, "BJ LJ AS 5H 2C JD"},
		{"2H JD BJ AS 5H LJ TH 3C QH", Hearts, true, "QH JD BJ LJ TH 5H 2H AS 3C"},
		{"JH 2D AD 9S TC", Diamonds, false, "AD 2D 9S JH TC"}, // AP: no off-jack
		{"JC JS 2S", Spades, true, "JS JC 2S"},
		{"", Clubs, true, ""},
	} {
		hand := crdSet(t, c.hand)
		got := SortHand(hand, c.trump, c.jokers)
		if g := strings.Trim(fmt.Sprint(got), "[]"); g != c.want {
			t.Errorf("SortHand(%s, %v, %v) = %s, want %s", c.hand, c.trump, c.jokers, g, c.want)
		}
		if SetOf(got...) != hand || len(got) != hand.Len() {
			t.Errorf("SortHand(%s) = %v is not the hand's cards once each", c.hand, got)
		}
	}
}

// crdTrickWinner plays the cards as one trick in a hand with the given
// trump and returns the index of the card the engine says wins.
func crdTrickWinner(g *Game, trump Suit, cards ...Card) int {
	s := State{g: g, trump: trump, n: int8(g.seats)}
	for i, c := range cards {
		s.trick[i] = c
		s.trickSeat[i] = int8(i)
	}
	s.trickLen = int8(len(cards))
	return s.trickWinner()
}

// C-5, AP-PLAY-3, TP-PLAY-2, PW-PLAY-2: of two trumps the higher in the
// written order wins, whichever is played first; jokers and the off-jack
// rank between the jack and the ten.
func TestTrumpOrderDecidesTricks(t *testing.T) {
	for _, g := range []*Game{MustNewGame(Auction), MustNewGame(TenPoint), MustNewGame(Pawnee)} {
		j := b2i(g.Jokers())
		for su, orders := range crdTrumpOrders {
			order, _ := ParseCards(orders[j])
			for hi := range order {
				for lo := hi + 1; lo < len(order); lo++ {
					if w := crdTrickWinner(g, su, order[hi], order[lo]); w != 0 {
						t.Errorf("%s trump %v: %v led, %v played: winner %d, want the leader", g.Variant, su, order[hi], order[lo], w)
					}
					if w := crdTrickWinner(g, su, order[lo], order[hi]); w != 1 {
						t.Errorf("%s trump %v: %v led, %v played: winner %d, want the second", g.Variant, su, order[lo], order[hi], w)
					}
				}
			}
		}
	}
}

// C-5, AP-PLAY-3: with no trump in the trick the highest card of the suit
// led wins, in the plain order A K Q J T .. 2; other suits never win.
func TestPlainOrderDecidesTricks(t *testing.T) {
	g := MustNewGame(Auction, WithPlayers(3))
	const plainOrder = "AKQJT98765432" // C-5, highest first
	for hi := range len(plainOrder) {
		for lo := hi + 1; lo < len(plainOrder); lo++ {
			h := MustParseCard(plainOrder[hi:hi+1] + "H")
			l := MustParseCard(plainOrder[lo:lo+1] + "H")
			off := MustParseCard("AD") // off suit, not trump: never wins
			if w := crdTrickWinner(g, Spades, l, h, off); w != 1 {
				t.Errorf("hearts led %v, then %v, AD: winner %d, want 1", l, h, w)
			}
			if w := crdTrickWinner(g, Spades, h, off, l); w != 0 {
				t.Errorf("hearts led %v, then AD, %v: winner %d, want 0", h, l, w)
			}
		}
	}
	// any trump beats the best card of the suit led
	if w := crdTrickWinner(g, Spades, MustParseCard("AH"), MustParseCard("2S")); w != 1 {
		t.Errorf("2S trump vs AH led: winner %d, want 1", w)
	}
	// C-4 does not apply to auction (AP-2): JD is a plain diamond with hearts trump
	if w := crdTrickWinner(g, Hearts, MustParseCard("2D"), MustParseCard("JD"), MustParseCard("AD")); w != 2 {
		t.Errorf("auction hearts trump: 2D JD AD: winner %d, want 2 (JD is plain)", w)
	}
	// but in the joker games the off-jack is a trump (C-4) and beats the ace of its printed suit
	tp := MustNewGame(TenPoint)
	if w := crdTrickWinner(tp, Hearts, MustParseCard("AD"), MustParseCard("JD")); w != 1 {
		t.Errorf("ten-point hearts trump: AD JD: winner %d, want 1 (JD is the off-jack)", w)
	}
}

// C-4: in a game with the off-jack, it stays with the trumps when every
// non-trump is dropped (TP-TR-2), while the rest of its printed suit goes.
func TestOffJackIsTrumpInPlay(t *testing.T) {
	g := MustNewGame(TenPoint)
	deck := make([]Card, 54)
	for i := range deck {
		deck[i] = Card(i)
	}
	// deal with seat 1 dealt the whole diamond suit from JD up plus hearts
	s, err := NewHand(g, 0, nil, deck)
	if err != nil {
		t.Fatal(err)
	}
	for s.phase == PhaseBid {
		a := Pass(s.Turn())
		if s.Turn() == 0 {
			a = Bid(0, 4) // TP-BID-2: the forced dealer bids exactly 4
		}
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(NameTrump(0, Hearts)); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(GiveStock(0, false)); err != nil {
		t.Fatal(err)
	}
	jd := MustParseCard("JD")
	tr := crdSet(t, crdTrumpOrders[Hearts][1])
	var held CardSet
	for seat := range 4 {
		h := s.Hand(seat) | s.played[seat]
		if h&^tr != 0 {
			t.Errorf("seat %d kept non-trumps %v", seat, h&^tr)
		}
		held |= h
	}
	if !held.Has(jd) && !s.shown.Has(jd) {
		t.Errorf("JD, the off-jack with hearts trump, was dropped as a diamond")
	}
}

// TestGameValue checks the Game count (AP-PT-4) against the card values
// one by one: ten 10, ace 4, king 3, queen 2, jack 1, anything else (the
// jokers included) 0.
func TestGameValue(t *testing.T) {
	worth := map[Rank]int{Ten: 10, Ace: 4, King: 3, Queen: 2, Jack: 1}
	want := func(set CardSet) int {
		v := 0
		for _, c := range set.Cards() {
			if !c.IsJoker() {
				v += worth[c.Rank()]
			}
		}
		return v
	}
	rng := NewRand(7)
	sets := []CardSet{0, Deck52, Deck52 | BigJoker.Set() | LittleJoker.Set(), RankSet(Ten), SuitSet(Spades)}
	for c := range Card(54) {
		sets = append(sets, c.Set())
	}
	for range 1000 {
		sets = append(sets, CardSet(rng.Uint64())&(Deck52|BigJoker.Set()|LittleJoker.Set()))
	}
	for _, set := range sets {
		if got, want := gameValue(set), want(set); got != want {
			t.Fatalf("gameValue(%v) = %d, want %d", set, got, want)
		}
	}
	if got := gameValue(Deck52); got != 80 {
		t.Errorf("gameValue(whole deck) = %d, want 80", got)
	}
}

// TestNthMatchesCards checks Nth, for every n in and past a set, against
// the card list: the branch-free steps for n below 8 and the loop above.
func TestNthMatchesCards(t *testing.T) {
	rng := NewRand(3)
	sets := []CardSet{0, 1, Deck52, 1 << 53, Deck52 | 1<<52 | 1<<53}
	for range 2000 {
		s := CardSet(rng.Uint64() & (1<<54 - 1))
		for range rng.IntN(4) { // thin some out to small hands
			s &= CardSet(rng.Uint64())
		}
		sets = append(sets, s)
	}
	for _, s := range sets {
		cards := s.Cards()
		for n := -1; n <= len(cards)+9; n++ {
			want := NoCard
			if n >= 0 && n < len(cards) {
				want = cards[n]
			}
			if got := s.Nth(n); got != want {
				t.Fatalf("%#x.Nth(%d) = %v, want %v", uint64(s), n, got, want)
			}
		}
	}
}
