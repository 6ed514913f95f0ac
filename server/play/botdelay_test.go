package play

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"pitch/server/wire"
	"pitch/store"
)

// TestBotDelayFromTurn: a bot's pause before its move counts from when
// the turn began (the last action, by its stored time, or the deal), not
// from when its process scheduled it, so that a table whose driver
// changes in a drain or a hand-over, or that someone connects to, does
// not wait the whole pause again. Never more than the pause, whatever
// the stored time says (another machine's clock); the whole pause after
// the last reader closes a hand's summary.
func TestBotDelayFromTurn(t *testing.T) {
	const pause = time.Hour
	st, srv := internalServer(t, filepath.Join(t.TempDir(), "delay.db"), Options{BotDelay: pause, AwayDelay: pause, ReadyWait: time.Nanosecond})
	tb := playTable(t, srv, &store.Table{ID: "delay", Variant: "pawnee", Seed: 3, FairDeals: true})
	tb.mu.Lock()
	if got := tb.botDelay(); got < pause-time.Minute || got > pause {
		t.Errorf("just dealt: the pause left is %v, want about %v", got, pause)
	}
	// Actions stored at another process a while ago, as a process that
	// takes the table over reads them.
	rng := rand.New(rand.NewPCG(1, 2))
	raw, err := wire.AppendAction(nil, tb.match.State().RandomAction(rng))
	if err != nil {
		t.Fatal(err)
	}
	tb.mu.Unlock()
	stored := time.Now().Add(-pause / 4)
	if err := st.Append(context.Background(), "delay", store.Append{Event: store.Event{Seq: 0, Action: raw, At: stored}}); err != nil {
		t.Fatal(err)
	}
	info, err := st.Table(context.Background(), "delay")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	events, err := st.Events(ctx, "delay")
	if err != nil {
		t.Fatal(err)
	}
	deals, err := st.Deals(ctx, "delay")
	if err != nil {
		t.Fatal(err)
	}
	commitments, err := st.Commitments(ctx, "delay")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := newTable(srv, info, events, deals, commitments) // as a process that loads it afresh
	if err != nil {
		t.Fatal(err)
	}
	if fresh.seq != 1 {
		t.Fatalf("the fresh table has %d events, want 1", fresh.seq)
	}
	if got, want := fresh.botDelay(), 3*pause/4; got > want+time.Minute || got < want-time.Minute {
		t.Errorf("the last action stored a quarter of the pause ago: %v left, want about %v", got, want)
	}
	for _, tc := range []struct {
		name string
		at   time.Time
		want time.Duration
	}{
		{"stored longer ago than the pause", time.Now().Add(-2 * pause), 0},
		{"stored in the future (another machine's clock)", time.Now().Add(pause), pause},
	} {
		fresh.movedAt(tc.at)
		if got := fresh.botDelay(); got > tc.want || got < tc.want-time.Minute {
			t.Errorf("%s: %v left, want %v", tc.name, got, tc.want)
		}
	}
	// The last reader of a hand's summary closing it begins the turn for
	// the players: the bot's whole pause is still to come.
	fresh.movedAt(time.Now().Add(-2 * pause))
	fresh.read = reading{hand: 1, until: time.Now().Add(pause)}
	fresh.read.seats[0] = true
	fresh.ready(0, 1)
	if got := fresh.botDelay(); got < pause-time.Minute {
		t.Errorf("after the last reader closed the summary: %v left, want about %v", got, pause)
	}
}
