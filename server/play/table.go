package play

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"pitch"
	"pitch/bot"
	"pitch/event"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/server/tableinfo"
	"pitch/server/wire"
	"pitch/store"
)

// table is a table in play: the authoritative match, its seats and the
// connections watching it. mu guards everything in it.
type table struct {
	srv  *Server
	id   string
	game *pitch.Game

	// storing is the events in the log once this process's
	// append under way (if any) is stored: a note of events up to it is
	// this process's own append, or one it has, and is passed over
	// without waiting for mu (see Server.onNote). Set under mu, read
	// without it.
	storing atomic.Int64
	// passed is the last event count of a note passed over for storing.
	passed atomic.Int64

	mu sync.Mutex
	// ratings: what the finished rated match did to each account's
	// rating (rate), nil until then.
	ratings []wire.RatingChange
	// unrated says why a rated table's match is played unrated:
	// "pair_limit" (checkPairs, rate); "" when it is rated.
	unrated string
	info    *store.Table
	match   *pitch.Match
	seq     int       // events in the log
	bots    []bot.Bot // per seat; nil for humans
	conns   map[*conn]struct{}
	online  [pitch.MaxSeats]int  // live connections per seat
	away    [pitch.MaxSeats]bool // a bot is playing for this human seat
	timer   *time.Timer
	gen     int       // counts schedule calls: a timer set before the last one does nothing
	chat    []chatMsg // the last lines of table talk
	// rematch serializes starting the next match (handleRematch).
	rematch sync.Mutex
	// deadline is when the turn timer of event deadlineSeq runs out: zero
	// when no turn timer runs.
	deadline    time.Time
	deadlineSeq int
	turnAt      time.Time // when the turn to act began: the last action (its stored time) or deal (botDelay)
	active      time.Time // the last join, connection, disconnection or action
	stored      time.Time // the active time last recorded in the store (Touch)
	sheet       []wire.SheetRow
	// log is this hand's log as every seat and spectators may see it,
	// encoded as actions are applied; lastLog is the previous hand's, kept
	// until the next hand's first move.
	log, lastLog *wire.HandLog
	// stateCap is the size of the last state encoded, to size the next.
	stateCap int
	// summary is the last hand's summary, its head encoded, made once
	// per hand (shared); never changed once made.
	summary *wire.HandSummary
	// The parts of a state message every viewer shares, marshalled once
	// per change: infoVer counts changes to the seats and the like (every
	// change to info bumps it), sheetRows the rows sheetRaw holds.
	infoVer, cacheVer, sheetRows int
	tableRaw, sheetRaw           json.RawMessage
	// Fair deals (fair.go), at tables with info.FairDeals: the next deal's
	// secret and contributions, how the hand in progress and the last
	// finished hand were dealt, and when the awaited deal fell due.
	pending         *pendingDeal
	dealt, lastFair *pitch.Fairness
	dueAt           time.Time
	// Several processes (cluster.go): whether this process holds the
	// table's lease and so runs its bots and timers, the connections other
	// processes hold per seat and in all, and the pending deal last told
	// to them.
	driving bool
	// drivenSince is when this process last took the table over.
	drivenSince time.Time
	remote      [pitch.MaxSeats]int
	remoteAll   int
	announced   string
	// The turn timer as the driver tells it (at a process that does not
	// drive the table): when the timer of event remoteDeadlineSeq runs
	// out. timerTold is what the driver told last.
	remoteDeadline    time.Time
	remoteDeadlineSeq int
	timerTold         timerKey
	// read is who the table waits for after a hand ends (ready.go).
	read reading
	// nextBy is 1 + the seat that started the next match here, 0 when
	// unknown (kept in memory only: a restart forgets it).
	nextBy int
	// invited are the seats of this new match (rematch.go) whose people
	// have not accepted it yet: play waits for them. Kept in memory only,
	// like nextBy.
	invited [pitch.MaxSeats]bool
	// superseded are commitments of deals dropped by a change of driver:
	// a page's late contribution to one is ignored, not refused.
	superseded []string
	// round is the event round the table plays in (event.go), nil for a
	// table of its own; roundDone: the round ended here (its hands or its
	// clock) before the match did. The table is then over.
	round     *tableRound
	roundDone bool
	// heldLeft is what the turn timer had left when the event was paused.
	heldLeft time.Duration
	// waiting are the connections of people whose takeover of a bot's
	// seat is pending (playnow.go): seated when it is made.
	waiting map[*conn]waiter
	// trackers: what each seat's protocol-2 connections were sent
	// (statedelta.go); lastShared: the fields every seat shares, as the
	// last broadcast fingerprinted them (which the trackers that sent
	// them hold too).
	trackers   trackers
	lastShared wire.Fingerprints
	// fairSent is the fair-deal part of the last state made (fairState),
	// never changed; fairWork is where the next is built.
	fairSent *wire.Fair
	fairWork fairWork
}

