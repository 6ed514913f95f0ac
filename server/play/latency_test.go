package play

import (
	"math"
	"testing"
	"time"
)

// TestLatencyBucket: each duration lands in the bucket whose bounds hold
// it, 2^(i/4) to 2^((i+1)/4) µs; what is under a microsecond in the
// first, what is past the last bound in the last.
func TestLatencyBucket(t *testing.T) {
	for _, d := range []time.Duration{time.Microsecond, 1500 * time.Nanosecond, 2 * time.Microsecond, 999 * time.Microsecond,
		time.Millisecond, 1189 * time.Microsecond, 1190 * time.Microsecond, 50 * time.Millisecond, 3 * time.Second, time.Minute} {
		i := latencyBucket(d)
		lo, hi := math.Exp2(float64(i)/4), math.Exp2(float64(i+1)/4)
		if us := float64(d) / float64(time.Microsecond); us < lo || us >= hi {
			t.Errorf("%v in bucket %d, from %.2f µs to %.2f µs: want a bucket holding it", d, i, lo, hi)
		}
	}
	for _, tc := range []struct {
		d    time.Duration
		want int
	}{{0, 0}, {-time.Second, 0}, {500 * time.Nanosecond, 0}, {1000 * time.Hour, latencyBuckets - 1}} {
		if got := latencyBucket(tc.d); got != tc.want {
			t.Errorf("latencyBucket(%v) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

// TestLatencyCounts: counts lists every bucket up to the last one used.
func TestLatencyCounts(t *testing.T) {
	var h latencyHist
	if got := h.counts(); len(got) != 0 {
		t.Errorf("nothing counted: counts %v, want none", got)
	}
	h.add(time.Microsecond)
	h.add(3 * time.Millisecond)
	h.add(3 * time.Millisecond)
	got := h.counts()
	last := latencyBucket(3 * time.Millisecond)
	if len(got) != last+1 || got[0] != 1 || got[last] != 2 {
		t.Errorf("counts %v, want %d buckets, 1 in the first and 2 in the last", got, last+1)
	}
}
