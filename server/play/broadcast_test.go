package play

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"pitch/server/wire"
	"pitch/store"
)

// benchTable is a five-seat pawnee table with fair deals, as `pitch
// loadtest` plays them, every seat taken by a human and connected (by a
// connection without a socket, which only queues), its first hand dealt.
func benchTable(tb testing.TB, srv *Server, n int) *table { return benchTableProto(tb, srv, n, 0) }

// benchTableProto is benchTable with its connections speaking protocol
// proto (0 or 1: whole states; 2: deltas).
func benchTableProto(tb testing.TB, srv *Server, n, proto int) *table {
	t := playTable(tb, srv, &store.Table{ID: fmt.Sprintf("bench%d", n), Variant: "pawnee", Seed: uint64(n) + 1, FairDeals: true})
	t.mu.Lock()
	defer t.mu.Unlock()
	for c := range t.conns {
		c.proto, c.ops = proto, proto >= wire.ProtocolDeltas
	}
	return t
}

// written takes what is queued for each of t's connections, as their
// writers would, and returns its bytes.
func written(t *table) int {
	n := 0
	for c := range t.conns {
		c.mu.Lock()
		for _, q := range c.queue {
			n += len(q.data)
			q.buf.release()
		}
		c.queue = c.queue[:0]
		c.mu.Unlock()
	}
	return n
}