// over reports whether play at the table has ended: the match is over,
// or the table's event round is.
func (t *table) over() bool { return t.match.Over() || t.roundDone }

// staleLog is a stored table whose moves no longer replay: it was played
// under rules that have since changed (the forced dealer's bid, C-6).
type staleLog struct {
	table string
	seq   int   // the stored event that the engine refuses
	err   error // the engine's refusal
}

func (e *staleLog) Error() string {
	return fmt.Sprintf("table %s event %d: %v", e.table, e.seq, e.err)
}

func (e *staleLog) Unwrap() error { return e.err }

// gameOf is the game a stored table plays: its variant and options
// (tableinfo.Game).
func gameOf(info *store.Table) (*pitch.Game, error) { return tableinfo.Game(info) }

// newTable rebuilds a table from its stored form and log (C-6: the seed and
// the decisions replay the match exactly), and at a table with fair deals
// its stored deals.
func newTable(srv *Server, info *store.Table, events []store.Event, deals []store.Deal, commitments []store.Commitment) (*table, error) {
	g, err := gameOf(info)
	if err != nil {
		return nil, err
	}
	t := &table{srv: srv, id: info.ID, game: g, info: info, bots: make([]bot.Bot, g.Seats()), conns: map[*conn]struct{}{},
		log: wire.NewHandLog(g.Seats())}
	byHand := map[int]json.RawMessage{}
	if info.FairDeals {
		t.match = pitch.NewMatchByDeck(g, info.Seed)
		for _, d := range deals {
			byHand[d.N] = d.Data
		}
	} else {
		t.match = pitch.NewMatch(g, info.Seed) // a table from before fair deals
	}
	for _, s := range info.Seats {
		if s.Kind == "bot" {
			t.bots[s.Seat], err = bot.New(s.Level)
			if err != nil {
				return nil, err
			}
		}
	}
	t.active = info.Created
	if info.Active.After(t.active) {
		t.active = info.Active
	}
	if n := len(events); n > 0 && events[n-1].At.After(t.active) {
		t.active = events[n-1].At
	}
	t.stored = t.active
	for _, e := range events {
		var a pitch.Action
		if err := json.Unmarshal(e.Action, &a); err != nil {
			return nil, fmt.Errorf("table %s event %d: %w", info.ID, e.Seq, err)
		}
		if err := t.dealFromLog(byHand); err != nil {
			return nil, fmt.Errorf("table %s: %w", info.ID, err)
		}
		if err := t.apply(a, nil, e.By); err != nil {
			return nil, &staleLog{table: info.ID, seq: e.Seq, err: err}
		}
		t.movedAt(e.At)
		t.seq++
	}
	if err := t.dealFromLog(byHand); err != nil {
		return nil, fmt.Errorf("table %s: %w", info.ID, err)
	}
	t.round = srv.roundOf(info.ID)
	t.roundDone = t.round != nil && info.Finished && !t.match.Over()
	if info.FairDeals && !t.over() {
		// The commitment published before a restart, with its secret and
		// the values received, deals the next hand: a restart re-draws
		// nothing. A table with none stored draws one when it is loaded.
		next := t.fairHand()
		if !t.match.AwaitingDeal() {
			next++
		}
		if !t.resumePending(next, commitments) && srv.cl == nil { // several processes: the driver's (cluster.go)
			if err := t.drawPending(next); err != nil {
				return nil, fmt.Errorf("table %s: %w", info.ID, err)
			}
		}
	}
	return t, nil
}

