package play

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"pitch/server/wire"
	"pitch/store"
)

// deltaClient is a protocol-2 connection without a socket (its queue is
// read by the test) and what it holds, reduced by wire.Held.
type deltaClient struct {
	c     *conn
	held  wire.Held
	bytes int // what it was sent
	msgs  int
	whole int // whole states among them
	ops   int // deltas with a copy or a push (wire.DeltaOps) among them
}

// take reads everything queued for d (as the connection's writer would),
// applying it to what d holds.
func (d *deltaClient) take(t *testing.T, what string) {
	t.Helper()
	for _, m := range drain(d.c) {
		d.bytes += len(m)
		d.msgs++
		var head struct{ Type string }
		switch { // the server writes the type first: thousands of messages need no decoding
		case bytes.HasPrefix(m, []byte(`{"type":"state",`)):
			head.Type = "state"
		case bytes.HasPrefix(m, []byte(`{"type":"delta",`)):
			head.Type = "delta"
		default:
			if err := json.Unmarshal(m, &head); err != nil {
				t.Fatalf("%s: a message that is not JSON: %v: %s", what, err, m)
			}
		}
		switch head.Type {
		case "state":
			d.whole++
			if err := d.held.Reset(m); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		case "delta":
			if bytes.Contains(m, []byte(`,"copy":{`)) || bytes.Contains(m, []byte(`,"push":{`)) {
				d.ops++
				if !d.c.ops {
					t.Fatalf("%s: a delta with a copy or push to a connection that did not say it applies them: %s", what, m)
				}
			}
			if err := d.held.Apply(m); err != nil {
				t.Fatalf("%s: the delta %s does not apply: %v", what, m, err)
			}
		default:
			t.Fatalf("%s: a message of type %q: %s", what, head.Type, m)
		}
	}
}

// drain takes what is queued for c, as its writer would write it.
func drain(c *conn) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out [][]byte
	for _, q := range c.queue {
		out = append(out, bytes.Clone(q.data))
		q.buf.release()
	}
	c.queue = nil
	return out
}

// sameState reports how the state held differs from want, a whole state
// of protocol 1 (nothing: ""): field by field, the same bytes, and the
// split fields (view, last_hand, fair) member by member; "v" aside.
func sameState(held, want []byte) string {
	h, herr := jsonMembers(held)
	w, werr := jsonMembers(want)
	if herr != nil || werr != nil {
		return fmt.Sprintf("held: %v in %.300s; want: %v in %.300s", herr, held, werr, want)
	}
	delete(h, "v")
	var diffs []string
	differ := func(k, hv, wv string) {
		if hv != wv {
			diffs = append(diffs, fmt.Sprintf("%s: holds %.200s, want %.200s", k, hv, wv))
		}
	}
	for k, wv := range w {
		hv, ok := h[k]
		switch {
		case !ok:
			differ(k, "none", wv)
		case hv == wv: // the same bytes: its members too
		case k == "view" || k == "last_hand" || k == "fair":
			// Split: the same members, perhaps in another order.
			hs, herr := jsonMembers([]byte(hv))
			ws, werr := jsonMembers([]byte(wv))
			if herr != nil || werr != nil {
				differ(k, hv, wv)
				continue
			}
			for sk, sv := range ws {
				got, ok := hs[sk]
				if !ok {
					got = "none"
				}
				differ(k+"."+sk, got, sv)
			}
			for sk, sv := range hs {
				if _, ok := ws[sk]; !ok {
					differ(k+"."+sk, sv, "none")
				}
			}
		default:
			differ(k, hv, wv)
		}
	}
	for k, hv := range h {
		if _, ok := w[k]; !ok {
			differ(k, hv, "none")
		}
	}
	return strings.Join(diffs, "\n")
}

