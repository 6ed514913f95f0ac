package play

// The next match with the same seats (POST /api/tables/{id}/rematch),
// and the seeds new matches draw.

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"net/http"
	"time"

	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/store"
)

// rematchReq asks for the next match at a finished table.
type rematchReq struct {
	Token string `json:"token"`
}

// handleRematch starts the next match of a finished table with the same
// game, seats and people: the new table copies the seats (and the hashes
// of the players' tokens, so that each keeps its seat), and the old one
// points to it. The others are invited, not moved: the new match waits
// (invited) until each of them accepts, by asking here too or by
// connecting to the new table. Asked again, it answers with the same new
// table (and accepts for the seat that asks).
func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request) {
	const op = "rematch"
	var req rematchReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := s.table(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, op, access.TableInfo, t.id) {
		return
	}
	// One rematch at a time per table, without holding the table's lock
	// over the store (nor over Server.load, which takes the server's).
	t.rematch.Lock()
	defer t.rematch.Unlock()
	t.mu.Lock()
	me, signedIn := s.account(r)
	seat, _ := t.seatOf(req.Token, me, signedIn)
	seated, over, cur := seat >= 0, t.match.Over(), t.info.Next
	info := *t.info
	round := t.round
	t.mu.Unlock()
	if round != nil {
		// An event's host starts its next round; the table has no next
		// match of its own.
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "this table plays a round of an event: there is no next match here; the host starts the next round, and the event's page (/e/%s) shows your next table", round.ev.id).
			With("rematch_event", map[string]any{"Event": round.ev.id}))
		return
	}
	if !seated {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only a player seated at this table may start its next match: send your seat's token").With("rematch_not_seated", nil))
		return
	}
	if !over {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "the match is not over yet: the next one starts when it is").With("rematch_not_over", nil))
		return
	}
	if cur != "" {
		if nt, err := s.table(r.Context(), cur); err == nil {
			nt.mu.Lock()
			nt.accept(seat)
			nt.mu.Unlock()
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]string{"id": cur, "url": "/t/" + cur})
		return
	}
	next := &store.Table{ID: httpx.RandomString(12), Variant: info.Variant, Options: info.Options, Seed: newSeed(), FairDeals: true,
		TurnTimer: info.TurnTimer, Created: time.Now().UTC().Truncate(time.Millisecond), NoHints: info.NoHints,
		Rated: info.Rated} // a rated table's next match is rated too (or says why not: checkPairs)
	for _, st := range info.Seats {
		next.Seats = append(next.Seats, store.Seat{Seat: st.Seat, Kind: st.Kind, Level: st.Level, Name: st.Name, TokenHash: st.TokenHash, Account: st.Account})
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), storeTimeout)
	defer cancel()
	if err := s.store.CreateTable(ctx, next); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if err := s.store.SetNext(ctx, t.id, next.ID); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "another process started the next match: reload the table"))
			return
		}
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	nt, err := s.load(ctx, next) // rated, unless the pair bound says otherwise (checkPairs)
	if err != nil {
		s.writeError(w, r, httpx.Unexpected(op, err))
		return
	}
	nt.mu.Lock()
	nt.invite(seat)
	nt.mu.Unlock()
	t.mu.Lock()
	t.info.Next = next.ID
	t.nextBy = seat + 1
	t.infoVer++
	t.broadcast()
	t.mu.Unlock()
	httpx.WriteJSON(w, http.StatusCreated, map[string]string{"id": next.ID, "url": "/t/" + next.ID})
}

// invite marks, at a new match, the human seats other than by (the seat
// that started it) as invited: play waits until each has accepted. The
// lock must be held.
func (t *table) invite(by int) {
	for _, st := range t.info.Seats {
		if st.Kind == "human" && st.Seat != by && t.seatOnline(st.Seat) == 0 {
			t.invited[st.Seat] = true
		}
	}
	t.schedule(0)
	t.broadcast()
}

// accept records that seat's person has accepted the new match (asked for
// it too, or came to its table): when nobody is left invited, play starts.
// The lock must be held.
func (t *table) accept(seat int) {
	if seat < 0 || seat >= len(t.invited) || !t.invited[seat] {
		return
	}
	t.invited[seat] = false
	t.schedule(0)
	t.broadcast()
}

// inviting lists the seats invited to this new match that have not
// accepted yet, in order; nil for none. The lock must be held.
func (t *table) inviting() []int {
	var out []int
	for s, v := range t.invited {
		if v {
			out = append(out, s)
		}
	}
	return out
}

// newSeed draws a match seed (C-6) from crypto/rand.
func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