// apply applies an accepted action to the match and keeps the score sheet
// and the logs; by is who made it for the seat ("" for the seat itself).
// raw is a's JSON (wire.AppendAction), nil to have it made.
func (t *table) apply(a pitch.Action, raw json.RawMessage, by string) error {
	hands := len(t.match.Records())
	if err := t.match.Apply(a); err != nil {
		return err
	}
	t.turnAt = time.Now()
	if raw == nil {
		var err error
		if raw, err = wire.AppendAction(nil, a); err != nil {
			return err
		}
	}
	t.log.Add(t.game, a, raw, by)
	if t.log.Len() == 1 {
		// The next hand's first move: the finished hand is no longer
		// shown as it was (stateBase), so its log is not needed.
		t.lastLog = nil
	}
	if len(t.match.Records()) > hands {
		t.lastFair, t.dealt = t.dealt, nil
		t.lastLog, t.log = t.log, wire.NewHandLog(t.game.Seats())
		r := t.match.LastHand().Result()
		t.sheet = append(t.sheet, wire.SheetRow{Hand: len(t.match.Records()), Bidder: r.Bidder, Bid: r.Bid, Made: r.Made,
			Delta: r.Delta, Scores: r.Scores})
		if !t.match.Over() {
			t.startReading(len(t.match.Records()))
		}
	}
	return nil
}

// act checks a as the action of seat, writes it to the log, applies it and
// tells everyone (the order matters: nobody hears of an action that is not
// stored). by says who made it when not the seat's player: "timer" or
// "stand-in" (see store.Event). The lock must be held.
func (t *table) act(ctx context.Context, seat int, a pitch.Action, by string) error {
	const op = "table.act"
	if t.over() {
		return httpx.Errorf(httpx.Conflict, op, "the match is over").With("match_over", nil)
	}
	if t.info.Closed {
		return httpx.Errorf(httpx.Conflict, op, "%s", closedMsg).With("closed", nil)
	}
	if t.round.held() {
		return httpx.Errorf(httpx.Conflict, op, "the host has paused the event: play resumes when they resume it").With("event_paused", nil)
	}
	if !t.full() || t.inviting() != nil {
		return httpx.Errorf(httpx.Conflict, op, "waiting for every human seat to be taken: play starts when all have joined").With("waiting_players", nil)
	}
	if int(a.Seat) != seat {
		return httpx.Errorf(httpx.Forbidden, op, "you hold seat %d; an action for seat %d is not yours to take", seat, a.Seat).With("not_your_seat", map[string]any{"Seat": seat, "Other": int(a.Seat)})
	}
	if t.match.AwaitingDeal() {
		return httpx.Errorf(httpx.Conflict, op, "the cards are being dealt: wait a moment").With("dealing", nil)
	}
	next := *t.match.State() // a clone: check before anything changes
	if err := next.Apply(a); err != nil {
		return refusedAction(op, err)
	}
	raw, err := wire.AppendAction(nil, a)
	if err != nil {
		return httpx.Unexpected(op, err)
	}
	ap := store.Append{Event: store.Event{Seq: t.seq, Action: raw, At: time.Now().UTC(), By: by}}
	if next.Terminal() {
		if err := t.handEnd(&ap, &next, a); err != nil {
			return httpx.Unexpected(op, err)
		}
	}
	// Not the client's context: a client that leaves mid-commit must not
	// leave the log and the table disagreeing about what was stored.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	t.storing.Store(int64(t.seq + 1))
	if err := t.srv.store.Append(sctx, t.id, ap); err != nil {
		t.storing.Store(int64(t.seq))
		t.schedule(t.srv.opts.RetryDelay) // try the bots again later
		if errors.Is(err, store.ErrConflict) {
			if t.srv.cl != nil { // taken at another process: what it was is in the log
				if cerr := t.catchUp(sctx); cerr != nil {
					t.logger().Warn("cluster: catching up after a conflict", "err", cerr.Error())
				}
			}
			return &httpx.Error{Kind: httpx.Conflict, Op: op, Msg: "another action was taken first; the table has moved on: act again from the newest state", Err: err}
		}
		if t.passed.Load() > int64(t.seq) {
			// A note passed over while this append was under way was
			// not its own (or it was stored after all, its answer
			// lost): read the log once mu is free.
			go t.srv.refresh(context.WithoutCancel(ctx), t, false) //nolint:errcheck // it logs
		}
		return httpx.StoreDown(op, err)
	}
	if err := t.apply(a, raw, by); err != nil {
		return httpx.Unexpected(op, err) // cannot happen: the clone accepted it
	}
	t.seq++
	t.touch()
	if ap.Finished {
		t.roundDone = !t.match.Over()
		if t.round != nil {
			t.srv.evWork.Add(1)
			go func(ref *tableRound, res event.Result) {
				defer t.srv.evWork.Done()
				t.srv.roundResult(ref, res)
			}(t.round, t.result())
		}
		if t.pending != nil {
			// A page's contribution to the deal that will not be made,
			// sent before it heard the table ended, is not refused.
			t.supersede(t.pending.commitment)
		}
		t.pending = nil
		t.info.Finished = true
		t.infoVer++
		t.publish()
		t.srv.unfinished.Add(-1)
		t.rate(ctx)
	}
	if seat >= 0 && t.bots[seat] == nil && t.online[seat] > 0 && by == "" {
		t.away[seat] = false
	}
	t.schedule(0) // first, so that the states carry the new turn's deadline
	t.broadcast()
	return nil
}

