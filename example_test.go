package pitch_test

import (
	"fmt"
	"reflect"

	"pitch"
)

// Cards are written rank then suit; 10 and lower case are accepted too.
func ExampleParseCard() {
	for _, s := range []string{"TH", "10h", "jd", "BJ", "1H"} {
		c, err := pitch.ParseCard(s)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(c, c.Suit(), c.IsJoker())
	}
	// Output:
	// TH H false
	// TH H false
	// JD D false
	// BJ - true
	// error: unknown card "1H": a card is a rank (2-9, T or 10, J, Q, K, A) then a suit (C, D, H, S), or BJ / LJ
}

// With jokers (ten-point and pawnee) the off-jack and both jokers rank
// between the jack and the ten of trump.
func ExampleTrumpOrder() {
	fmt.Println(pitch.TrumpOrder(pitch.Hearts, true))
	fmt.Println(pitch.TrumpOrder(pitch.Spades, false))
	fmt.Println(pitch.OffJack(pitch.Clubs))
	// Output:
	// [AH KH QH JH JD BJ LJ TH 9H 8H 7H 6H 5H 4H 3H 2H]
	// [AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S]
	// JS
}

// An auction pitch hand dealt from an unshuffled deck: a refused bid
// changes nothing, the dealer steals, and trump is what the pitcher leads.
func ExampleState_Apply() {
	g := pitch.MustNewGame(pitch.Auction)
	deck := pitch.Deck52.Cards() // 2C 3C ... AC 2D ... AS, dealt in packets of 3
	s, _ := pitch.NewHand(g, 0, nil, deck)
	fmt.Println("seat 1 holds", s.Hand(1))

	apply := func(a pitch.Action) {
		if err := s.Apply(a); err != nil {
			fmt.Println("refused:", err)
			return
		}
		fmt.Println(a)
	}
	apply(pitch.Bid(1, 2))
	apply(pitch.Bid(2, 2)) // must be higher than 2
	apply(pitch.Pass(2))
	apply(pitch.Pass(3))
	apply(pitch.Bid(0, 2)) // the dealer steals at the same number
	fmt.Println("pitcher", s.Bidder(), "to lead:", s.Turn())
	apply(pitch.Play(0, pitch.MustParseCard("KC")))
	fmt.Println("trump", s.Trump(), "- seat 1 may play:", s.Legal(nil))
	apply(pitch.Play(1, pitch.MustParseCard("2D")))
	// Output:
	// seat 1 holds 2C 3C 4C AC 2D 3D
	// seat 1 bids 2
	// refused: seat 2 may not bid 2: allowed are pass, 3, 4
	// seat 2 passes
	// seat 3 passes
	// seat 0 bids 2
	// pitcher 0 to lead: 0
	// seat 0 plays KC
	// trump C - seat 1 may play: [seat 1 plays 2C seat 1 plays 3C seat 1 plays 4C seat 1 plays AC]
	// refused: seat 1 must follow trump (holds 2C, 3C, 4C, AC)
}

// A match deals hand after hand from one seed, the deal passing left;
// the seed and the decisions replay it exactly.
func ExampleNewMatch() {
	g := pitch.MustNewGame(pitch.Auction, pitch.WithTarget(21))
	m := pitch.NewMatch(g, 2024)
	first := m.State().Dealer()
	players := pitch.NewRand(1) // the players' decisions: random legal actions
	for len(m.Records()) < 3 {
		if err := m.Apply(m.State().RandomAction(players)); err != nil {
			panic(err)
		}
	}
	for i, r := range m.Records() {
		fmt.Printf("hand %d dealt by the first dealer + %d\n", i+1, (r.Dealer-first+g.Seats())%g.Seats())
	}
	again, _ := pitch.Replay(g, 2024, m.History())
	fmt.Println("replay identical:", reflect.DeepEqual(again.Records(), m.Records()))
	// Output:
	// hand 1 dealt by the first dealer + 0
	// hand 2 dealt by the first dealer + 1
	// hand 3 dealt by the first dealer + 2
	// replay identical: true
}
