package play

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitch"
	"pitch/server/httpx"
	"pitch/store"
	"pitch/store/storetest"
)

// TestStaleTimerYieldsToReturningPlayer: a stand-in timer that fired just
// as its player reconnected (its callback waiting for the table's lock
// while the connection is set up) must not play for the player who is
// back; a timer that is still the latest does play for an away seat.
func TestStaleTimerYieldsToReturningPlayer(t *testing.T) {
	stores := map[string]func(t *testing.T) string{
		"sqlite": func(t *testing.T) string { return filepath.Join(t.TempDir(), "pitch.db") },
	}
	if base := os.Getenv("PITCH_TEST_POSTGRES"); base != "" {
		stores["postgres"] = func(t *testing.T) string { return storetest.FreshPostgres(t, base) }
	}
	for name, fresh := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st, srv := internalServer(t, fresh(t), Options{BotDelay: time.Hour, AwayDelay: time.Hour})
			info := &store.Table{ID: "stale", Variant: "auction", Options: []byte(`{"target":7}`), Seed: 42,
				Created: time.Now().UTC().Truncate(time.Millisecond)}
			for i := range 4 {
				info.Seats = append(info.Seats, store.Seat{Seat: i, Kind: "human"})
			}
			if err := st.CreateTable(ctx, info); err != nil {
				t.Fatal(err)
			}
			for i := range 4 {
				h := sha256.Sum256([]byte{byte(i)})
				if err := st.ClaimSeat(ctx, info.ID, i, "P", h[:]); err != nil {
					t.Fatal(err)
				}
			}
			info, err := st.Table(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			tb, err := srv.load(ctx, info) // nobody is connected: a stand-in timer is set
			if err != nil {
				t.Fatal(err)
			}
			tb.mu.Lock()
			turn := tb.match.State().Turn()
			stale := tb.gen   // that timer fires now; its callback waits for the lock…
			tb.online[turn]++ // …while the player reconnects (as handleWS does)
			tb.away[turn] = false
			tb.schedule(0)
			tb.mu.Unlock()
			tb.botMove(stale)
			tb.mu.Lock()
			seq, away := tb.seq, tb.away[turn]
			tb.mu.Unlock()
			if events, _ := st.Events(ctx, info.ID); seq != 0 || away || len(events) != 0 {
				t.Errorf("a stale stand-in played for seat %d, who is back: seq %d, away %v, %d events", turn, seq, away, len(events))
			}

			// The player leaves again: the latest timer does play for the seat.
			tb.mu.Lock()
			tb.online[turn]--
			tb.schedule(0)
			current := tb.gen
			tb.mu.Unlock()
			tb.botMove(current)
			tb.mu.Lock()
			seq, away = tb.seq, tb.away[turn]
			tb.mu.Unlock()
			if seq != 1 || !away {
				t.Errorf("the stand-in did not play for away seat %d: seq %d, away %v", turn, seq, away)
			}
		})
	}
}

// TestLateContributionBeforeNextCommitment: a page's value for the deal
// just made reaches a process that has no next commitment yet (with
// several processes, it comes from the driver in a note): it is late, not
// wrong, and is taken without an error, as it is when the next
// commitment is there; a value for any other commitment is refused.
func TestLateContributionBeforeNextCommitment(t *testing.T) {
	ctx := context.Background()
	st, srv := internalServer(t, filepath.Join(t.TempDir(), "pitch.db"), Options{BotDelay: time.Hour, AwayDelay: time.Hour})
	info := &store.Table{ID: "late", Variant: "auction", Options: []byte(`{"target":7}`), Seed: 42, FairDeals: true,
		Created: time.Now().UTC().Truncate(time.Millisecond)}
	for i := range 4 {
		info.Seats = append(info.Seats, store.Seat{Seat: i, Kind: "bot", Level: "easy"})
	}
	if err := st.CreateTable(ctx, info); err != nil {
		t.Fatal(err)
	}
	tb, err := srv.load(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	dealt := strings.Repeat("ab", 32)
	tb.dealt, tb.pending = &pitch.Fairness{Commitment: dealt}, nil
	value := strings.Repeat("cd", 32)
	if err := tb.contribute(0, strings.ToUpper(dealt), value); err != nil {
		t.Errorf("a value for the deal just made, before the next commitment: %v, want it taken as late", err)
	}
	var e *httpx.Error
	if err := tb.contribute(0, strings.Repeat("ef", 32), value); !errors.As(err, &e) || e.Code != "no_deal_pending" {
		t.Errorf("a value for another commitment: %v, want no_deal_pending", err)
	}
}
