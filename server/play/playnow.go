package play

// Play now (README.md "Play now", docs/protocol.md): one tap seats a
// person at a play-now table of the game, house rules and pace asked
// for — a bot's seat taken over at the next hand boundary, or a new
// table with bots — and a seat a person leaves goes back to a bot at
// once. The choice and the claim are the store's (store.PlayNow), so
// that they hold across processes; the takeover is made by the table's
// driver before it deals the next hand (takeOverClaims).

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"pitch"
	"pitch/bot"
	"pitch/rating"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/server/tableinfo"
	"pitch/store"
)

// paceNames lists the paces, slowest first, for error messages.
const paceNames = "relaxed (60 s a move), normal (30 s) or fast (15 s)"

// playNowLevel is the level of play now's bots, and of the bot that
// takes a seat a person leaves.
const playNowLevel = "medium"

// playTries bounds how many times one Play looks for a seat again after
// losing a race for one (another person took it a moment before).
const playTries = 4

type playReq struct {
	Variant string          `json:"variant"`
	Options json.RawMessage `json:"options"`
	Pace    string          `json:"pace"`
	// Name is a guest's name (a signed-in person plays under their
	// account's); Guest is a guest browser's identity (httpx.ValidGuest),
	// which makes a second Play land in the same seat.
	Name  string `json:"name"`
	Guest string `json:"guest"`
	// Table, when set, is tried first (the lobby's Play at a table): a
	// table of the game, house rules and pace asked for.
	Table string `json:"table"`
	// Rated asks for a rated table (true) or a casual one (false); absent,
	// a signed-in person's Play is rated when the rules allow, a guest's
	// casual (playRated, docs/ratings.md "Play now").
	Rated *bool `json:"rated"`
}

// playResp is where a Play seated the person.
type playResp struct {
	Seat int `json:"seat"`
	// Token plays the seat; absent when a signed-in person is given back
	// a seat they hold (their session plays it).
	Token string `json:"token,omitempty"`
	// Pending: the seat is a bot's until the hand in play ends; the
	// person watches until then.
	Pending bool `json:"pending"`
	// Again: the person held this seat already (a second Play).
	Again bool      `json:"again,omitempty"`
	Table tableInfo `json:"table"`
}

// player is who presses Play: their store.PlaySeat owner, name and
// account, and a guest's browser identity.
type player struct {
	owner, name, guest string
	me                 Account
	signedIn           bool
}

