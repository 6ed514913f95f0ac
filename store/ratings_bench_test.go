package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"pitch/store/storetest"
)

// BenchmarkLeaderboard reads leaderboard pages of a database with 100,000
// accounts, each rated in one or more of the three games (about two
// thirds settled, most active in the last 90 days, 1% disabled), 50 rows
// a page: the first page, the 101st (after rank 5,000, reached by
// walking the pages), the one before it, and the last page. It reports
// the 99th percentile of a page's time as p99-ns/op (target 50 ms,
// docs/ratings.md). PostgreSQL runs when PITCH_TEST_POSTGRES is set.
func BenchmarkLeaderboard(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		benchLeaderboard(b, filepath.Join(b.TempDir(), "pitch.db"))
	})
	b.Run("postgres", func(b *testing.B) {
		base := os.Getenv("PITCH_TEST_POSTGRES")
		if base == "" {
			b.Skip("PITCH_TEST_POSTGRES is not set")
		}
		benchLeaderboard(b, storetest.FreshPostgres(b, base))
	})
}

// fillAccounts stores n accounts with ratings, in one transaction; one in
// a hundred is disabled. PostgreSQL is then vacuumed and analysed, as its
// autovacuum would soon do; SQLite is not (pitch never runs ANALYZE).
func fillAccounts(b *testing.B, s Store, n int) {
	b.Helper()
	ss := s.(*sqlStore)
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Now()
	tx, err := ss.w.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	acc, err := tx.PrepareContext(ctx, ss.d.q(`INSERT INTO accounts (id, name, name_key, created, disabled) VALUES (?, ?, ?, ?, ?)`))
	if err != nil {
		b.Fatal(err)
	}
	rat, err := tx.PrepareContext(ctx, ss.d.q(`INSERT INTO ratings (account_id, variant, mu, sigma, matches, wins, last_played, disabled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`))
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		id, name := fmt.Sprintf("acc%07d", i), fmt.Sprintf("player%d", i)
		if _, err := acc.ExecContext(ctx, id, name, name, ss.d.timeArg(now), i%100 == 7); err != nil {
			b.Fatal(err)
		}
		for _, v := range []string{"auction", "ten-point", "pawnee"} {
			if i%3 != 0 && rng.IntN(2) == 0 {
				continue
			}
			sigma := 1.5 + rng.Float64()*7
			last := now.Add(-time.Duration(rng.IntN(120*24)) * time.Hour)
			if _, err := rat.ExecContext(ctx, id, v, 10+rng.Float64()*30, sigma, 1+rng.IntN(200), rng.IntN(50), ss.d.timeArg(last), i%100 == 7); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if ss.d == postgresDialect {
		if _, err := ss.w.ExecContext(ctx, `VACUUM ANALYZE`); err != nil {
			b.Fatal(err)
		}
	}
}

func benchLeaderboard(b *testing.B, dsn string) {
	s, err := Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fillAccounts(b, s, 100_000)
	q := LeaderQuery{Variant: "pawnee", Since: time.Now().Add(-90 * 24 * time.Hour), Limit: 50}
	// Walk pages 1 to 101 as a person would, checking their ranks.
	var page LeaderPage
	walk := q
	for i := range 101 {
		if page, err = s.Leaderboard(ctx, walk); err != nil || page.Rank != i*50+1 || len(page.Rows) != 50 || !page.More {
			b.Fatalf("page %d: rank %d, %d rows, more %v, %v", i+1, page.Rank, len(page.Rows), page.More, err)
		}
		if i < 100 {
			k := page.Rows[len(page.Rows)-1].Key()
			walk.After = &k
		}
	}
	// The last page ends at the board's size, counted here the slow way.
	var size int
	ss := s.(*sqlStore)
	if err := ss.r.QueryRowContext(ctx, ss.d.q(`SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE NOT a.disabled AND r.variant = ? AND r.sigma <= 5.0 AND r.last_played >= ?`),
		q.Variant, ss.d.timeArg(q.Since)).Scan(&size); err != nil {
		b.Fatal(err)
	}
	next, prev, last := q, q, q
	next.After = walk.After // page 101: after rank 5,000
	k0 := page.Rows[0].Key()
	prev.Before = &k0 // page 100: before rank 5,001
	last.Last = true
	for _, c := range []struct {
		name string
		q    LeaderQuery
		rank int // the first row's
	}{
		{"first", q, 1},
		{"page=101", next, 5001},
		{"page=100-before", prev, 4951},
		{"last", last, size - 49},
	} {
		b.Run(c.name, func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				start := time.Now()
				page, err := s.Leaderboard(ctx, c.q)
				times = append(times, time.Since(start))
				if err != nil || len(page.Rows) != 50 || page.Rank != c.rank {
					b.Fatalf("rank %d, %d rows, %v; want rank %d", page.Rank, len(page.Rows), err, c.rank)
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns/op")
		})
	}
}
