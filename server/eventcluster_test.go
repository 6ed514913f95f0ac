package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/server"
	"pitch/server/eventview"
	"pitch/store/storetest"
)

// evFollowed is a message on an event's WebSocket, as the cluster tests
// read it.
type evFollowed struct {
	Type  string `json:"type"`
	Event struct {
		evWire
		Paused bool       `json:"paused"`
		Ended  bool       `json:"ended"`
		EndsAt *time.Time `json:"ends_at"`
	} `json:"event"`
	Me *meWire `json:"me"`
	// end, in the last message before the channel closes: why the
	// connection ended, or a message that was not an event's.
	end string
}

// followEvent follows event id at ts with hello and sends every message
// on the channel returned, until the test ends.
func followEvent(t *testing.T, ts *testServer, id, hello string) <-chan evFollowed {
	t.Helper()
	ctx, cancel := context.WithCancel(bg)
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.hs.URL, "http")+"/api/events/"+id+"/ws", nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	ws.SetReadLimit(1 << 22)
	if err := ws.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
		t.Fatalf("hello: %v", err)
	}
	out := make(chan evFollowed, 4096)
	var f eventview.Follower // the event as the page holds it
	go func() {
		defer close(out)
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				select {
				case out <- evFollowed{end: err.Error()}:
				default:
				}
				return
			}
			var m evFollowed
			typ, err := f.Read(data)
			if err != nil || (typ != "event" && typ != "event.delta") || json.Unmarshal(f.Whole(), &m) != nil {
				m = evFollowed{end: string(data)} // an error, say: logged
			}
			select {
			case out <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// waitFollowed reads c until ok says a message will do, or fails the test
// after d.
func waitFollowed(t *testing.T, c <-chan evFollowed, d time.Duration, what string, ok func(evFollowed) bool) evFollowed {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case m, open := <-c:
			if !open {
				t.Fatalf("the event's connection ended while waiting for %s", what)
			}
			if m.end != "" {
				t.Logf("the event's connection: %s", m.end)
				continue
			}
			if ok(m) {
				return m
			}
		case <-timeout:
			t.Fatalf("no event message with %s within %v", what, d)
		}
	}
}

// clusterPair starts two processes with opts on one fresh PostgreSQL
// schema.
func clusterPair(t *testing.T, opts server.Options) (a, b *testServer) {
	t.Helper()
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	dsn := storetest.FreshPostgres(t, base)
	t.Cleanup(func() { // last: after the servers' own checks
		if t.Failed() {
			t.Logf("A:\n%s\nB:\n%s", a.all.String(), b.all.String())
		}
	})
	a = startServer(t, dsn, opts)
	b = startServer(t, dsn, opts)
	return a, b
}

// clusterEventOptions are two processes' options for events whose
// tables nobody sits at, on a clock of rounds whose minute lasts minute.
func clusterEventOptions(minute time.Duration) server.Options {
	opts := fastOptions()
	opts.Cluster, opts.LeaseTTL = true, 2*time.Second // a lease round has a second: a busy machine makes it in time
	// Nobody sits at the tables: stand-ins play, at a pace that leaves the
	// database time for the lease rounds on a busy machine.
	opts.BotDelay, opts.AwayDelay = 25*time.Millisecond, 25*time.Millisecond
	opts.EventMinute = minute
	return opts
}

// clockEvent is an event of auction tables of four that no match can
// end (the target is out of reach), so that each round ends on its
// clock, of one minute.
const clockEvent = `{"variant":"auction","options":{"players":4,"target":10000},"rounds":%d,"end":"clock","minutes":1,"movement":"progressive"}`

