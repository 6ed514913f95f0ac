package loadtest

import (
	"context"
	"math"
	"time"
)

type serverStats struct {
	HeapAlloc   uint64 `json:"heap_alloc"`
	StackInuse  uint64 `json:"stack_inuse"`
	RSS         uint64 `json:"rss"`
	Connections int    `json:"connections"`
	Tables      int    `json:"tables"`
	// ActionLatency is the server's count of actions by latency bucket
	// (serverLatency).
	ActionLatency []uint64 `json:"action_latency_us"`
	// Mallocs and AllocBytes: what the server has allocated since it
	// started, objects and bytes.
	Mallocs    uint64 `json:"mallocs"`
	AllocBytes uint64 `json:"alloc_bytes"`
}

// ServerMemory is the server's memory at one moment, from /api/stats.
type ServerMemory struct {
	Connections int    `json:"connections"`
	Heap        uint64 `json:"heap"`  // live heap, bytes
	Stack       uint64 `json:"stack"` // goroutine stacks, bytes
	RSS         uint64 `json:"rss"`   // resident memory, bytes (0 off Linux)
}

func memoryOf(st *serverStats) ServerMemory {
	return ServerMemory{Connections: st.Connections, Heap: st.HeapAlloc, Stack: st.StackInuse, RSS: st.RSS}
}

// PerConnection is what each connection added to the server's heap and
// stacks together, and to its resident memory, between unloaded and
// loaded (0 without connections).
func (r *Report) PerConnection() (heapStack, rss float64) {
	n := r.Loaded.Connections - r.Unloaded.Connections
	if n <= 0 {
		return 0, 0
	}
	hs := float64(r.Loaded.Heap+r.Loaded.Stack) - float64(r.Unloaded.Heap+r.Unloaded.Stack)
	return hs / float64(n), (float64(r.Loaded.RSS) - float64(r.Unloaded.RSS)) / float64(n)
}

// stats reads the server's /api/stats; gc asks it to collect garbage
// first, so that its heap is the live heap (a pause of the server: only
// for a reading of its memory).
func (r *run) stats(ctx context.Context, gc bool) (*serverStats, error) {
	var st serverStats
	path := "/api/stats"
	if gc {
		path += "?gc=1"
	}
	err := r.call(ctx, "GET", path, nil, &st)
	return &st, err
}

// serverLatency is the median and 99th percentile of the server's action
// latency between two readings of its counts (GET /api/stats,
// action_latency_us: bucket i from 2^(i/4) to 2^((i+1)/4) µs), each the
// upper bound of its bucket; 0, 0 when nothing was counted between.
func serverLatency(before, after []uint64) (p50, p99 time.Duration) {
	diff := make([]uint64, len(after))
	var n uint64
	for i, c := range after {
		if i < len(before) {
			c -= min(c, before[i])
		}
		diff[i] = c
		n += c
	}
	if n == 0 {
		return 0, 0
	}
	at := func(q uint64) time.Duration { // the bucket holding the q-th
		var seen uint64
		for i, c := range diff {
			if seen += c; seen >= q {
				return time.Duration(math.Exp2(float64(i+1)/4) * float64(time.Microsecond))
			}
		}
		return 0
	}
	return at((n + 1) / 2), at(max(1, n*99/100))
}
