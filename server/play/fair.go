package play

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"pitch"
	"pitch/server/httpx"
	"pitch/server/wire"
	"pitch/store"
)

// Provably fair deals (docs/fairness.md). At a table with fair deals each
// hand is dealt from the seed pitch.FairSeed makes of a secret the server
// drew and committed to (its SHA-256, published first) and the values the
// seated people's pages then sent. The commitment for hand k+1 is
// published as soon as hand k is dealt (for hand 1, when the table is
// loaded), so the pages normally contribute while hand k is played; when
// hand k ends, hand k+1 is dealt at once if every human seat has
// contributed, else once the table's deal wait (2 s) has passed since the
// deal fell due, or, while a seat whose page is connected has not sent
// its value, a much longer wait (awaitsOnline). The secret stays on the server, and in the store's deals,
// until the hand is over: then it is in the hand record and the state.

// DefaultDealWait is how long a due deal waits for the contributions of
// human seats that have not sent one.
const DefaultDealWait = 2 * time.Second

// pendingDeal is the next deal of a table: its secret, the commitment
// published to the table, and the contributions received so far.
type pendingDeal struct {
	hand        int // the hand it deals
	secret      [32]byte
	commitment  string
	committedAt time.Time
	contribs    map[int]pitch.Contribution // the values revealed
	// hashes are the contributors, each with the SHA-256 of its value
	// (hex), committed before any value is revealed; a value sent at once
	// (a client of before) is its own hash too. Frozen: the contributors
	// are fixed, the states say so, and those in hashes reveal; nobody
	// else may contribute. frozenAt is when it froze (not stored: a
	// restart waits again from its start).
	hashes   map[int]string
	frozen   bool
	frozenAt time.Time
	// atText is atOf (committedAt when made) as pitch.FairTimeFormat
	// writes it (committedText): every state shows it.
	atText string
	atOf   time.Time
}

// committedText is p.committedAt as pitch.FairTimeFormat writes it, made
// once. The table's lock must be held.
func (p *pendingDeal) committedText() string {
	if p.atText == "" || p.atOf != p.committedAt {
		p.atText, p.atOf = p.committedAt.Format(pitch.FairTimeFormat), p.committedAt
	}
	return p.atText
}

// Misbehave makes a server cheat at fair deals on purpose (Options), so
// that tests can check that the pages catch each way of cheating
// (web/fairness_test.go). An honest server has none of it.
type Misbehave struct {
	// IgnoreValues: the pages' values are taken without a word and never
	// used; every hand is dealt from the server's secret alone.
	IgnoreValues bool
	// Redraw: a loaded table draws a new commitment for the pending hand
	// instead of the stored one, and no record lists an abandoned one.
	Redraw bool
	// FairOffFrom: from this hand on (1 for all), the states and the
	// records say nothing of fair deals; 0 for never.
	FairOffFrom int
	// ShiftDealer: the states name the seat after the real dealer with
	// each commitment.
	ShiftDealer bool
	// ListEarly: every human seat is listed in fair.next.contributed
	// from the start, before any page sends a value, and the values
	// sent are not used.
	ListEarly bool
	// NoNext: the states never show the next deal's commitment
	// (fair.next); the hand is dealt without the pages' values.
	NoNext bool
	// ClaimShared: the states say every deal is a duplicate round's
	// ("shared": true) at an ordinary table, so the pages send nothing.
	ClaimShared bool
	// DealOther: the hand is played from another deck than the fair
	// seed gives, and its record then shows the fair seed's deal, with
	// actions that replay from it: a fair-looking record of a deal that
	// was not played.
	DealOther bool
	// OmitDealer: neither the states nor the records name the dealer
	// with the commitment.
	OmitDealer bool
	// BotValue: at the deal, the server adds a value for the first bot's
	// seat, chosen after seeing the players' values (a hash of them
	// here; a real cheat would grind it until it liked the deal).
	BotValue bool
	// AbsentValue: at the deal, the server adds a value for the first
	// human seat that sent none (an absent player's), chosen after seeing
	// the others' values.
	AbsentValue bool
}

// misbehave is the server's Misbehave, or the honest zero value.
func (t *table) misbehave() Misbehave {
	if m := t.srv.opts.Misbehave; m != nil {
		return *m
	}
	return Misbehave{}
}