// token is the seat token p plays a seat of table id with: for a guest
// derived from their browser's identity, so that a second Play gives the
// same token back; for an account a random one (its session plays the
// seat anyway).
func (p player) token(id string) string {
	if p.signedIn {
		return httpx.RandomString(32)
	}
	h := sha256.Sum256([]byte("pitch play-now seat\x00" + p.guest + "\x00" + id))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

func (s *Server) handlePlay(w http.ResponseWriter, r *http.Request) {
	const op = "play now"
	var req playReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	g, optJSON, err := parseGame(op, req.Variant, req.Options)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Pace == "" {
		req.Pace = "normal"
	}
	timer, ok := tableinfo.Paces[req.Pace]
	if !ok {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "pace must be %s, not %q", paceNames, req.Pace).With("bad_pace", map[string]any{"Pace": req.Pace}))
		return
	}
	p := player{guest: req.Guest}
	p.me, p.signedIn = s.account(r)
	if p.signedIn {
		p.owner, p.name = "a:"+p.me.ID, p.me.Name
	} else {
		if !httpx.ValidGuest(req.Guest) {
			s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "a guest sends its browser's identity as guest: 16 to 64 letters, digits, - or _").With("bad_guest", nil))
			return
		}
		h := sha256.Sum256([]byte(req.Guest))
		p.owner = "g:" + hex.EncodeToString(h[:])
		name, err := httpx.CleanName(req.Name)
		if err != nil {
			s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
			return
		}
		if err := httpx.GuestName(r.Context(), op, name, s.store); err != nil {
			s.writeError(w, r, err)
			return
		}
		p.name = name
	}
	rated, err := playRated(op, req.Rated, p, g)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Not cut short by a client that goes away: a seat claimed is answered.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), storeTimeout)
	defer cancel()
	for try := range playTries {
		if res, ok, err := s.heldSeat(ctx, p); err != nil {
			s.writeError(w, r, err)
			return
		} else if ok {
			s.writePlay(w, r, http.StatusOK, res)
			return
		}
		tables, err := s.store.PlayNowTables(ctx, g.Variant.String(), optJSON, timer, rated)
		if err != nil {
			s.writeError(w, r, httpx.StoreDown(op, err))
			return
		}
		res, status, raced, err := s.claimAny(ctx, p, tables, req.Table, g.Variant.String())
		if errors.Is(err, store.ErrHeld) {
			continue // another tab's Play landed first: its seat, above
		}
		if status == 0 && raced && err == nil && try+1 < playTries {
			continue // a seat taken a moment ago: its table may have another
		}
		if err != nil {
			s.writeError(w, r, httpx.StoreDown(op, err))
			return
		}
		if status != 0 {
			s.writePlay(w, r, status, res)
			return
		}
		// No seat anywhere: a new table, the person in seat 0 and bots in
		// the others.
		release, ok := s.admitTable(w, r, op)
		if !ok {
			return
		}
		t := &store.Table{ID: httpx.RandomString(12), Variant: g.Variant.String(), Options: optJSON, Seed: newSeed(), FairDeals: true,
			TurnTimer: timer, Created: time.Now().UTC().Truncate(time.Millisecond), PlayNow: true, Rated: rated}
		token := p.token(t.ID)
		h := sha256.Sum256([]byte(token))
		for i := range g.Seats() {
			st := store.Seat{Seat: i, Kind: "bot", Level: playNowLevel}
			if i == 0 {
				st = store.Seat{Seat: 0, Kind: "human", Name: p.name, TokenHash: h[:], Account: p.me.ID}
			}
			t.Seats = append(t.Seats, st)
		}
		err = s.store.CreatePlayNow(ctx, t, p.owner, 0)
		if errors.Is(err, store.ErrHeld) {
			release()
			continue
		}
		if err != nil {
			release()
			s.writeError(w, r, httpx.StoreDown(op, err))
			return
		}
		lt, err := s.load(ctx, t)
		release()
		if err != nil {
			s.writeError(w, r, httpx.Unexpected(op, err))
			return
		}
		lt.mu.Lock()
		info := lt.infoJSON()
		lt.mu.Unlock()
		s.writePlay(w, r, http.StatusCreated, playResp{Seat: 0, Token: token, Table: info})
		return
	}
	s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "every seat you tried was taken a moment before you: press Play again").With("play_busy", nil))
}

// writePlay writes where a Play seated the person, as the access policy
// allows (a play-now table's description is anyone's).
func (s *Server) writePlay(w http.ResponseWriter, r *http.Request, status int, res playResp) {
	if s.allowed(w, r, "play now", access.TableInfo, res.Table.ID) {
		httpx.WriteJSON(w, status, res)
	}
}

