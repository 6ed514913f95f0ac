package server

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"pitch"
)

// Duplicate rounds (docs/events.md, Duplicate). When a duplicate round
// begins, the server draws one secret for each of its deals and commits
// to them (their SHA-256); every table of the round deals hand k from
// deal k's secret, with no values of the players (they would make the
// tables' deals differ), so every table plays the same deals in the same
// order and each hand record verifies as any fair deal does (pitch
// verify, the page's check) against the round's one commitment for that
// deal. The commitments are public from the round's start (the event's
// "commitments"); each secret is revealed in a table's hand record when
// that table's hand is over.

// storedShared is a shared deal as the event stores it.
type storedShared struct {
	Secret      string `json:"secret"`
	Commitment  string `json:"commitment"`
	CommittedAt string `json:"committed_at"`
}

// sharedDeal is a shared deal in memory.
type sharedDeal struct {
	secret [32]byte
	at     time.Time
}

// drawShared draws the secrets of n deals committed to at time at.
func drawShared(n int, at time.Time) []storedShared {
	at = at.UTC().Truncate(time.Microsecond)
	out := make([]storedShared, n)
	for i := range out {
		var s [32]byte
		_, _ = rand.Read(s[:]) // never fails (it would crash the program rather than return an error)
		c := pitch.FairCommitment(s)
		out[i] = storedShared{Secret: hex.EncodeToString(s[:]), Commitment: hex.EncodeToString(c[:]), CommittedAt: at.Format(pitch.FairTimeFormat)}
	}
	return out
}

// sharedDeals returns round r's shared deals (nil for a round of a
// movement other than duplicate). The lock must be held, or e not yet
// shared.
func (e *liveEvent) sharedDeals(r int) []sharedDeal {
	if r >= len(e.d.Deals) || e.d.Deals[r] == nil {
		return nil
	}
	out := make([]sharedDeal, 0, len(e.d.Deals[r]))
	for _, d := range e.d.Deals[r] {
		s, err := pitch.ParseHex32(d.Secret, "the secret")
		at, err2 := time.Parse(pitch.FairTimeFormat, d.CommittedAt)
		if err != nil || err2 != nil {
			return nil // cannot happen: the server wrote it
		}
		out = append(out, sharedDeal{secret: s, at: at})
	}
	return out
}

// commitments returns the commitments of round r's shared deals, in
// order (nil when it has none). The lock must be held.
func (e *liveEvent) commitments(r int) []string {
	if r >= len(e.d.Deals) {
		return nil
	}
	var out []string
	for _, d := range e.d.Deals[r] {
		out = append(out, d.Commitment)
	}
	return out
}

// sharesDeals reports whether the table deals a duplicate round's shared
// deals (a nil r, a table of no event, does not).
func (r *tableRound) sharesDeals() bool { return r != nil && r.shared != nil }

// sharedDeal returns the shared deal of hand (1 for the first), if the
// table has one.
func (r *tableRound) sharedDeal(hand int) (sharedDeal, bool) {
	if r == nil || hand < 1 || hand > len(r.shared) {
		return sharedDeal{}, false
	}
	return r.shared[hand-1], true
}