// misrecord is the record a misbehaving server keeps of a finished hand
// (Misbehave.DealOther): the fair seed's deal, played out by random legal
// actions, in place of r, the hand played; r itself at an honest server.
// The lock must be held.
func (t *table) misrecord(r pitch.Record) pitch.Record {
	if !t.misbehave().DealOther || t.dealt == nil {
		return r
	}
	secret, err := pitch.ParseHex32(t.dealt.Secret, "the secret")
	if err != nil {
		return r
	}
	seed, err := pitch.FairSeed(secret, t.dealt.Contributions)
	if err != nil {
		return r
	}
	s, err := pitch.NewHand(t.game, r.Dealer, r.Scores, pitch.FairDeck(t.game, seed))
	if err != nil {
		return r
	}
	rng := pitch.NewRand(uint64(len(r.Actions)))
	var acts []pitch.Action
	for !s.Terminal() {
		a := s.RandomAction(rng)
		if s.Apply(a) != nil {
			return r
		}
		acts = append(acts, a)
	}
	out := s.Record(acts)
	out.Fairness = r.Fairness
	return out
}

// botValue is the value a misbehaving server (Misbehave.BotValue,
// AbsentValue) adds for the first bot's seat (absent: the first human
// seat with no value), made from the players' values cs: chosen after
// seeing them. The lock must be held.
func (t *table) botValue(cs []pitch.Contribution, at time.Time, absent bool) []pitch.Contribution {
	for _, s := range t.info.Seats {
		if absent && (s.Kind != "human" || slices.ContainsFunc(cs, func(c pitch.Contribution) bool { return c.Seat == s.Seat })) {
			continue
		}
		if !absent && s.Kind != "bot" {
			continue
		}
		h := sha256.New()
		for _, c := range cs {
			h.Write([]byte(c.Value))
		}
		return []pitch.Contribution{{Seat: s.Seat, Name: s.Name, Value: hex.EncodeToString(h.Sum(nil)), At: at.Format(pitch.FairTimeFormat)}}
	}
	return nil
}

// storedPending is a pending deal as the store keeps it (store.Commitment).
type storedPending struct {
	Secret        string               `json:"secret"`
	CommittedAt   string               `json:"committed_at"`
	Contributions []pitch.Contribution `json:"contributions"`
	Hashes        map[int]string       `json:"hashes,omitempty"`
	Frozen        bool                 `json:"frozen,omitempty"`
}

// drawPending draws the secret of hand's deal and stores it before its
// commitment is published: a restart deals from it. The lock must be held.
func (t *table) drawPending(hand int) error {
	p := &pendingDeal{hand: hand, committedAt: time.Now().UTC().Truncate(time.Microsecond), contribs: map[int]pitch.Contribution{}, hashes: map[int]string{}}
	if d, ok := t.round.sharedDeal(hand); ok {
		// A duplicate round's table: the deal every table of the round
		// plays, committed to when the round began (duplicate.go).
		p.secret, p.committedAt = d.secret, d.at
	} else {
		_, _ = rand.Read(p.secret[:]) // never fails (it would crash the program rather than return an error)
	}
	c := pitch.FairCommitment(p.secret)
	p.commitment = hex.EncodeToString(c[:])
	if err := t.savePending(p); err != nil {
		t.pending = nil
		return fmt.Errorf("the commitment of hand %d could not be stored: %w", hand, err)
	}
	t.pending = p
	return nil
}

// savePending stores p: its secret and the contributions received.
func (t *table) savePending(p *pendingDeal) error {
	sp := storedPending{Secret: hex.EncodeToString(p.secret[:]), CommittedAt: p.committedAt.Format(pitch.FairTimeFormat), Contributions: []pitch.Contribution{},
		Hashes: p.hashes, Frozen: p.frozen}
	for _, c := range p.contribs {
		sp.Contributions = append(sp.Contributions, c)
	}
	slices.SortFunc(sp.Contributions, func(a, b pitch.Contribution) int { return a.Seat - b.Seat })
	data, err := json.Marshal(sp)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	return t.srv.store.SaveCommitment(ctx, t.id, store.Commitment{N: p.hand, Commitment: p.commitment, At: sp.CommittedAt, Pending: data})
}

