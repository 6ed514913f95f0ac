package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch"
)

// helloRefused checks that a connection whose first message is first is
// closed with a policy violation saying why.
func helloRefused(t *testing.T, ts *testServer, id, first, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, ts.wsURL(id), nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, []byte(first)); err != nil {
		t.Fatalf("hello: %v", err)
	}
	_, data, err := ws.Read(ctx)
	if err == nil {
		t.Fatalf("after %s the server sent %s; want the connection closed", first, data)
	}
	if got := websocket.CloseStatus(err); got != websocket.StatusPolicyViolation || !strings.Contains(err.Error(), want) {
		t.Errorf("after %s: %v (status %d), want a policy violation saying %q", first, err, got, want)
	}
}

// TestRefusals: a wrong or foreign token is refused at hello; nobody may
// act before every human seat is taken; a seat's token cannot act for
// another seat (Forbidden); spectators cannot act; out-of-turn, illegal
// (C-7) and malformed messages get clear errors; and every refusal leaves
// everything as it was (every connection's state, seq and the log).
func TestRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "h", "h", "h") + `}`)
		other := ts.create(`{"variant":"auction"}`)
		foreign := ts.join(other.ID, 0, "Zed")

		helloRefused(t, ts, tab.ID, `{"type":"hello","token":"not-a-token"}`, "that token holds no seat at this table")
		helloRefused(t, ts, tab.ID, `{"type":"hello","token":"`+foreign+`"}`, "that token holds no seat at this table")
		helloRefused(t, ts, tab.ID, `{"type":"action","action":{"seat":0,"pass":true}}`, `the first message must be`)
		helloRefused(t, ts, tab.ID, `hello`, `the first message must be`)

		h := newHub(t, ts, tab.ID, 3)
		tokens := map[int]string{}
		for seat, name := range []string{"Ann", "Bea", "Cy"} {
			tokens[seat] = ts.join(tab.ID, seat, name)
		}
		seats := map[int]*client{}
		seats[0] = h.connect("seat 0", 0, tokens[0], false)
		spec := h.connect("spectator", -1, "", false)
		all := func() bool {
			for _, c := range h.clients {
				if c.last == nil {
					return false
				}
			}
			return true
		}
		h.run(10*time.Second, "the first states", all)
		if !seats[0].last.Waiting || len(seats[0].last.Legal) != 0 {
			t.Errorf("before seat 3 is taken: waiting %v, legal %s; want waiting and no legal actions",
				seats[0].last.Waiting, seats[0].last.Legal)
		}

		// unchanged checks that a refusal left every connection's state
		// (asked for again with a hello) and the log as they were.
		unchanged := func(what string) {
			t.Helper()
			before := map[*client]*wire{}
			counts := map[*client]int{}
			for _, c := range h.clients {
				before[c], counts[c] = c.last, len(c.msgs)
				c.sendText(`{"type":"hello"}`)
			}
			h.run(10*time.Second, "the states again", func() bool {
				for _, c := range h.clients {
					if len(c.msgs) == counts[c] {
						return false
					}
				}
				return true
			})
			for _, c := range h.clients {
				if !sameJSON(c.last.raw, before[c].raw) {
					t.Errorf("%s: after %s %s's state is\n%s\nwas\n%s", what, what, c.name, c.last.raw, before[c].raw)
				}
			}
			events, err := ts.st.Events(bg, tab.ID)
			if err != nil || len(events) != before[spec].Seq {
				t.Errorf("after %s the log holds %d events (%v), want %d", what, len(events), err, before[spec].Seq)
			}
		}
		refuse := func(c *client, msg, want string) {
			t.Helper()
			// Each page contributes to the next deal as soon as it sees its
			// commitment (fair deals): let those land first, so that they
			// do not change the states between the snapshots.
			h.run(10*time.Second, "the contributions sent to be taken", func() bool {
				f := spec.last.Fair
				if f == nil || f.Next == nil {
					return true
				}
				for _, s := range seats {
					if s == nil {
						continue
					}
					if _, sent := s.contributed[f.Next.Commitment]; sent && !slices.Contains(f.Next.Contributed, s.seat) {
						return false
					}
				}
				return true
			})
			c.refusedText(msg, want)
			h.run(10*time.Second, "the refusal of "+msg, func() bool { return len(c.bad) == 0 })
			unchanged(msg)
		}
		action := func(a pitch.Action) string {
			b, _ := json.Marshal(a)
			return `{"type":"action","action":` + string(b) + `}`
		}
		dealer0 := seats[0].last.View.Dealer
		if f := seats[0].last.Fair; seats[0].last.View.Turn != -1 || len(seats[0].last.View.Hand) != 0 || f == nil || !f.Dealing {
			t.Errorf("before every seat is taken: turn %d, hand %v, fair %+v; want no turn, no cards, the deal awaited",
				seats[0].last.View.Turn, seats[0].last.View.Hand, f)
		}
		refuse(seats[0], action(pitch.Pass(0)), "waiting for every human seat to be taken")
		refuse(seats[0], action(pitch.Bid(0, 2)), "waiting for every human seat to be taken")

		tokens[3] = ts.join(tab.ID, 3, "Di")
		for seat := 1; seat < 4; seat++ {
			seats[seat] = h.connect(fmt.Sprintf("seat %d", seat), seat, tokens[seat], false)
		}
		h.run(10*time.Second, "play to start", func() bool {
			for _, c := range h.clients {
				// and every page has sent its value for the next deal
				if c.last == nil || c.last.Waiting || c.last.Fair.Dealing || len(c.last.Fair.Next.Contributed) < 4 {
					return false
				}
			}
			return true
		})
		turn := spec.last.View.Turn
		if d := spec.last.View.Dealer; d != dealer0 || turn != (d+1)%4 {
			t.Errorf("seat %d deals and seat %d is to act; before the start seat %d was to deal", d, turn, dealer0)
		}
		actor, next := seats[turn], seats[(turn+1)%4]
		if len(actor.last.Legal) == 0 || len(next.last.Legal) != 0 {
			t.Fatalf("legal actions: %d for the seat to act, %d for the next; want some, none", len(actor.last.Legal), len(next.last.Legal))
		}
		own := actor.last.View.Hand[0]
		cases := []struct {
			name string // what is refused
			c    *client
			msg  string
			want string
		}{
			{"another seat's action", next, action(pitch.Pass(turn)),
				fmt.Sprintf("you hold seat %d; an action for seat %d is not yours to take", next.seat, turn)},
			{"an action for no seat", next, action(pitch.Pass(6)), "not yours to take"},
			{"out of turn", next, action(pitch.Pass(next.seat)),
				fmt.Sprintf("it is seat %d's turn to bid", turn)},
			{"out of turn, again", next, action(pitch.Bid(next.seat, 2)), fmt.Sprintf("not seat %d's", next.seat)},
			{"spectator", spec, action(pitch.Pass(turn)), "spectators may not act"},
			{"a bid over 4 (AP-BID-1)", actor, action(pitch.Bid(turn, 7)), fmt.Sprintf("seat %d may not bid 7: allowed are", turn)},
			{"a play in the auction", actor, action(pitch.Play(turn, own)), fmt.Sprintf("seat %d may not play now", turn)},
			{"not JSON", actor, `pass`, "not a message"},
			{"an unknown field", actor, `{"type":"action","colour":"red"}`, `unknown field "colour"`},
			{"an unknown type", actor, `{"type":"shout"}`, "unknown message type"},
			{"not an action", actor, `{"type":"action","action":{"seat":` + fmt.Sprint(turn) + `}}`, "not an action"},
			{"a bad card", actor, `{"type":"action","action":{"seat":` + fmt.Sprint(turn) + `,"play":"ZZ"}}`, "not an action"},
		}
		for _, tc := range cases {
			refuse(tc.c, tc.msg, tc.want)
		}

		// A binary message is refused too.
		actor.bad = append(actor.bad, &wire{Message: "messages must be JSON text", atSeq: lastSeq(actor)})
		if err := actor.ws.Write(bg, websocket.MessageBinary, []byte(action(pitch.Pass(turn)))); err != nil {
			t.Fatal(err)
		}
		h.run(10*time.Second, "the refusal of a binary message", func() bool { return len(actor.bad) == 0 })
		unchanged("a binary message")

		// Error messages never carry another seat's cards.
		checkMessages(t, ts.st, tab.ID, h.clients)

		// And a legal action still goes through.
		seq := spec.last.Seq
		actor.sendText(`{"type":"action","action":` + string(actor.last.Legal[0]) + `}`)
		h.run(10*time.Second, "the action", func() bool { return spec.last.Seq == seq+1 })
	})
}

