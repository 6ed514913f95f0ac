package pitch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestActionJSON: an action's MarshalJSON, written by hand, writes the
// bytes (and errors) marshalAction writes through encoding/json, for
// every legal action of random matches of each game and for odd ones;
// and a record holding them is written as before.
func TestActionJSON(t *testing.T) {
	check := func(a Action) {
		t.Helper()
		got, gerr := a.MarshalJSON()
		want, werr := marshalAction(a)
		if string(got) != string(want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("%+v: %s (%v), want %s (%v)", a, got, gerr, want, werr)
		}
	}
	for _, m := range walkActions(t, 11, check) {
		if len(m.Records()) > 0 {
			r := m.Records()[0]
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			back, err := ReadRecord(bytes.NewReader(b))
			if err != nil || !slices.Equal(back.Actions, r.Actions) {
				t.Fatalf("%s: read back as %v (%v)", b, back, err)
			}
		}
	}
	for _, a := range []Action{
		{Kind: ActDiscard, Seat: 2},
		{Kind: ActPassTrumps, Seat: 1, Cards: SetOf(BigJoker, LittleJoker, 0)},
		{Kind: ActDiscard, Seat: 1, Cards: 1 << 60},
		{Kind: ActGiveStock, Seat: 3, Give: true},
		{Kind: ActGiveStock, Seat: 3},
		{Kind: ActTrump, Seat: 0, Suit: NoSuit},
		{Kind: ActTrump, Seat: 0, Suit: NoSuit + 3},
		{Kind: ActPlay, Seat: 0, Card: NoCard},
		{Kind: ActCall, Seat: 6, Card: BigJoker},
		{Kind: ActBid, Seat: -1, Bid: -3},
		{Kind: ActionKind(99), Seat: 1},
		{Seat: 1},
	} {
		check(a)
	}
}

// actionStringFmt is how Action.String wrote an action with fmt.
func actionStringFmt(a Action) string {
	s := fmt.Sprintf("seat %d ", a.Seat)
	switch a.Kind {
	case ActBid:
		return s + fmt.Sprintf("bids %d", a.Bid)
	case ActPass:
		return s + "passes"
	case ActCall:
		return s + "calls " + a.Card.String()
	case ActTrump:
		return s + "names trump " + a.Suit.String()
	case ActGiveStock:
		if a.Give {
			return s + "gives the stock to the partner"
		}
		return s + "keeps the stock"
	case ActPassTrumps:
		return s + "passes " + a.Cards.String() + " to the partner"
	case ActDiscard:
		return s + "discards " + a.Cards.String()
	case ActPlay:
		return s + "plays " + a.Card.String()
	}
	return s + "does nothing"
}

// walkActions plays 3,000 random actions of each game, the first match
// from seed (a new one whenever a match ends), calls each for every legal
// action on the way and every action played, and returns the last match
// of each game.
func walkActions(t *testing.T, seed uint64, each func(Action)) []*Match {
	t.Helper()
	var last []*Match
	for _, v := range []Variant{Auction, TenPoint, Pawnee} {
		m := NewMatch(MustNewGame(v), seed)
		rng := NewRand(seed + 1)
		for range 3000 {
			if m.Over() {
				m = NewMatch(MustNewGame(v), rng.Uint64())
			}
			s := m.State()
			for _, a := range s.Legal(nil) {
				each(a)
			}
			a := s.RandomAction(rng)
			each(a)
			if err := m.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		last = append(last, m)
	}
	return last
}

// TestActionString: Action.String, written without fmt, says what it
// said with fmt, for every legal action of random matches of each game
// and for odd ones.
func TestActionString(t *testing.T) {
	check := func(a Action) {
		t.Helper()
		if got, want := a.String(), actionStringFmt(a); got != want {
			t.Fatalf("%#v: %q, want %q", a, got, want)
		}
	}
	walkActions(t, 13, check)
	for _, a := range []Action{
		{Kind: ActDiscard, Seat: 2},
		{Kind: ActDiscard, Seat: 1, Cards: Deck54},
		{Kind: ActPassTrumps, Seat: 1, Cards: SetOf(BigJoker, LittleJoker, 0)},
		{Kind: ActGiveStock, Seat: 3, Give: true},
		{Kind: ActGiveStock, Seat: 3},
		{Kind: ActTrump, Seat: 0, Suit: NoSuit},
		{Kind: ActPlay, Seat: 0, Card: NoCard},
		{Kind: ActBid, Seat: -128, Bid: -3},
		{Kind: ActionKind(99), Seat: 127},
		{},
	} {
		check(a)
	}
}