// refusedAction is the error for an action the rules refused with err:
// what was wrong and what is allowed (C-7), with the rule's code and
// parameters.
func refusedAction(op string, err error) error {
	e := httpx.Errorf(httpx.Invalid, op, "%s", err)
	var ae *pitch.ActionError
	if errors.As(err, &ae) {
		params := make(map[string]any, len(ae.Params)+1)
		params["Rule"] = ae.Rule
		for k, v := range ae.Params {
			params[k] = v
		}
		e = e.With(ae.Code, params)
	}
	return e
}

// handEnd adds to ap the record of the hand that a, the last action,
// ends (next: the state after it), and whether the match or round ends
// with it. A function of its own, so that act's stack frame holds none
// of it (docs/performance.md, "Issue 41"). The lock must be held.
func (t *table) handEnd(ap *store.Append, next *pitch.State, a pitch.Action) error {
	r := next.Record(append(append([]pitch.Action(nil), t.match.HandActions()...), a))
	if t.dealt != nil && !t.fairOff() {
		r.Fairness, _ = json.Marshal(t.dealt) // the proof of the deal, its secret revealed
		r = t.misrecord(r)                    // an honest server's record is r itself
	}
	rec, err := json.Marshal(r)
	if err != nil {
		return err
	}
	ap.Hand = &store.Hand{N: len(t.match.Records()) + 1, Record: rec}
	ap.Finished = next.Winners() != nil || t.round.ends(len(t.match.Records())+1)
	return nil
}

// storeTimeout bounds how long an action waits for the store.
const storeTimeout = 10 * time.Second

