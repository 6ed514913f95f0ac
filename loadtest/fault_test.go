package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pitch/store"
)

// buildPitch builds the pitch binary once for the fault tests.
func buildPitch(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pitch")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/pitch")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServer runs `pitch serve` and waits until it answers.
func startServer(t *testing.T, bin, addr, db string) *exec.Cmd {
	t.Helper()
	cmd, _ := startServerLogs(t, bin, addr, db)
	return cmd
}

// stopServer stops a server started by startServer (SIGTERM, then its exit).
func stopServer(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	cmd.Wait() //nolint:errcheck
}

// syncBuffer is a bytes.Buffer safe to write from the child's pipes and
// read from the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startWait bounds a server process's start (migrations, then every
// unfinished table loaded, before it listens): seconds on a quiet
// machine, far more on a loaded one whose database answers slowly.
const startWait = time.Minute

// startServerLogs is startServer that also returns the server's output.
func startServerLogs(t *testing.T, bin, addr, db string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	return startServerFlags(t, bin, addr, db, "--bot-delay", "5ms", "--away-delay", "200ms", "--addr-rate", "0", "--addr-conns", "0", "--tables-per-hour", "0")
}

// startServerFlags is startServerLogs with the flags given after --addr
// and --db (none: the defaults).
func startServerFlags(t *testing.T, bin, addr, db string, flags ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", db}, flags...)...)
	var logs syncBuffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck
	deadline := time.Now().Add(startWait)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + addr + "/api/health")
		if err == nil {
			resp.Body.Close()
			return cmd, &logs
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the server did not start:\n%s", logs.String())
	return nil, nil
}

// playSeen, as a run's Config.Latencies, tells when play is under way:
// once the clients have confirmed n actions, started is closed. A test
// that hurts the server during play waits for it, not for a time that
// the setup may outlast on a loaded machine.
type playSeen struct {
	mu      sync.Mutex
	n       int
	started chan struct{}
}

func newPlaySeen(n int) *playSeen { return &playSeen{n: n, started: make(chan struct{})} }

func (p *playSeen) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n > 0 {
		if p.n -= bytes.Count(b, []byte("\n")); p.n <= 0 {
			close(p.started)
		}
	}
	return len(b), nil
}

// wait waits until play is under way, failing t after d.
func (p *playSeen) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case <-p.started:
	case <-time.After(d):
		t.Fatalf("play did not get under way within %v", d)
	}
}

// TestKillDuringLoad kills the server with SIGKILL while tables are being
// played, starts it again on the same database, and lets the clients
// reconnect: every table goes on, and no action the clients were told of
// is missing from the log (each confirmed action is there, as sent).
func TestKillDuringLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildPitch(t)
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "pitch.db")
	srv := startServer(t, bin, addr, db)

	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	seen := newPlaySeen(12)
	go func() {
		rep, err := Run(context.Background(), Config{URL: "http://" + addr, Tables: 12, Duration: 6 * time.Second,
			Variant: "pawnee", Think: 20 * time.Millisecond, Seed: 7, Reconnect: true, Once: true, Trace: true, Latencies: seen})
		done <- result{rep, err}
	}()
	seen.wait(t, 60*time.Second) // setup and some play
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.Wait() //nolint:errcheck
	killedAt := time.Now()
	time.Sleep(300 * time.Millisecond)
	again := startServer(t, bin, addr, db)
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	rep := res.rep
	if rep.Reconnects == 0 {
		t.Error("no client reconnected: was the server killed while they played?")
	}
	if rep.Errors != 0 {
		t.Errorf("%d errors: %v", rep.Errors, rep.ErrorSamples)
	}
	if len(rep.Seen) != 12 {
		t.Fatalf("clients saw %d tables, want 12", len(rep.Seen))
	}
	_ = killedAt

	stopServer(t, again) // a SQLite file is one process's: the server's, until it stops
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for table, seen := range rep.Seen {
		events, err := st.Events(context.Background(), table)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) < seen {
			t.Errorf("table %s: clients were told of %d events; the log holds %d", table, seen, len(events))
		}
		for seq, sent := range rep.Confirmed[table] {
			if seq >= len(events) {
				t.Errorf("table %s: confirmed action %d is not in the log", table, seq)
				continue
			}
			if !sameAction(sent, events[seq].Action) {
				t.Errorf("table %s event %d: the log holds %s; the client sent %s", table, seq, events[seq].Action, sent)
			}
		}
	}
	// Every table went on after the restart: each has events stamped after it.
	tables, err := st.Tables(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		events, _ := st.Events(context.Background(), tb.ID)
		if len(events) == 0 || (!tb.Finished && !events[len(events)-1].At.After(killedAt)) {
			t.Errorf("table %s did not go on after the restart (%d events)", tb.ID, len(events))
		}
	}
}

