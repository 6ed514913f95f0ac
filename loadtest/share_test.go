package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
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
// each; a kill -9 of one moves only its share to the others, which
// take all of it; a process that joins takes its share back; a rolling
// restart hands every table over (each process that drains leaves no
// lease behind to run out) and every table plays on. 24 of the tables
// are played by bots (watched by a spectator each, so that they play).
//
// The verdicts are about who holds which lease, never about how long
// a table waited: the pauses (the gaps between a table's logged
// actions) are measured and reported, the figures docs/deploy.md
// quotes, as a loaded machine stretches them without anything being
// wrong.
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

	// kill -9: the victim's share waits for its leases to run out and
	// is taken by the others.
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
	// spread saw every table leased by a live process: the victim's
	// share was taken, and every played table plays on.
	tell(t, all, playsOn(t, st, playing, killedAt))
	after := gaps(t, st, playing, killedAt, time.Now())
	t.Logf("the kill: the victim drove %d tables (%d played); the longest pauses after it: %s", len(theirs), countTrue(theirs, playing), describe(after, theirs))

	// A process joins where the dead one was: it takes its share back.
	nodes[0] = startNode(t, bin, victim.addr, db, "--bot-delay", "150ms", "--drain", "5s")
	all = append(all, nodes[0])
	spread("a process joined", nodes)

	// A rolling restart: each process drains in turn, handing its tables
	// over. The pace before (the longest gap between a table's moves: a
	// bot's delay, a hand's end) is reported beside the pauses.
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
		// A drain releases every lease (their notes wake the others):
		// none is left to run out, which is what would pause a table
		// for a lease time.
		if left := leasesOf(t, db, n.cmd.Process.Pid); len(left) > 0 {
			t.Errorf("process %d drained and exited holding %d leases (%v): they pause their tables until they run out", i, len(left), left[:min(len(left), 3)])
		}
		nodes[i] = startNode(t, bin, n.addr, db, "--bot-delay", "150ms", "--drain", "5s")
		all = append(all, nodes[i])
		time.Sleep(time.Second)
	}
	spread("after a rolling restart", nodes)
	end := time.Now()
	tell(t, all, playsOn(t, st, playing, end))
	during := gaps(t, st, playing, restartAt, end)
	t.Logf("the rolling restart: longest drain %v, longest pauses %s; longest gaps before %s", drain, describe(during, nil), describe(pace, nil))
	if lapsed := lateRounds(all, logFrom); lapsed != "" {
		t.Logf("the database answered lease rounds late (%s)", lapsed)
	}
}

// playsOn waits until every table of ids has logged an action after
// from: a liveness check, whose deadline only ends a test that would
// otherwise wait for good. It returns the tables that did not play.
func playsOn(t *testing.T, st store.Store, ids []string, from time.Time) []string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	waiting := slices.Clone(ids)
	for len(waiting) > 0 {
		waiting = slices.DeleteFunc(waiting, func(id string) bool {
			events, err := st.Events(context.Background(), id)
			return err == nil && len(events) > 0 && events[len(events)-1].At.After(from)
		})
		if len(waiting) > 0 && time.Now().After(deadline) {
			t.Errorf("%d tables do not play after %v, e.g. %s", len(waiting), from.Format(time.StampMilli), waiting[0])
			return waiting
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// tell logs what every process logged of the first tables of ids (at
// most three, twenty lines each): who took, drove and handed them over.
func tell(t *testing.T, nodes []*node, ids []string) {
	t.Helper()
	for _, id := range ids[:min(len(ids), 3)] {
		n := 0
		for i, p := range nodes {
			for _, line := range strings.Split(p.logs.String(), "\n") {
				if strings.Contains(line, id) && n < 20 {
					t.Logf("table %s, process %d: %s", id, i, line)
					n++
				}
			}
		}
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
