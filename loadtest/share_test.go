package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store"
)

// TestClusterShare: three processes share 300 tables, 100 ± 15 leases
// each; a kill -9 of one pauses only its share, for about a lease, and
// the others' tables play on at their usual pace; a process that joins
// takes its share back; a rolling restart pauses no table for longer
// than the longest drain and a lease round, beyond its usual pace. 24 of the tables are played by bots (watched by a
// spectator each, so that they play); the pauses are the gaps between
// their logged actions.
func TestClusterShare(t *testing.T) {
	bin, db, nodes, proxy := clusterSetup(t, "--bot-delay", "150ms", "--drain", "5s")
	all := append([]*node(nil), nodes...)
	defer func() { explain(t, db, all) }()
	const tables, played = 300, 24
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// The tables: idle ones (nobody joins), and all-bot ones that play.
	var ids, playing []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				seats := `[{"kind":"human"},{"kind":"human"},{"kind":"human"},{"kind":"human"},{"kind":"human"}]`
				if i < played {
					seats = strings.Repeat(`{"kind":"bot","level":"easy"},`, 4) + `{"kind":"bot","level":"easy"}`
					seats = "[" + seats + "]"
				}
				body := `{"variant":"pawnee","options":{"target":1000},"seats":` + seats + `}`
				resp, err := http.Post("http://"+proxy.addr()+"/api/tables", "application/json", strings.NewReader(body))
				if err != nil {
					t.Error(err)
					continue
				}
				var info struct{ ID string }
				err = json.NewDecoder(resp.Body).Decode(&info)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusCreated {
					t.Errorf("create: %d %v", resp.StatusCode, err)
					continue
				}
				mu.Lock()
				ids = append(ids, info.ID)
				if i < played {
					playing = append(playing, info.ID)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range tables {
		work <- i
	}
	close(work)
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	// A spectator at each played table, at the third process first
	// (through the proxy when it has to reconnect).
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	for _, id := range playing {
		go spectate(wctx, nodes[2].addr, proxy.addr(), id)
	}

	spread := func(what string, procs []*node) {
		t.Helper()
		var counts []int
		deadline := time.Now().Add(20 * time.Second)
		for {
			owners, err := leaseOwners(db)
			if err != nil {
				t.Fatal(err)
			}
			counts = counts[:0]
			n := 0
			for _, p := range procs {
				c := len(leasesOf(t, db, p.cmd.Process.Pid))
				counts = append(counts, c)
				n += c
			}
			share := tables / len(procs)
			ok := n == tables && len(owners) == tables
			for _, c := range counts {
				ok = ok && c >= share-share*15/100 && c <= share+share*15/100
			}
			if ok {
				t.Logf("%s: leases per process %v", what, counts)
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: leases per process %v (%d leases in all), want %d tables ± 15%% each", what, counts, len(owners), share)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	spread("three processes", nodes)
	time.Sleep(2 * time.Second) // play, the pace before the kill

	// kill -9: the victim's share pauses for about a lease; the others'
	// play on.
	victim := nodes[0]
	theirs := map[string]bool{}
	for _, id := range leasesOf(t, db, victim.cmd.Process.Pid) {
		theirs[id] = true
	}
	killedAt := time.Now()
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	victim.cmd.Wait() //nolint:errcheck
	time.Sleep(2*clusterLease + 2*time.Second)
	spread("after the kill", nodes[1:])
	before := gaps(t, st, playing, killedAt.Add(-2*time.Second), killedAt)
	after := gaps(t, st, playing, killedAt, time.Now())
	// The others: no lease-long pause (their usual pace is a few tenths
	// of a second; on a machine with a load average of 35 they stalled
	// up to 1.7 s while the survivors took the victim's hundred tables).
	for _, id := range playing {
		if theirs[id] {
			if after[id] > clusterLease+clusterLease/5+2*time.Second {
				t.Errorf("table %s of the killed process paused %v (lease %v)", id, after[id], clusterLease)
			}
		} else if after[id] >= clusterLease {
			t.Errorf("table %s of a live process paused %v at the kill, a lease (%v); its pace before: %v", id, after[id], clusterLease, before[id])
		}
	}
	t.Logf("the kill: the victim drove %d tables (%d played); the longest pauses after it: %s", len(theirs), countTrue(theirs, playing), describe(after, theirs))

	// A process joins where the dead one was: it takes its share back.
	nodes[0] = startNode(t, bin, victim.addr, db, "--bot-delay", "150ms", "--drain", "5s")
	all = append(all, nodes[0])
	spread("a process joined", nodes)

	// A rolling restart: no table pauses for longer than the drain (and
	// a lease round) beyond its usual pace: the longest gap between its
	// moves in the seconds before (a bot's delay, a hand's end), as a
	// gap between two logged moves holds the next move's own pace too.
	time.Sleep(2 * time.Second)
	restartAt := time.Now()
	pace := gaps(t, st, playing, restartAt.Add(-2*time.Second), restartAt)
	logFrom := map[*node]int{} // the logs from here on
	for _, n := range all {
		logFrom[n] = len(n.logs.String())
	}
	var drain time.Duration
	for i, n := range nodes {
		if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := n.cmd.Wait(); err != nil {
			t.Errorf("process %d exited with %v after SIGTERM", i, err)
		}
		drain = max(drain, time.Since(start))
		nodes[i] = startNode(t, bin, n.addr, db, "--bot-delay", "150ms", "--drain", "5s")
		all = append(all, nodes[i])
		time.Sleep(time.Second)
	}
	spread("after a rolling restart", nodes)
	// No table paused for longer than the longest drain plus one lease
	// round (docs/deploy.md), beyond its pace: a draining process hands
	// its tables over as the drain begins, and the others take them on
	// its notes; a process that joins takes its share back the same way.
	end := time.Now()
	time.Sleep(3 * time.Second)
	during := gaps(t, st, playing, restartAt, end)
	since := gaps(t, st, playing, end, time.Now())
	// The bound holds while the database answers the lease rounds in
	// time; where it does not (a machine so loaded that heartbeats and
	// leases lapse, and tables move for that), the pauses are those of
	// lapsed leases, and are reported, not bounded.
	lapsed := lateRounds(all, logFrom)
	for _, id := range playing {
		if bound := drain + clusterLease/5 + pace[id]; during[id] > bound && lapsed == "" {
			t.Errorf("table %s paused %v during the rolling restart: more than the longest drain (%v), a lease round (%v) and its pace before (%v)",
				id, during[id], drain, clusterLease/5, pace[id])
		}
		if since[id] >= 3*time.Second {
			t.Errorf("table %s does not play after the rolling restart", id)
		}
	}
	t.Logf("the rolling restart: longest drain %v, longest pauses %s; longest gaps before %s", drain, describe(during, nil), describe(pace, nil))
	if lapsed != "" {
		t.Logf("the pauses were not bounded: the database answered lease rounds late (%s)", lapsed)
	}
}

// lateRounds returns the first warning of a lease round that ran out of
// time at any of the processes, or "".
// Each process's log is read from its length in from (0 for one not
// there).
func lateRounds(all []*node, from map[*node]int) string {
	for _, n := range all {
		for _, line := range strings.Split(n.logs.String()[from[n]:], "\n") {
			if strings.Contains(line, "level=WARN") && strings.Contains(line, "cluster:") && strings.Contains(line, "deadline exceeded") {
				return line
			}
		}
	}
	return ""
}

// spectate watches table id as a spectator, at addr and then (after any
// drop) through the proxy, until ctx ends.
func spectate(ctx context.Context, addr, proxy, id string) {
	for ctx.Err() == nil {
		c, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/tables/"+id+"/ws", nil)
		addr = proxy
		if err != nil {
			sleep(ctx, 50*time.Millisecond)
			continue
		}
		c.SetReadLimit(1 << 20)
		if c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)) == nil {
			for {
				if _, _, err := c.Read(ctx); err != nil {
					break
				}
			}
		}
		c.CloseNow()
	}
}

// gaps returns, for each table, the longest time in [from, to] without
// an action in its log.
func gaps(t *testing.T, st store.Store, tables []string, from, to time.Time) map[string]time.Duration {
	t.Helper()
	out := map[string]time.Duration{}
	for _, id := range tables {
		events, err := st.Events(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		last := from
		for _, e := range events {
			if e.At.Before(from) || e.At.After(to) {
				continue
			}
			out[id] = max(out[id], e.At.Sub(last))
			last = e.At
		}
		out[id] = max(out[id], to.Sub(last))
	}
	return out
}

func countTrue(set map[string]bool, ids []string) int {
	n := 0
	for _, id := range ids {
		if set[id] {
			n++
		}
	}
	return n
}

// describe lists the longest gaps, marking the tables of mark.
func describe(g map[string]time.Duration, mark map[string]bool) string {
	type kv struct {
		id string
		d  time.Duration
	}
	var l []kv
	for id, d := range g {
		l = append(l, kv{id, d})
	}
	sort.Slice(l, func(i, j int) bool { return l[i].d > l[j].d })
	var b bytes.Buffer
	for i, e := range l {
		if i == 6 {
			break
		}
		star := ""
		if mark[e.id] {
			star = " (killed process's)"
		}
		fmt.Fprintf(&b, "%v%s, ", e.d.Round(time.Millisecond), star)
	}
	return strings.TrimSuffix(b.String(), ", ")
}
