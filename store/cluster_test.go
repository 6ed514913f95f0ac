package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pitch/store/storetest"
)

// TestSQLiteOneProcess: a second process on a SQLite file is refused at
// open, with an error naming the first, by the file's name or by another
// name of it (a hard link); once the first is gone the file opens. (The
// child is this test binary again.)
func TestSQLiteOneProcess(t *testing.T) {
	if path := os.Getenv("PITCH_STORE_LOCK_CHILD"); path != "" {
		_, err := Open(context.Background(), path)
		if err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(3)
		}
		os.Exit(0)
	}
	path := filepath.Join(t.TempDir(), "one.db")
	s := open(t, path)
	again := open(t, path) // the same process may open it twice (tests do)
	again.Close()
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Link(path, link); err != nil {
		t.Fatal(err)
	}
	childAt := func(path string) (int, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSQLiteOneProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PITCH_STORE_LOCK_CHILD="+path)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	child := func() (int, string) { return childAt(path) }
	code, out := child()
	if code != 3 || !strings.Contains(out, "in use by another process (pid ") || !strings.Contains(out, "PostgreSQL") {
		t.Fatalf("a second process opened the SQLite file in use: exit %d, %q", code, out)
	}
	if code, out := childAt(link); code != 3 || !strings.Contains(out, "in use by another process") {
		t.Fatalf("a second process opened the SQLite file in use by a hard link to it: exit %d, %q", code, out)
	}
	s.Close()
	if code, out := child(); code != 0 {
		t.Fatalf("after the first closed, the file does not open: exit %d, %q", code, out)
	}
}