// playTable stores and loads the table info, its seats all taken by
// humans and connected (by connections without a socket, which only
// queue), its first hand dealt at a table with fair deals.
func playTable(tb testing.TB, srv *Server, info *store.Table) *table {
	ctx := context.Background()
	g, err := gameOf(info)
	if err != nil {
		tb.Fatal(err)
	}
	info.Created = time.Now().UTC().Truncate(time.Millisecond)
	seats := g.Seats()
	for i := range seats {
		info.Seats = append(info.Seats, store.Seat{Seat: i, Kind: "human"})
	}
	if err := srv.store.CreateTable(ctx, info); err != nil {
		tb.Fatal(err)
	}
	for i := range seats {
		h := sha256.Sum256(fmt.Appendf(nil, "%s %d", info.ID, i))
		if err := srv.store.ClaimSeat(ctx, info.ID, i, fmt.Sprintf("load%d", i), h[:]); err != nil {
			tb.Fatal(err)
		}
	}
	info, err = srv.store.Table(ctx, info.ID)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := srv.load(ctx, info)
	if err != nil {
		tb.Fatal(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for s := range seats {
		c := newConn(nil, nil, nil, "bench")
		c.seat = s
		t.conns[c] = struct{}{}
		t.online[s]++
	}
	if t.match.AwaitingDeal() {
		if err := t.deal(); err != nil {
			tb.Fatal(err)
		}
	}
	return t
}

// benchServer is a server on a fresh SQLite file whose bots and
// stand-ins never act on their own.
func benchServer(tb testing.TB) *Server {
	_, srv := internalServer(tb, filepath.Join(tb.TempDir(), "bench.db"), Options{BotDelay: time.Hour, AwayDelay: time.Hour, ReadyWait: time.Nanosecond})
	return srv
}

// benchAction checks and applies a random legal action of the seat to
// act, as act does but without the store; false when the table needs a
// deal or a new match first.
func benchAction(t *table, rng *rand.Rand) bool { return playRandom(t, rng, "") }

// playRandom checks and applies a random legal action of the seat to act,
// made by by, as act does but without the store; false when the table
// needs a deal or a new match first. The lock must be held.
func playRandom(t *table, rng *rand.Rand, by string) bool {
	if t.over() || t.match.AwaitingDeal() {
		return false
	}
	s := t.match.State()
	a := s.RandomAction(rng)
	next := *s
	if err := next.Apply(a); err != nil {
		panic(err)
	}
	if err := t.apply(a, nil, by); err != nil {
		panic(err)
	}
	t.seq++
	return true
}

// BenchmarkBroadcast is one action at a five-seat pawnee table with fair
// deals and every seat connected (the load test's table), speaking
// protocol 2 as the page and the load test do: the action checked and
// applied (without the store), then every connection's state built,
// encoded and its delta made (broadcast), and what is queued taken as a
// writer would (sent-B/op: the bytes). Deals and new matches are made
// with the timer stopped. docs/performance.md.
func BenchmarkBroadcast(b *testing.B) { benchBroadcast(b, 2) }

// BenchmarkBroadcastV1 is BenchmarkBroadcast in protocol 1: a whole
// state to every connection.
func BenchmarkBroadcastV1(b *testing.B) { benchBroadcast(b, 1) }

func benchBroadcast(b *testing.B, proto int) {
	srv := benchServer(b)
	n := 0
	t := benchTableProto(b, srv, n, proto)
	rng := rand.New(rand.NewPCG(1, 2))
	sent, ops := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		t.mu.Lock()
		for !benchAction(t, rng) {
			b.StopTimer()
			if t.over() {
				t.mu.Unlock()
				n++
				t = benchTableProto(b, srv, n, proto)
				t.mu.Lock()
			} else if err := t.deal(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		t.schedule(0)
		t.broadcast()
		sent += written(t)
		ops++
		t.mu.Unlock()
	}
	b.ReportMetric(float64(sent)/float64(ops), "sent-B/op")
	if proto >= wire.ProtocolDeltas {
		// What the protocol-2 trackers hold, a seat's and the table's
		// shared fingerprints (held once for every seat).
		n, mem := 0, 0
		for _, tr := range t.trackers {
			if tr != nil {
				n, mem = n+1, mem+tr.Bytes()
			}
		}
		if n > 0 {
			b.ReportMetric(float64(mem)/float64(n), "tracker-B/seat")
			b.ReportMetric(float64(t.lastShared.Bytes()), "shared-B/table")
		}
	}
}

// TestStateBufShared: a broadcast's encoded states are held once by each
// connection's queue that has them, and let go when a newer state
// replaces them (given back to the pool at refs 0) or the connection is
// closed without flushing; the bytes a queue holds are its seat's state.
func TestStateBufShared(t *testing.T) {
	srv := benchServer(t)
	tb := benchTable(t, srv, 0)
	tb.mu.Lock()
	defer tb.mu.Unlock()
	watcher := []*conn{newConn(nil, nil, nil, "w"), newConn(nil, nil, nil, "w")}
	for _, c := range watcher {
		tb.conns[c] = struct{}{}
	}
	queued := func() map[*conn]outMsg {
		out := map[*conn]outMsg{}
		for c := range tb.conns {
			c.mu.Lock()
			if len(c.queue) != 1 || c.queue[0].buf == nil {
				t.Fatalf("seat %d: %d messages queued, want one pooled state", c.seat, len(c.queue))
			}
			out[c] = c.queue[0]
			c.mu.Unlock()
		}
		return out
	}
	tb.broadcast()
	first := queued()
	sh := tb.shared()
	for c, q := range first {
		want := int32(1)
		if c.seat < 0 {
			want = 2 // both spectators share one
		}
		if n := q.buf.refs.Load(); n != want {
			t.Errorf("seat %d: its state is held %d times, want %d", c.seat, n, want)
		}
		b, err := tb.stateJSON(sh, c.seat)
		if err != nil || string(b) != string(q.data) {
			t.Errorf("seat %d: queued\n%s\nwant\n%s", c.seat, q.data, b)
		}
	}
	for c := range tb.conns { // newer states (not pooled, so none is taken from the pool)
		c.queueState([]byte(`{"type":"state"}`))
	}
	for c, q := range first {
		if n := q.buf.refs.Load(); n != 0 {
			t.Errorf("seat %d: a replaced state is still held %d times", c.seat, n)
		}
	}
	tb.broadcast()
	second := queued()
	watcher[0].closeWith(statusGoingAway, "", false)
	if n := second[watcher[0]].buf.refs.Load(); n != 1 {
		t.Errorf("the spectators' state is held %d times after one closed, want 1", n)
	}
}
