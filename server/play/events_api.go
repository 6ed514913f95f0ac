package play

import (
	"context"
	"net/http"
	"time"

	"pitch/event"
	"pitch/server/eventview"
	"pitch/server/httpx"
	"pitch/store"
)

// The event runtime as its HTTP side uses it (server/eventapi: the
// /api/events routes; server/daily: the /api/daily routes). Those
// packages define the small interfaces they need; server/server.go
// fills them from what this file exports: a live event's handle (Event)
// and the few operations of the server on events.

// Event is a live event as the HTTP side handles it. Lock and Unlock are
// its lock; every other method but ID, StartTables and SitSolo needs it
// held.
type Event struct {
	s *Server
	e *liveEvent
}

// Event returns the live event id, made live from the store if need be,
// or a NotFound error (httpx).
func (s *Server) Event(ctx context.Context, id string) (*Event, error) {
	e, err := s.event(ctx, id)
	if err != nil {
		return nil, err
	}
	return &Event{s: s, e: e}, nil
}

// CreateEvent stores ev as a new event, hosted by the holder of
// hostToken, and makes it live.
func (s *Server) CreateEvent(ctx context.Context, ev *event.Event, hostToken string) (*Event, error) {
	const op = "create event"
	e := &liveEvent{id: httpx.RandomString(12), d: eventData{Event: ev, Host: tokenHash(hostToken), Token: [][]byte{}, Tables: [][]string{},
		Started: []time.Time{}, EndsAt: []time.Time{}}}
	data := e.snapshot()
	e.rec = &store.Tournament{ID: e.id, Data: data, Created: time.Now().UTC().Truncate(time.Millisecond)}
	if err := s.store.CreateTournament(ctx, e.rec); err != nil {
		return nil, httpx.StoreDown(op, err)
	}
	s.register(e)
	return &Event{s: s, e: e}, nil
}

// OpenDaily makes the daily event id of day (2026-03-01), whose event is
// ev (solo duplicate), created at created, and opens its round (its
// commitments drawn and stored before anyone sees it). When another
// request or process made it meanwhile, theirs is returned.
func (s *Server) OpenDaily(ctx context.Context, id string, ev *event.Event, day string, created time.Time) (*Event, error) {
	const op = "daily"
	e := &liveEvent{id: id, d: eventData{Event: ev, Token: [][]byte{}, Tables: [][]string{}, Started: []time.Time{}, EndsAt: []time.Time{},
		Daily: &dailyData{Day: day, Owner: []string{}}}}
	e.rec = &store.Tournament{ID: e.id, Data: e.snapshot(), Created: created.Truncate(time.Millisecond)}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := s.store.CreateTournament(ctx, e.rec); err != nil {
		// Made by another request or process meanwhile: use theirs.
		if e2, err2 := s.event(ctx, e.id); err2 == nil {
			return &Event{s: s, e: e2}, nil
		}
		return nil, httpx.StoreDown(op, err)
	}
	// startRound registers it.
	if _, _, err := s.startRound(ctx, e); err != nil {
		return nil, err
	}
	return &Event{s: s, e: e}, nil
}

// EventView is event id as anyone may see it: the live event's, or else
// read from the store without making it live.
func (s *Server) EventView(ctx context.Context, id string) (eventview.Event, error) {
	return s.eventView(ctx, id)
}

// HoldTables stops (pause) or restarts play at the tables ids held here,
// after their event's pause, resume or end. No event lock may be held.
func (s *Server) HoldTables(ids []string, pause bool) { s.holdTables(ids, pause) }

// FollowEvent answers GET /api/events/{id}/ws: a WebSocket following the
// event (eventws.go).
func (s *Server) FollowEvent(w http.ResponseWriter, r *http.Request) { s.handleEventWS(w, r) }

// Creates is the limit of tables and events created per address (nil:
// none), shared by every part that creates them.
func (s *Server) Creates() *httpx.Limiter { return s.creates }

// ID is the event's ID.
func (h *Event) ID() string { return h.e.id }

// Lock takes the event's lock.
func (h *Event) Lock() { h.e.mu.Lock() }

// Unlock lets the event's lock go.
func (h *Event) Unlock() { h.e.mu.Unlock() }

// Event is the event's seating, rounds and standings; within Change, the
// state fn may change.
func (h *Event) Event() *event.Event { return h.e.d.Event }

// Daily reports whether it is a daily event (played from /daily).
func (h *Event) Daily() bool { return h.e.d.Daily != nil }

