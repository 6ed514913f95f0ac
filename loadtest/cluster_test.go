package loadtest

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store"
	"pitch/store/storetest"
)

// rrProxy is a round-robin TCP proxy, as a load balancer without sticky
// sessions: each new connection goes to the next backend that accepts it.
type rrProxy struct {
	ln       net.Listener
	backends []string
	next     atomic.Int64
	wg       sync.WaitGroup
}

func newProxy(t *testing.T, backends []string) *rrProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &rrProxy{ln: ln, backends: backends}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *rrProxy) addr() string { return p.ln.Addr().String() }

func (p *rrProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.pipe(c)
	}
}

func (p *rrProxy) pipe(c net.Conn) {
	defer c.Close()
	var b net.Conn
	for range p.backends { // a backend that is down is skipped
		i := int(p.next.Add(1)) % len(p.backends)
		var err error
		if b, err = net.DialTimeout("tcp", p.backends[i], 500*time.Millisecond); err == nil {
			break
		}
	}
	if b == nil {
		return
	}
	defer b.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(b, c); done <- struct{}{} }() //nolint:errcheck
	go func() { io.Copy(c, b); done <- struct{}{} }() //nolint:errcheck
	<-done
}

// node is one `pitch serve` process of a cluster.
type node struct {
	addr string
	cmd  *exec.Cmd
	logs *syncBuffer
}

const clusterLease = 2 * time.Second

// startNode starts a process; extra flags override the defaults here.
func startNode(t *testing.T, bin, addr, db string, extra ...string) *node {
	t.Helper()
	args := append([]string{"serve", "--addr", addr, "--db", db, "--bot-delay", "5ms", "--away-delay", "3s",
		"--addr-rate", "0", "--addr-conns", "0", "--tables-per-hour", "0", "--lease", clusterLease.String()}, extra...)
	cmd := exec.Command(bin, args...)
	n := &node{addr: addr, cmd: cmd, logs: &syncBuffer{}}
	cmd.Stdout, cmd.Stderr = n.logs, n.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck
	deadline := time.Now().Add(startWait)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the server did not start:\n%s", n.logs.String())
	return nil
}

// clusterSetup builds pitch and starts three processes on a fresh
// PostgreSQL schema behind a round-robin proxy.
func clusterSetup(t *testing.T, extra ...string) (bin, db string, nodes []*node, proxy *rrProxy) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	if testing.Short() {
		t.Skip("builds and runs three server processes")
	}
	bin = buildPitch(t)
	db = storetest.FreshPostgres(t, base)
	var addrs []string
	for range 3 {
		a := freeAddr(t)
		addrs = append(addrs, a)
		nodes = append(nodes, startNode(t, bin, a, db, extra...))
	}
	return bin, db, nodes, newProxy(t, addrs)
}

// explain, when the test has failed, logs what the processes warned of
// and the leases left, to say why.
func explain(t *testing.T, db string, nodes []*node) {
	if !t.Failed() {
		return
	}
	for i, n := range nodes {
		for _, line := range strings.Split(n.logs.String(), "\n") {
			if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
				t.Logf("process %d (%s): %s", i, n.addr, line)
			}
		}
	}
	c, err := sql.Open("pgx", db)
	if err != nil {
		return
	}
	defer c.Close()
	rows, err := c.Query(`SELECT l.table_id, l.owner, l.expires - now(), t.finished FROM leases l JOIN tables t ON t.id = l.table_id`)
	if err != nil {
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id, owner, left string
		var finished bool
		if rows.Scan(&id, &owner, &left, &finished) == nil {
			t.Logf("lease of %s (finished %v): %s, %s left", id, finished, owner, left)
		}
	}
}

// checkLog checks that what the clients were told is in the log, as sent,
// and that every process shows every table at the log's end.
func checkLog(t *testing.T, db string, rep *Report, nodes []*node) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for table, seen := range rep.Seen {
		events, err := st.Events(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) < seen {
			t.Errorf("table %s: clients were told of %d events; the log holds %d", table, seen, len(events))
		}
		for seq, sent := range rep.Confirmed[table] {
			if seq >= len(events) {
				t.Errorf("table %s: confirmed action %d (%s) is not in the log", table, seq, sent)
			} else if !sameAction(sent, events[seq].Action) {
				t.Errorf("table %s: confirmed action %d (%s) is not in the log as sent: it holds %s by %q at %s", table, seq, sent, events[seq].Action, events[seq].By, events[seq].At.Format("15:04:05.000"))
			}
		}
		// A spectator's first state is at the log's end: not behind the
		// log read before, nor past the log read after (the table plays
		// on, its bots and stand-ins, once its clients are gone).
		for _, n := range nodes {
			if n.cmd.ProcessState != nil {
				continue // not running
			}
			got := spectatorSeq(t, n.addr, table)
			after, err := st.Events(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			if got < len(events) || got > len(after) {
				t.Errorf("table %s: the process at %s shows event %d; the log held %d before and %d after", table, n.addr, got, len(events), len(after))
			}
		}
	}
}