// TestSIGTERMDuringPlay sends SIGTERM to the server while tables are
// played: it drains (every client is closed with 1012 "the server is
// restarting" after the states due to it are sent) and exits, with status
// 0, well within --drain; started again on the same database, every
// client reconnects and play goes on. Nothing is lost: every action a
// client was told of is in the log as sent, and no client saw any other
// kind of close or any error.
func TestSIGTERMDuringPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildPitch(t)
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "pitch.db")
	srv, logs := startServerLogs(t, bin, addr, db)

	const tables, seats = 12, 5
	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	seen := newPlaySeen(tables)
	go func() {
		// Play lasts 12 s so that after the signal, once play is under
		// way, the drain and the restart (seconds on a loaded machine)
		// leave every table time to go on.
		rep, err := Run(context.Background(), Config{URL: "http://" + addr, Tables: tables, Duration: 12 * time.Second,
			Variant: "pawnee", Think: 20 * time.Millisecond, Seed: 8, Reconnect: true, Once: true, Trace: true,
			Options: map[string]any{"target": 1000}, Latencies: seen})

		done <- result{rep, err}
	}()
	seen.wait(t, 60*time.Second) // setup and some play
	if resp, err := http.Get("http://" + addr + "/api/stats"); err == nil {
		var st struct{ Connections int }
		json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		t.Logf("connections before SIGTERM: %d", st.Connections)
	}
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM the server exited with %v, want status 0", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the server had not exited 20 s after SIGTERM (--drain is 10 s):\n%s", logs.String())
	}
	drained := time.Since(signalled)
	t.Logf("exited %v after SIGTERM", drained)
	if !strings.Contains(logs.String(), "msg=drained") {
		t.Errorf("the server did not report a full drain:\n%s", logs.String())
	}
	again := startServer(t, bin, addr, db)
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	rep := res.rep
	if rep.Errors != 0 {
		t.Errorf("%d errors: %v", rep.Errors, rep.ErrorSamples)
	}
	stopServer(t, again)
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	playing := 0 // tables whose match had not ended at the signal (a moon can end one early)
	for table, seen := range rep.Seen {
		events, err := st.Events(context.Background(), table)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) < seen {
			t.Errorf("table %s: clients were told of %d events; the log holds %d", table, seen, len(events))
		}
		for seq, sent := range rep.Confirmed[table] {
			if seq >= len(events) || !sameAction(sent, events[seq].Action) {
				t.Errorf("table %s: confirmed action %d (%s) is not in the log as sent", table, seq, sent)
			}
		}
		info, err := st.Table(context.Background(), table)
		if err != nil {
			t.Fatal(err)
		}
		n := len(events)
		if info.Finished && n > 0 && events[n-1].At.Before(signalled) {
			continue
		}
		playing++
		if n == 0 || !events[n-1].At.After(signalled) {
			t.Errorf("table %s did not go on after the restart (%d events)", table, n)
		}
	}
	restart := "1012 the server is restarting"
	if rep.Closes[restart] != playing*seats {
		t.Errorf("%d clients were told %q; want all %d at the %d tables in play (closes: %v)", rep.Closes[restart], restart, playing*seats, playing, rep.Closes)
	}
	for how, n := range rep.Closes {
		if how != restart && how != "no close frame" { // a redial while the server was down
			t.Errorf("%d connections ended with %q; want only the restart", n, how)
		}
	}
	if playing < tables/2 {
		t.Errorf("only %d of %d tables were in play at the signal", playing, tables)
	}
	if len(rep.Seen) != tables {
		t.Errorf("clients saw %d tables, want %d", len(rep.Seen), tables)
	}
}