// checkResults checks that every table of round r in e has the store's
// result, and that the standings are the sums of each person's scores.
func checkResults(t *testing.T, ts *testServer, e evWire, rounds int) {
	t.Helper()
	total := map[int]int{}
	for r := range rounds {
		for ti, tab := range e.Rounds[r] {
			_, deltas, scores := finalScores(t, ts, tab.Table)
			if tab.Result == nil || !slices.Equal(tab.Result.Scores, scores) || len(tab.Result.Hands) != len(deltas) || len(deltas) == 0 {
				t.Errorf("round %d table %d: result %+v; the store has %d hands, scores %v", r+1, ti+1, tab.Result, len(deltas), scores)
				continue
			}
			for s, seat := range tab.Seats {
				if seat.Entry >= 0 {
					total[seat.Entry] += scores[s]
				}
			}
		}
	}
	for _, s := range e.Standings {
		if s.Total != total[s.Entry] {
			t.Errorf("%s: total %d, want %d (the sum of their scores)", s.Name, s.Total, total[s.Entry])
		}
	}
}

// TestClusterEventLive: with two processes on one PostgreSQL, the pages
// following an event at one process (a person's phone, the board) are
// sent, without asking, every change made at the other: the roster, the
// start of a round with the person's table, the pause (the tables both
// processes drive stand still) and the resume, the tables' results and
// the standings (the tables finish at either process, seen at both),
// and the host's end. The host acts at both processes in turn.
func TestClusterEventLive(t *testing.T) {
	a, b := clusterPair(t, clusterEventOptions(3*time.Second))
	var c struct{ ID, Token string }
	a.post("/api/events", fmt.Sprintf(clockEvent, 2), 201, &c)
	id, host := c.ID, fmt.Sprintf(`{"token":%q}`, c.Token)
	var ann struct {
		Entry int
		Token string
	}
	a.post("/api/events/"+id+"/join", `{"name":"Ann"}`, 200, &ann)
	annB := followEvent(t, b, id, fmt.Sprintf(`{"type":"hello","token":%q}`, ann.Token))
	boardB := followEvent(t, b, id, `{"type":"hello","full":true}`)
	boardA := followEvent(t, a, id, `{"type":"hello","full":true}`)
	const wait = 10 * time.Second
	waitFollowed(t, boardB, wait, "the board's first state", func(m evFollowed) bool { return len(m.Event.Entries) == 1 })

	// The roster, changed at a.
	for i := range 7 {
		a.post("/api/events/"+id+"/join", fmt.Sprintf(`{"name":"P%d"}`, i), 200, nil)
	}
	waitFollowed(t, boardB, wait, "8 people on b's board", func(m evFollowed) bool { return len(m.Event.Entries) == 8 })

	// The round, started at a: Ann's phone at b is told her table.
	a.post("/api/events/"+id+"/start", host, 200, nil)
	m := waitFollowed(t, annB, wait, "Ann's table at b", func(m evFollowed) bool { return m.Me != nil && m.Me.Table != "" })
	if m.Event.State != "playing" || m.Me.Round != 1 || m.Me.SeatToken == "" || len(m.Event.Rounds) != 1 {
		t.Fatalf("Ann seated at b: %+v", m)
	}
	var tables []string
	for _, tab := range m.Event.Rounds[0] {
		tables = append(tables, tab.Table)
		if tab.Table == m.Me.Table && tab.Seats[m.Me.Seat].Entry != ann.Entry {
			t.Errorf("Ann is told seat %d of table %s, where the event seats %+v", m.Me.Seat, tab.Table, tab.Seats[m.Me.Seat])
		}
	}
	if !slices.Contains(tables, m.Me.Table) {
		t.Errorf("Ann is told table %s, not one of the round's %v", m.Me.Table, tables)
	}

	// Paused at b: a's board says so, and no table moves, whichever
	// process drives it; resumed at a, b's board says so.
	b.post("/api/events/"+id+"/pause", host, 200, nil)
	start := time.Now()
	waitFollowed(t, boardA, wait, "the pause on a's board", func(m evFollowed) bool { return m.Event.Paused })
	waitFollowed(t, annB, wait, "the pause on Ann's phone", func(m evFollowed) bool { return m.Event.Paused })
	// A move under way when the pause came is stored (a busy database may
	// take a while); then nothing moves.
	before := a.moves(tables)
	for still := time.Now(); time.Since(still) < 300*time.Millisecond; time.Sleep(50 * time.Millisecond) {
		if now := a.moves(tables); !slices.Equal(now, before) {
			before, still = now, time.Now()
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the tables still move 20 s after the pause: %v", before)
		}
	}
	time.Sleep(500 * time.Millisecond) // stand-ins move every 25 ms when play is on
	if after := a.moves(tables); !slices.Equal(before, after) {
		t.Fatalf("actions while paused: %v, then %v", before, after)
	}
	a.post("/api/events/"+id+"/resume", host, 200, nil)
	waitFollowed(t, boardB, wait, "the resume on b's board", func(m evFollowed) bool { return !m.Event.Paused && m.Event.State == "playing" })

	// The clock runs out: every table's result and the standings, at both.
	var between [2]evFollowed
	for i, board := range []<-chan evFollowed{boardA, boardB} {
		between[i] = waitFollowed(t, board, 30*time.Second, "round 1's results", func(m evFollowed) bool { return m.Event.State == "between" })
	}
	checkResults(t, b, between[1].Event.evWire, 1)
	if fmt.Sprint(between[0].Event.Standings) != fmt.Sprint(between[1].Event.Standings) {
		t.Errorf("the standings differ: a %+v, b %+v", between[0].Event.Standings, between[1].Event.Standings)
	}

	// Round 2 started at b, ended at a.
	b.post("/api/events/"+id+"/start", host, 200, nil)
	waitFollowed(t, boardA, wait, "round 2 on a's board", func(m evFollowed) bool { return m.Event.Round == 2 && m.Event.State == "playing" })
	waitFollowed(t, annB, wait, "Ann's round 2 table", func(m evFollowed) bool { return m.Me != nil && m.Me.Round == 2 && m.Me.Table != "" })
	a.post("/api/events/"+id+"/end", host, 200, nil)
	waitFollowed(t, boardB, wait, "the end on b's board", func(m evFollowed) bool { return m.Event.Ended })
	over := waitFollowed(t, boardB, 30*time.Second, "the event over on b's board", func(m evFollowed) bool { return m.Event.State == "over" })
	checkResults(t, a, over.Event.evWire, 2)
}

