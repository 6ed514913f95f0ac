package play

import (
	"math"
	"sync/atomic"
	"time"
)

// latencyBuckets is how many buckets a latencyHist has: bucket i holds
// durations from 2^(i/4) µs up to 2^((i+1)/4) µs (the first also those
// under a microsecond, the last everything from about an hour).
const latencyBuckets = 128

// latencyHist counts durations in buckets a quarter of a power of two
// wide (each bound about 19 % above the one before): 128 counters. It is safe for
// concurrent use and never allocates: the server adds to it on every
// action.
type latencyHist struct {
	n [latencyBuckets]atomic.Uint64
}

// latencyBucket is the bucket of d.
func latencyBucket(d time.Duration) int {
	us := float64(d) / float64(time.Microsecond)
	if us < 1 {
		return 0
	}
	return min(int(4*math.Log2(us)), latencyBuckets-1)
}

// add counts one duration.
func (h *latencyHist) add(d time.Duration) { h.n[latencyBucket(d)].Add(1) }

// counts returns the count of each bucket, without the empty buckets at
// the end (nil when nothing was counted).
func (h *latencyHist) counts() []uint64 {
	out := make([]uint64, latencyBuckets)
	last := -1
	for i := range out {
		if out[i] = h.n[i].Load(); out[i] > 0 {
			last = i
		}
	}
	return out[:last+1]
}
