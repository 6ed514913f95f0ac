//go:build linux

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDiskFull fills the disk under a SQLite store: appends fail with an
// error that says the disk is full, nothing half-written is left (the log
// reads back whole and numbered without gaps), and once space is freed the
// next append goes through. It needs a small file system of its own, so it
// runs only where it may mount a tmpfs (as root, as CI runs).
func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v: %s)", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() }) //nolint:errcheck
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(dir, "pitch.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tb := &Table{ID: "full", Variant: "auction", Seed: 1, Seats: []Seat{{Seat: 0, Kind: "human"}}}
	if err := st.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	// Fill most of what the schema left free with a file we can remove
	// later (the schema grows with each migration: leave 100 KiB).
	var fsStat syscall.Statfs_t
	if err := syscall.Statfs(dir, &fsStat); err != nil {
		t.Fatal(err)
	}
	free := int64(fsStat.Bavail) * int64(fsStat.Bsize)
	filler := filepath.Join(dir, "filler")
	if err := os.WriteFile(filler, make([]byte, max(free-100<<10, 0)), 0o600); err != nil {
		t.Fatal(err)
	}
	action := []byte(fmt.Sprintf(`{"seat":0,"pass":true,"pad":%q}`, strings.Repeat("x", 2000)))
	seq := 0
	var full error
	for ; seq < 1000; seq++ {
		if err := st.Append(ctx, tb.ID, Append{Event: Event{Seq: seq, Action: action}}); err != nil {
			full = err
			break
		}
	}
	if full == nil {
		t.Fatal("1000 appends of 2 KB fitted on a 1 MB disk")
	}
	if !strings.Contains(full.Error(), "disk is full") {
		t.Errorf("append on a full disk: %v; want it to say the disk is full", full)
	}
	if errors.Is(full, ErrConflict) || errors.Is(full, ErrNotFound) {
		t.Errorf("a full disk reported as %v", full)
	}
	events, err := st.Events(ctx, tb.ID)
	if err != nil {
		t.Fatalf("reading back after the disk filled: %v", err)
	}
	if len(events) != seq {
		t.Fatalf("%d appends succeeded but the log holds %d events", seq, len(events))
	}
	for i, e := range events {
		if e.Seq != i {
			t.Fatalf("event %d has number %d", i, e.Seq)
		}
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, tb.ID, Append{Event: Event{Seq: seq, Action: []byte(`{"seat":0,"pass":true}`)}}); err != nil {
		t.Fatalf("append after space was freed: %v", err)
	}
}
