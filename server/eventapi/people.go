package eventapi

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"net/http"

	"pitch/event"
	"pitch/server/access"
	"pitch/server/eventview"
	"pitch/server/httpx"
)

// The requests of anyone: make an event, look at it, join it, find
// one's seat, leave, play a solo event.

type createReq struct {
	event.Settings
}

// created answers the host: the token is shown once.
type created struct {
	ID    string          `json:"id"`
	Token string          `json:"token"` // the host's
	URL   string          `json:"url"`   // where people join
	Event eventview.Event `json:"event"`
}

// newSeed is a random seed for a new event's draws.
func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

func (a *API) handleCreate(w http.ResponseWriter, r *http.Request) {
	const op = "create event"
	var req createReq
	if err := httpx.Decode(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	ev, err := event.New(req.Settings, newSeed())
	if err != nil {
		a.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_event", nil))
		return
	}
	if ok, _ := a.cfg.Creates.Take(httpx.ClientAddr(r)); !ok {
		a.writeError(w, r, httpx.Errorf(httpx.TooMany, op, "too many tables and events created from your address (%d an hour at most): try again later", a.cfg.TablesPerHour))
		return
	}
	token := httpx.RandomString(32)
	e, err := a.rt.Create(r.Context(), ev, token)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.Lock()
	view := e.View()
	e.Unlock()
	httpx.WriteJSON(w, http.StatusCreated, created{ID: e.ID(), Token: token, URL: "/e/" + e.ID(), Event: view})
}

func (a *API) handleEvent(w http.ResponseWriter, r *http.Request) {
	e, err := a.rt.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.Lock()
	if !a.allowed(w, r, "event", access.EventInfo, e, -1) {
		e.Unlock()
		return
	}
	v := e.View()
	e.Unlock()
	httpx.WriteJSON(w, 200, v)
}

type joinReq struct {
	Name string `json:"name"`
}

func (a *API) handleJoin(w http.ResponseWriter, r *http.Request) {
	const op = "join event"
	var req joinReq
	if err := httpx.Decode(w, r, &req); err != nil {
		a.writeError(w, r, err)
		return
	}
	name, err := httpx.CleanName(req.Name)
	if err != nil {
		a.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
		return
	}
	if _, acctName, signedIn := a.cfg.Who(r); signedIn {
		name = acctName // a signed-in person plays under their account's name
	} else if err := httpx.GuestName(r.Context(), op, name, a.cfg.Store); err != nil {
		// A guest may not pass for a bot or an account (docs/accounts.md).
		a.writeError(w, r, err)
		return
	}
	e, err := a.rt.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.Lock()
	defer e.Unlock()
	if !a.allowed(w, r, op, access.EventInfo, e, -1) {
		return
	}
	if e.Daily() {
		a.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "a daily event is played from /daily, once a person").With("event_daily", nil))
		return
	}
	token := httpx.RandomString(32)
	var i int
	err = e.Change(r.Context(), op, func() error {
		var err error
		if i, err = e.Event().Join(name); err != nil {
			code := "event_closed"
			switch {
			case errors.Is(err, event.ErrFull):
				code = "event_full"
			case errors.Is(err, event.ErrEnded):
				code = "event_ended"
			}
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With(code, map[string]any{"Max": event.MaxPlayers})
		}
		e.AddToken(token)
		return nil
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if id, _, ok := a.cfg.Who(r); ok {
		// On their profile (GET /api/users/NAME/events). The join stands
		// without it.
		if err := a.cfg.Store.AddTournamentPlayer(r.Context(), id, e.ID(), i); err != nil {
			a.log.Warn("event: recording a signed-in player", "event", e.ID(), "err", err.Error())
		}
	}
	httpx.WriteJSON(w, 200, map[string]any{"entry": i, "token": token, "round": e.Event().Entries[i].Joined})
}

func (a *API) handleMe(w http.ResponseWriter, r *http.Request) {
	const op = "event seat"
	e, req, ok := a.eventFor(w, r)
	if !ok {
		return
	}
	defer e.Unlock()
	i := e.EntryOf(req.Token)
	if i < 0 {
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this token is no one's in this event: join first").With("not_in_event", nil))
		return
	}
	httpx.WriteJSON(w, 200, e.SeatOf(i))
}

func (a *API) handleLeave(w http.ResponseWriter, r *http.Request) {
	const op = "leave event"
	e, req, ok := a.eventFor(w, r)
	if !ok {
		return
	}
	defer e.Unlock()
	i := e.EntryOf(req.Token)
	host := e.IsHost(req.Token)
	if req.Entry != nil {
		if !host {
			a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may remove someone: send the host's token").With("not_host", nil))
			return
		}
		i = *req.Entry
	}
	if i < 0 {
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this token is no one's in this event").With("not_in_event", nil))
		return
	}
	err := e.Change(r.Context(), op, func() error {
		if err := e.Event().Leave(i); err != nil {
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With("event_leave", nil)
		}
		return nil
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, e.View())
}

// handlePlay gives a person of a solo event their table
// (docs/events.md, Duplicate).
func (a *API) handlePlay(w http.ResponseWriter, r *http.Request) {
	const op = "play event"
	e, req, ok := a.eventFor(w, r)
	if !ok {
		return
	}
	i := e.EntryOf(req.Token)
	daily := e.Daily()
	e.Unlock()
	if daily {
		a.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "a daily event is played from /daily, once a person").With("event_daily", nil))
		return
	}
	if i < 0 {
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this token is no one's in this event: join first").With("not_in_event", nil))
		return
	}
	me, err := e.SitSolo(r.Context(), i)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, me)
}
