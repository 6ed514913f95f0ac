package play

// The notes between the processes of a cluster (cluster.go): catching
// up from the shared log, the driver's notes (deals, turn timers, chat)
// to the other processes.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"pitch"
	"pitch/store"
)

// onNote handles a note from any process (this one's too).
func (s *Server) onNote(ctx context.Context, n store.Note) {
	cl := s.cl
	if n.Kind == store.NoteTournament { // eventcluster.go
		s.onEventNote(ctx, n)
		return
	}
	if n.Kind == store.NoteResync {
		s.resyncEvents(ctx)
		tables := s.tableList()
		for _, t := range tables {
			_ = s.refresh(ctx, t, true)
		}
		return
	}
	if n.Kind == store.NoteNew {
		s.mu.Lock()
		_, ok := s.tables[n.Table]
		s.mu.Unlock()
		if !ok { // for the lobby
			if _, err := s.table(ctx, n.Table); err != nil && ctx.Err() == nil { // (a process stopping: its notes end)
				s.log.Warn("cluster: loading a new table", "table", n.Table, "err", err.Error())
			}
		}
		return
	}
	t := s.inMemory(n.Table)
	if t == nil && n.Kind == store.NoteReleased && n.From != cl.id {
		// A table handed over that this process has not heard of: load
		// it, since it may be this one's share.
		if _, err := s.table(ctx, n.Table); err == nil {
			cl.kickLeases()
		}
		return
	}
	if t == nil {
		return // not held here: loaded afresh when asked for
	}
	switch n.Kind {
	case store.NoteEvents, store.NoteDeal:
		if n.Kind == store.NoteEvents && int64(n.Seq) <= t.storing.Load() {
			// This process's own append (the note may come before its
			// commit's answer, while the table's mu is held for it), or
			// one it has: no need to wait for mu. Notes are handled one
			// at a time, so waiting for each table's commit to end made
			// the notes of a busy process fall behind.
			if int64(n.Seq) > t.passed.Load() { // notes are handled one at a time
				t.passed.Store(int64(n.Seq))
			}
			return
		}
		t.mu.Lock()
		behind := n.Kind == store.NoteEvents && t.seq < n.Seq || n.Kind == store.NoteDeal && t.dealtHands() < n.Seq
		t.mu.Unlock()
		if behind {
			_ = s.refresh(ctx, t, false)
		}
	case store.NoteInfo:
		_ = s.refresh(ctx, t, true)
	case store.NotePresence:
		if n.From == cl.id {
			return
		}
		t.mu.Lock()
		driving := t.driving
		t.mu.Unlock()
		if driving {
			pres, err := cl.st.Presence(ctx, cl.id, []string{t.id})
			if err == nil {
				s.setRemote(t.id, pres[t.id])
			}
		}
	case store.NoteReleased:
		if n.From != cl.id {
			if cl.mine(n.Table, n.From) {
				cl.mu.Lock()
				cl.released = append(cl.released, n.Table)
				cl.mu.Unlock()
				select {
				case cl.fast <- struct{}{}:
				default:
				}
			}
			cl.kickLeases() // it may be this process's share now
		}
	case store.NoteServer:
		if n.From != cl.id {
			s.onServerNote(t, n.Text)
		}
	}
}

