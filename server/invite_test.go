package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"
)

// TestRematchInvite: the next match started by one person at a finished
// table waits for the others: its states say who is invited and that play
// waits, nothing is played for an invited seat (though nobody holds it),
// and each invited person accepts either by asking for the next match
// too (the same table is answered) or by coming to its table; play starts
// once all have.
func TestRematchInvite(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		opts := fastOptions()
		opts.AwayDelay = time.Millisecond // a seat nobody holds is played at once, once play is on
		// The first deal waits for the three pages' values (they send them
		// at once), not 50 ms: on a loaded machine a page still connecting
		// then had its first bid made by its stand-in, off the plan. At the
		// next table, seat 1's page never comes: its deal waits this long.
		opts.DealWait = 10 * time.Second
		ts := startServer(t, fresh(t), opts)
		tab := ts.create(`{"variant":"auction","options":{"players":3,"target":1},"seats":` + seatsBody("h", "h", "h") + `}`)
		tok := []string{ts.join(tab.ID, 0, "Ann"), ts.join(tab.ID, 1, "Bo"), ts.join(tab.ID, 2, "Cy")}
		h := newHub(t, ts, tab.ID, 3)
		// Random play may never end an auction match (a set pitcher goes
		// below 0); this plan ends it with hand 1 (pitchTopCard: to 1, a
		// seat's first pitch wins).
		h.plan = pitchTopCard(h)
		var cs []*client
		for i, tk := range tok {
			cs = append(cs, h.connect("seat "+string(rune('0'+i)), i, tk, true))
		}
		h.run(60*time.Second, "the match to end", func() bool { return cs[0].last != nil && cs[0].last.Over })
		if n := cs[0].last.HandNo; n != 1 {
			t.Errorf("the match ended with hand %d; the plan ends it with hand 1", n)
		}

		resp, b := ts.do("POST", "/api/tables/"+tab.ID+"/rematch", `{"token":"`+tok[0]+`"}`)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("rematch: %d %s", resp.StatusCode, b)
		}
		var next struct{ ID string }
		if err := json.Unmarshal(b, &next); err != nil || next.ID == "" {
			t.Fatalf("rematch answered %s (%v)", b, err)
		}
		h.run(10*time.Second, "the old table to point to the next", func() bool { return cs[1].last.NextTable == next.ID })
		if nb := cs[1].last.NextBy; nb == nil || *nb != 0 {
			t.Errorf("seat 1 is told the next match was started by %v, want seat 0", nb)
		}

		h2 := newHub(t, ts, next.ID, 4)
		n0 := h2.connect("seat 0 at the next table", 0, tok[0], true)
		h2.run(10*time.Second, "seat 0's state at the next table", func() bool { return n0.last != nil })
		if !n0.last.Waiting || !slices.Equal(n0.last.Invited, []int{1, 2}) {
			t.Fatalf("the next table says waiting %v, invited %v; want true, [1 2]", n0.last.Waiting, n0.last.Invited)
		}
		// Nobody holds seats 1 and 2 there: were play on, their stand-ins
		// would bid within milliseconds of the deal.
		time.Sleep(500 * time.Millisecond)
		h2.run(time.Second, "the messages of that pause", func() bool { return len(h2.in) == 0 })
		if n0.last.Seq != 0 {
			t.Fatalf("the next match went on (seq %d) before the invited people accepted", n0.last.Seq)
		}

		// Seat 1 accepts by asking for the next match too.
		resp, b = ts.do("POST", "/api/tables/"+tab.ID+"/rematch", `{"token":"`+tok[1]+`"}`)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("seat 1's rematch: %d %s", resp.StatusCode, b)
		}
		if err := json.Unmarshal(b, &next); err != nil || next.ID != n0.last.Table.ID {
			t.Fatalf("seat 1's rematch answered %s, want table %s", b, n0.last.Table.ID)
		}
		h2.run(10*time.Second, "seat 1's acceptance", func() bool { return slices.Equal(n0.last.Invited, []int{2}) })
		if !n0.last.Waiting || n0.last.Seq != 0 {
			t.Errorf("with seat 2 still invited: waiting %v, seq %d", n0.last.Waiting, n0.last.Seq)
		}
		// Seat 2 accepts by coming to the next table; play starts.
		n2 := h2.connect("seat 2 at the next table", 2, tok[2], true)
		h2.run(10*time.Second, "play to start", func() bool { return n2.last != nil && n0.last.Invited == nil && !n0.last.Waiting })
		h2.run(60*time.Second, "the first moves", func() bool { return n0.last.Seq > 0 })
		checkMessages(t, ts.st, next.ID, h2.clients)
	})
}
