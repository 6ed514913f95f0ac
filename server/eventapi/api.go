// Package eventapi is the HTTP side of events of many tables
// (docs/events.md; docs/protocol.md, Events): the /api/events routes —
// create, look, join, find one's seat, leave, the host's start, extend,
// pause, resume, end and close, the director's desk (desk.go), the
// standings as CSV, the join link's QR code (and a table card's), which
// table is table N now, a duplicate deal's results, solo play, the
// WebSocket that follows an event — and a player's events, GET
// /api/users/{name}/events. The
// host's token and each person's token are sent in request bodies, never
// in URLs.
//
// The events themselves (their state, rounds and tables, stored and
// shared between processes) are the runtime's (server/play), reached
// through Runtime and Event.
package eventapi

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"pitch/event"
	"pitch/server/access"
	"pitch/server/eventview"
	"pitch/server/httpx"
	"pitch/store"
)

// Runtime is the event runtime as the API uses it.
type Runtime interface {
	// Event returns the live event id (made live from the store if need
	// be), or a NotFound error (httpx).
	Event(ctx context.Context, id string) (Event, error)
	// Create stores ev as a new event, hosted by the holder of hostToken,
	// and makes it live.
	Create(ctx context.Context, ev *event.Event, hostToken string) (Event, error)
	// View is event id as anyone may see it, without making it live.
	View(ctx context.Context, id string) (eventview.Event, error)
	// HoldTables stops (pause) or restarts play at the tables ids. No
	// event's lock may be held.
	HoldTables(ids []string, pause bool)
	// Follow answers GET /api/events/{id}/ws: a WebSocket following the
	// event, with its updates pushed as they are made.
	Follow(w http.ResponseWriter, r *http.Request)
}

// Event is one live event. Lock and Unlock are its lock; every other
// method but ID, StartTables and SitSolo needs it held.
type Event interface {
	ID() string
	Lock()
	Unlock()
	// Event is its seating, rounds and standings (within Change, the
	// state to change).
	Event() *event.Event
	// Daily reports whether it is a daily event (played from /daily).
	Daily() bool
	// View is the event as anyone may see it; SeatOf where entry sits now.
	View() eventview.Event
	SeatOf(entry int) eventview.MySeat
	// EntryOf returns the entry whose token this is, or -1; IsHost
	// whether it is the host's.
	EntryOf(token string) int
	IsHost(token string) bool
	// Change makes a change and stores it: fn changes the event (Event,
	// AddToken, SetClock) or returns an error to refuse, which comes back
	// as it is with nothing changed. fn may be called again, on the event
	// read afresh.
	Change(ctx context.Context, op string, fn func() error) error
	// Fresh reads the event again from the store if another process has
	// stored a newer version meanwhile (a desk action's refusal must not
	// come from a stale copy).
	Fresh(ctx context.Context) error
	// AddToken records the token of the entry just joined (within Change).
	AddToken(token string)
	// Clock is the last round's clock: when its time is up (zero: none),
	// whether it is paused, the time it had left when paused. SetClock
	// sets it (within Change); SyncClock then gives the tables their
	// clock and returns those whose pause changed, for HoldTables.
	Clock() (endsAt time.Time, paused bool, held time.Duration)
	SetClock(endsAt time.Time, paused bool, held time.Duration)
	SyncClock() []string
	// StartRound seats the next round and stores its tables, which
	// StartTables starts once the lock is let go.
	StartRound(ctx context.Context) ([]*store.Table, error)
	StartTables(ctx context.Context, tables []*store.Table)
	// SitSolo gives entry of a solo event their table, and says where
	// they sit (the lock not held).
	SitSolo(ctx context.Context, entry int) (eventview.MySeat, error)
	// TableID is the ID of table ti of round r (from 0); Commitments are
	// round r's commitments to its shared deals.
	TableID(r, ti int) string
	Commitments(r int) []string
}

// Store is what the API keeps of its own: which events a signed-in
// player joined.
type Store interface {
	httpx.NameTaker // a guest's name may not be an account's
	AddTournamentPlayer(ctx context.Context, account, tournament string, entry int) error
	TournamentsOf(ctx context.Context, account string, limit int) ([]store.TournamentPlayer, error)
}

// Config is what the API needs.
type Config struct {
	Log     *slog.Logger
	Runtime Runtime
	Store   Store
	// Creates limits the tables and events created per address (nil:
	// no limit); TablesPerHour is its rate, for the refusal's message.
	Creates       *httpx.Limiter
	TablesPerHour int
	// Minute is how long one minute of a round's clock lasts (0: a
	// minute), for the tests' rounds on the clock.
	Minute time.Duration
	// Who says whose request r is: its signed-in account's ID and name.
	Who func(r *http.Request) (id, name string, ok bool)
	// ProfileAccount finds the account of a /api/users/{name} request;
	// ok false: it has answered.
	ProfileAccount func(w http.ResponseWriter, r *http.Request, op string) (*store.Account, bool)
}