// refresh brings a table up to the store: its log and deals, and with
// info its seats, next table and closed flag. An error (logged) says the
// table may be behind the store.
func (s *Server) refresh(ctx context.Context, t *table, info bool) error {
	asked := ctx
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	var fresh *store.Table
	if info {
		var err error
		if fresh, err = s.store.Table(ctx, t.id); err != nil {
			if asked.Err() == nil { // not a client that left, nor the cluster stopping
				s.log.Warn("cluster: reading a table", "table", t.id, "err", err.Error())
			}
			return err
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if fresh != nil {
		changed := t.syncPlayNow(fresh)
		changed = changed || fresh.Next != t.info.Next || fresh.Closed != t.info.Closed
		for i, st := range fresh.Seats {
			// The account too: a seat taken at another process by a
			// signed-in person (or a guest who signed up there) is rated
			// for that account whichever process ends the match.
			if i < len(t.info.Seats) && (string(st.TokenHash) != string(t.info.Seats[i].TokenHash) || st.Name != t.info.Seats[i].Name || st.Account != t.info.Seats[i].Account) {
				if st.Name != t.info.Seats[i].Name {
					t.renameSeat(i, st.Name) // a deleted account's seat: its contributions too
				}
				t.info.Seats[i].TokenHash, t.info.Seats[i].Account = st.TokenHash, st.Account
				changed = true
			}
		}
		if changed {
			t.info.Next = fresh.Next
			if fresh.Closed && !t.info.Closed && !t.info.Finished {
				s.unfinished.Add(-1)
			}
			t.info.Closed = fresh.Closed
			t.infoVer++
			t.publish()
			t.schedule(0)
			t.broadcast()
		}
	}
	err := t.catchUp(ctx)
	if err != nil && asked.Err() == nil {
		s.log.Warn("cluster: catching up", "table", t.id, "err", err.Error())
	}
	if t.info.FairDeals && !t.driving && t.pending == nil && !t.over() {
		t.tell(serverNote{Type: "ask"}) // the driver's commitment
	}
	return err
}

// dealtHands is how many hands of the match have been dealt. The lock must
// be held.
func (t *table) dealtHands() int {
	n := len(t.match.Records())
	if !t.match.AwaitingDeal() {
		n++
	}
	return n
}

// catchUp applies what the log holds past this table's seq (actions
// another process stored) and the deals stored since, then tells the
// connections here. The lock must be held.
func (t *table) catchUp(ctx context.Context) error {
	cl := t.srv.cl
	if cl == nil {
		return nil
	}
	events, err := cl.st.EventsFrom(ctx, t.id, t.seq)
	if err != nil {
		return err
	}
	var byHand map[int]json.RawMessage
	if t.info.FairDeals && (len(events) > 0 || t.match.AwaitingDeal()) {
		deals, err := t.srv.store.Deals(ctx, t.id)
		if err != nil {
			return err
		}
		byHand = map[int]json.RawMessage{}
		for _, d := range deals {
			byHand[d.N] = d.Data
		}
	}
	before, dealt, hands := t.seq, t.dealtHands(), len(t.match.Records())
	for _, e := range events {
		if e.Seq != t.seq {
			continue
		}
		var a pitch.Action
		if err := json.Unmarshal(e.Action, &a); err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		if err := t.dealFromLog(byHand); err != nil {
			return err
		}
		if err := t.apply(a, nil, e.By); err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		t.movedAt(e.At)
		t.seq++
		if seat := int(a.Seat); seat >= 0 && seat < len(t.away) && t.bots[seat] == nil {
			t.away[seat] = e.By == "stand-in"
		}
		if e.At.After(t.active) {
			t.active = e.At
		}
	}
	if err := t.dealFromLog(byHand); err != nil {
		return err
	}
	if t.seq == before && t.dealtHands() == dealt {
		return nil
	}
	t.endedElsewhere(ctx, hands) // an event round's end (eventcluster.go)
	if t.over() && !t.info.Finished {
		if t.pending != nil {
			t.supersede(t.pending.commitment) // a late contribution to it is not refused
		}
		t.pending = nil
		t.info.Finished = true
		t.infoVer++
		t.publish()
		t.srv.unfinished.Add(-1)
		t.rate(ctx) // the store rates a match once, whichever process comes first
		t.settleLater()
	}
	if p := t.pending; p != nil && p.hand <= t.dealtHands() {
		t.pending = nil // dealt: the driver's next commitment comes in a note
	}
	if t.driving && t.pending == nil && t.info.FairDeals && !t.over() {
		if stored, err := t.srv.store.Commitments(ctx, t.id); err == nil {
			t.resumePending(t.dealtHands()+1, stored)
		}
		if t.pending == nil {
			if err := t.drawPending(t.dealtHands() + 1); err != nil {
				t.logger().Warn("cluster: no commitment for the next deal", "err", err.Error())
			}
		}
	}
	t.schedule(0)
	t.broadcast()
	return nil
}

// turnDeadline is when the running turn timer runs out and the event it
// is for: this process's own when it drives the table, else the driver's
// as told (zero: no timer runs). The lock must be held.
func (t *table) turnDeadline() (time.Time, int) {
	if t.drives() {
		return t.deadline, t.deadlineSeq
	}
	return t.remoteDeadline, t.remoteDeadlineSeq
}

// timerKey is a turn timer told to the other processes: the event it is
// for and its deadline (zero: none).
type timerKey struct {
	seq int
	at  time.Time
}

// tellTimer tells the other processes the driver's turn timer when it
// changes, as the time left (the machines' clocks may differ), so that
// their clients see the countdown too; a timer told and then stopped
// for the same turn (its player left, say) is told as stopped. The lock
// must be held.
func (t *table) tellTimer() {
	if t.srv.cl == nil || !t.driving {
		return
	}
	key := timerKey{seq: t.seq}
	if !t.deadline.IsZero() && t.deadlineSeq == t.seq {
		key.at = t.deadline
	}
	if key == t.timerTold {
		return
	}
	told := t.timerTold
	t.timerTold = key
	if key.at.IsZero() && (told.seq != t.seq || told.at.IsZero()) {
		return // nothing was told for this turn: nothing to take back
	}
	left := int64(-1)
	if !key.at.IsZero() {
		left = max(time.Until(key.at).Milliseconds(), 0)
	}
	t.tell(serverNote{Type: "timer", Seq: t.seq, LeftMS: left})
}

// serverNote is a message between this server's processes.
type serverNote struct {
	Type string `json:"type"` // "commit", "contribute", "chat", "timer" or "ask"
	// commit: the pending deal's hand, commitment, its time and the seats
	// in; contribute: one seat's contribution to the commitment.
	Hand        int                  `json:"hand,omitempty"`
	Commitment  string               `json:"commitment,omitempty"`
	CommittedAt time.Time            `json:"committed_at,omitzero"`
	Contribs    []pitch.Contribution `json:"contribs,omitempty"`
	// commit and contribute: the contributors' hashes of their values;
	// commit: whether they are frozen (fair.go).
	Hashes map[int]string `json:"hashes,omitempty"`
	Frozen bool           `json:"frozen,omitempty"`
	Chat   *chatMsg       `json:"chat,omitempty"`
	// timer: the turn timer of event Seq runs out in LeftMS
	// milliseconds (-1: it was stopped).
	Seq    int   `json:"seq,omitempty"`
	LeftMS int64 `json:"left_ms,omitempty"`
}

// tell sends a server note about the table to the other processes, in the
// background (the lock may be held).
func (t *table) tell(m serverNote) {
	cl := t.srv.cl
	if cl == nil {
		return
	}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	if cl.ctx.Err() != nil {
		return // stopped: the others drive the table now
	}
	go func() {
		ctx, cancel := context.WithTimeout(cl.ctx, storeTimeout)
		defer cancel()
		if err := cl.st.Notify(ctx, store.Note{Kind: store.NoteServer, Table: t.id, From: cl.id, Text: string(b)}); err != nil && cl.ctx.Err() == nil {
			t.srv.log.Warn("cluster: a note was not sent", "table", t.id, "type", m.Type, "err", err.Error())
		}
	}()
}

// announce tells the other processes this driver's pending deal, when it
// is new or has new contributions. The lock must be held.
func (t *table) announce() {
	p := t.pending
	if t.srv.cl == nil || !t.driving || p == nil || p.secret == [32]byte{} {
		return
	}
	key := fmt.Sprintf("%s/%d/%d/%v", p.commitment, len(p.contribs), len(p.hashes), p.frozen)
	if key == t.announced {
		return
	}
	t.announced = key
	m := serverNote{Type: "commit", Hand: p.hand, Commitment: p.commitment, CommittedAt: p.committedAt, Hashes: p.hashes, Frozen: p.frozen}
	for _, c := range p.contribs {
		m.Contribs = append(m.Contribs, c)
	}
	t.tell(m)
}

// onServerNote handles another process's note about table t.
func (s *Server) onServerNote(t *table, text string) {
	var m serverNote
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch m.Type {
	case "ask":
		t.announced, t.timerTold = "", timerKey{} // say it again
		t.announce()
		t.tellTimer()
	case "timer":
		if t.driving || m.Seq < t.seq {
			return
		}
		t.remoteDeadline, t.remoteDeadlineSeq = time.Time{}, m.Seq
		if m.LeftMS >= 0 {
			t.remoteDeadline = time.Now().Add(time.Duration(m.LeftMS) * time.Millisecond)
		}
		if m.Seq == t.seq {
			t.broadcast()
		}
	case "commit":
		if t.driving || t.over() || m.Hand != t.dealtHands()+1 {
			return
		}
		p := t.pending
		if p == nil || p.commitment != m.Commitment {
			if p != nil {
				t.supersede(p.commitment)
			}
			p = &pendingDeal{hand: m.Hand, commitment: m.Commitment, committedAt: m.CommittedAt, contribs: map[int]pitch.Contribution{}, hashes: map[int]string{}}
			t.pending = p
		}
		for _, c := range m.Contribs {
			p.contribs[c.Seat] = c
		}
		for seat, h := range m.Hashes {
			p.hashes[seat] = h
		}
		if m.Frozen && !p.frozen {
			p.frozen, p.frozenAt = true, time.Now()
		}
		t.broadcast()
	case "contribute":
		p := t.pending
		if p == nil || p.commitment != m.Commitment {
			return
		}
		for seat, h := range m.Hashes {
			if _, ok := p.hashes[seat]; !ok && !p.frozen {
				p.hashes[seat] = h
			}
		}
		for _, c := range m.Contribs {
			if h, ok := p.hashes[c.Seat]; ok && h != valueHash(c.Value) {
				continue // not the value committed to
			}
			if _, ok := p.contribs[c.Seat]; !ok {
				if _, ok := p.hashes[c.Seat]; !ok && p.frozen {
					continue // late: the contributors are frozen
				}
				p.contribs[c.Seat] = c
				p.hashes[c.Seat] = valueHash(c.Value)
			}
		}
		if t.driving && p.secret != [32]byte{} {
			if err := t.savePending(p); err != nil {
				t.logger().Warn("cluster: a contribution was not stored", "err", err.Error())
			}
		}
		if t.driving && t.match.AwaitingDeal() {
			t.schedule(0)
		}
		t.broadcast()
	case "chat":
		if m.Chat == nil {
			return
		}
		t.chat = append(t.chat, *m.Chat)
		if len(t.chat) > chatKept {
			t.chat = t.chat[len(t.chat)-chatKept:]
		}
		t.sendChat(*m.Chat)
	}
}

// supersede records a commitment dropped by a change of driver. The lock
// must be held.
func (t *table) supersede(commitment string) {
	t.superseded = append(t.superseded, commitment)
	if len(t.superseded) > 4 {
		t.superseded = t.superseded[1:]
	}
}

// wasSuperseded reports whether commitment was dropped by a change of
// driver. The lock must be held.
func (t *table) wasSuperseded(commitment string) bool {
	for _, c := range t.superseded {
		if strings.EqualFold(c, commitment) {
			return true
		}
	}
	return false
}