// schedule arranges the next bot move: a bot's turn after a short,
// natural pause; a human's turn when the human is away (no connection), or
// when the table's turn timer runs out. The lock must be held.
func (t *table) schedule(after time.Duration) {
	defer t.tellTimer() // the other processes' clients see the same countdown
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.gen++
	gen := t.gen
	deadline := t.deadline
	t.deadline = time.Time{}
	if t.over() || !t.full() || t.info.Closed || t.inviting() != nil {
		return // play starts when every human seat is taken (and every invited person has come)
	}
	if !t.drives() {
		return // another process drives the table (cluster.go)
	}
	if t.round.held() {
		return // the event is paused (hold keeps the turn timer's time)
	}
	if !t.present() && t.round == nil && !t.info.Rated {
		return // nobody is at the table or watching: it waits for them
	}
	// A rated match plays on without anyone (the stand-ins play the
	// people who left), so that leaving cannot keep it from being rated.
	if t.match.AwaitingDeal() {
		t.scheduleDeal(gen, after)
		return
	}
	if t.waitReading(gen) {
		return // people are reading the last hand's summary (ready.go)
	}
	turn := t.match.State().Turn()
	delay := after
	switch {
	case after > 0:
	case t.bots[turn] != nil:
		delay = t.botDelay()
	case t.seatOnline(turn) == 0:
		delay = t.srv.opts.AwayDelay
	case t.info.TurnTimer > 0 && t.late(turn):
		t.waitLate(gen) // its clock starts when its person closes the summary (ready.go)
		return
	case t.info.TurnTimer > 0:
		// The turn's clock starts once: someone connecting or leaving
		// does not wind it back.
		if deadline.IsZero() || t.deadlineSeq != t.seq {
			deadline, t.deadlineSeq = time.Now().Add(time.Duration(t.info.TurnTimer)*time.Second), t.seq
		}
		t.deadline = deadline
		delay = max(time.Until(deadline), 0)
	default:
		return // a human is there and has all the time in the world
	}
	t.timer = time.AfterFunc(delay, func() { t.botMove(gen) })
}

// botDelay is what is left of a bot's pause before its move: BotDelay
// from when the turn began (turnAt), so that a table whose driver
// changes (a drain, a hand-over) or someone connecting does not wait the
// whole pause again. At most BotDelay, whatever the machines' clocks.
func (t *table) botDelay() time.Duration {
	return min(max(t.srv.opts.BotDelay-time.Since(t.turnAt), 0), t.srv.opts.BotDelay)
}

// movedAt sets turnAt for an action stored at at, perhaps by another
// process (never later than now: the machines' clocks may differ).
func (t *table) movedAt(at time.Time) {
	if now := time.Now(); at.After(now) || at.IsZero() {
		at = now
	}
	t.turnAt = at
}

// botMove plays for the seat to act if nothing has been scheduled since
// gen: not after an action, nor when a player came back while the timer
// fired (every action and every (re)connection schedules afresh).
func (t *table) botMove(gen int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen || t.over() || t.match.AwaitingDeal() || t.srv.closing() || t.round.held() {
		return
	}
	s := t.match.State()
	turn := s.Turn()
	b := t.bots[turn]
	by := ""
	if b == nil { // a human who is away or out of time
		b = t.srv.standIn
		by = "stand-in"
		if t.seatOnline(turn) > 0 {
			by = "timer"
		}
		t.away[turn] = by == "stand-in"
	}
	// Seeded by table and position in the log, so a restarted server's
	// bots decide as the old one's would have.
	rng := pitch.NewRand(t.info.Seed ^ uint64(t.seq+1)*0x9e3779b97f4a7c15)
	a, err := decideSafely(b, s, rng)
	if err != nil {
		t.srv.log.Error("bot failed; playing a random legal action instead", "table", t.id, "seat", turn, "bot", b.Name(), "err", err.Error())
		a = s.RandomAction(rng)
	}
	if err := t.act(context.Background(), turn, a, by); errors.Is(err, store.ErrConflict) {
		// Another process of a cluster stored a move first (a lease that
		// changed hands): expected, and the table has caught up.
		t.srv.log.Info("bot move not needed: another action was taken first", "table", t.id, "seat", turn)
	} else if err != nil {
		t.srv.log.Warn("bot move failed", "table", t.id, "seat", turn, "err", err.Error())
	}
}

// hold stops (pause) or restarts play at the table when its event is
// paused or resumed (tableRound.paused is set first): a turn timer that
// was running keeps the time it had left. The lock must be held.
func (t *table) hold(pause bool) {
	switch {
	case pause && !t.deadline.IsZero() && t.deadlineSeq == t.seq:
		t.heldLeft = max(time.Until(t.deadline), 0)
	case pause:
		t.heldLeft = 0
	case t.heldLeft > 0 && t.deadlineSeq == t.seq:
		t.deadline = time.Now().Add(t.heldLeft)
		t.heldLeft = 0
	}
	t.schedule(0)
	t.broadcast()
}

// touch records activity at the table now. The lock must be held.
func (t *table) touch() { t.active = time.Now() }

