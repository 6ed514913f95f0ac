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
// lock (flock) on PATH.lock and writes its process ID there; a second
// process is refused with that ID. The kernel drops the lock when the
// process ends, however it ends (kill -9 too). Opens within one process
// share the lock.

var (
	lockMu sync.Mutex
	locks  = map[string]*fileLock{}
)

type fileLock struct {
	f    *os.File
	refs int
}

// lockSQLite takes the lock of the database at path; the func it returns
// gives it back.
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
	if l := locks[abs]; l != nil {
		l.refs++
		return func() { unlockSQLite(abs) }, nil
	}
	name := abs + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot create the lock file %s (%w)", name, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b := make([]byte, 64)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			who := "another process"
			if pid := strings.TrimSpace(string(b[:n])); pid != "" {
				who = "another process (pid " + pid + ")"
			}
			return nil, fmt.Errorf("the database is in use by %s: a SQLite database serves one pitch process; stop that one first, or run several processes on PostgreSQL (docs/deploy.md)", who)
		}
		return nil, fmt.Errorf("cannot lock %s (%w)", name, err)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(fmt.Sprintf("%d\n", os.Getpid())), 0)
	locks[abs] = &fileLock{f: f, refs: 1}
	return func() { unlockSQLite(abs) }, nil
}

func unlockSQLite(abs string) {
	lockMu.Lock()
	defer lockMu.Unlock()
	l := locks[abs]
	if l == nil {
		return
	}
	if l.refs--; l.refs == 0 {
		delete(locks, abs)
		l.f.Close() // drops the lock; the file stays, empty of meaning
	}
}