// TestCluster: notes reach every listener with what changed, leases go to
// one process until they expire or are released, and presence counts
// only live processes.
func TestCluster(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	dsn := storetest.FreshPostgres(t, base)
	s := open(t, dsn)
	cl := s.(Cluster)
	lctx, stop := context.WithCancel(ctx)
	notes := make(chan Note, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		cl.Listen(lctx, func(n Note) { notes <- n }) //nolint:errcheck
	}()
	defer func() { stop(); <-done }()
	want := func(kind byte, table string, seq int) {
		t.Helper()
		timeout := time.After(5 * time.Second)
		for {
			select {
			case n := <-notes:
				if n.Kind == kind && n.Table == table && n.Seq == seq {
					return
				}
			case <-timeout:
				t.Fatalf("no note %c %s %d", kind, table, seq)
			}
		}
	}
	want(NoteResync, "", 0)
	mustCreate(t, s, newTable("a", time.Time{}))
	want(NoteNew, "a", 0)
	if err := s.Append(ctx, "a", Append{Event: Event{Seq: 0, Action: action(0)}}); err != nil {
		t.Fatal(err)
	}
	want(NoteEvents, "a", 1)
	if err := s.Append(ctx, "a", Append{Event: Event{Seq: 0, Action: action(0)}}); err == nil {
		t.Fatal("a taken event number was accepted")
	}
	if err := cl.Notify(ctx, Note{Kind: NoteServer, Table: "a", From: "p1", Text: "hello there"}); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-notes:
		if n.Kind != NoteServer || n.From != "p1" || n.Text != "hello there" {
			t.Fatalf("got note %+v, want the server's own (a refused append sends none)", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no note")
	}
	// An event's creation and each change, with its version; a refused
	// change sends none.
	tour := &Tournament{ID: "ev1", Data: []byte(`{"n":1}`)}
	if err := s.CreateTournament(ctx, tour); err != nil {
		t.Fatal(err)
	}
	want(NoteTournament, "ev1", 1)
	stale := *tour
	if err := s.UpdateTournament(ctx, tour); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateTournament(ctx, &stale); err == nil {
		t.Fatal("an event's change at an old version was accepted")
	}
	if err := s.UpdateTournament(ctx, tour); err != nil {
		t.Fatal(err)
	}
	want(NoteTournament, "ev1", 2)
	select {
	case n := <-notes:
		if n.Kind != NoteTournament || n.Seq != 3 {
			t.Fatalf("after version 2: note %+v, want version 3's (the refused change sends none)", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no note of version 3")
	}
	if ev, err := cl.EventsFrom(ctx, "a", 1); err != nil || len(ev) != 0 {
		t.Fatalf("EventsFrom(1) = %v, %v", ev, err)
	}

	const ttl = 400 * time.Millisecond
	for _, p := range []string{"p1", "p2"} {
		if err := cl.Heartbeat(ctx, p, ttl); err != nil {
			t.Fatal(err)
		}
	}
	if live, err := cl.Processes(ctx); err != nil || !slices.Equal(live, []string{"p1", "p2"}) {
		t.Fatalf("live processes %v, %v; want p1 and p2", live, err)
	}
	got, err := cl.AcquireLeases(ctx, "p1", []string{"a", "nosuch"}, ttl)
	if err != nil || !slices.Equal(got, []string{"a"}) {
		t.Fatalf("p1 acquired %v, %v", got, err)
	}
	if got, err := cl.AcquireLeases(ctx, "p2", []string{"a"}, ttl); err != nil || len(got) != 0 {
		t.Fatalf("p2 took a held lease: %v, %v", got, err)
	}
	if got, err := cl.RenewLeases(ctx, "p1", ttl); err != nil || !slices.Equal(got, []string{"a"}) {
		t.Fatalf("p1 renewed %v, %v", got, err)
	}
	// Several changes in one commit, one note per table changed.
	mustCreate(t, s, newTable("c", time.Time{}))
	want(NoteNew, "c", 0)
	if err := cl.SetPresence(ctx, "p2", []PresenceChange{{Table: "a", Seat: 1, Conns: 2}, {Table: "c", Seat: -1, Conns: 1},
		{Table: "a", Seat: 3, Conns: 1}, {Table: "c", Seat: 0, Conns: 4}}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case n := <-notes:
			if n.Kind != NotePresence || n.From != "p2" || (n.Table != "a" && n.Table != "c") {
				t.Fatalf("note %+v, want p2's presence at a, then c", n)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no presence note")
		}
	}
	if err := cl.SetPresence(ctx, "p2", []PresenceChange{{Table: "a", Seat: 3, Conns: 0}, {Table: "c", Seat: 0, Conns: 0}}); err != nil {
		t.Fatal(err)
	}
	if pr, err := cl.Presence(ctx, "p1", []string{"a", "c"}); err != nil || !reflect.DeepEqual(pr, map[string]map[int]int{"a": {1: 2}, "c": {-1: 1}}) {
		t.Fatalf("presence %v, %v; want 2 at a's seat 1 and a spectator at c", pr, err)
	}
	if pr, err := cl.Presence(ctx, "p2", []string{"a"}); err != nil || len(pr) != 0 {
		t.Fatalf("a process counts its own presence: %v, %v", pr, err)
	}
	time.Sleep(ttl + 100*time.Millisecond) // p1 and p2 die
	if live, err := cl.Processes(ctx); err != nil || len(live) != 0 {
		t.Fatalf("live processes %v, %v after their heartbeats ran out", live, err)
	}
	if pr, err := cl.Presence(ctx, "p1", []string{"a"}); err != nil || len(pr) != 0 {
		t.Fatalf("a dead process's presence counts: %v, %v", pr, err)
	}
	if got, err := cl.RenewLeases(ctx, "p1", ttl); err != nil || len(got) != 0 {
		t.Fatalf("an expired lease was renewed: %v, %v", got, err)
	}
	if got, err := cl.AcquireLeases(ctx, "p2", []string{"a"}, ttl); err != nil || !slices.Equal(got, []string{"a"}) {
		t.Fatalf("p2 did not take the expired lease: %v, %v", got, err)
	}
	if err := cl.ReleaseLeases(ctx, "p2", nil); err != nil {
		t.Fatal(err)
	}
	want(NoteReleased, "a", 0)
	if got, err := cl.AcquireLeases(ctx, "p1", []string{"a"}, ttl); err != nil || !slices.Equal(got, []string{"a"}) {
		t.Fatalf("p1 did not take the released lease: %v, %v", got, err)
	}

	// Sweep: an expired lease nobody takes over (a finished table's, say)
	// goes; a live one stays; a dead process's heartbeat and presence go
	// once it has been gone long enough.
	mustCreate(t, s, newTable("b", time.Time{}))
	if err := cl.Heartbeat(ctx, "p3", time.Minute); err != nil {
		t.Fatal(err)
	}
	if got, err := cl.AcquireLeases(ctx, "p3", []string{"b"}, time.Minute); err != nil || !slices.Equal(got, []string{"b"}) {
		t.Fatalf("p3 acquired %v, %v", got, err)
	}
	if err := cl.SetPresence(ctx, "p3", []PresenceChange{{Table: "b", Seat: 0, Conns: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := cl.Heartbeat(ctx, "p1", ttl); err != nil { // p1 holds a's lease; p1 dies and is gone a while
		t.Fatal(err)
	}
	if err := cl.SetPresence(ctx, "p1", []PresenceChange{{Table: "a", Seat: 0, Conns: 1}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2*ttl + 100*time.Millisecond)
	if err := cl.Sweep(ctx, ttl); err != nil {
		t.Fatal(err)
	}
	count := func(q string) int {
		t.Helper()
		var n int
		if err := s.(*sqlStore).r.QueryRowContext(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT count(*) FROM leases WHERE table_id = 'a'`); n != 0 {
		t.Errorf("the expired lease of a dead process is still there after a sweep")
	}
	if n := count(`SELECT count(*) FROM leases WHERE table_id = 'b'`); n != 1 {
		t.Errorf("a live lease was swept")
	}
	if n := count(`SELECT count(*) FROM processes`); n != 1 {
		t.Errorf("%d processes after the sweep, want p3 alone", n)
	}
	if n := count(`SELECT count(*) FROM presence`); n != 1 {
		t.Errorf("%d presence rows after the sweep, want p3's alone", n)
	}
}