// resumePending makes the newest stored commitment of hand the pending
// deal, with its secret and contributions, and reports whether there was
// one. The lock must be held or the table not yet shared.
func (t *table) resumePending(hand int, stored []store.Commitment) bool {
	if t.misbehave().Redraw {
		return false
	}
	for i := len(stored) - 1; i >= 0; i-- {
		c := stored[i]
		if c.N != hand {
			continue
		}
		var sp storedPending
		if json.Unmarshal(c.Pending, &sp) != nil {
			return false
		}
		secret, err := pitch.ParseHex32(sp.Secret, "the secret")
		at, err2 := time.Parse(pitch.FairTimeFormat, sp.CommittedAt)
		sum := pitch.FairCommitment(secret)
		if err != nil || err2 != nil || hex.EncodeToString(sum[:]) != c.Commitment {
			return false
		}
		p := &pendingDeal{hand: hand, secret: secret, commitment: c.Commitment, committedAt: at, contribs: map[int]pitch.Contribution{},
			hashes: map[int]string{}, frozen: sp.Frozen}
		for _, v := range sp.Contributions {
			p.contribs[v.Seat] = v
			p.hashes[v.Seat] = valueHash(v.Value)
		}
		for seat, h := range sp.Hashes {
			p.hashes[seat] = h
		}
		if p.frozen {
			p.frozenAt = time.Now()
		}
		t.pending = p
		return true
	}
	return false
}

// abandoned lists the stored commitments of p's hand other than p's: ones
// published and dropped before the deal, their secrets to be revealed
// with the hand.
func (t *table) abandoned(ctx context.Context, p *pendingDeal) ([]pitch.Abandoned, error) {
	if t.misbehave().Redraw {
		return nil, nil
	}
	stored, err := t.srv.store.Commitments(ctx, t.id)
	if err != nil {
		return nil, err
	}
	var out []pitch.Abandoned
	for _, c := range stored {
		if c.N != p.hand || c.Commitment == p.commitment {
			continue
		}
		var sp storedPending
		if err := json.Unmarshal(c.Pending, &sp); err != nil {
			return nil, fmt.Errorf("stored commitment %.16s…: %w", c.Commitment, err)
		}
		out = append(out, pitch.Abandoned{Commitment: c.Commitment, Secret: sp.Secret, CommittedAt: sp.CommittedAt})
	}
	return out, nil
}

// fairHand is the number of the hand in progress or awaiting its deal.
func (t *table) fairHand() int { return len(t.match.Records()) + 1 }

// dealFromLog deals the hand the match awaits from the table's stored
// deal of it, if there is one (rebuilding a table). The lock must be held
// or the table not yet shared.
func (t *table) dealFromLog(deals map[int]json.RawMessage) error {
	if !t.match.AwaitingDeal() {
		return nil
	}
	n := t.fairHand()
	raw, ok := deals[n]
	if !ok {
		return nil
	}
	f, err := pitch.ParseFairness(raw)
	if err != nil {
		return fmt.Errorf("the deal of hand %d: %w", n, err)
	}
	return t.dealWith(f)
}

// dealWith deals the awaited hand from f.
func (t *table) dealWith(f *pitch.Fairness) error {
	secret, err := pitch.ParseHex32(f.Secret, "the secret")
	if err != nil {
		return err
	}
	seed, err := pitch.FairSeed(secret, f.Contributions)
	if err != nil {
		return err
	}
	deck := pitch.FairDeck(t.game, seed)
	if t.misbehave().DealOther {
		deck = pitch.FairDeck(t.game, [32]byte(pitch.FairCommitment(seed))) // not the fair seed's deck
	}
	if err := t.match.DealNext(deck); err != nil {
		return err
	}
	t.turnAt = time.Now()
	t.dealt = f
	return nil
}

// allContributed reports whether the pending deal awaits nothing: before
// the freeze, every human seat has committed to a value; after it, every
// contributor has revealed its value.
func (t *table) allContributed() bool {
	p := t.pending
	if p == nil {
		return false
	}
	if t.round.sharesDeals() {
		return true // a duplicate round's deal takes no values: dealt at once
	}
	if p.frozen {
		for seat := range p.hashes {
			if _, ok := p.contribs[seat]; !ok {
				return false
			}
		}
		return true
	}
	for _, s := range t.info.Seats {
		if _, ok := p.hashes[s.Seat]; s.Kind == "human" && !ok {
			return false
		}
	}
	return true
}

