package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"time"

	"pitch/loadtest"
)

// runLoadtest implements `pitch loadtest`: many tables of bot clients
// against a running server, over real WebSocket connections.
func runLoadtest(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "http://127.0.0.1:8080", "the server to load (loopback only in tests)")
	tables := fs.Int("tables", 100, "tables played at once (1 to 10000)")
	duration := fs.Duration("duration", 30*time.Second, "how long to play")
	variant := fs.String("variant", "pawnee", "game: auction, ten-point or pawnee")
	think := fs.Duration("think", time.Second, "mean pause before a client acts")
	seed := fs.Uint64("seed", 1, "seed for the clients' choices")
	reconnect := fs.Bool("reconnect", true, "redial dropped connections, as browsers do")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	event := fs.Int("event", 0, "play one progressive event of this many people (1 to 1000) instead of --tables tables, the run its host")
	eventRounds := fs.Int("event-rounds", 3, "with --event: its rounds (1 to 20)")
	eventHands := fs.Int("event-hands", 2, "with --event: the hands of a round at each table (1 to 50)")
	joinGap := fs.Duration("event-join-gap", 0, "with --event: the time between one person's joining and the next's (people arrive; 0: all at once)")
	reviewers := fs.Int("reviewers", 0, "clients asking for reviews of every finished hand and seat during play, again and again (0 to 100)")
	latencies := fs.String("latencies", "", "write a line for each action confirmed to this file: seconds since play began, latency in ms, table, event number; off when empty")
	setupAtOnce := fs.Int("setup-at-once", 0, "tables set up at a time, each created, joined, connected and dealt before its place goes to the next (0: all at once)")
	setupTimeout := fs.Duration("setup-timeout", 0, "time allowed to set every table up before play; longer fails the run (0: 30s and 25ms a table)")
	marks := fs.Bool("marks", false, "print \"pitch loadtest: play begins\" and \"pitch loadtest: play ends\" to standard error at those moments, for a script sampling the server (tools/pinned-load.sh)")
	protocol := fs.Int("protocol", 2, "the protocol the seats' clients speak: 2 (states as deltas) or 1 (whole states, as old pages), to compare the two (docs/protocol.md)")
	cpuprof := fs.String("cpuprofile", "", "write a CPU profile of the load test's own process to this file, for `go tool pprof` (docs/performance.md); off when empty")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if *protocol != 1 && *protocol != 2 {
		fmt.Fprintf(stderr, "pitch loadtest: --protocol must be 1 (whole states) or 2 (deltas), not %d\n", *protocol)
		return 2
	}
	if *reviewers < 0 || *reviewers > 100 {
		fmt.Fprintf(stderr, "pitch loadtest: --reviewers must be 0 to 100, not %d\n", *reviewers)
		return 2
	}
	if *event == 0 {
		if why := socketsWithin(*tables*loadtest.Seats(*variant)+*reviewers, openFileLimit()); why != "" {
			fmt.Fprintf(stderr, "pitch loadtest: %s\n", why)
			return 1
		}
	}
	stopProfile, err := cpuProfile(*cpuprof)
	if err != nil {
		fmt.Fprintf(stderr, "pitch loadtest: %v\n", err)
		return 1
	}
	defer stopProfile()
	var latOut io.Writer
	if *latencies != "" {
		f, err := os.Create(*latencies)
		if err != nil {
			fmt.Fprintf(stderr, "pitch loadtest: --latencies: %v\n", err)
			return 1
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
		defer bw.Flush()
		latOut = bw
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var reviews *loadtest.ReviewReport
	rctx, stopReviews := context.WithCancel(ctx)
	reviewsDone := make(chan struct{})
	go func() {
		defer close(reviewsDone)
		if *reviewers > 0 {
			reviews, _ = loadtest.Reviews(rctx, loadtest.ReviewConfig{URL: *addr, Workers: *reviewers})
		}
	}()
	var marksOut io.Writer
	if *marks {
		marksOut = stderr
	}
	rep, err := loadtest.Run(ctx, loadtest.Config{URL: *addr, Tables: *tables, Duration: *duration, Variant: *variant,
		Think: *think, Seed: *seed, Reconnect: *reconnect, Event: *event, EventRounds: *eventRounds, EventHands: *eventHands, EventJoinGap: *joinGap, Latencies: latOut,
		SetupAtOnce: *setupAtOnce, SetupTimeout: *setupTimeout, Marks: marksOut, Protocol1: *protocol == 1})
	stopReviews()
	<-reviewsDone
	var refused *loadtest.RefusedError
	if err != nil && !errors.As(err, &refused) {
		fmt.Fprintf(stderr, "pitch loadtest: %v\n", err)
		return 1
	}
	// A refused run prints what it measured, then why it stopped.
	code := 0
	if refused != nil {
		defer fmt.Fprintf(stderr, "pitch loadtest: %v\n", refused)
		code = 1
	}
	if *asJSON {
		out := struct {
			*loadtest.Report
			Reviews *loadtest.ReviewReport `json:"reviews,omitempty"`
		}{rep, reviews}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
		return code
	}
	if rep.Event != "" {
		fmt.Fprintf(stdout, "event %s: %d people at %d tables a round\n", rep.Event, *event, rep.Tables)
	}
	fmt.Fprintf(stdout, "tables %d (set up in %s), finished %d, hands %d, actions %d (%.0f/s) in %s\n",
		rep.Tables, rep.Setup.Round(time.Millisecond), rep.Finished, rep.Hands, rep.Actions, rep.PerSecond, rep.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(stdout, "action-to-update latency: p50 %s, p99 %s, max %s\n", rep.P50.Round(time.Microsecond),
		rep.P99.Round(time.Microsecond), rep.Max.Round(time.Microsecond))
	if rep.ServerP99 > 0 {
		fmt.Fprintf(stdout, "of it the server's (arrival to states queued): p50 ≤ %s, p99 ≤ %s\n", rep.ServerP50.Round(time.Microsecond), rep.ServerP99.Round(time.Microsecond))
	}
	if rep.Followers > 0 {
		fmt.Fprintf(stdout, "event followers %d: each received %.1f KB on average, at most %.1f KB in %d messages; %d ended out of step\n",
			rep.Followers, float64(rep.FollowMeanBytes)/1000, float64(rep.FollowMaxBytes)/1000, rep.FollowMaxMessages, rep.FollowMismatch)
	}
	if rep.Actions > 0 && rep.StateMsgs > 0 {
		fmt.Fprintf(stdout, "states (protocol %d): %.0f B an action, in %.1f messages an action\n", *protocol,
			float64(rep.StateBytes)/float64(rep.Actions), float64(rep.StateMsgs)/float64(rep.Actions))
	}
	if rep.Actions > 0 {
		fmt.Fprintf(stdout, "the load test's own CPU over play: %.3f ms an action (%.0f%% of a core); its WebSockets received %.0f B an action\n",
			float64(rep.CPU)/float64(time.Millisecond)/float64(rep.Actions), 100*rep.CPU.Seconds()/min(rep.Elapsed, *duration).Seconds(), float64(rep.Received)/float64(rep.Actions))
	}
	if rep.Actions > 0 && rep.ServerAllocs > 0 {
		fmt.Fprintf(stdout, "the server allocated over play %.1f objects, %.0f B an action\n",
			float64(rep.ServerAllocs)/float64(rep.Actions), float64(rep.ServerAllocBytes)/float64(rep.Actions))
	}
	fmt.Fprintf(stdout, "actions made for a player: %d by the stand-in, %d by the turn timer\n", rep.StandIns, rep.TimerMoves)
	fmt.Fprintf(stdout, "errors %d, reconnects %d, refusals %d\n", rep.Errors, rep.Reconnects, total(rep.Refused))
	for _, e := range rep.ErrorSamples {
		fmt.Fprintf(stdout, "  %s\n", e)
	}
	for _, k := range slices.Sorted(maps.Keys(rep.Closes)) {
		fmt.Fprintf(stdout, "  closed %d× with %s\n", rep.Closes[k], k)
	}
	fmt.Fprintf(stdout, "server heap: %.1f MiB before, %.1f MiB after; %d connections open at the end\n",
		float64(rep.HeapBefore)/(1<<20), float64(rep.HeapAfter)/(1<<20), rep.Connections)
	if hs, rss := rep.PerConnection(); hs != 0 {
		fmt.Fprintf(stdout, "server memory with %d connections: heap %.1f MiB, stacks %.1f MiB, RSS %.1f MiB; per connection %.1f KiB of heap and stacks, %.1f KiB of RSS\n",
			rep.Loaded.Connections, float64(rep.Loaded.Heap)/(1<<20), float64(rep.Loaded.Stack)/(1<<20), float64(rep.Loaded.RSS)/(1<<20), hs/1024, rss/1024)
	}
	if reviews != nil {
		fmt.Fprintf(stdout, "review requests %d: %d done (200), %d pending (202), %d busy (503), %d errors\n",
			reviews.Requests, reviews.Done, reviews.Pending, reviews.Busy, reviews.Errors)
	}
	return code
}

// total is the sum of the counts of m.
func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
