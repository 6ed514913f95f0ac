package store

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// windowStore is a SQLite store whose commit window is an hour: a write
// that waited for it would hold the test up until its deadline.
func windowStore(t *testing.T) *sqlStore {
	t.Helper()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "w.db"), CommitWindow(time.Hour))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(*sqlStore)
}

func appendAt(t *testing.T, s Store, id string, seq int) {
	t.Helper()
	a := Append{Event: Event{Seq: seq, Action: json.RawMessage(`{"seat":0,"bid":2}`), At: time.Now()}}
	if err := s.Append(ctx, id, a); err != nil {
		t.Fatalf("Append %s #%d: %v", id, seq, err)
	}
}

// TestCommitWindowLoneWriter: a table writing alone, each write after
// the last one's answer, never waits for the window (an hour here): with
// nobody else about there is nobody to share a commit with, so each
// write is its own commit as soon as it comes.
func TestCommitWindowLoneWriter(t *testing.T) {
	s := windowStore(t)
	if err := s.CreateTable(ctx, newTable("a", time.Now())); err != nil {
		t.Fatal(err)
	}
	tries := s.batch.tries.Load()
	for seq := range 50 {
		appendAt(t, s, "a", seq)
	}
	if got := s.batch.tries.Load() - tries; got != 50 {
		t.Errorf("50 appends of one table took %d commits, want 50 (one each, none held open)", got)
	}
}

// TestCommitWindowShared: while another table wrote lately, a table's
// write waits within the window for it, and the two share one commit; the
// commit does not wait for the window's end once every table that wrote
// lately is in it.
func TestCommitWindowShared(t *testing.T) {
	s := windowStore(t)
	for _, id := range []string{"a", "b"} {
		if err := s.CreateTable(ctx, newTable(id, time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	appendAt(t, s, "a", 0) // the first commit: at once, and a has written lately
	waiting := make(chan struct{}, 1)
	s.batch.waiting = func() { waiting <- struct{}{} }
	tries, writes := s.batch.tries.Load(), s.batch.writes.Load()
	done := make(chan struct{})
	go func() {
		defer close(done)
		appendAt(t, s, "b", 0)
	}()
	<-waiting // b's write is held open for a's next one
	appendAt(t, s, "a", 1)
	<-done
	if got := s.batch.tries.Load() - tries; got != 1 {
		t.Errorf("b's write and a's next took %d commits, want 1 shared", got)
	}
	if got := s.batch.writes.Load() - writes; got != 2 {
		t.Errorf("%d writes batched, want 2", got)
	}
}

// TestCommitWindowOff: CommitWindow(0) commits at once, as before the
// window: two tables' sequential writes are a commit each.
func TestCommitWindowOff(t *testing.T) {
	st, err := Open(ctx, filepath.Join(t.TempDir(), "w.db"), CommitWindow(0))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	for _, id := range []string{"a", "b"} {
		if err := s.CreateTable(ctx, newTable(id, time.Now())); err != nil {
			t.Fatal(err)
		}
	}
	s.batch.waiting = func() { t.Error("a batch waited with the window off") }
	tries := s.batch.tries.Load()
	for seq := range 10 {
		appendAt(t, s, "a", seq)
		appendAt(t, s, "b", seq)
	}
	if got := s.batch.tries.Load() - tries; got != 20 {
		t.Errorf("20 sequential appends took %d commits, want 20", got)
	}
}
