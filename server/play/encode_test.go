package play

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"pitch"
	"pitch/store"
)

// TestStateEncoding: the hand-written encoding of a state message
// (appendState, and the logs encoded as actions are applied) writes
// exactly the bytes json.Marshal writes for the same message, for every
// seat and spectators, at every step of whole matches of each game, with
// and without fair deals and turn timers, moves made by timers and
// stand-ins, and at the match's end. What a client receives is unchanged.
func TestStateEncoding(t *testing.T) {
	srv := benchServer(t)
	cases := []struct {
		variant string
		options string
		fair    bool
		timer   int
	}{
		{"pawnee", `{"target":31}`, true, 0},
		{"pawnee", `{"target":31}`, false, 30},
		{"ten-point", `{"target":31}`, true, 0},
		{"ten-point", `{"target":31}`, false, 0},
		{"auction", `{"target":3}`, true, 20},
		{"auction", `{"target":3}`, false, 0},
	}
	ended := 0 // matches played to their end (random play may take long)
	for i, tc := range cases {
		rng := rand.New(rand.NewPCG(3, uint64(i)))
		t.Run(fmt.Sprintf("%s-fair=%v-timer=%d", tc.variant, tc.fair, tc.timer), func(t *testing.T) {
			tb := playTable(t, srv, &store.Table{ID: fmt.Sprintf("enc%d", i), Variant: tc.variant, Options: []byte(tc.options),
				Seed: uint64(i) * 7919, FairDeals: tc.fair, TurnTimer: tc.timer})
			tb.mu.Lock()
			defer tb.mu.Unlock()
			var by []string // who made each action of the hand in play
			steps := 0
			for ; steps < 1500; steps++ {
				checkEncoding(t, tb, by)
				if t.Failed() || tb.over() {
					break
				}
				if tb.match.AwaitingDeal() {
					if err := tb.deal(); err != nil {
						t.Fatal(err)
					}
					continue
				}
				who := []string{"", "", "", "timer", "stand-in"}[rng.IntN(5)]
				tb.away[tb.match.State().Turn()] = who == "stand-in"
				hands := len(tb.match.Records())
				if !playRandom(tb, rng, who) {
					t.Fatal("no action could be played")
				}
				by = append(by, who)
				if len(tb.match.Records()) > hands {
					by = nil
				}
				tb.schedule(0)
			}
			if tb.over() {
				ended++
			}
		})
	}
	if ended < 3 {
		t.Errorf("%d matches of %d played to their end, want most", ended, len(cases))
	}
}

// checkEncoding compares every viewer's encoded state with json.Marshal's,
// and each log with the one made afresh from the hand's actions.
func checkEncoding(t *testing.T, tb *table, by []string) {
	t.Helper()
	sh := tb.shared()
	for seat := -1; seat < tb.game.Seats(); seat++ {
		m := tb.stateWith(sh, seat)
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tb.stateJSON(sh, seat)
		if err != nil {
			t.Fatal(err)
		}
		// The parts marshalled once per change are the table's now.
		info, _ := json.Marshal(tb.infoJSON())
		sheet := tb.sheet
		if sheet == nil {
			sheet = []sheetRow{}
		}
		rows, _ := json.Marshal(sheet)
		if !bytes.Equal(m.Table, info) || !bytes.Equal(m.Sheet, rows) {
			t.Fatalf("seq %d seat %d: stale table or sheet:\n%s\n%s\nwant\n%s\n%s", tb.seq, seat, m.Table, m.Sheet, info, rows)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("seq %d seat %d: the state is encoded as\n%s\nbut json.Marshal writes\n%s", tb.seq, seat, got, want)
		}
		if tb.over() {
			continue
		}
		// The log, made afresh: every action of the hand as this seat
		// may see it.
		var entries []logEntry
		for i, a := range tb.match.HandActions() {
			raw, _ := json.Marshal(a)
			e := logEntryFor(tb.game, a, raw, seat)
			e.By = by[i]
			entries = append(entries, e)
		}
		if entries == nil {
			entries = []logEntry{}
		}
		if want, _ := json.Marshal(entries); !bytes.Equal(m.Log.appendTo(nil), want) {
			t.Fatalf("seq %d seat %d: the log is\n%s\nbut its actions give\n%s", tb.seq, seat, m.Log.appendTo(nil), want)
		}
	}
}

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
		e := logEntry{Seat: 1, Kind: s, Text: s, By: s, Action: json.RawMessage(`{"seat":1,"pass":true}`)}
		want, _ = json.Marshal(e)
		if got := appendLogEntry(nil, &e); !bytes.Equal(got, want) {
			t.Errorf("appendLogEntry = %s, want %s", got, want)
		}
	}
	zero := []stateMsg{{}, {Type: "state", Seq: 3}, {Type: "state", NextTable: "<x>", Paused: true, Reading: []int{1, 2},
		LastHand: &handSummary{}, Fair: &fairJSON{Next: &fairNextJSON{Shared: true}}}}
	for _, m := range zero {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendState(nil, &m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("appendState = %s,\nwant %s", got, want)
		}
	}
	bad := stateMsg{View: viewJSON{Hand: []pitch.Card{pitch.Card(99)}}}
	if _, err := appendState(nil, &bad); err == nil {
		t.Error("a state with an invalid card was encoded")
	}
}

// TestActionEncoding: appendAction writes exactly the bytes json.Marshal
// writes for every action of whole random matches of each game (every
// legal action at every step), and for the odd ones no client sends.
func TestActionEncoding(t *testing.T) {
	check := func(a pitch.Action) {
		t.Helper()
		want, werr := json.Marshal(a)
		got, gerr := appendAction([]byte("x"), a)
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
