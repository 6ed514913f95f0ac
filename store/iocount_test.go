package store

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// TestIOCounts: a new SQLite database has 1 KiB pages and an 8 MiB WAL
// bound, and IO counts an append's commit: its pages written whole to
// the WAL, and the WAL's fsync before the append returns.
func TestIOCounts(t *testing.T) {
	s, err := Open(ctx, filepath.Join(t.TempDir(), "pitch.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateTable(ctx, newTable("io", time.Time{})); err != nil {
		t.Fatal(err)
	}
	a := s.(IOCounter).IO()
	if a.PageSize != newPageSize || a.Checkpoint != walCheckpointBytes/newPageSize {
		t.Fatalf("page size %d, wal_autocheckpoint %d pages; want %d and %d", a.PageSize, a.Checkpoint, newPageSize, walCheckpointBytes/newPageSize)
	}
	for n := range 3 {
		if err := s.Append(ctx, "io", Append{Event: Event{Seq: n, Action: action(n)}}); err != nil {
			t.Fatal(err)
		}
	}
	z := s.(IOCounter).IO()
	if d := z.Commits - a.Commits; d != 3 || z.Writes-a.Writes != 3 {
		t.Errorf("%d commits of %d writes counted for 3 appends one after another; want 3 of 3", d, z.Writes-a.Writes)
	}
	if d := z.WALSyncs - a.WALSyncs; d < 3 {
		t.Errorf("%d WAL syncs counted for 3 commits; want one a commit at least", d)
	}
	frame := z.PageSize + 24
	if d := z.WALBytes - a.WALBytes; d < 3*frame || d%frame != 0 && (d-32)%frame != 0 {
		t.Errorf("%d bytes counted to the WAL for 3 commits; want whole frames (%d bytes each), at least one a commit", d, frame)
	}
	if z.DBBytes != a.DBBytes {
		t.Errorf("%d bytes counted to the main file without a checkpoint", z.DBBytes-a.DBBytes)
	}
}

// TestIOOldPageSize: a database made with 4 KiB pages keeps them, and its
// WAL bound is the same in bytes.
func TestIOOldPageSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pitch.db")
	db, err := sql.Open("sqlite", path+"?_pragma=page_size(4096)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE old (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if io := s.(IOCounter).IO(); io.PageSize != 4096 || io.Checkpoint != walCheckpointBytes/4096 {
		t.Fatalf("page size %d, wal_autocheckpoint %d pages; want 4096 and %d", io.PageSize, io.Checkpoint, walCheckpointBytes/4096)
	}
}