// valueHash is the SHA-256 of a value written in hex (as a record writes
// it), in hex; "" for one that does not read.
func valueHash(value string) string {
	v, err := pitch.ParseHex32(value, "value")
	if err != nil {
		return ""
	}
	h := sha256.Sum256(v[:])
	return hex.EncodeToString(h[:])
}

// freeze fixes the pending deal's contributors: those that committed to
// a value. From now on nobody else may contribute, and they reveal. The
// lock must be held.
func (t *table) freeze() {
	p := t.pending
	if p == nil || p.frozen {
		return
	}
	p.frozen, p.frozenAt = true, time.Now()
	if t.drives() {
		if err := t.savePending(p); err != nil {
			t.srv.log.Warn("freeze: not stored", "table", t.id, "hand", p.hand, "err", err.Error())
		}
	}
	t.announce()
	t.broadcast()
}

// scheduleDeal arms the timer of a due deal: at once when every human
// seat has contributed, else when the deal wait since it fell due is
// over; after, when set, instead (a retry). The lock must be held.
func (t *table) scheduleDeal(gen int, after time.Duration) {
	t.takeOverClaims() // play now: people take bots' seats before the deal
	if t.pending == nil || t.pending.hand != t.fairHand() {
		if err := t.drawPending(t.fairHand()); err != nil {
			t.srv.log.Warn("deal: no commitment", "table", t.id, "hand", t.fairHand(), "err", err.Error())
			t.timer = time.AfterFunc(t.srv.opts.RetryDelay, func() { t.dealMove(gen) })
			return
		}
		t.dueAt = time.Time{} // the wait starts once the commitment is shown
		defer t.broadcast()
	}
	if t.dueAt.IsZero() {
		t.dueAt = time.Now()
	}
	delay := after
	if after == 0 && !t.allContributed() {
		wait := t.srv.opts.DealWait
		if t.awaitsOnline() {
			wait = max(onlineWaitFactor*wait, minOnlineWait)
		}
		from := t.dueAt
		if t.pending.frozen && t.pending.frozenAt.After(from) {
			from = t.pending.frozenAt // the reveals are waited for from the freeze
		}
		delay = max(time.Until(from.Add(wait)), 0)
	}
	t.timer = time.AfterFunc(delay, func() { t.dealMove(gen) })
}

// A due deal waits for the value of a human seat whose page is connected
// (awaitsOnline) this many times the deal wait, and at least
// minOnlineWait: a connected page sends its value as soon as it sees the
// commitment, and a value it sent and the deal left out fails its check
// (docs/fairness.md), so an honest server does not deal without it
// because a loaded machine was slow. Only a page stuck that long is dealt
// without; seats with no connected page wait the deal wait alone.
const (
	onlineWaitFactor = 15
	minOnlineWait    = 30 * time.Second
)

// awaitsOnline reports whether a seat whose page is connected to this
// process, and said it contributes (hello "fair"), has not sent its value
// for the pending deal. A server that cheats on
// purpose (Misbehave) deals at the deal wait, as it always did. The lock
// must be held.
func (t *table) awaitsOnline() bool {
	if t.pending == nil || t.round.sharesDeals() {
		return false
	}
	if m := t.misbehave(); m.IgnoreValues || m.ListEarly || m.NoNext || m.ClaimShared {
		return false
	}
	p := t.pending
	for c := range t.conns {
		if !c.fair || c.seat < 0 {
			continue
		}
		_, committed := p.hashes[c.seat]
		_, revealed := p.contribs[c.seat]
		if !p.frozen && !committed || p.frozen && committed && !revealed {
			return true
		}
	}
	return false
}

// dealMove deals the awaited hand unless something was scheduled since gen.
func (t *table) dealMove(gen int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen || t.over() || !t.match.AwaitingDeal() || t.srv.closing() {
		return
	}
	if t.pending == nil || t.pending.hand != t.fairHand() {
		t.schedule(0) // no commitment was stored: draw one, and wait for values
		return
	}
	if p := t.pending; !p.frozen {
		p.frozen, p.frozenAt = true, time.Now() // the contributors are fixed
		if !t.allContributed() {
			// Some committed to a value they have not revealed: say so
			// (stored first), and wait for them.
			p.frozen = false
			t.freeze()
			t.schedule(0)
			return
		}
		// Every value is in already (sent at once): deal now; the deal
		// stores what the freeze would have.
	}
	if err := t.deal(); err != nil {
		t.srv.log.Warn("deal failed", "table", t.id, "hand", t.fairHand(), "err", err.Error())
		t.schedule(t.srv.opts.RetryDelay)
	}
}

