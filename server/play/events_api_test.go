package play

import (
	"context"
	"net/http"

	"pitch/event"
	"pitch/server/eventapi"
	"pitch/server/eventview"
	"pitch/server/ratings"
	"pitch/store"
)

// eventRoutes mounts the events' API (server/eventapi) over s, as
// server.New does, for this package's tests that drive events over HTTP.
func (s *Server) eventRoutes(mux *http.ServeMux) {
	mountAll(mux, eventapi.New(eventapi.Config{Log: s.log, Runtime: testEvents{s}, Store: s.store, Creates: s.Creates(), TablesPerHour: s.opts.TablesPerHour,
		Minute: s.opts.EventMinute, Who: func(r *http.Request) (string, string, bool) { a, ok := s.account(r); return a.ID, a.Name, ok },
		ProfileAccount: func(w http.ResponseWriter, r *http.Request, op string) (*store.Account, bool) {
			return ratings.ProfileAccount(s.store, s.log, w, r, op)
		}}).Routes())
}

// testEvents is s as eventapi.Runtime.
type testEvents struct{ s *Server }

func (r testEvents) Event(ctx context.Context, id string) (eventapi.Event, error) {
	e, err := r.s.Event(ctx, id)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func (r testEvents) Create(ctx context.Context, ev *event.Event, hostToken string) (eventapi.Event, error) {
	e, err := r.s.CreateEvent(ctx, ev, hostToken)
	if err != nil {
		return nil, err
	}
	return e, nil
}

func (r testEvents) View(ctx context.Context, id string) (eventview.Event, error) {
	return r.s.EventView(ctx, id)
}

func (r testEvents) HoldTables(ids []string, pause bool) { r.s.HoldTables(ids, pause) }

func (r testEvents) Follow(w http.ResponseWriter, req *http.Request) { r.s.FollowEvent(w, req) }