// full reports whether every human seat has been taken.
func (t *table) full() bool {
	for _, s := range t.info.Seats {
		if s.Kind == "human" && s.TokenHash == nil {
			return false
		}
	}
	return true
}

// decideSafely asks b for a decision; a bot that panics (a bug) must not
// take the server down, so its panic becomes an error.
func decideSafely(b bot.Bot, s *pitch.State, rng *rand.Rand) (a pitch.Action, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return bot.Decide(b, s, rng), nil
}

// seatFor returns the seat whose token this is, or -1.
func (t *table) seatFor(token string) int {
	if token == "" {
		return -1
	}
	h := sha256.Sum256([]byte(token))
	seat := -1
	for _, s := range t.info.Seats {
		if s.TokenHash != nil && subtle.ConstantTimeCompare(h[:], s.TokenHash) == 1 {
			seat = s.Seat
		}
	}
	return seat
}

// seatOf returns the seat a connection or request may play: the seat of
// token, or with no token the seat the signed-in account me holds (-1 for
// none: a spectator). A seat held by an account is played only with that
// account's session: its token alone, copied elsewhere, gets -1 and the
// reason. The lock must be held.
func (t *table) seatOf(token string, me Account, signedIn bool) (seat int, refused string) {
	if token == "" {
		if signedIn {
			for _, s := range t.info.Seats {
				if s.Account == me.ID {
					return s.Seat, ""
				}
			}
		}
		return -1, ""
	}
	seat = t.seatFor(token)
	if seat < 0 && t.claimed(token) {
		return -1, "" // a takeover pending: it watches until the next hand (playnow.go)
	}
	if seat < 0 {
		return -1, "that token holds no seat at this table"
	}
	if acct := t.info.Seats[seat].Account; acct != "" && (!signedIn || acct != me.ID) {
		return -1, "that seat belongs to an account: sign in to it to play the seat"
	}
	return seat, ""
}

// publish shows the table in the lobby while it has a free seat (or, at
// a play-now table, a bot's seat Play may take over) and is neither
// finished nor closed, and takes it out otherwise. The lock must be held.
func (t *table) publish() {
	info := t.infoJSON()
	t.srv.lobby.set(info, !info.Finished && !info.Closed && (!t.full() || t.botSeatOpen()) && t.listed())
}

// infoJSON is the public description of the table.
func (t *table) infoJSON() tableInfo {
	info := publicInfo(t.info, t.game)
	if t.round != nil {
		info.Event = t.round.ev.id
		if t.round.sharesDeals() {
			info.Deals = len(t.round.shared)
		}
	}
	if info.Hints = t.advice(); !info.Hints && !t.info.NoHints {
		info.AdviceOff = "competition"
	}
	info.Unrated = t.unrated
	if t.round != nil {
		info.RecordsHidden = !access.Decide(access.HandList, access.Viewer{Kind: access.Anonymous}, t.subjectOf()).Allowed
	}
	return info
}

// stateShared is what every seat's state shares at one moment: made
// once for all the connections a change is sent to (broadcast).
type stateShared struct {
	s       *pitch.State      // the hand shown
	summary *wire.HandSummary // the last hand's, its head encoded; nil before
	timer   *wire.Timer       // the turn timer, while one runs
	reading []int             // who is reading the last hand's summary
	readMS  int64             // how long the table still waits for them
	fair    *wire.Fair        // the fair deals, nil without
	over    bool              // play has ended
	full    bool              // every human seat is taken
	invited []int             // the seats invited to this new match, not yet come
	nextBy  *int              // the seat that started the next match
	winner  []int             // the match's winners
	paused  bool              // the event is paused
	// The public views of s and of the last hand (last, nil before the
	// first ends), made once when first needed (view, lastView): each
	// seat's is made from them.
	last              *pitch.State
	pub, lastPub      pitch.View
	havePub, haveLast bool
}

// view is seat's view of the hand shown (State.View), made from the
// public view, which is made once for all the seats (State.SeatView).
func (sh *stateShared) view(seat int) pitch.View {
	if !sh.havePub {
		sh.pub, sh.havePub = sh.s.View(-1), true
	}
	return sh.s.SeatView(&sh.pub, seat)
}

