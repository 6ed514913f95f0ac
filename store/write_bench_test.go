//go:build unix

package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
//     pending deal before it is acknowledged, as server/fair.go does.
//
// Besides the time per write (the wall clock, which the commits' fsync
// sets) it reports cpu-ns/op, the process's CPU time (user and system)
// per write: what the store's writer, which is serial, spends on each.
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
			b.Run("append", func(b *testing.B) { benchWrites(b, db.dsn(b), benchAppend) })
			b.Run("fair", func(b *testing.B) { benchWrites(b, db.dsn(b), benchFair) })
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

func benchWrites(b *testing.B, dsn string, write benchWriter) {
	s, err := Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ids := make([]string, benchTables)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench%02d", i)
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
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
