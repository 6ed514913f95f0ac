//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// A SQLite database is one process's: `pitch serve` holds every table of
// it in memory and is its only writer, so a second process on the same
// file would play the same tables apart. Each open takes an exclusive
// lock (flock) on the database file itself, so that every name of the
// file (a symbolic or a hard link) meets the same lock, and writes its
// process ID to PATH.lock for the message a second process gets. SQLite
// itself locks with fcntl, which flock does not touch. The kernel drops
// the lock when the process ends, however it ends (kill -9 too). Opens
// within one process share the lock, found by the file's identity
// (device and inode), not by its name.

var (
	lockMu sync.Mutex
	locks  = map[fileID]*fileLock{}
)

// fileID is a file's identity: the same for every name of it.
type fileID struct{ dev, ino uint64 }

type fileLock struct {
	f    *os.File
	refs int
}

// lockSQLite takes the lock of the database at path (creating the file,
// empty, if it is missing: SQLite takes an empty file for a new
// database); the func it returns gives it back.
func lockSQLite(path string) (func(), error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	lockMu.Lock()
	defer lockMu.Unlock()
	// A second open in this process shares the lock, found by the file's
	// identity without opening it: closing any descriptor of the file
	// would drop the POSIX (fcntl) locks this process's SQLite
	// connections hold on it (SQLite's "how to corrupt", 2.2).
	var st syscall.Stat_t
	if err := syscall.Stat(abs, &st); err == nil {
		if l := locks[idOf(&st)]; l != nil {
			l.refs++
			id := idOf(&st)
			return func() { unlockSQLite(id) }, nil
		}
	}
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot open the database file to lock it (%w)", err)
	}
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock %s (%w)", abs, err)
	}
	id := idOf(&st)
	pidFile := abs + ".lock"
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := "another process"
			if b, err := os.ReadFile(pidFile); err == nil && len(b) < 64 {
				if pid := strings.TrimSpace(string(b)); pid != "" {
					who = "another process (pid " + pid + ")"
				}
			}
			return nil, fmt.Errorf("%w by %s: a SQLite database serves one pitch process; stop that one first, or run several processes on PostgreSQL (docs/deploy.md)", ErrInUse, who)
		}
		return nil, fmt.Errorf("cannot lock %s (%w)", abs, err)
	}
	// The process ID, for the message above only: the lock is the flock.
	_ = os.WriteFile(pidFile, []byte(fmt.Sprintf("%d\n", os.Getpid())), 0o644)
	locks[id] = &fileLock{f: f, refs: 1}
	return func() { unlockSQLite(id) }, nil
}

// idOf returns the identity of the file st describes.
func idOf(st *syscall.Stat_t) fileID {
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)} //nolint:unconvert // their types differ between systems
}

func unlockSQLite(id fileID) {
	lockMu.Lock()
	defer lockMu.Unlock()
	l := locks[id]
	if l == nil {
		return
	}
	if l.refs--; l.refs == 0 {
		delete(locks, id)
		l.f.Close() // drops the lock
	}
}
