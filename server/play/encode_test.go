package play

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"pitch/server/wire"
	"pitch/store"
)

// TestStateEncoding: the hand-written encoding of a state message
// (wire.AppendState, and the logs encoded as actions are applied) writes
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
			sheet = []wire.SheetRow{}
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
		var entries []wire.LogEntry
		for i, a := range tb.match.HandActions() {
			raw, _ := json.Marshal(a)
			e := wire.LogEntryFor(tb.game, a, raw, seat)
			e.By = by[i]
			entries = append(entries, e)
		}
		if entries == nil {
			entries = []wire.LogEntry{}
		}
		if want, _ := json.Marshal(entries); !bytes.Equal(m.Log.AppendTo(nil), want) {
			t.Fatalf("seq %d seat %d: the log is\n%s\nbut its actions give\n%s", tb.seq, seat, m.Log.AppendTo(nil), want)
		}
	}
}
