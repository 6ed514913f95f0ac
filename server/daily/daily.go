// Package daily is the daily deals (docs/events.md, Daily deals): each
// day (UTC) the server opens one solo duplicate event per game, of Deals
// deals with Bots at the other seats. Anyone may play it once that day:
// a signed-in player by account, a guest by the random identity its
// browser keeps (pitch.daily.guest). The event's ID is the day and the
// game's (daily-20260301-ten-point), so every process finds the same
// one; its round, and so its commitments, is opened when the event is
// made, before anyone can play it. At the end of the day it is closed:
// once its tables have finished, each deal's page shows how the field
// played.
//
// This package answers the /api/daily routes and GET
// /api/users/{name}/daily, and finds or opens each day's events; the
// events themselves are the runtime's (server/play), reached through
// Runtime and Event.
package daily

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"pitch/event"
	"pitch/server/eventview"
	"pitch/server/httpx"
	"pitch/store"
)

// The daily events' defaults (Config.Deals, Bots).
const (
	DefaultDeals = 8
	// DefaultBots: expert (median 9–21 ms a decision, p99 under
	// 250 ms, docs/bots.md); a daily table has one person, who thinks far
	// longer than its bots, so their cost is small.
	DefaultBots = "expert"
	past        = 14 // the past days /api/daily lists
	profileDays = 30 // the days of daily results on a profile
)

// games are the games of the daily events, in order.
var games = []string{"ten-point", "auction", "pawnee"}

// Runtime is the event runtime as the daily deals use it.
type Runtime interface {
	// Event returns the live event id (made live from the store if need
	// be), or a NotFound error (httpx).
	Event(ctx context.Context, id string) (Event, error)
	// OpenDaily makes the daily event id of day (2026-03-01), whose
	// event is ev, created at created, and opens its round; one made by
	// another request or process meanwhile is returned instead.
	OpenDaily(ctx context.Context, id string, ev *event.Event, day string, created time.Time) (Event, error)
}

// Event is one live daily event. Lock and Unlock are its lock; every
// other method but ID and SitSolo needs it held.
type Event interface {
	ID() string
	Lock()
	Unlock()
	// Event is its seating and standings (within Change, the state to
	// change).
	Event() *event.Event
	// Change makes a change and stores it: fn changes the event (Event,
	// AddOwner) or returns an error to refuse, which comes back as it is
	// with nothing changed. fn may be called again, on the event read
	// afresh.
	Change(ctx context.Context, op string, fn func() error) error
	// OwnerEntry returns the entry of owner, or -1; AddOwner records the
	// owner of the entry just joined (within Change).
	OwnerEntry(owner string) int
	AddOwner(owner string)
	// SitSolo gives entry their table, and says where they sit (the lock
	// not held).
	SitSolo(ctx context.Context, entry int) (eventview.MySeat, error)
	// TableID is the ID of table ti of round r (from 0); Commitments are
	// round r's commitments to its deals; SeatToken is the token of
	// entry's seat at table.
	TableID(r, ti int) string
	Commitments(r int) []string
	SeatToken(entry int, table string, seat int) string
}

// Config is what the daily deals need.
type Config struct {
	Log     *slog.Logger
	Runtime Runtime
	// Deals and Bots are the deals and the bots' level of the daily
	// events (defaults DefaultDeals, DefaultBots).
	Deals int
	Bots  string
	// Clock is the time of day the daily events follow; nil: time.Now.
	Clock func() time.Time
	// Who says whose request r is: its signed-in account's ID and name.
	Who func(r *http.Request) (id, name string, ok bool)
	// Names says whether a guest's name is an account's (or looks like
	// one): a guest may not play under it. Nil: any name.
	Names httpx.NameTaker
	// ProfileAccount finds the account of a /api/users/{name} request;
	// ok false: it has answered.
	ProfileAccount func(w http.ResponseWriter, r *http.Request, op string) (*store.Account, bool)
	// Held returns the IDs of the events whose data holds owner
	// (store.Store.TournamentsHolding), for AccountResults; nil: none.
	Held func(ctx context.Context, owner string) ([]string, error)
	// HandsPlayed returns how many hands table has finished (the
	// person's progress through the day's deals, meJSON.Deal); nil: the
	// progress is not told.
	HandsPlayed func(ctx context.Context, table string) (int, error)
}

// Daily answers the daily deals' routes.
type Daily struct {
	cfg Config
	rt  Runtime
	log *slog.Logger

	mu   sync.Mutex      // finding or opening a daily event
	none map[string]bool // past daily events' IDs known not to exist; mu guards it
	// guests limits the guests' plays per address (GuestPlaysPerHour).
	guests *httpx.Limiter
}

