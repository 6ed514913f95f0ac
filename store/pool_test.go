package store

import (
	"os"
	"sync"
	"testing"
	"time"

	"pitch/store/storetest"
)

// TestPostgresPoolKept: connections a busy moment opened stay open for
// the next one (none closed for want of idle room), and the group
// commits have a connection of their own, which reads cannot take.
func TestPostgresPoolKept(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	s := open(t, storetest.FreshPostgres(t, base)).(*sqlStore)
	if s.bw == s.r {
		t.Fatal("the group commits share the readers' pool")
	}
	mustCreate(t, s, newTable("a", time.Time{}))
	for round := range 3 {
		var wg sync.WaitGroup
		for range 20 { // as many as the pool holds, each held a moment
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := s.r.ExecContext(ctx, `SELECT pg_sleep(0.05)`); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if st := s.r.Stats(); st.MaxIdleClosed != 0 || st.OpenConnections > 20 {
			t.Fatalf("after busy moment %d: %d connections closed for want of idle room, %d open; want none closed, at most 20", round+1, st.MaxIdleClosed, st.OpenConnections)
		}
	}
	if err := s.Append(ctx, "a", Append{Event: Event{Seq: 0, Action: action(0)}}); err != nil {
		t.Fatal(err)
	}
	if st := s.bw.Stats(); st.OpenConnections != 1 {
		t.Errorf("the group commits' pool has %d connections open, want its one", st.OpenConnections)
	}
}