// View is the event as anyone may see it.
func (h *Event) View() eventview.Event { return h.e.view() }

// SeatOf says where entry sits now, with their seat's token.
func (h *Event) SeatOf(entry int) eventview.MySeat { return h.e.seatOf(entry) }

// EntryOf returns the entry whose token this is, or -1.
func (h *Event) EntryOf(token string) int { return h.e.entryOf(token) }

// IsHost reports whether token is the host's.
func (h *Event) IsHost(token string) bool { return h.e.isHost(token) }

// Change makes a change and stores it (eventcluster.go, change): fn
// changes the event (Event, AddToken, AddOwner, SetClock), or returns an
// error to refuse, which comes back as it is with nothing changed. fn may
// be called again on the event read afresh when another process changed
// it meanwhile.
func (h *Event) Change(ctx context.Context, op string, fn func() error) error {
	return h.s.change(ctx, h.e, op, fn)
}

// Fresh reads the event from the store when another process has stored
// a newer version than this one holds (a note not yet here), so that a
// check made before Change (the director's desk's) sees every change
// made so far. The lock must be held.
func (h *Event) Fresh(ctx context.Context) error {
	if err := h.s.reload(ctx, h.e); err != nil {
		return httpx.StoreDown("event", err)
	}
	return nil
}

// AddToken records the token of the entry just joined. Within Change.
func (h *Event) AddToken(token string) { h.e.d.Token = append(h.e.d.Token, tokenHash(token)) }

// OwnerEntry returns the entry of a daily event's owner, or -1.
func (h *Event) OwnerEntry(owner string) int { return h.e.ownerEntry(owner) }

// AddOwner records the owner of the daily event's entry just joined,
// with a token of the server's (the seat's token is the server's to
// give). Within Change.
func (h *Event) AddOwner(owner string) {
	h.e.d.Token = append(h.e.d.Token, tokenHash(httpx.RandomString(32)))
	h.e.d.Daily.Owner = append(h.e.d.Daily.Owner, owner)
}

// Clock is the clock of the round in progress, or of the last round:
// when its time is up (zero: no clock, or no round), whether the host
// paused it, and the time it had left when paused.
func (h *Event) Clock() (endsAt time.Time, paused bool, held time.Duration) {
	d := &h.e.d
	if n := len(d.Event.Rounds); n > 0 && n <= len(d.EndsAt) {
		endsAt = d.EndsAt[n-1]
	}
	return endsAt, d.Paused, d.Held
}

// SetClock sets what Clock says. Within Change; SyncClock then tells the
// tables.
func (h *Event) SetClock(endsAt time.Time, paused bool, held time.Duration) {
	d := &h.e.d
	if n := len(d.Event.Rounds); n > 0 && n <= len(d.EndsAt) {
		d.EndsAt[n-1] = endsAt
	}
	d.Paused, d.Held = paused, held
}

// SyncClock gives every table of the event its clock and pause, and
// returns the tables whose pause changed (for HoldTables, once the lock
// is let go).
func (h *Event) SyncClock() []string {
	ids, _ := h.e.syncRefs()
	return ids
}

// StartRound seats the event's next round and stores its tables; they
// are started with StartTables once the lock is let go.
func (h *Event) StartRound(ctx context.Context) ([]*store.Table, error) {
	infos, _, err := h.s.startRound(ctx, h.e)
	return infos, err
}

// StartTables starts the tables of a round StartRound began. The lock
// must not be held.
func (h *Event) StartTables(ctx context.Context, tables []*store.Table) {
	h.s.startTables(ctx, h.e, tables)
}

// SitSolo gives entry of a solo event their table, made, stored and
// started, and says where they sit. The lock must not be held.
func (h *Event) SitSolo(ctx context.Context, entry int) (eventview.MySeat, error) {
	return h.s.sitSolo(ctx, h.e, entry)
}

// TableID is the ID of table ti (from 0) of round r (from 0).
func (h *Event) TableID(r, ti int) string { return h.e.d.Tables[r][ti] }

// Commitments are the commitments of round r's shared deals, in order
// (nil when it has none).
func (h *Event) Commitments(r int) []string { return h.e.commitments(r) }

// SeatToken is the token of entry's seat at table (an ID) of the event.
func (h *Event) SeatToken(entry int, table string, seat int) string {
	return seatToken(h.e.d.Token[entry], table, seat)
}