// lastView is view for the last hand, which must have ended.
func (sh *stateShared) lastView(seat int) pitch.View {
	if !sh.haveLast {
		sh.lastPub, sh.haveLast = sh.last.View(-1), true
	}
	return sh.last.SeatView(&sh.lastPub, seat)
}

// shared makes the parts of a state that every seat shares. The lock
// must be held.
func (t *table) shared() *stateShared {
	sh := &stateShared{s: t.match.State(), over: t.over(), full: t.full(), winner: t.match.Winner(), reading: t.readers(), fair: t.fairState(),
		readMS: t.readingLeft().Milliseconds(), invited: t.inviting()}
	if t.roundDone { // the next hand is dealt, but the round is over: show the last
		sh.s = t.match.LastHand()
	}
	if t.tableRaw == nil || t.cacheVer != t.infoVer {
		t.tableRaw, _ = json.Marshal(t.infoJSON())
		t.cacheVer = t.infoVer
	}
	if t.sheetRaw == nil || t.sheetRows != len(t.sheet) {
		sheet := t.sheet
		if sheet == nil {
			sheet = []wire.SheetRow{}
		}
		t.sheetRaw, _ = json.Marshal(sheet)
		t.sheetRows = len(t.sheet)
	}
	if last := t.match.LastHand(); last != nil {
		sh.last = last
		if n := len(t.match.Records()); t.summary == nil || t.summary.Hand != n {
			// Once a hand: it stays the last until the next ends.
			t.summary = wire.Summarize(n, last)
			t.summary.EncodeHead() // unmade on failure: each seat's encoding reports it
		}
		sh.summary = t.summary
	}
	sh.paused = t.round.held() && !sh.over
	if deadline, dseq := t.turnDeadline(); !deadline.IsZero() && dseq == t.seq && !sh.over {
		sh.timer = &wire.Timer{Seat: sh.s.Turn(), LeftMS: max(time.Until(deadline).Milliseconds(), 0), TotalMS: int64(t.info.TurnTimer) * 1000}
	}
	if t.info.Next != "" && t.nextBy > 0 {
		by := t.nextBy - 1
		sh.nextBy = &by
	}
	return sh
}

// stateFor builds what seat (-1: spectator) may see now.
func (t *table) stateFor(seat int) wire.State { return t.stateWith(t.shared(), seat) }

// stateJSON is seat's state (stateFor), encoded: the views written
// straight from the engine's (wire.AppendStateViews), the same bytes.
func (t *table) stateJSON(sh *stateShared, seat int) ([]byte, error) {
	return t.appendStateJSON(nil, sh, seat)
}

// appendStateJSON appends seat's state (stateJSON) to dst.
func (t *table) appendStateJSON(dst []byte, sh *stateShared, seat int) ([]byte, error) {
	if cap(dst)-len(dst) < t.stateCap {
		dst = slices.Grow(dst, t.stateCap)
	}
	m, v, lvp, lastLog := t.stateViews(sh, seat)
	start := len(dst)
	b, err := wire.AppendStateViews(dst, &m, &v, lvp, lastLog)
	if err == nil {
		t.stateCap = len(b) - start + (len(b)-start)/8
	}
	return b, err
}

// stateWith builds what seat (-1: spectator) may see now, with the parts
// every seat shares from sh.
func (t *table) stateWith(sh *stateShared, seat int) wire.State {
	m, lastView := t.stateBase(sh, seat)
	v := sh.view(seat)
	m.View = wire.ToView(&v)
	if m.LastHand != nil {
		summary := *m.LastHand
		m.LastHand = &summary
		if lastView {
			lv := sh.lastView(seat)
			view := wire.ToView(&lv)
			m.LastHand.View, m.LastHand.Log = &view, t.lastLog.For(seat)
		}
	}
	return m
}

