package wire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pitch"
)

// TestStateEncodingStrings: strings are escaped as json.Marshal escapes
// them (HTML-safe, U+2028 and U+2029, control characters, invalid UTF-8),
// and zero and nil parts of a state are written as it writes them.
func TestStateEncodingStrings(t *testing.T) {
	for _, s := range []string{"", "plain text 123", `a "quote" \ back`, "<b>&amp;</b>", "tab\there\nline\r\x00\x1f\x7f",
		"café ☕ 日本語", "\u2028\u2029", "bad \xff\xfe byte", "\u202e override"} {
		want, _ := json.Marshal(s)
		if got := appendStr(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendStr(%q) = %s, want %s", s, got, want)
		}
		e := LogEntry{Seat: 1, Kind: s, Text: s, By: s, Action: json.RawMessage(`{"seat":1,"pass":true}`)}
		want, _ = json.Marshal(e)
		if got := appendLogEntry(nil, &e); !bytes.Equal(got, want) {
			t.Errorf("appendLogEntry = %s, want %s", got, want)
		}
	}
	zero := []State{{}, {Type: "state", Seq: 3}, {Type: "state", NextTable: "<x>", Paused: true, Reading: []int{1, 2}, ReadingLeftMS: 1234, Invited: []int{3},
		LastHand: &HandSummary{}, Fair: &Fair{Next: &FairNext{Shared: true}}},
		{Fair: &Fair{Next: &FairNext{Hashes: []FairHash{{Seat: 0, Hash: "ab"}, {Seat: 2, Hash: "cd"}}, Frozen: true, Contributed: []int{2}}}}}
	for _, m := range zero {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := AppendState(nil, &m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("AppendState = %s,\nwant %s", got, want)
		}
	}
	bad := State{View: View{Hand: []pitch.Card{pitch.Card(99)}}}
	if _, err := AppendState(nil, &bad); err == nil {
		t.Error("a state with an invalid card was encoded")
	}
}

// TestActionEncoding: AppendAction writes exactly the bytes json.Marshal
// writes for every action of whole random matches of each game (every
// legal action at every step), and for the odd ones no client sends.
func TestActionEncoding(t *testing.T) {
	check := func(a pitch.Action) {
		t.Helper()
		want, werr := json.Marshal(a)
		got, gerr := AppendAction([]byte("x"), a)
		if (gerr == nil) != (werr == nil) || werr == nil && string(got) != "x"+string(want) {
			t.Fatalf("%+v: written %s (%v), want %s (%v)", a, got, gerr, want, werr)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		m := pitch.NewMatch(pitch.MustNewGame(v), rng.Uint64())
		for range 3000 {
			if m.Over() {
				m = pitch.NewMatch(pitch.MustNewGame(v), rng.Uint64())
			}
			s := m.State()
			for _, a := range s.Legal(nil) {
				check(a)
			}
			a := s.RandomAction(rng)
			check(a)
			if err := m.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, a := range []pitch.Action{
		{Kind: pitch.ActDiscard, Seat: 2},
		{Kind: pitch.ActPassTrumps, Seat: 1, Cards: pitch.SetOf(pitch.BigJoker, pitch.LittleJoker, 0)},
		{Kind: pitch.ActGiveStock, Seat: 3, Give: true},
		{Kind: pitch.ActGiveStock, Seat: 3},
		{Kind: pitch.ActTrump, Seat: 0, Suit: pitch.NoSuit},
		{Kind: pitch.ActPlay, Seat: 0, Card: pitch.NoCard},
		{Kind: pitch.ActBid, Seat: -1, Bid: -3},
		{Seat: 1},
	} {
		check(a)
	}
}

// TestRatingChangeJSON: a seat's rating change is written as it was when
// it embedded the rating: the seat, the rating's fields, the change.
func TestRatingChangeJSON(t *testing.T) {
	m := State{Ratings: []RatingChange{{Seat: 2, Rating: 1512, Provisional: true, Change: -7}}}
	got, err := AppendState(nil, &m)
	if err != nil {
		t.Fatal(err)
	}
	want := `"ratings":[{"seat":2,"rating":1512,"provisional":true,"change":-7}]}`
	if !bytes.HasSuffix(got, []byte(want)) {
		t.Errorf("ratings written as %s, want it to end %s", got, want)
	}
}
