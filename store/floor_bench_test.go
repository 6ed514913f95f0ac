//go:build unix

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWriteFloor measures the least durable write an action needs
// from the server's SQLite (issue 41; docs/performance.md, "The floor on
// this machine"): the store as Open makes it (its writer's pragmas: WAL,
// synchronous=FULL, 1 KiB pages, the same checkpoints), and a table of
// nothing but a rowid and a 200-byte body, one INSERT an action through a
// prepared statement, without the schema, indexes and encoding of the
// real events. commit=N holds N actions a commit, as group commit would
// (1: each action its own commit and fsync). One op is one action; it
// reports cpu-ns/op (the process's user and system CPU: run it pinned,
// taskset -c 0, for GOMAXPROCS 1 as the server's), of it sys-ns/op (in
// the kernel: the writes and the fsyncs), and what was written
// as BenchmarkWrite does (B-written/op, wal-B/op, db-B/op, fsyncs/op,
// pages/op, wchar-B/op). file is the file system's part alone: a WAL
// frame's bytes appended to a file and synced. Checkpoints come once a wal_autocheckpoint's
// pages: -benchtime 20000x has several at commit=1.
func BenchmarkWriteFloor(b *testing.B) {
	for _, per := range []int{1, 2, 5, 10, 20} {
		b.Run(fmt.Sprintf("commit=%d", per), func(b *testing.B) { benchFloor(b, per) })
	}
	b.Run("file", benchFileSync)
}

// benchFileSync is the file system's part alone, without SQLite: one op
// appends a WAL frame's bytes (24 and a 1 KiB page) to a file and syncs
// it (fsync, as SQLite's unix VFS does), the least a commit does.
func benchFileSync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "wal"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	frame := make([]byte, 24+1024)
	user0, sys0 := rusage(b)
	b.ResetTimer()
	for range b.N {
		if _, err := f.Write(frame); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	user, sys := rusage(b)
	b.ReportMetric(float64(user-user0+sys-sys0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(sys-sys0)/float64(b.N), "sys-ns/op")
}

func benchFloor(b *testing.B, per int) {
	s, err := Open(ctx, filepath.Join(b.TempDir(), "pitch.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	w := s.(*sqlStore).w
	if _, err := w.ExecContext(ctx, `CREATE TABLE floor (id INTEGER PRIMARY KEY, body BLOB NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	ins, err := w.PrepareContext(ctx, `INSERT INTO floor (body) VALUES (?)`)
	if err != nil {
		b.Fatal(err)
	}
	defer ins.Close()
	body := make([]byte, 200)
	b.ReportAllocs()
	io0, wchar0 := s.(IOCounter).IO(), wchar()
	user0, sys0 := rusage(b)
	b.ResetTimer()
	for i := 0; i < b.N; {
		tx, err := w.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		st := tx.StmtContext(ctx, ins)
		for j := 0; j < per && i < b.N; j, i = j+1, i+1 {
			for k := range 8 { // each body its own bytes
				body[k] = byte(i >> (8 * k))
			}
			if _, err := st.ExecContext(ctx, body); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	user, sys := rusage(b)
	b.ReportMetric(float64(user-user0+sys-sys0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(sys-sys0)/float64(b.N), "sys-ns/op")
	reportIO(b, io0, s.(IOCounter).IO(), wchar()-wchar0)
}

// rusage is the process's user and system CPU time so far.
func rusage(b *testing.B) (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