// New returns the daily deals.
func New(cfg Config) *Daily {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Deals <= 0 {
		cfg.Deals = DefaultDeals
	}
	if cfg.Bots == "" {
		cfg.Bots = DefaultBots
	}
	return &Daily{cfg: cfg, rt: cfg.Runtime, log: cfg.Log, guests: httpx.NewLimiter(GuestPlaysPerHour/3600.0, GuestPlaysPerHour)}
}

// Routes lists the routes this part serves, each marked with whether
// it serves table, hand or event data (then its handler asks the
// access policy).
func (d *Daily) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.GetData("/api/daily", d.handleDaily),
		httpx.PostData("/api/daily/{game}/play", d.handlePlay),
		httpx.PostData("/api/daily/{game}/me", d.handleMe),
		httpx.GetData("/api/users/{name}/daily", d.handleUserDaily),
	}
}

// writeError logs err (server side detail) and answers with the client's part.
func (d *Daily) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(d.log, w, r, err)
}

// errUnchanged: a change finds it is made already (at another process,
// say): nothing to store.
var errUnchanged = errors.New("made already")

// now is the daily events' clock (Config.Clock, for the tests' days).
func (d *Daily) now() time.Time {
	if d.cfg.Clock != nil {
		return d.cfg.Clock().UTC()
	}
	return time.Now().UTC()
}

// today is the start of the day (UTC) now.
func (d *Daily) today() time.Time {
	n := d.now()
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
}

// eventID is the ID of day's daily event of variant.
func eventID(day time.Time, variant string) string {
	return "daily-" + day.Format("20060102") + "-" + variant
}

// settings are the settings of a daily event of variant: one round of
// the deals, solo, against the daily bots; a target no deal can reach,
// so that every table plays every deal (a moon may still end a
// ten-point match).
func (d *Daily) settings(variant string) event.Settings {
	opts := map[string]json.RawMessage{"target": json.RawMessage("10000")}
	if variant == "auction" {
		opts["players"] = json.RawMessage("4")
	}
	return event.Settings{Variant: variant, Options: opts, Rounds: 1, End: event.EndHands, Hands: d.cfg.Deals, Movement: event.Duplicate, Solo: true,
		Bots: d.cfg.Bots}
}

// event returns day's daily event of variant, made and opened (its
// commitments drawn) when open is set and it does not exist yet; else
// a NotFound error. A day that is over is closed.
func (d *Daily) event(ctx context.Context, day time.Time, variant string, open bool) (Event, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := eventID(day, variant)
	past := day.Before(d.today())
	if past && d.none[id] {
		// A past day without its event never gets one: only today's are made.
		return nil, httpx.Errorf(httpx.NotFound, "daily", "no daily event %q", id).With("no_event", nil)
	}
	e, err := d.rt.Event(ctx, id)
	var ae *httpx.Error
	if errors.As(err, &ae) && ae.Kind == httpx.NotFound && open {
		e, err = d.open(ctx, day, variant)
	}
	if errors.As(err, &ae) && ae.Kind == httpx.NotFound && past {
		if d.none == nil {
			d.none = map[string]bool{}
		}
		d.none[id] = true
	}
	if err != nil {
		return nil, err
	}
	if d.now().After(day.AddDate(0, 0, 1)) {
		d.close(ctx, e)
	}
	return e, nil
}

// open makes day's daily event of variant and opens its round.
func (d *Daily) open(ctx context.Context, day time.Time, variant string) (Event, error) {
	const op = "daily"
	ev, err := event.New(d.settings(variant), newSeed())
	if err != nil {
		return nil, httpx.Unexpected(op, err)
	}
	return d.rt.OpenDaily(ctx, eventID(day, variant), ev, day.Format(time.DateOnly), d.now())
}

// close closes a daily event whose day is over (once).
func (d *Daily) close(ctx context.Context, e Event) {
	e.Lock()
	defer e.Unlock()
	if e.Event().Closed {
		return
	}
	err := e.Change(ctx, "daily", func() error {
		if e.Event().Closed {
			return errUnchanged // closed meanwhile, at another process
		}
		return e.Event().Close()
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		d.log.Warn("daily: closing", "event", e.ID(), "err", err.Error())
	}
}

// exists reports whether day had a daily event.
func (d *Daily) exists(ctx context.Context, day time.Time) bool {
	for _, v := range games {
		if _, err := d.event(ctx, day, v, false); err == nil {
			return true
		}
	}
	return false
}