// deal deals the awaited hand from the pending deal: the deal is stored
// (with its secret) before anyone sees a card, then the next hand's
// commitment is drawn and everyone is sent the new state. The lock must
// be held.
func (t *table) deal() error {
	p := t.pending
	now := time.Now().UTC()
	dealer := t.match.NextDealer()
	f := &pitch.Fairness{Algorithm: pitch.FairAlgorithm, Version: pitch.FairVersion, Commitment: p.commitment,
		Secret: hex.EncodeToString(p.secret[:]), CommittedAt: p.committedAt.Format(pitch.FairTimeFormat),
		Contributions: []pitch.Contribution{}, Dealer: &dealer}
	if t.misbehave().OmitDealer {
		f.Dealer = nil
	}
	latest := p.committedAt
	for _, c := range p.contribs {
		f.Contributions = append(f.Contributions, c)
		if at, _ := time.Parse(time.RFC3339Nano, c.At); at.After(latest) {
			latest = at
		}
	}
	if m := t.misbehave(); m.BotValue || m.AbsentValue {
		f.Contributions = append(f.Contributions, t.botValue(f.Contributions, now, m.AbsentValue)...)
	}
	slices.SortFunc(f.Contributions, func(a, b pitch.Contribution) int { return a.Seat - b.Seat })
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	ab, err := t.abandoned(ctx, p)
	if err != nil {
		return err
	}
	f.Abandoned = ab
	if now.Before(latest) {
		now = latest // never before a contribution, whatever the clock did
	}
	f.DealtAt = now.Format(pitch.FairTimeFormat)
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if err := t.srv.store.AddDeal(ctx, t.id, store.Deal{N: p.hand, Data: data}); err != nil {
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
		// Stored already: an earlier try was committed though its answer
		// was lost (the database went away). Deal what was stored, if it
		// is this deal.
		if f, err = t.storedDeal(ctx, p); err != nil {
			return err
		}
	}
	if err := t.dealWith(f); err != nil {
		return err // cannot happen: the values were checked when they came
	}
	t.dueAt = time.Time{}
	if err := t.drawPending(p.hand + 1); err != nil {
		// Drawn again when the hand falls due (scheduleDeal).
		t.srv.log.Warn("deal: no commitment for the next hand", "table", t.id, "hand", p.hand+1, "err", err.Error())
	}
	t.touch()
	t.schedule(0)
	t.broadcast()
	return nil
}

// storedDeal returns the stored deal of p's hand, if it is p's (its
// commitment): the deal an earlier, interrupted try stored.
func (t *table) storedDeal(ctx context.Context, p *pendingDeal) (*pitch.Fairness, error) {
	deals, err := t.srv.store.Deals(ctx, t.id)
	if err != nil {
		return nil, err
	}
	for _, d := range deals {
		if d.N != p.hand {
			continue
		}
		f, err := pitch.ParseFairness(d.Data)
		if err != nil {
			return nil, err
		}
		if f.Commitment != p.commitment {
			return nil, fmt.Errorf("hand %d was dealt from another commitment (%s), not this table's %s", p.hand, f.Commitment, p.commitment)
		}
		return f, nil
	}
	return nil, fmt.Errorf("hand %d: the store says it is dealt, but holds no deal of it", p.hand)
}

// awaiting returns the pending deal that a contribution given for
// commitment (the one the page saw) goes to; late when that deal was made
// already (the states said who was in: nothing to do), an error when no
// deal awaits contributions or the commitment is another's. The lock
// must be held.
func (t *table) awaiting(op, commitment string) (p *pendingDeal, late bool, err error) {
	for _, done := range []*pitch.Fairness{t.dealt, t.lastFair} {
		if done != nil && strings.EqualFold(commitment, done.Commitment) {
			// Late: the deal was made without it, perhaps before the
			// next commitment is here.
			return nil, true, nil
		}
	}
	if t.pending == nil || t.over() {
		return nil, false, httpx.Errorf(httpx.Conflict, op, "no deal awaits contributions at this table").With("no_deal_pending", nil)
	}
	if t.round.sharesDeals() {
		return nil, false, httpx.Errorf(httpx.Conflict, op, "this table plays the deals of a duplicate round, the same at every table and committed to when the round began: it takes no values").
			With("shared_deals", nil)
	}
	p = t.pending
	if !strings.EqualFold(commitment, p.commitment) {
		return nil, false, httpx.Errorf(httpx.Conflict, op, "commitment %.16s… is not the one awaiting contributions (%.16s…, for hand %d): contribute to the commitment of the newest state", commitment, p.commitment, p.hand).
			With("stale_commitment", map[string]any{"Hand": p.hand})
	}
	return p, false, nil
}