// spectatorSeq is the seq of the state a spectator gets from addr.
func spectatorSeq(t *testing.T, addr, table string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/tables/"+table+"/ws", nil)
	if err != nil {
		t.Errorf("spectate %s at %s: %v", table, addr, err)
		return -1
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 20)
	_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`))
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Errorf("spectate %s at %s: %v", table, addr, err)
			return -1
		}
		var st state
		if json.Unmarshal(data, &st) == nil && st.Type == "state" {
			return st.Seq
		}
	}
}

// TestClusterKill: three processes on one PostgreSQL behind a round-robin
// proxy; the load generator plays through the proxy and one process is
// killed with SIGKILL. Its clients reconnect through the proxy to the
// others, its tables are driven again within the lease time, no action a
// client was told of is lost or changed, and every process shows every
// table at the log's end.
func TestClusterKill(t *testing.T) {
	_, db, nodes, proxy := clusterSetup(t)
	defer explain(t, db, nodes)
	const tables = 12
	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	seen := newPlaySeen(tables)
	go func() {
		// Some play before the kill, then time enough after the
		// takeover (a lease, 2 s) for every table's clients to find it
		// again, their backoff included, on a loaded machine.
		rep, err := Run(context.Background(), Config{URL: "http://" + proxy.addr(), Tables: tables, Duration: 14 * time.Second,
			Variant: "pawnee", Think: 20 * time.Millisecond, Seed: 9, Reconnect: true, Once: true, Trace: true,
			Options: map[string]any{"target": 1000}, Latencies: seen})
		done <- result{rep, err}
	}()
	seen.wait(t, 60*time.Second) // setup and some play
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	victim := nodes[0] // the one driving the most tables
	for _, n := range nodes[1:] {
		if len(leasesOf(t, db, n.cmd.Process.Pid)) > len(leasesOf(t, db, victim.cmd.Process.Pid)) {
			victim = n
		}
	}
	owned := leasesOf(t, db, victim.cmd.Process.Pid)
	if all, err := leaseOwners(db); err == nil {
		t.Logf("victim pid %d; leases: %v", victim.cmd.Process.Pid, all)
	}
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	victim.cmd.Wait() //nolint:errcheck
	killedAt := time.Now()
	// Its tables are taken over within the lease time (and a round of
	// the lease loop).
	var takeover time.Duration
	for len(owned) > 0 {
		left := leasesOf(t, db, victim.cmd.Process.Pid)
		if len(left) == 0 {
			takeover = time.Since(killedAt)
			break
		}
		if time.Since(killedAt) > clusterLease+clusterLease/2+time.Second {
			t.Fatalf("%d tables still held by the dead process %s after the kill: %v", len(left), time.Since(killedAt), left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the killed process drove %d tables; taken over %v after the kill (lease %v)", len(owned), takeover, clusterLease)
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	rep := res.rep
	t.Logf("through the proxy: %d actions, p50 %v, p99 %v, %d errors, %d reconnects, closes %v", rep.Actions, rep.P50, rep.P99, rep.Errors, rep.Reconnects, rep.Closes)
	if rep.Reconnects == 0 {
		t.Error("no client reconnected: was the process killed while they played?")
	}
	if rep.Errors != 0 {
		t.Errorf("%d errors: %v", rep.Errors, rep.ErrorSamples)
	}
	if len(rep.Seen) != tables {
		t.Fatalf("clients saw %d tables, want %d", len(rep.Seen), tables)
	}
	checkLog(t, db, rep, nodes)
	// Every table went on after the kill.
	for table := range rep.Seen {
		events, _ := st.Events(ctx, table)
		info, _ := st.Table(ctx, table)
		if n := len(events); info != nil && !info.Finished && (n == 0 || !events[n-1].At.After(killedAt)) {
			t.Errorf("table %s did not go on after the kill (%d events)", table, n)
		}
	}
}

// leasesOf lists the tables whose lease the process pid holds.
func leasesOf(t *testing.T, db string, pid int) []string {
	t.Helper()
	ids, err := leaseOwners(db)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for table, owner := range ids {
		// Process IDs are host-pid-random.
		if f := strings.Split(owner, "-"); len(f) >= 3 && f[len(f)-2] == strconv.Itoa(pid) {
			out = append(out, table)
		}
	}
	return out
}

// TestClusterRollingRestart restarts the three processes one at a time
// (SIGTERM, wait for the exit, start the new one) while the load
// generator plays through the proxy: clients see no error, only the
// restart's close and their reconnects, and nothing is lost.
func TestClusterRollingRestart(t *testing.T) {
	bin, db, nodes, proxy := clusterSetup(t)
	all := append([]*node(nil), nodes...) // the processes replaced too
	defer func() { explain(t, db, all) }()
	const tables = 12
	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	seen := newPlaySeen(tables)
	go func() {
		rep, err := Run(context.Background(), Config{URL: "http://" + proxy.addr(), Tables: tables, Duration: 12 * time.Second,
			Variant: "pawnee", Think: 20 * time.Millisecond, Seed: 10, Reconnect: true, Once: true, Trace: true,
			Options: map[string]any{"target": 1000}, Latencies: seen})
		done <- result{rep, err}
	}()
	seen.wait(t, 60*time.Second) // setup and some play
	for i, n := range nodes {
		if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := n.cmd.Wait(); err != nil {
			t.Errorf("process %d exited with %v after SIGTERM:\n%s", i, err, n.logs.String())
		}
		t.Logf("process %d drained in %v", i, time.Since(start))
		nodes[i] = startNode(t, bin, n.addr, db)
		all = append(all, nodes[i])
		time.Sleep(1500 * time.Millisecond) // play on before the next
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	rep := res.rep
	t.Logf("through the proxy: %d actions, p50 %v, p99 %v, %d errors, %d reconnects, closes %v", rep.Actions, rep.P50, rep.P99, rep.Errors, rep.Reconnects, rep.Closes)
	if rep.Errors != 0 {
		t.Errorf("%d errors: %v", rep.Errors, rep.ErrorSamples)
	}
	for how, n := range rep.Closes {
		if how != "1012 the server is restarting" && how != "no close frame" {
			t.Errorf("%d connections ended with %q; want only the restart", n, how)
		}
	}
	if rep.Reconnects == 0 {
		t.Error("no client reconnected")
	}
	checkLog(t, db, rep, nodes)
}
