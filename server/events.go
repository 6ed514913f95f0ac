package server

import (
	"context"
	"math"
	"net/http"
	"time"

	"pitch/event"
	"pitch/server/accountapi"
	"pitch/server/daily"
	"pitch/server/eventapi"
	"pitch/server/eventview"
	"pitch/server/play"
	"pitch/server/ratings"
	"pitch/store"
)

// The HTTP side of events (eventapi, daily) over their runtime (play):
// the adapters that hand play's live events (*play.Event) to each as
// its own interface.

// newEvents builds the events' API and the daily deals over p.
func newEvents(p *play.Server, acct *accountapi.API, st store.Store, opts Options) (*eventapi.API, *daily.Daily) {
	who := func(r *http.Request) (id, name string, ok bool) {
		a, ok := acct.Who(r)
		return a.ID, a.Name, ok
	}
	profile := func(w http.ResponseWriter, r *http.Request, op string) (*store.Account, bool) {
		return ratings.ProfileAccount(st, opts.Logger, w, r, op)
	}
	api := eventapi.New(eventapi.Config{
		Log:            opts.Logger,
		Runtime:        eventRuntime{p},
		Store:          st,
		Creates:        p.Creates(),
		TablesPerHour:  opts.TablesPerHour,
		Minute:         opts.EventMinute,
		Who:            who,
		ProfileAccount: profile,
	})
	d := daily.New(daily.Config{
		Log:            opts.Logger,
		Runtime:        dailyRuntime{p},
		Deals:          opts.DailyDeals,
		Bots:           opts.DailyBots,
		Clock:          opts.Clock,
		Who:            who,
		ProfileAccount: profile,
		Held:           st.TournamentsHolding,
		Names:          st,
		HandsPlayed: func(ctx context.Context, table string) (int, error) {
			hands, err := st.Hands(ctx, table)
			return len(hands), err
		},
	})
	acct.SetActivity(accountapi.Activity{
		Events: func(ctx context.Context, id string) (any, error) { return api.AccountEvents(ctx, id, math.MaxInt32) },
		Daily:  func(ctx context.Context, id string) (any, error) { return d.AccountResults(ctx, id) },
	})
	return api, d
}

// eventRuntime is play as eventapi.Runtime.
type eventRuntime struct{ p *play.Server }

// Event is play.Server.Event.
func (r eventRuntime) Event(ctx context.Context, id string) (eventapi.Event, error) {
	e, err := r.p.Event(ctx, id)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Create is play.Server.CreateEvent.
func (r eventRuntime) Create(ctx context.Context, ev *event.Event, hostToken string) (eventapi.Event, error) {
	e, err := r.p.CreateEvent(ctx, ev, hostToken)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// View is play.Server.EventView.
func (r eventRuntime) View(ctx context.Context, id string) (eventview.Event, error) {
	return r.p.EventView(ctx, id)
}

// HoldTables is play.Server.HoldTables.
func (r eventRuntime) HoldTables(ids []string, pause bool) { r.p.HoldTables(ids, pause) }

// Follow is play.Server.FollowEvent.
func (r eventRuntime) Follow(w http.ResponseWriter, req *http.Request) { r.p.FollowEvent(w, req) }

// dailyRuntime is play as daily.Runtime.
type dailyRuntime struct{ p *play.Server }

// Event is play.Server.Event.
func (r dailyRuntime) Event(ctx context.Context, id string) (daily.Event, error) {
	e, err := r.p.Event(ctx, id)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// OpenDaily is play.Server.OpenDaily.
func (r dailyRuntime) OpenDaily(ctx context.Context, id string, ev *event.Event, day string, created time.Time) (daily.Event, error) {
	e, err := r.p.OpenDaily(ctx, id, ev, day, created)
	if err != nil {
		return nil, err
	}
	return e, nil
}