// contribute takes seat's value for the pending deal, given for the
// commitment the page saw. The lock must be held.
func (t *table) contribute(seat int, commitment, value string) error {
	const op = "table.contribute"
	p, late, err := t.awaiting(op, commitment)
	if late || err != nil {
		return err
	}
	v, err := pitch.ParseHex32(value, "value")
	if err != nil {
		return httpx.Errorf(httpx.Invalid, op, "%s", err).With("bad_contribution", nil)
	}
	hexv := hex.EncodeToString(v[:])
	if old, ok := p.contribs[seat]; ok {
		if old.Value == hexv {
			return nil // sent again (a reconnect): nothing changes
		}
		return httpx.Errorf(httpx.Conflict, op, "seat %d has contributed to this deal already; a contribution cannot be changed", seat).
			With("contributed_already", map[string]any{"Seat": seat})
	}
	h, committed := p.hashes[seat]
	switch {
	case committed && valueHash(hexv) != h:
		return httpx.Errorf(httpx.Invalid, op, "this value's SHA-256 is not the one seat %d committed to: a value cannot be changed once committed", seat).
			With("value_mismatch", map[string]any{"Seat": seat})
	case !committed && p.frozen:
		// A value sent at once (a client of before) after the freeze:
		// late, as after the deal; the states say who is in.
		return nil
	}
	if m := t.misbehave(); m.IgnoreValues || m.ListEarly {
		return nil
	}
	at := time.Now().UTC()
	if at.Before(p.committedAt) {
		at = p.committedAt
	}
	name := ""
	for _, s := range t.info.Seats {
		if s.Seat == seat {
			name = s.Name
		}
	}
	p.contribs[seat] = pitch.Contribution{Seat: seat, Name: name, Value: hexv, At: at.Format(pitch.FairTimeFormat)}
	if !committed {
		p.hashes[seat] = valueHash(hexv) // sent at once: committed and revealed
	}
	if t.drives() {
		// Stored before it is acknowledged: a restart deals with it.
		if err := t.savePending(p); err != nil {
			delete(p.contribs, seat)
			if !committed {
				delete(p.hashes, seat)
			}
			return httpx.StoreDown(op, err)
		}
	}
	if t.match.AwaitingDeal() {
		t.schedule(0) // perhaps everyone is in: deal now
	}
	t.broadcast()
	return nil
}

// commitValue takes seat's commitment to its value for the pending deal
// (the SHA-256 of the value, hex), given for the commitment the page saw:
// the first step of a contribution. The value follows once the
// contributors are frozen (contribute). The lock must be held.
func (t *table) commitValue(seat int, commitment, hash string) error {
	const op = "table.commit"
	p, late, err := t.awaiting(op, commitment)
	if late || err != nil {
		return err
	}
	h, err := pitch.ParseHex32(hash, "hash")
	if err != nil {
		return httpx.Errorf(httpx.Invalid, op, "%s", err).With("bad_contribution", nil)
	}
	hexh := hex.EncodeToString(h[:])
	if old, ok := p.hashes[seat]; ok {
		if old == hexh {
			return nil // sent again (a reconnect): nothing changes
		}
		return httpx.Errorf(httpx.Conflict, op, "seat %d has contributed to this deal already; a contribution cannot be changed", seat).
			With("contributed_already", map[string]any{"Seat": seat})
	}
	if p.frozen {
		return httpx.Errorf(httpx.Conflict, op, "the contributors to hand %d's deal are frozen: no value can go in now", p.hand).
			With("contributors_frozen", map[string]any{"Hand": p.hand})
	}
	if m := t.misbehave(); m.IgnoreValues || m.ListEarly {
		return nil
	}
	p.hashes[seat] = hexh
	if t.drives() {
		if err := t.savePending(p); err != nil {
			delete(p.hashes, seat)
			return httpx.StoreDown(op, err)
		}
	}
	if t.match.AwaitingDeal() {
		t.schedule(0) // perhaps everyone is in: freeze now
	}
	t.broadcast()
	return nil
}

