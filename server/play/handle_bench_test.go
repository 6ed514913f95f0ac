package play

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"pitch/store"
)

// storeless is a store whose appends and saved commitments cost nothing:
// what a benchmark of the server's own work leaves out.
type storeless struct{ store.Store }

func (storeless) Append(context.Context, string, store.Append) error { return nil }

func (storeless) SaveCommitment(context.Context, string, store.Commitment) error { return nil }

// BenchmarkHandle is one client message at a five-seat pawnee table with
// fair deals, every seat connected and speaking protocol 2, as the load
// test's clients send them:
// each hand's fair-deal contributions (four of the five seats; the fifth
// would deal at once on a timer), then its actions, each read and
// handled by the connection of the seat to act (decoded, checked,
// applied, and every connection's state built, encoded, its delta made
// and queued; what is queued is then taken as a writer would). The
// store's appends and saved commitments are left out (storeless); deals
// and new matches are made with the timer stopped. Besides time and
// allocations it reports wire-B/action: the bytes queued to the five
// connections, contributions' messages included, per action played.
// docs/performance.md.
func BenchmarkHandle(b *testing.B) { benchHandle(b, 2) }

// BenchmarkHandleV1 is BenchmarkHandle in protocol 1: a whole state to
// every connection.
func BenchmarkHandleV1(b *testing.B) { benchHandle(b, 1) }

func benchHandle(b *testing.B, proto int) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv, err := New(ctx, storeless{st}, Options{BotDelay: time.Hour, AwayDelay: time.Hour, ReadyWait: time.Nanosecond, DealWait: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	n := 0
	var t *table
	var conns []*conn
	var queue [][]byte // contributions still to send, and by whom
	var from []int
	rng := rand.New(rand.NewPCG(1, 2))
	newTable := func() {
		t = benchTableProto(b, srv, n, proto)
		n++
		conns = make([]*conn, t.game.Seats())
		for c := range t.conns {
			conns[c.seat] = c
		}
	}
	contribute := func() {
		if t.pending == nil {
			return
		}
		for s := range t.game.Seats() - 1 {
			v := rng.Uint64()
			msg, _ := json.Marshal(map[string]string{"type": "contribute", "commitment": t.pending.commitment,
				"value": hex.EncodeToString(fmt.Appendf(nil, "%032x", v))})
			queue, from = append(queue, msg), append(from, s)
		}
	}
	newTable()
	contribute()
	sent, actions := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		if len(queue) > 0 {
			msg, s := queue[0], from[0]
			queue, from = queue[1:], from[1:]
			conns[s].handle(ctx, t, msg)
			refused(b, conns[s], msg)
			t.mu.Lock()
			sent += written(t)
			t.mu.Unlock()
			continue
		}
		b.StopTimer()
		t.mu.Lock()
		for t.over() || t.match.AwaitingDeal() {
			if t.over() {
				t.mu.Unlock()
				newTable()
				t.mu.Lock()
			} else if err := t.deal(); err != nil {
				b.Fatal(err)
			}
			contribute()
		}
		sent += written(t) // the deal's states, as the writers would take them before the next action
		s := t.match.State()
		a := s.RandomAction(rng)
		msg, _ := json.Marshal(map[string]any{"type": "action", "action": a})
		c := conns[s.Turn()]
		t.mu.Unlock()
		b.StartTimer()
		c.handle(ctx, t, msg)
		refused(b, c, msg)
		t.mu.Lock()
		sent += written(t)
		t.mu.Unlock()
		actions++
	}
	if actions > 0 {
		b.ReportMetric(float64(sent)/float64(actions), "wire-B/action")
	}
}

// refused fails the benchmark if c was sent anything but states: msg
// was refused.
func refused(b *testing.B, c *conn, msg []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, q := range c.queue {
		if !q.state {
			b.Fatalf("%s: %s", msg, q.data)
		}
	}
}
