//go:build unix

package store

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"pitch/store/storetest"
)

// BenchmarkWrite measures what one write costs the store in the
// group-commit path (batcher): benchTables tables write at once, each
// waiting for its write's commit before the next, as a table's actions
// do, so that the writes share commits. One op is one write:
//
//   - append: an action appended to a table's log (Append), as every
//     action is;
//   - fair: a fair deal's writes (SaveCommitment): the commitment of a
//     hand, then the four contributions to it, each stored with the
//     pending deal before it is acknowledged, as server/fair.go does;
//   - append1: appends of one table alone, so a commit each (a quiet
//     server's case, the most bytes and fsyncs per action).
//
// Besides the time per write (the wall clock, which the commits' fsync
// sets) it reports cpu-ns/op, the process's CPU time (user and system)
// per write: what the store's writer, which is serial, spends on each;
// and, on SQLite, what the store wrote (IOStats, counted by its VFS):
//
//   - B-written/op: bytes written to the database's files, WAL and main
//     file (checkpoints) together; wal-B/op and db-B/op each;
//   - fsyncs/op: syncs of those files;
//   - pages/op: pages written to the WAL (WAL bytes over a frame's);
//   - writes/commit: writes sharing a commit;
//   - wchar-B/op: the bytes the process wrote by the kernel's count
//     (/proc/self/io, Linux), a check on the VFS's.
//
// Checkpoints are rare (one per wal_autocheckpoint pages), so the bytes
// they write are only fairly shared when a run has had several:
// -benchtime 40000x does (docs/performance.md).
// PostgreSQL runs when PITCH_TEST_POSTGRES is set.
func BenchmarkWrite(b *testing.B) {
	dbs := []struct {
		name string
		dsn  func(b *testing.B) string
	}{
		{"sqlite", func(b *testing.B) string { return filepath.Join(b.TempDir(), "pitch.db") }},
		{"postgres", func(b *testing.B) string {
			base := os.Getenv("PITCH_TEST_POSTGRES")
			if base == "" {
				b.Skip("PITCH_TEST_POSTGRES is not set")
			}
			return storetest.FreshPostgres(b, base)
		}},
	}
	for _, db := range dbs {
		b.Run(db.name, func(b *testing.B) {
			b.Run("append", func(b *testing.B) { benchWrites(b, db.dsn(b), benchAppend, benchTables) })
			b.Run("fair", func(b *testing.B) { benchWrites(b, db.dsn(b), benchFair, benchTables) })
			b.Run("append1", func(b *testing.B) { benchWrites(b, db.dsn(b), benchAppend, 1) })
		})
	}
}

// benchTables is how many tables write at once in BenchmarkWrite.
const benchTables = 16

// benchWriter makes the n-th write (from 0) of table id.
type benchWriter func(s Store, id string, n int) error

func benchAppend(s Store, id string, n int) error {
	return s.Append(ctx, id, Append{Event: Event{Seq: n, Action: action(n), At: time.Now()}})
}

// benchFair stores hand n/5+1's commitment (n%5 == 0) or its n%5-th
// contribution, with a pending deal as the server writes it.
func benchFair(s Store, id string, n int) error {
	hand, contribs := n/5+1, n%5
	var p strings.Builder
	fmt.Fprintf(&p, `{"secret":"%064x","committed_at":"2026-12-03T08:00:00.123456Z","contributions":[`, hand)
	for i := range contribs {
		if i > 0 {
			p.WriteByte(',')
		}
		fmt.Fprintf(&p, `{"seat":%d,"name":"Player %d","value":"%064x","at":"2026-12-03T08:00:0%d.000000Z"}`, i, i, hand*10+i, i)
	}
	p.WriteString(`]}`)
	return s.SaveCommitment(ctx, id, Commitment{N: hand, Commitment: fmt.Sprintf("%064x", hand*7919),
		At: "2026-12-03T08:00:00.123456Z", Pending: json.RawMessage(p.String())})
}

// benchWrites runs write from tables tables at once.
func benchWrites(b *testing.B, dsn string, write benchWriter, tables int) {
	s, err := Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = benchID(i)
		if err := s.CreateTable(ctx, newTable(ids[i], time.Time{})); err != nil {
			b.Fatal(err)
		}
	}
	var (
		left = int64(b.N)
		wg   sync.WaitGroup
		errs = make([]error, len(ids))
	)
	b.ReportAllocs()
	io0, wchar0 := s.(IOCounter).IO(), wchar()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; atomic.AddInt64(&left, -1) >= 0; n++ {
				if err := write(s, id, n); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
	if io := s.(IOCounter).IO(); io.PageSize > 0 {
		reportIO(b, io0, io, wchar()-wchar0)
	}
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
}

// benchID is table i's ID, 16 characters as the server's are
// (httpx.RandomString(12)), in no order of i.
func benchID(i int) string {
	sum := sha256.Sum256([]byte(strconv.Itoa(i)))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportIO reports what the store wrote between a and z (see
// BenchmarkWrite); w is the bytes the process wrote, -1 if unknown.
func reportIO(b *testing.B, a, z IOStats, w int64) {
	n := float64(b.N)
	wal, db := float64(z.WALBytes-a.WALBytes), float64(z.DBBytes-a.DBBytes)
	other := float64(z.OtherBytes - a.OtherBytes)
	b.ReportMetric((wal+db+other)/n, "B-written/op")
	b.ReportMetric(wal/n, "wal-B/op")
	b.ReportMetric(db/n, "db-B/op")
	b.ReportMetric(float64(z.WALSyncs-a.WALSyncs+z.DBSyncs-a.DBSyncs)/n, "fsyncs/op")
	b.ReportMetric(wal/float64(z.PageSize+24)/n, "pages/op") // a WAL frame: 24 bytes and a page
	if c := z.Commits - a.Commits; c > 0 {
		b.ReportMetric(float64(z.Writes-a.Writes)/float64(c), "writes/commit")
	}
	if w >= 0 {
		b.ReportMetric(float64(w)/n, "wchar-B/op")
	}
}

// wchar is the bytes the process has written (/proc/self/io, Linux);
// -1 where it cannot be read.
func wchar() int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}