// TestWebSocketGuards: a connection from another site (Origin) is refused,
// and a client sending too fast is told to slow down but kept.
func TestWebSocketGuards(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"pawnee"}`)
		ctx, cancel := context.WithTimeout(bg, 10*time.Second)
		defer cancel()

		_, resp, err := websocket.Dial(ctx, ts.wsURL(tab.ID), &websocket.DialOptions{
			HTTPHeader: http.Header{"Origin": []string{"https://evil.example"}}})
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("a cross-site WebSocket: err %v, response %v; want 403", err, resp)
		} else {
			checkSecurityHeaders(t, "cross-site WebSocket", resp)
		}

		ws, resp, err := websocket.Dial(ctx, ts.wsURL(tab.ID), nil)
		if err != nil {
			t.Fatal(err)
		}
		checkSecurityHeaders(t, "WebSocket upgrade", resp)
		defer ws.CloseNow()
		ws.SetReadLimit(1 << 22)
		// A flood: far more than the burst (20) and the send queue (32).
		// Messages over the limit are dropped with one "slow down" a
		// second, so the flood neither fills the queue nor costs the
		// connection. The answers to the hellos within the burst are
		// states, of which a client that reads slower than they come gets
		// only the newest.
		const n = 200
		for range n + 1 { // the hello, then n more at once
			if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
				t.Fatal(err)
			}
		}
		states, slow := 0, 0
		read := func() {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("after %d states and %d errors: %v", states, slow, err)
			}
			var m wire
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			switch {
			case m.Type == "state":
				states++
			case m.Type == "error" && strings.Contains(m.Message, "too many messages: slow down"):
				slow++
			default:
				t.Fatalf("unexpected message %s", data)
			}
		}
		for states < 1 || slow < 1 {
			read()
		}
		// The connection is kept: after a pause it is answered again.
		time.Sleep(1100 * time.Millisecond)
		before := states
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatal(err)
		}
		for states == before {
			read()
		}
		// At most about 20 (the burst) are answered, plus what the rate
		// refills while the flood is read; a slow machine reads slower, so
		// bound loosely: far fewer than were sent, and a notice a second
		// at most.
		if states > n/3 || slow > 4 {
			t.Errorf("%d messages at once: %d answered, %d told to slow down; want about 20 answered and one warning a second", n+1, states, slow)
		}
	})
}