// stateViews is seat's state without its views (stateBase), the view of
// the hand in play as seat sees it, and, when the finished hand is shown,
// that hand's view and log as seat saw them (else nil).
func (t *table) stateViews(sh *stateShared, seat int) (m wire.State, v pitch.View, last *pitch.View, lastLog wire.LogJSON) {
	m, lastView := t.stateBase(sh, seat)
	v = sh.view(seat)
	if lastView {
		lv := sh.lastView(seat)
		last, lastLog = &lv, t.lastLog.For(seat)
	}
	return m, v, last, lastLog
}

// stateBase is seat's state without its views: the last hand's summary
// is sh's, shared, and lastView says whether the finished hand is to be
// shown as seat saw it at its end, with its log.
func (t *table) stateBase(sh *stateShared, seat int) (m wire.State, lastView bool) {
	s := sh.s
	m = wire.State{Type: "state", Seat: seat, Table: t.tableRaw, Seq: t.seq, HandNo: len(t.match.Records()) + 1,
		Log: t.log.For(seat), Sheet: t.sheetRaw,
		Over: sh.over, Winner: sh.winner, Away: t.away[:t.game.Seats():t.game.Seats()], Waiting: !sh.full || sh.invited != nil, Invited: sh.invited}
	if sh.over {
		m.HandNo--
		m.Log = t.lastLog.For(seat)
	}
	if last := t.match.LastHand(); last != nil {
		m.LastHand = sh.summary
		// Until the next hand's first move: the finished hand as this
		// seat saw it at its end, to show it as it was.
		lastView = t.log.Len() == 0 || sh.over
	}
	m.Reading = sh.reading
	m.ReadingLeftMS = sh.readMS
	m.Paused = sh.paused
	m.Timer = sh.timer
	m.NextTable = t.info.Next
	m.Ratings = t.ratings
	m.NextBy = sh.nextBy
	m.Fair = sh.fair
	if !sh.over && sh.full && seat >= 0 && s.Turn() == seat { // nothing to do while waiting for players
		switch s.Phase() {
		case pitch.PhaseDiscard, pitch.PhasePassBurn:
			m.Discard = wire.DiscardOf(s)
		default:
			// One buffer for every legal action's JSON.
			var la [pitch.LittleJoker + 1]pitch.Action // on the stack: calls, bids and plays fit
			legal := s.Legal(la[:0])
			buf := make([]byte, 0, 24*len(legal))
			m.Legal = make([]json.RawMessage, 0, len(legal))
			for _, a := range legal {
				start := len(buf)
				var err error
				if buf, err = wire.AppendAction(buf, a); err != nil {
					m.Legal = append(m.Legal, nil) // cannot happen; written null, as before
					buf = buf[:start]
					continue
				}
				m.Legal = append(m.Legal, buf[start:len(buf):len(buf)])
			}
			switch s.Phase() {
			case pitch.PhasePlay:
				m.Refusals = wire.Refusals(s)
			case pitch.PhaseCall, pitch.PhaseTrump:
				m.SuitTrumps = wire.SuitTrumps(t.game, s.Hand(seat))
			}
		}
	}
	return m, lastView
}

// broadcast sends every connection its own state: each seat's state (and
// the spectators') is encoded once, into a pooled buffer, and its bytes
// are shared by the connections that see it; protocol-2 connections get
// what changed for their seat (statedelta.go). The lock must be held.
func (t *table) broadcast() {
	t.announce()
	t.sendStates(nil)
}

// sendStates sends the connections their states (broadcast); with only
// not nil, to only and the protocol-2 connections of its seat alone.
// The lock must be held.
func (t *table) sendStates(only *conn) {
	if len(t.conns) == 0 {
		return
	}
	bc := bcastPool.Get().(*bcast)
	bc.t, bc.sh = t, t.shared()
	defer bc.release()
	for c := range t.conns {
		if only != nil && c != only && (c.proto < wire.ProtocolDeltas || c.seat != only.seat) {
			continue
		}
		if c.proto < wire.ProtocolDeltas {
			if sb := bc.state(c.seat); sb != nil {
				c.queueShared(sb.b, sb)
			}
			continue
		}
		c.sendDelta(t.track(bc, c.seat))
	}
}

func (t *table) logger() *slog.Logger { return t.srv.log.With("table", t.id) }
