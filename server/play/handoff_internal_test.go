package play

import (
	"sync"
	"testing"
)

// TestHandOff: messages handed off by many connections at once (more
// than there may be workers) are each handled exactly once, by the time
// handOff returns, and a connection's in the order it handed them; the
// pool never holds more than maxHandlers workers.
func TestHandOff(t *testing.T) {
	const conns, msgs = 3 * maxHandlers, 40
	var wg sync.WaitGroup
	got := make([][]int, conns)
	for c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := make(chan struct{}, 1)
			var seen []int
			handle := func(data []byte) { seen = append(seen, int(data[0])) }
			for i := range msgs {
				handOff(handle, []byte{byte(i)}, done)
				if len(seen) != i+1 {
					t.Errorf("connection %d: handOff of message %d returned with %d handled", c, i, len(seen))
					return
				}
			}
			got[c] = seen
		}()
	}
	wg.Wait()
	for c, seen := range got {
		for i, v := range seen {
			if v != i {
				t.Fatalf("connection %d: messages handled in the order %v, want 0 to %d", c, seen, msgs-1)
			}
		}
	}
	handlerPool.mu.Lock()
	defer handlerPool.mu.Unlock()
	if n := handlerPool.n; n > maxHandlers || len(handlerPool.idle) > n {
		t.Errorf("%d workers, %d waiting: want at most %d, and no more waiting than there are", n, len(handlerPool.idle), maxHandlers)
	}
}

// BenchmarkHandOff is what handing a message to a worker adds to its
// handling (handOff of a handler that does nothing): two goroutine
// switches, at most (docs/performance.md, "Issue 41").
func BenchmarkHandOff(b *testing.B) {
	done := make(chan struct{}, 1)
	n := 0
	handle := func([]byte) { n++ }
	msg := []byte("{}")
	b.ReportAllocs()
	for b.Loop() {
		handOff(handle, msg, done)
	}
	if n != b.N {
		b.Fatalf("%d handled of %d", n, b.N)
	}
}