// TestClusterEventClock: a round on the clock ends once, at its time,
// when the process that started it, and drove some of its tables, stops
// without handing them over: the other takes its tables when their
// leases run out, every table stops at the end of the hand in play when
// time is up, and each result is recorded once (a second would be
// refused, and logged) and equals the store's. The round is paused
// while the process stops, so that the clock cannot run out first.
func TestClusterEventClock(t *testing.T) {
	a, b := clusterPair(t, clusterEventOptions(4*time.Second))
	var c struct{ ID, Token string }
	a.post("/api/events", fmt.Sprintf(clockEvent, 1), 201, &c)
	id, host := c.ID, fmt.Sprintf(`{"token":%q}`, c.Token)
	for i := range 16 {
		a.post("/api/events/"+id+"/join", fmt.Sprintf(`{"name":"P%d"}`, i), 200, nil)
	}
	board := followEvent(t, b, id, `{"type":"hello","full":true}`)
	a.post("/api/events/"+id+"/start", host, 200, nil)
	a.post("/api/events/"+id+"/pause", host, 200, nil)
	e := waitFollowed(t, board, 10*time.Second, "the round paused", func(m evFollowed) bool { return m.Event.Paused })
	var tables []string
	for _, tab := range e.Event.Rounds[0] {
		tables = append(tables, tab.Table)
	}
	// Both processes drive some of the four tables (neither may take more
	// than three).
	pa, pb := processID(t, a), processID(t, b)
	var held map[string]string
	waitUntil(t, 20*time.Second, "the tables' leases shared by both processes", func() bool {
		held = map[string]string{}
		n := map[string]int{}
		for _, tab := range tables {
			h := leaseHolder(t, a, tab)
			held[tab] = h
			n[h]++
		}
		return n[pa] > 0 && n[pb] > 0 && n[pa]+n[pb] == len(tables)
	})
	a.stop()
	b.post("/api/events/"+id+"/resume", host, 200, nil)
	resumed := waitFollowed(t, board, 10*time.Second, "the round resumed", func(m evFollowed) bool { return !m.Event.Paused })
	if resumed.Event.EndsAt == nil {
		t.Fatalf("a round on the clock without its end: %+v", resumed.Event)
	}
	ends := *resumed.Event.EndsAt
	over := waitFollowed(t, board, 40*time.Second, "the round's end", func(m evFollowed) bool { return m.Event.State == "over" })
	if time.Now().Before(ends) {
		t.Errorf("the round ended before its clock: %v left", time.Until(ends))
	}
	checkResults(t, b, over.Event.evWire, 1)
	for _, tab := range tables {
		if held[tab] == pa && !strings.Contains(b.all.String(), fmt.Sprintf(`msg="cluster: driving table" table=%s`, tab)) {
			t.Errorf("table %s, a's, was not taken over by b", tab)
		}
	}
	// Nothing is played after the end: each table stopped with its result.
	end := b.moves(tables)
	time.Sleep(300 * time.Millisecond)
	if again := b.moves(tables); !slices.Equal(end, again) {
		t.Errorf("actions after the round's end: %v, then %v", end, again)
	}
	if l := b.all.String(); strings.Contains(l, "result is refused") {
		t.Errorf("a table's result was recorded twice:\n%s", l)
	}
}