// fairOff reports whether a misbehaving server hides fair deals from the
// hand in progress on (Misbehave.FairOffFrom).
func (t *table) fairOff() bool {
	from := t.misbehave().FairOffFrom
	return from > 0 && t.fairHand() >= from
}

// fairState is the fair-deal part of every state, encoded (wire.Fair's
// Encode); nil at a table without fair deals. It never holds a secret of
// a hand not yet over. It is built at each broadcast into the table's
// scratch (fairWork) and is the one sent last, unchanged, when its bytes
// are the same: a new one only when something in it changed. Neither
// is ever changed once returned.
func (t *table) fairState() *wire.Fair {
	w := &t.fairWork
	f := t.buildFair(w)
	if f == nil {
		return nil
	}
	// The encoding is compared and, when new, copied: its buffer is
	// borrowed, not kept by every table between broadcasts.
	buf := fairBufs.Get().(*[]byte)
	*buf = f.EncodeInto(*buf)
	if t.fairSent == nil || !bytes.Equal(t.fairSent.Encoded(), *buf) {
		t.fairSent = f.Clone()
	}
	*f = wire.Fair{} // lets go of the borrowed buffer
	fairBufs.Put(buf)
	return t.fairSent
}

// fairBufs are fairState's buffers for encoding.
var fairBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// fairWork is where fairState builds the fair-deal part of a state, kept
// between broadcasts for its slices.
type fairWork struct {
	f    wire.Fair
	next wire.FairNext
	hand wire.FairHand
	last wire.FairLast
}

// buildFair builds fairState's fair-deal part in w (nil without fair
// deals).
func (t *table) buildFair(w *fairWork) *wire.Fair {
	if !t.info.FairDeals || t.fairOff() {
		return nil
	}
	out := &w.f
	*out = wire.Fair{Dealing: t.match.AwaitingDeal() && !t.over()}
	if p := t.pending; p != nil && !t.over() && !t.misbehave().NoNext {
		n := &w.next
		contributed, hashes := n.Contributed[:0], n.Hashes[:0]
		if contributed == nil {
			contributed = make([]int, 0, pitch.MaxSeats)
		}
		if hashes == nil {
			hashes = make([]wire.FairHash, 0, pitch.MaxSeats)
		}
		*n = wire.FairNext{Hand: p.hand, Commitment: p.commitment, CommittedAt: p.committedText(),
			Dealer: t.match.NextDealer(), Contributed: contributed, Shared: t.round.sharesDeals()}
		m := t.misbehave()
		if m.ShiftDealer {
			n.Dealer = (n.Dealer + 1) % t.game.Seats()
		}
		if m.OmitDealer {
			n.Dealer = wire.NoDealer
		}
		n.Shared = n.Shared || m.ClaimShared
		for s := range p.contribs {
			n.Contributed = append(n.Contributed, s)
		}
		n.Hashes, n.Frozen = hashes, p.frozen
		for s, h := range p.hashes {
			n.Hashes = append(n.Hashes, wire.FairHash{Seat: s, Hash: h})
		}
		slices.SortFunc(n.Hashes, func(a, b wire.FairHash) int { return a.Seat - b.Seat })
		if m.ListEarly {
			for _, s := range t.info.Seats {
				if s.Kind == "human" && !slices.Contains(n.Contributed, s.Seat) {
					n.Contributed = append(n.Contributed, s.Seat)
				}
			}
		}
		slices.Sort(n.Contributed)
		out.Next = n
	}
	if t.dealt != nil && !t.match.AwaitingDeal() && !t.over() {
		w.hand = wire.FairHand{Hand: t.fairHand(), Commitment: t.dealt.Commitment}
		out.Hand = &w.hand
	}
	if f := t.lastFair; f != nil {
		w.last = wire.FairLast{Hand: len(t.match.Records()), Commitment: f.Commitment, Secret: f.Secret}
		out.Last = &w.last
	}
	return out
}
