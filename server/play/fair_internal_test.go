package play

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitch/server/httpx"
	"pitch/store"
)

// TestCommitRevealFreezes: a page commits to its value's SHA-256 first;
// a value that is not the one committed to is refused; once the
// contributors are frozen no one else may commit, and a value sent at
// once by a client of before is late (taken without an error, not used);
// the committed page's value is then taken; the states list each
// contributor's hash and say the list is frozen; and the hashes and the
// freeze are stored, so a restart keeps them (docs/fairness.md, issue 39).
func TestCommitRevealFreezes(t *testing.T) {
	ctx := context.Background()
	st, srv := internalServer(t, filepath.Join(t.TempDir(), "pitch.db"), Options{BotDelay: time.Hour, AwayDelay: time.Hour})
	info := &store.Table{ID: "commit", Variant: "auction", Options: []byte(`{"target":7}`), Seed: 42, FairDeals: true,
		Created: time.Now().UTC().Truncate(time.Millisecond)}
	for i, kind := range []string{"human", "human", "bot", "bot"} {
		info.Seats = append(info.Seats, store.Seat{Seat: i, Kind: kind, Level: "easy"})
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
	p := tb.pending
	if p == nil {
		t.Fatal("no pending deal")
	}
	value0 := strings.Repeat("0a", 32)
	raw, _ := hex.DecodeString(value0)
	sum := sha256.Sum256(raw)
	hash0 := hex.EncodeToString(sum[:])
	var e *httpx.Error
	if err := tb.commitValue(0, p.commitment, hash0); err != nil {
		t.Fatalf("seat 0's hash: %v", err)
	}
	if err := tb.contribute(0, p.commitment, strings.Repeat("0b", 32)); !errors.As(err, &e) || e.Code != "value_mismatch" {
		t.Errorf("a value other than the one committed to: %v, want value_mismatch", err)
	}
	tb.freeze()
	if err := tb.commitValue(1, p.commitment, strings.Repeat("cc", 32)); !errors.As(err, &e) || e.Code != "contributors_frozen" {
		t.Errorf("a hash after the freeze: %v, want contributors_frozen", err)
	}
	if err := tb.contribute(1, p.commitment, strings.Repeat("1c", 32)); err != nil {
		t.Errorf("a value sent at once after the freeze: %v, want it taken as late", err)
	}
	if _, ok := p.contribs[1]; ok {
		t.Error("a value sent at once after the freeze went in")
	}
	if err := tb.contribute(0, p.commitment, value0); err != nil {
		t.Fatalf("seat 0's value after the freeze: %v", err)
	}
	n := tb.fairState().Next
	if len(n.Hashes) != 1 || n.Hashes[0].Seat != 0 || n.Hashes[0].Hash != hash0 || !n.Frozen || len(n.Contributed) != 1 || n.Contributed[0] != 0 {
		t.Errorf("the state's next deal: %+v", n)
	}
	if !tb.allContributed() {
		t.Error("every frozen contributor revealed, and the deal still awaits values")
	}
	stored, err := st.Commitments(ctx, tb.id)
	if err != nil {
		t.Fatal(err)
	}
	tb.pending = nil
	if !tb.resumePending(p.hand, stored) {
		t.Fatal("the pending deal was not stored")
	}
	if q := tb.pending; !q.frozen || q.hashes[0] != hash0 || len(q.hashes) != 1 || q.contribs[0].Value != value0 {
		t.Errorf("after a restart the pending deal is frozen %v with hashes %v and values %v", q.frozen, q.hashes, q.contribs)
	}
}