// API answers the /api/events routes.
type API struct {
	cfg Config
	rt  Runtime
	log *slog.Logger
}

// New returns the events' API.
func New(cfg Config) *API {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &API{cfg: cfg, rt: cfg.Runtime, log: cfg.Log}
}

// Routes lists the routes this part serves, each marked with whether
// it serves table, hand or event data (then its handler asks the
// access policy).
func (a *API) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Post("/api/events", a.handleCreate),
		httpx.GetData("/api/events/{id}", a.handleEvent),
		httpx.PostData("/api/events/{id}/join", a.handleJoin),
		httpx.PostData("/api/events/{id}/me", a.handleMe),
		httpx.PostData("/api/events/{id}/leave", a.handleLeave),
		httpx.PostData("/api/events/{id}/start", a.handleStart),
		httpx.PostData("/api/events/{id}/extend", a.handleExtend),
		httpx.PostData("/api/events/{id}/pause", a.handlePause(true)),
		httpx.PostData("/api/events/{id}/resume", a.handlePause(false)),
		httpx.PostData("/api/events/{id}/end", a.handleEnd),
		httpx.GetData("/api/events/{id}/standings.csv", a.handleCSV),
		httpx.GetData("/api/events/{id}/qr.svg", a.handleQR),
		httpx.PostData("/api/events/{id}/tables/{n}", a.handleTable),
		httpx.PostData("/api/events/{id}/play", a.handlePlay),
		httpx.PostData("/api/events/{id}/close", a.handleClose),
		httpx.GetData("/api/events/{id}/deals/{round}/{deal}", a.handleDeal),
		httpx.PostData("/api/events/{id}/desk", a.handleDesk),
		httpx.PostData("/api/events/{id}/desk/add", a.handleDeskAdd),
		httpx.PostData("/api/events/{id}/desk/rename", a.handleDeskRename),
		httpx.PostData("/api/events/{id}/desk/merge", a.handleDeskMerge),
		httpx.PostData("/api/events/{id}/desk/withdraw", a.handleDeskWithdraw),
		httpx.PostData("/api/events/{id}/desk/adjust", a.handleDeskAdjust),
		httpx.GetData("/api/events/{id}/ws", a.handleFollow),
		httpx.GetData("/api/users/{name}/events", a.handleUserEvents),
	}
}

// writeError logs err (server side detail) and answers with the client's part.
func (a *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(a.log, w, r, err)
}

// minute is how long one minute of a round's clock lasts.
func (a *API) minute() time.Duration {
	if a.cfg.Minute > 0 {
		return a.cfg.Minute
	}
	return time.Minute
}

// tokenReq carries the host's or a person's token, and for the host's
// requests what they act on.
type tokenReq struct {
	Token   string `json:"token"`
	Entry   *int   `json:"entry,omitempty"`   // remove: whom
	Minutes int    `json:"minutes,omitempty"` // extend: by how long
}

// eventFor reads the request's token and returns the event locked: the
// caller must unlock it.
func (a *API) eventFor(w http.ResponseWriter, r *http.Request) (Event, tokenReq, bool) {
	var req tokenReq
	e, ok := a.lockedEvent(w, r, "event", &req)
	return e, req, ok
}

// lockedEvent reads r's body into req and returns the event r's path
// names, locked, once the access policy lets it be seen (op names the
// request); otherwise it answers r and returns false. The caller must
// unlock the event.
func (a *API) lockedEvent(w http.ResponseWriter, r *http.Request, op string, req any) (Event, bool) {
	if err := httpx.Decode(w, r, req); err != nil {
		a.writeError(w, r, err)
		return nil, false
	}
	e, err := a.rt.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeError(w, r, err)
		return nil, false
	}
	e.Lock()
	if !a.allowed(w, r, op, access.EventInfo, e, -1) {
		e.Unlock()
		return nil, false
	}
	return e, true
}

// allowed asks the access policy whether r's viewer may see res of event
// e's round (from 0; -1: the event as a whole) now; when not, it answers
// r with the refusal and returns false. e is locked.
func (a *API) allowed(w http.ResponseWriter, r *http.Request, op string, res access.Resource, e Event, round int) bool {
	d := access.Ask(r.Context(), res, a.viewer(r), access.OfEvent(e.Event(), e.Daily(), round))
	if !d.Allowed {
		a.writeError(w, r, httpx.Refused(op, d))
	}
	return d.Allowed
}

// viewer is who asks, as the access policy knows viewers.
func (a *API) viewer(r *http.Request) access.Viewer {
	id, _, ok := a.cfg.Who(r)
	return access.Signed(id, ok)
}

// handleFollow serves GET /api/events/{id}/ws: following the event over
// a WebSocket (play's), once the policy lets the event be seen.
func (a *API) handleFollow(w http.ResponseWriter, r *http.Request) {
	e, err := a.rt.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.Lock()
	ok := a.allowed(w, r, "follow event", access.EventInfo, e, -1)
	e.Unlock()
	if ok {
		a.rt.Follow(w, r)
	}
}