// TestDeltasReduceToStates: protocol 2's deltas, applied from the first
// whole state by wire.Held, give the whole state protocol 1 sends, for
// every seat and the spectators, after every broadcast of thousands of
// random hands of each game (with and without fair deals and turn
// timers, moves made by timers and stand-ins, to the matches' ends). A
// second connection of each seat falls behind now and then (a whole
// state replaces its queue) and asks for the whole state again (resync);
// it says nothing of the ops copy and push (an earlier page), and is
// sent none: whole states in their place.
func TestDeltasReduceToStates(t *testing.T) {
	srv := benchServer(t)
	hands := 700 // per game: 2,100 in all, a fair share of the suite's time on a 2-core machine
	if testing.Short() {
		hands = 60
	}
	cases := []struct {
		variant, options string
		timer            int
	}{
		{"pawnee", `{"target":31}`, 30},
		{"ten-point", `{"target":31}`, 0},
		{"auction", `{"target":7}`, 20},
	}
	var sentV1, sentV2, steps int
	for i, tc := range cases {
		t.Run(tc.variant, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(i)))
			played := 0
			for table := 0; played < hands && !t.Failed(); table++ {
				tb := playTable(t, srv, &store.Table{ID: fmt.Sprintf("delta%d-%d", i, table), Variant: tc.variant, Options: []byte(tc.options),
					Seed: uint64(table)*7919 + uint64(i), FairDeals: table%3 != 2, TurnTimer: tc.timer * (table % 2)})
				played += deltaMatch(t, tb, rng, &sentV1, &sentV2, &steps)
			}
			t.Logf("%d hands", played)
		})
	}
	if steps > 0 {
		t.Logf("per seat and broadcast: protocol 1 %d bytes, protocol 2 %d bytes (%d broadcasts × viewers)", sentV1/steps, sentV2/steps, steps)
	}
}

// deltaMatch plays tb's match at random to its end (or 4,000 steps), checking the
// protocol-2 connections after every broadcast; it returns the hands
// played, and adds to the bytes sent in each protocol and the viewer
// states compared.
func deltaMatch(t *testing.T, tb *table, rng *rand.Rand, sentV1, sentV2, steps *int) int {
	t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	ref := map[int]*conn{} // protocol 1, by seat
	for c := range tb.conns {
		ref[c.seat] = c
	}
	spec := newConn(nil, nil, nil, "spec")
	spec.seat = -1
	tb.conns[spec] = struct{}{}
	ref[-1] = spec
	var steady, lagging []*deltaClient
	for seat := -1; seat < tb.game.Seats(); seat++ {
		for _, l := range []*[]*deltaClient{&steady, &lagging} {
			c := newConn(nil, nil, nil, "v2")
			c.seat, c.proto, c.ops = seat, wire.ProtocolDeltas, l == &steady
			tb.conns[c] = struct{}{}
			*l = append(*l, &deltaClient{c: c})
		}
	}
	// catchUp reads what the table sent between two broadcasts of the
	// test's own (a deal, or a wait that ran out while the machine was
	// slow, may send a state): the steady connections stay in step.
	catchUp := func() {
		for _, c := range ref {
			drain(c)
		}
		for _, d := range steady {
			d.take(t, tb.id+" between broadcasts")
		}
	}
	for step := 0; step < 4000; step++ {
		tb.broadcast()
		for k, d := range steady {
			seat := k - 1
			msgs := drain(ref[seat])
			if len(msgs) != 1 {
				t.Fatalf("seq %d seat %d: %d protocol-1 states queued, want 1", tb.seq, seat, len(msgs))
			}
			want := msgs[0]
			before := d.bytes
			what := fmt.Sprintf("%s seq %d seat %d", tb.id, tb.seq, seat)
			d.take(t, what)
			*sentV1 += len(want)
			*sentV2 += d.bytes - before
			*steps++
			lag := lagging[k]
			if rng.IntN(4) != 0 {
				lag.take(t, what+" (lagging)")
				if diff := sameState(lag.held.JSON(nil), want); diff != "" {
					t.Fatalf("%s: the lagging connection holds another state:\n%s", what, diff)
				}
			}
			got := d.held.JSON(nil)
			if diff := sameState(got, want); diff != "" {
				t.Fatalf("%s: the deltas give another state:\n%s", what, diff)
			}
			if v, _ := d.held.Version(); v != tb.trackers[seat+1].Version() {
				t.Fatalf("%s: holds version %d, the seat is at %d", what, v, tb.trackers[seat+1].Version())
			}
			if step%97 == 0 { // as decoded JSON too
				var g, w map[string]any
				if err := json.Unmarshal(got, &g); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(want, &w); err != nil {
					t.Fatal(err)
				}
				delete(g, "v")
				if !reflect.DeepEqual(g, w) {
					t.Fatalf("%s: decoded, the deltas give\n%s\nwant\n%s", what, got, want)
				}
			}
			if rng.IntN(50) == 0 {
				lag.take(t, what+" (lagging)")
				tb.resend(lag.c) // out of step: a resync
				d.take(t, what+" (after a resync of its seat)")
			}
		}
		if tb.over() {
			break
		}
		if tb.match.AwaitingDeal() {
			if err := tb.deal(); err != nil {
				t.Fatal(err)
			}
			catchUp()
			continue
		}
		who := []string{"", "", "", "timer", "stand-in"}[rng.IntN(5)]
		tb.away[tb.match.State().Turn()] = who == "stand-in"
		if !playRandom(tb, rng, who) {
			t.Fatal("no action could be played")
		}
		tb.schedule(0)
		catchUp()
	}
	for k, d := range steady {
		// Never behind and never out of step: one whole state, then
		// deltas (a state the tracker could not follow would go whole).
		if d.whole != 1 {
			t.Fatalf("%s seat %d: %d whole states of %d messages, want only the first", tb.id, k-1, d.whole, d.msgs)
		}
		// A hand's end copies its log to the last hand's.
		if len(tb.match.Records()) > 1 && d.ops == 0 {
			t.Fatalf("%s seat %d: %d hands and no delta with a copy", tb.id, k-1, len(tb.match.Records()))
		}
	}
	return len(tb.match.Records()) // a long match (random bids far below the target) is cut
}

