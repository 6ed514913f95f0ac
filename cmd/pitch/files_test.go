package main

import (
	"strings"
	"testing"
)

// TestConnsWithin: a server whose open-file limit is below --max-conns
// (or whose --max-conns is 0, no limit) holds only what the limit allows,
// less the files kept for the listener, the database and HTTP requests,
// and says why; under the limit, or with the limit unknown, --max-conns
// stands.
func TestConnsWithin(t *testing.T) {
	for _, tc := range []struct {
		max   int
		limit uint64
		want  int
		why   bool
	}{
		{20000, 0, 20000, false},       // unknown or unlimited
		{20000, 1 << 20, 20000, false}, // well within
		{20000, 20000, 19488, true},    // a 20,000-file limit: 512 kept
		{20000, 20512, 20000, false},   // just within
		{0, 20000, 19488, true},        // no limit asked: the files' limit
		{0, 0, 0, false},
		{1000, 1024, 768, true}, // a small limit: a quarter kept
		{500, 1024, 500, false},
	} {
		got, why := connsWithin(tc.max, tc.limit)
		if got != tc.want || (why != "") != tc.why {
			t.Errorf("connsWithin(%d, %d) = %d, %q; want %d, and a reason: %v", tc.max, tc.limit, got, why, tc.want, tc.why)
		}
		if why != "" && (!strings.Contains(why, "ulimit -n") || !strings.Contains(why, "server_full")) {
			t.Errorf("connsWithin(%d, %d) says %q: it should say what is refused and how to raise the limit", tc.max, tc.limit, why)
		}
	}
}

// TestSocketsWithin: a load test that needs more WebSockets than its
// open-file limit allows is refused before it starts, saying what to
// change; one within it, or with the limit unknown, runs.
func TestSocketsWithin(t *testing.T) {
	for _, tc := range []struct {
		sockets int
		limit   uint64
		refused bool
	}{
		{20000, 20000, true}, // 4,000 five-seat tables here
		{19488, 20000, false},
		{19489, 20000, true},
		{20000, 0, false},
		{20000, 1 << 20, false},
	} {
		why := socketsWithin(tc.sockets, tc.limit)
		if (why != "") != tc.refused {
			t.Errorf("socketsWithin(%d, %d) = %q; refused: %v, want %v", tc.sockets, tc.limit, why, why != "", tc.refused)
		}
		if why != "" && (!strings.Contains(why, "--tables") || !strings.Contains(why, "ulimit -n")) {
			t.Errorf("socketsWithin(%d, %d) says %q: it should name --tables and ulimit -n", tc.sockets, tc.limit, why)
		}
	}
}