// heldSeat answers a Play by p who holds a play-now seat already (or a
// pending takeover of one): that seat again.
func (s *Server) heldSeat(ctx context.Context, p player) (playResp, bool, error) {
	const op = "play now"
	h, err := s.store.PlayNowHeld(ctx, p.owner)
	if errors.Is(err, store.ErrNotFound) {
		return playResp{}, false, nil
	}
	if err != nil {
		return playResp{}, false, httpx.StoreDown(op, err)
	}
	t, err := s.table(ctx, h.Table)
	if err != nil {
		return playResp{}, false, err
	}
	if err := s.refresh(ctx, t, true); err != nil { // a claim made at another process a moment ago
		return playResp{}, false, httpx.StoreDown(op, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if h.Seat < 0 || h.Seat >= len(t.info.Seats) {
		return playResp{}, false, httpx.Unexpected(op, fmt.Errorf("table %s has no seat %d", t.id, h.Seat))
	}
	st := t.info.Seats[h.Seat]
	res := playResp{Seat: h.Seat, Again: true}
	if !p.signedIn {
		res.Token = p.token(t.id)
	}
	ours := func(hash []byte, account string) bool {
		if p.signedIn {
			return account == p.me.ID
		}
		th := sha256.Sum256([]byte(res.Token))
		return string(hash) == string(th[:])
	}
	switch {
	case st.Kind == "human" && ours(st.TokenHash, st.Account):
	case st.Claim != nil && ours(st.Claim.TokenHash, st.Claim.Account):
		res.Pending = true
	default:
		return playResp{}, false, httpx.Errorf(httpx.Conflict, op, "your play-now seat at table %s is no longer yours: leave it there first", t.id).With("play_held", map[string]any{"Table": t.id})
	}
	res.Table = t.infoJSON()
	return res, true, nil
}

// claimAny claims a seat for p at the best of tables (playChoice, then
// byRating; table prefer first), trying the next when another person wins a race for
// one. A status of 0 means that no table had a seat (raced: because
// another person took one a moment before); store.ErrHeld that p holds
// one already.
func (s *Server) claimAny(ctx context.Context, p player, tables []*store.Table, prefer, variant string) (res playResp, status int, raced bool, err error) {
	choice := s.byRating(ctx, p, variant, playChoice(tables))
	slices.SortStableFunc(choice, func(a, b candidate) int {
		return boolInt(b.table.ID == prefer) - boolInt(a.table.ID == prefer)
	})
	for _, c := range choice {
		token := p.token(c.table.ID)
		h := sha256.Sum256([]byte(token))
		pending, err := s.store.ClaimPlayNow(ctx, store.PlaySeat{Table: c.table.ID, Seat: c.seat, Name: p.name, TokenHash: h[:], Account: p.me.ID, Owner: p.owner})
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
			raced = true
			continue // taken, or the table ended, a moment ago
		}
		if err != nil {
			return playResp{}, 0, false, err
		}
		t, err := s.table(ctx, c.table.ID)
		if err != nil {
			return playResp{}, 0, false, err
		}
		_ = s.refresh(ctx, t, true) // it logs; the driver hears of the claim by its note
		t.mu.Lock()
		info := t.infoJSON()
		t.mu.Unlock()
		return playResp{Seat: c.seat, Token: token, Pending: pending, Table: info}, http.StatusOK, false, nil
	}
	return playResp{}, 0, raced, nil
}

// candidate is a seat play now may claim.
type candidate struct {
	table *store.Table
	seat  int
}

// playChoice orders the seats a Play may take: a person's free seat
// first (a table waiting for players), then a bot's seat nobody claims
// at the table with the most people (seated or coming), older tables
// first among equals. Tables with nobody are left out: nobody would see
// the bots finish the hand the person waits for.
func playChoice(tables []*store.Table) []candidate {
	type ranked struct {
		candidate
		free, people int
	}
	var list []ranked
	for _, t := range tables {
		people, free, botSeat := 0, -1, -1
		for _, st := range t.Seats {
			switch {
			case st.Kind == "human" && st.TokenHash != nil, st.Claim != nil:
				people++
			case st.Kind == "human" && free < 0:
				free = st.Seat
			case st.Kind == "bot" && botSeat < 0:
				botSeat = st.Seat
			}
		}
		switch {
		case free >= 0:
			list = append(list, ranked{candidate{t, free}, 1, people})
		case botSeat >= 0 && people > 0:
			list = append(list, ranked{candidate{t, botSeat}, 0, people})
		}
	}
	slices.SortStableFunc(list, func(a, b ranked) int {
		if a.free != b.free {
			return b.free - a.free
		}
		return b.people - a.people
	})
	out := make([]candidate, len(list))
	for i, c := range list {
		out[i] = c.candidate
	}
	return out
}

// takeOverClaims makes the pending takeovers of a play-now table its
// seats' holders, before the awaited hand is dealt (only its driver
// does): the store first, then the table, and everyone is told. A
// failure is logged and the claims wait for the next boundary. The lock
// must be held.
func (t *table) takeOverClaims() {
	if !t.info.PlayNow || !t.drives() || !t.match.AwaitingDeal() || t.over() ||
		!slices.ContainsFunc(t.info.Seats, func(st store.Seat) bool { return st.Claim != nil }) {
		return
	}
	scores := t.match.State().Scores()
	marks := make([]store.TookOver, len(t.info.Seats))
	for i := range marks {
		marks[i] = store.TookOver{Bot: tableinfo.BotNumber(t.info, i), Score: scores[i]}
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	hand := t.fairHand()
	taken, err := t.srv.store.TakeOverSeats(ctx, t.id, hand, marks)
	if err != nil {
		t.logger().Warn("play now: takeover not stored; tried again at the next hand", "err", err.Error())
		return
	}
	for i := range t.info.Seats {
		st := &t.info.Seats[i]
		if st.Claim == nil {
			continue
		}
		c := st.Claim
		st.Claim = nil
		if !slices.Contains(taken, i) {
			continue
		}
		m := marks[i]
		m.Hand = hand
		st.Kind, st.Level, st.Name, st.TokenHash, st.Account, st.TookOver = "human", "", c.Name, c.TokenHash, c.Account, &m
		addHolder(st, store.Holder{Hand: hand, Kind: "human", Name: c.Name, Account: c.Account})
		t.seatTaken(i)
	}
	t.infoVer++
	t.publish()
	t.broadcast()
}

// seatTaken makes seat a person's at the table in memory (its bot gone)
// and seats the connections here that waited for it. The lock must be
// held.
func (t *table) seatTaken(seat int) {
	st := t.info.Seats[seat]
	t.bots[seat] = nil
	t.away[seat] = false
	for c, w := range t.waiting {
		if _, ok := t.conns[c]; !ok {
			delete(t.waiting, c)
			continue
		}
		if w.hash != nil && string(w.hash) == string(st.TokenHash) || w.account != "" && w.account == st.Account {
			delete(t.waiting, c)
			c.seat = seat
			t.online[seat]++
		}
	}
	t.presenceChanged()
}

// seatLeft gives seat to a bot at the table in memory: its connections
// watch from now on. The lock must be held.
func (t *table) seatLeft(seat int) {
	st := &t.info.Seats[seat]
	st.Kind, st.Level, st.Name, st.TokenHash, st.Account, st.TookOver = "bot", playNowLevel, "", nil, "", nil
	t.bots[seat], _ = bot.New(playNowLevel)
	t.away[seat] = false
	t.read.seats[seat] = false
	for c := range t.conns {
		if c.seat == seat {
			c.seat = -1
			t.online[seat]--
		}
	}
	t.presenceChanged()
}

// waiter is a connection that holds a pending takeover: it watches until
// the seat is its own (seatTaken).
type waiter struct {
	hash    []byte
	account string
}

// noteWaiting remembers spectator connection c when its hello's token
// (or its account) holds a pending takeover at the table. The lock must
// be held.
func (t *table) noteWaiting(c *conn, token string, me Account, signedIn bool) {
	if c.seat >= 0 || !t.info.PlayNow {
		return
	}
	var w waiter
	if token != "" {
		h := sha256.Sum256([]byte(token))
		w.hash = h[:]
	}
	if signedIn {
		w.account = me.ID
	}
	for _, st := range t.info.Seats {
		if cl := st.Claim; cl != nil && (w.hash != nil && string(cl.TokenHash) == string(w.hash) || w.account != "" && cl.Account == w.account) {
			if t.waiting == nil {
				t.waiting = map[*conn]waiter{}
			}
			for o := range t.waiting { // the connections gone since
				if _, ok := t.conns[o]; !ok {
					delete(t.waiting, o)
				}
			}
			t.waiting[c] = w
			return
		}
	}
}

// claimed reports whether token holds a pending takeover at the table.
// The lock must be held.
func (t *table) claimed(token string) bool {
	if token == "" {
		return false
	}
	h := sha256.Sum256([]byte(token))
	return slices.ContainsFunc(t.info.Seats, func(st store.Seat) bool { return st.Claim != nil && string(st.Claim.TokenHash) == string(h[:]) })
}

// syncPlayNow brings the seats of the table in memory to fresh, as
// stored (a claim, takeover or leave at another process, or by this
// one's driver), and reports whether anything changed. The lock must be
// held.
func (t *table) syncPlayNow(fresh *store.Table) bool {
	if !fresh.PlayNow || len(fresh.Seats) != len(t.info.Seats) {
		return false
	}
	changed := false
	for i, st := range fresh.Seats {
		old := &t.info.Seats[i]
		if st.Kind != old.Kind || string(st.TokenHash) != string(old.TokenHash) {
			if old.Kind == "human" && old.TokenHash != nil {
				t.seatLeft(i) // its holder's connections here watch from now on
			}
			*old = st
			if st.Kind == "bot" {
				t.bots[i], _ = bot.New(st.Level)
			} else {
				t.seatTaken(i)
			}
			changed = true
			continue
		}
		if !sameClaim(st.Claim, old.Claim) || (st.TookOver == nil) != (old.TookOver == nil) || st.TookOver != nil && *st.TookOver != *old.TookOver ||
			!slices.Equal(st.Holders, old.Holders) {
			old.Claim, old.TookOver, old.Holders = st.Claim, st.TookOver, st.Holders
			changed = true
		}
	}
	return changed
}

// addHolder makes h the holder of seat st from h.Hand on, as the store
// does (store.PlayNow.LeaveSeat): it replaces a holder from the same
// hand, who played none of it.
func addHolder(st *store.Seat, h store.Holder) {
	if n := len(st.Holders); n > 0 && st.Holders[n-1].Hand == h.Hand {
		st.Holders = st.Holders[:n-1]
	}
	st.Holders = append(st.Holders, h)
}

// sameClaim reports whether two claims are the same person's.
func sameClaim(a, b *store.Claim) bool {
	if a == nil || b == nil {
		return a == b
	}
	return string(a.TokenHash) == string(b.TokenHash) && a.Name == b.Name && a.Account == b.Account
}

type leaveReq struct {
	Token string `json:"token"`
}

// handleLeave gives the seat (or pending takeover) of the person asking
// at a play-now table back to a bot at once: the table plays on.
func (s *Server) handleLeave(w http.ResponseWriter, r *http.Request) {
	const op = "leave"
	t, err := s.table(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req leaveReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	me, signedIn := s.account(r)
	if s.cl != nil {
		_ = s.refresh(r.Context(), t, true) // a seat taken over at another process a moment ago
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), storeTimeout)
	defer cancel()
	if !s.allowed(w, r, op, access.TableInfo, t.id) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.info.PlayNow {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "only a play-now table's seats go back to a bot: this table keeps your seat for you").With("not_play_now", nil))
		return
	}
	seat, refused := t.seatOf(req.Token, me, signedIn)
	var hash []byte
	if seat >= 0 {
		hash = t.info.Seats[seat].TokenHash
	} else {
		h := sha256.Sum256([]byte(req.Token))
		for _, st := range t.info.Seats {
			if c := st.Claim; c != nil && (req.Token != "" && string(c.TokenHash) == string(h[:]) || signedIn && c.Account == me.ID) {
				seat, hash, refused = st.Seat, c.TokenHash, ""
			}
		}
	}
	if seat < 0 {
		if refused == "" {
			refused = "you hold no seat at this table"
		}
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "%s", refused).With("no_seat", nil))
		return
	}
	botHand := t.leaveHand()
	if err := s.store.LeaveSeat(ctx, t.id, seat, hash, playNowLevel, botHand); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "the seat changed hands a moment ago: it is not yours to leave").With("seat_changed", nil))
		} else {
			s.writeError(w, r, httpx.StoreDown(op, err))
		}
		return
	}
	if st := &t.info.Seats[seat]; st.Claim != nil && string(st.Claim.TokenHash) == string(hash) {
		st.Claim = nil // a pending takeover withdrawn
	} else {
		t.seatLeft(seat)
		addHolder(&t.info.Seats[seat], store.Holder{Hand: botHand, Kind: "bot"})
	}
	t.infoVer++
	t.touch()
	t.publish()
	t.schedule(0) // a bot plays the seat at once
	t.broadcast()
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"seat": seat, "table": t.infoJSON()})
}