// jsonMembers is the members of the JSON object obj, by key, each value
// as its bytes (wire.Members): what json.Unmarshal into a map of
// json.RawMessage gives for the compact JSON the server writes, several
// times faster (the property test above compares thousands of states).
func jsonMembers(obj []byte) (map[string]string, error) {
	m := make(map[string]string, 32)
	err := wire.Members(obj, func(k, v []byte) error {
		m[string(k)] = string(v)
		return nil
	})
	return m, err
}

// TestSameState: the comparison of TestDeltasReduceToStates finds every
// difference but "v" and the order of a split field's members.
func TestSameState(t *testing.T) {
	want := `{"type":"state","seq":3,"view":{"turn":1,"hand":["AS"]},"fair":null}`
	cases := []struct {
		held string
		same bool
	}{
		{`{"type":"state","seq":3,"view":{"turn":1,"hand":["AS"]},"fair":null}`, true},
		{`{"v":9,"seq":3,"type":"state","view":{"hand":["AS"],"turn":1},"fair":null}`, true},
		{`{"type":"state","seq":4,"view":{"turn":1,"hand":["AS"]},"fair":null}`, false},
		{`{"type":"state","seq":3,"view":{"turn":1,"hand":["KS"]},"fair":null}`, false},
		{`{"type":"state","seq":3,"view":{"turn":1},"fair":null}`, false},
		{`{"type":"state","seq":3,"view":{"turn":1,"hand":["AS"],"extra":1},"fair":null}`, false},
		{`{"type":"state","seq":3,"view":{"turn":1,"hand":["AS"]}}`, false},
		{`{"type":"state","seq":3,"view":{"turn":1,"hand":["AS"]},"fair":null,"extra":0}`, false},
		{`{"type":"state","seq":3,"view":[1],"fair":null}`, false},
	}
	for _, c := range cases {
		if diff := sameState([]byte(c.held), []byte(want)); (diff == "") != c.same {
			t.Errorf("sameState(%s) = %q, want the same: %v", c.held, diff, c.same)
		}
	}
}
