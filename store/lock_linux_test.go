package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// fOFDGetlk is Linux's F_OFD_GETLK: asked on another open file, it sees
// the POSIX record locks this very process holds (open-file-description
// locks conflict with them even within one process).
const fOFDGetlk = 0x24

// TestLockKeepsSQLiteLocks: a second open of a database within one
// process must not close a descriptor of the file, which would drop every
// POSIX lock this process's SQLite connections hold on it.
func TestLockKeepsSQLiteLocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pitch.db")
	unlock1, err := lockSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock1()
	// What SQLite does: a write lock by fcntl on its own descriptor.
	db, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 0, Len: 1}
	if err := syscall.FcntlFlock(db.Fd(), syscall.F_SETLK, &lk); err != nil {
		t.Fatal(err)
	}

	unlock2, err := lockSQLite(filepath.Join(filepath.Dir(path), ".", "pitch.db"))
	if err != nil {
		t.Fatalf("second open in one process: %v", err)
	}
	defer unlock2()

	probe, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	got := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 0, Len: 1}
	if err := syscall.FcntlFlock(probe.Fd(), fOFDGetlk, &got); err != nil {
		t.Fatal(err)
	}
	if got.Type == syscall.F_UNLCK {
		t.Errorf("the second lockSQLite dropped the process's fcntl lock on the database (it closed a descriptor of the file)")
	}
}