// TestClusterEventTableEnd: people connected to the process that does
// not drive their table play its round to its end (one hand): the
// last card, stored there, ends the round, which the log alone does not
// say. The driver learns it (the table's stored finished flag) and deals
// no next hand, and the round's result reaches the event once.
func TestClusterEventTableEnd(t *testing.T) {
	opts := fastOptions()                             // no stand-in for the people: they play every card
	opts.Cluster, opts.LeaseTTL = true, 2*time.Second // a lease round has a second: a busy machine makes it in time
	a, b := clusterPair(t, opts)
	var c struct{ ID, Token string }
	a.post("/api/events", `{"variant":"auction","options":{"players":4,"target":10000},"rounds":1,"end":"hands","hands":1,"movement":"progressive"}`, 201, &c)
	id := c.ID
	tokens := map[int]string{}
	for i := range 4 {
		var j struct{ Token string }
		a.post("/api/events/"+id+"/join", fmt.Sprintf(`{"name":"P%d"}`, i), 200, &j)
		tokens[i] = j.Token
	}
	a.post("/api/events/"+id+"/start", fmt.Sprintf(`{"token":%q}`, c.Token), 200, nil)
	tab := a.event(id).Rounds[0][0].Table
	// The driver, once its lease has held for two lease times.
	driver, since := "", time.Now()
	waitUntil(t, 20*time.Second, "the table's lease to settle at a process", func() bool {
		if h := leaseHolder(t, a, tab); h != driver || h == "" {
			driver, since = h, time.Now()
		}
		return time.Since(since) >= 2*opts.LeaseTTL
	})
	other := b
	if driver == processID(t, b) {
		other = a
	}
	playRound(t, other, id, tokens, nil, 3)
	e := other.waitEvent(id, "the event over", func(e evWire) bool { return e.State == "over" })
	checkResults(t, other, e, 1)
	time.Sleep(500 * time.Millisecond) // the driver's deal would wait DealWait (50 ms)
	deals, err := other.st.Deals(bg, tab)
	if err != nil {
		t.Fatal(err)
	}
	if hands, _, _ := finalScores(t, other, tab); len(deals) != 1 || len(hands) != 1 {
		t.Errorf("after the round's one hand the store has %d deals and %d hands: the driver played on", len(deals), len(hands))
	}
}