// botSeatOpen reports whether Play may take over a bot's seat here: a
// play-now table with a person at it and a bot's seat nobody claims.
// The lock must be held.
func (t *table) botSeatOpen() bool {
	return t.info.PlayNow && len(playChoice([]*store.Table{t.info})) > 0
}

// playingCount is how many people play each game now, counted at most
// once every playingEvery (the lobby is asked often).
type playingCount struct {
	mu sync.Mutex
	at time.Time
	by map[string]int
}

// playingEvery is how old the lobby's count of people playing may be.
const playingEvery = time.Second

// playing counts the people playing each game now: seats of people at
// tables in play, neither finished nor closed, with a connection open
// (here, or at another process of a cluster, as far as this one knows:
// it hears of the others' connections to the tables it drives).
func (s *Server) playing() map[string]int {
	c := &s.playingNow
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by != nil && time.Since(c.at) < playingEvery {
		return c.by
	}
	by := map[string]int{}
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		by[v.String()] = 0
	}
	for _, t := range s.tableList() {
		t.mu.Lock()
		if !t.info.Finished && !t.info.Closed && !t.over() {
			for _, st := range t.info.Seats {
				if st.Kind == "human" && st.TokenHash != nil && t.seatOnline(st.Seat) > 0 {
					by[t.info.Variant]++
				}
			}
		}
		t.mu.Unlock()
	}
	c.by, c.at = by, time.Now()
	return by
}

