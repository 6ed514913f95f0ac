package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"pitch/server"
)

// TestLatencies: a short run on an in-process server with fair deals.
// Every action confirmed has its line in Config.Latencies, none was sent
// before play began (the clients act at once: a seat on turn as soon as
// its table is dealt would be before it) (each table's first deal, and its seats' values for
// the second, are set-up), and the server's own part of the latency,
// read from GET /api/stats, is there and no greater than what the
// clients measured (within a bucket's width).
func TestLatencies(t *testing.T) {
	if testing.Short() {
		t.Skip("plays tables for seconds")
	}
	ctx := context.Background()
	hs := inProcessServer(t, server.Options{BotDelay: time.Millisecond, AwayDelay: time.Minute, DealWait: 5 * time.Second})

	var lines bytes.Buffer
	rep, err := Run(ctx, Config{URL: hs.URL, Tables: 20, Duration: 2 * time.Second, Variant: "pawnee", Think: 0,
		Seed: 4, Latencies: &lines, Options: map[string]any{"target": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Actions == 0 || rep.Errors != 0 {
		t.Fatalf("%d actions, %d errors (%v): want actions and no errors", rep.Actions, rep.Errors, rep.ErrorSamples)
	}
	n := 0
	sc := bufio.NewScanner(&lines)
	for sc.Scan() {
		n++
		f := strings.Fields(sc.Text())
		if len(f) != 4 {
			t.Fatalf("line %q: want 4 fields", sc.Text())
		}
		at, err1 := strconv.ParseFloat(f[0], 64)
		ms, err2 := strconv.ParseFloat(f[1], 64)
		seq, err3 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || err3 != nil || ms <= 0 || seq < 0 {
			t.Fatalf("line %q: want seconds, a latency above 0 ms, a table and an event number", sc.Text())
		}
		if _, ok := rep.Seen[f[2]]; !ok {
			t.Errorf("line %q: a table the run did not play", sc.Text())
		}
		if sent := at*1000 - ms; sent < -1 || at > rep.Elapsed.Seconds()+1 { // the file's three decimals
			t.Errorf("line %q: the action was sent %.1f ms after play began, which lasted %v", sc.Text(), sent, rep.Elapsed)
		}
	}
	if n != rep.Actions {
		t.Errorf("%d lines, want one for each of the %d actions", n, rep.Actions)
	}
	width := math.Exp2(0.25)
	if rep.ServerP50 <= 0 || rep.ServerP99 < rep.ServerP50 {
		t.Fatalf("the server's latency: p50 %v, p99 %v; want both, p50 ≤ p99", rep.ServerP50, rep.ServerP99)
	}
	if float64(rep.ServerP50) > width*float64(rep.P50) || float64(rep.ServerP99) > width*float64(rep.P99) {
		t.Errorf("the server's part (p50 %v, p99 %v) is more than the clients measured (p50 %v, p99 %v)", rep.ServerP50, rep.ServerP99, rep.P50, rep.P99)
	}
}

// TestServerLatency: quantiles of the difference of two readings, each
// the upper bound of its bucket.
func TestServerLatency(t *testing.T) {
	bound := func(i int) time.Duration { return time.Duration(math.Exp2(float64(i+1)/4) * float64(time.Microsecond)) }
	for _, tc := range []struct {
		name             string
		before, after    []uint64
		wantP50, wantP99 time.Duration
	}{
		{"nothing", nil, nil, 0, 0},
		{"nothing new", []uint64{3, 0, 2}, []uint64{3, 0, 2}, 0, 0},
		{"one", nil, []uint64{0, 0, 1}, bound(2), bound(2)},
		{"the earlier ones left out", []uint64{50}, []uint64{50, 98, 0, 2}, bound(1), bound(3)},
		{"a slow hundredth", nil, []uint64{0, 97, 0, 0, 3}, bound(1), bound(4)},
		{"a shorter reading before", []uint64{1}, []uint64{1, 1, 1}, bound(1), bound(1)},
	} {
		p50, p99 := serverLatency(tc.before, tc.after)
		if p50 != tc.wantP50 || p99 != tc.wantP99 {
			t.Errorf("%s: p50 %v, p99 %v; want %v, %v", tc.name, p50, p99, tc.wantP50, tc.wantP99)
		}
	}
}