// boolInt is 1 for true, 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Rating bands (docs/ratings.md's shown ratings): a signed-in person's
// Play prefers tables whose accounts' mean rating is within the band of
// theirs, bandBase at first, widening by bandPerMinute for each minute
// the table has been open (a table nobody near its rating joins opens
// to everyone as it waits). Guests, and tables with no account, have no
// rating: they come after the tables in the band.
const (
	bandBase      = 200
	bandPerMinute = 100
	// bandTables bounds how many candidate tables' ratings one Play reads.
	bandTables = 20
)

// band is the rating band of a table open for age.
func band(age time.Duration) int { return bandBase + bandPerMinute*int(max(age, 0)/time.Minute) }

// byRating orders choice for p: the tables in p's rating band first, the
// rest as they were. Guests' choice is left as it is.
func (s *Server) byRating(ctx context.Context, p player, variant string, choice []candidate) []candidate {
	if !p.signedIn || len(choice) < 2 {
		return choice
	}
	cache := map[string]int{}
	shown := func(id string) (int, error) {
		if r, ok := cache[id]; ok {
			return r, nil
		}
		r := rating.Shown(rating.Default().New())
		list, err := s.store.PlayerRatings(ctx, id)
		if err != nil {
			return 0, err
		}
		for _, pr := range list {
			if pr.Variant == variant {
				r = rating.Shown(pr.Rating)
			}
		}
		cache[id] = r
		return r, nil
	}
	mine, err := shown(p.me.ID)
	if err != nil {
		s.log.Warn("play now: reading a rating; seating without the band", "err", err.Error())
		return choice
	}
	in := make([]bool, len(choice))
	for i, c := range choice[:min(len(choice), bandTables)] {
		sum, n := 0, 0
		for _, st := range c.table.Seats {
			for _, acct := range []string{st.Account, claimAccount(st.Claim)} {
				if acct == "" {
					continue
				}
				r, err := shown(acct)
				if err != nil {
					return choice
				}
				sum, n = sum+r, n+1
			}
		}
		if n > 0 {
			mean := sum / n
			in[i] = max(mean-mine, mine-mean) <= band(time.Since(c.table.Created))
		}
	}
	out := make([]candidate, 0, len(choice))
	for pass := range 2 {
		for i, c := range choice {
			if in[i] == (pass == 0) {
				out = append(out, c)
			}
		}
	}
	return out
}

// claimAccount is the account of a claim, "" for none or a guest's.
func claimAccount(c *store.Claim) string {
	if c == nil {
		return ""
	}
	return c.Account
}
