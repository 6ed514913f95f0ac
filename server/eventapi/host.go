package eventapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"pitch/event"
	"pitch/server/httpx"
)

// The host's requests: start a round, extend its clock, pause and resume
// it, end the event, close a solo event. Each carries the host's token.

func (a *API) handleStart(w http.ResponseWriter, r *http.Request) {
	const op = "start round"
	e, req, ok := a.eventFor(w, r)
	if !ok {
		return
	}
	if !e.IsHost(req.Token) {
		e.Unlock()
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may start a round: send the host's token").With("not_host", nil))
		return
	}
	// The tables are loaded once the lock is let go: loading takes each
	// table's lock.
	infos, err := e.StartRound(r.Context())
	e.Unlock()
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.StartTables(r.Context(), infos)
	e.Lock()
	v := e.View()
	e.Unlock()
	httpx.WriteJSON(w, 200, v)
}

// maxExtend is the most minutes one extension adds.
const maxExtend = 120

func (a *API) handleExtend(w http.ResponseWriter, r *http.Request) {
	const op = "extend round"
	e, req, ok := a.eventFor(w, r)
	if !ok {
		return
	}
	defer e.Unlock()
	if !e.IsHost(req.Token) {
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may extend a round: send the host's token").With("not_host", nil))
		return
	}
	err := e.Change(r.Context(), op, func() error {
		ev := e.Event()
		n := len(ev.Rounds)
		ends, paused, held := e.Clock()
		if ev.Ended {
			return httpx.Errorf(httpx.Conflict, op, "the host has ended the event: the round in progress ends with the hands being played").With("event_ended", nil)
		}
		if n == 0 || ev.Rounds[n-1].Done() || ends.IsZero() {
			return httpx.Errorf(httpx.Conflict, op, "no round on the clock is being played: only a round on the clock can be extended").With("event_no_clock", nil)
		}
		if req.Minutes < 1 || req.Minutes > maxExtend {
			return httpx.Errorf(httpx.Invalid, op, "minutes must be 1 to %d, not %d", maxExtend, req.Minutes).With("bad_minutes", map[string]any{"Max": maxExtend})
		}
		add := time.Duration(req.Minutes) * a.minute()
		if paused {
			held += add // the clock stands still: it has that much more when it runs again
		}
		e.SetClock(ends.Add(add), paused, held)
		return nil
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.SyncClock()
	httpx.WriteJSON(w, 200, e.View())
}

// handlePause pauses the round in play (pause) or resumes it: its clock
// and its tables stand still meanwhile.
func (a *API) handlePause(pause bool) http.HandlerFunc {
	op, verb := "pause event", "pause"
	if !pause {
		op, verb = "resume event", "resume"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		e, req, ok := a.eventFor(w, r)
		if !ok {
			return
		}
		ids, err := a.pauseLocked(r.Context(), e, req.Token, pause, op, verb)
		if err != nil {
			e.Unlock()
			a.writeError(w, r, err)
			return
		}
		v := e.View()
		e.Unlock()
		a.rt.HoldTables(ids, pause)
		httpx.WriteJSON(w, 200, v)
	}
}

// pauseLocked pauses or resumes e (locked) for the holder of token and
// returns the tables whose pause changed, to hold or release once e is
// unlocked.
func (a *API) pauseLocked(ctx context.Context, e Event, token string, pause bool, op, verb string) ([]string, error) {
	if !e.IsHost(token) {
		return nil, httpx.Errorf(httpx.Forbidden, op, "only the host may %s the event: send the host's token", verb).With("not_host", nil)
	}
	err := e.Change(ctx, op, func() error {
		ev := e.Event()
		n := len(ev.Rounds)
		ends, paused, held := e.Clock()
		switch {
		case n == 0 || ev.Rounds[n-1].Done():
			return httpx.Errorf(httpx.Conflict, op, "no round is being played: only a round in play can be paused or resumed").With("event_not_playing", nil)
		case pause && ev.Ended:
			return httpx.Errorf(httpx.Conflict, op, "the host has ended the event: the round in progress ends with the hands being played").With("event_ended", nil)
		case pause && paused:
			return httpx.Errorf(httpx.Conflict, op, "the event is paused already: resume it to play on").With("event_paused_already", nil)
		case !pause && !paused:
			return httpx.Errorf(httpx.Conflict, op, "the event is not paused: only a paused event can be resumed").With("event_not_paused", nil)
		}
		now := time.Now().UTC().Truncate(time.Millisecond)
		clock := !ends.IsZero()
		paused = pause
		switch {
		case pause && clock:
			held = max(ends.Sub(now), 0)
		case clock:
			ends, held = now.Add(held), 0
		}
		e.SetClock(ends, paused, held)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return e.SyncClock(), nil
}

// handleEnd ends the event for its host: the round in play, if any,
// ends at each table with the hand being played (as when its clock is
// up) and counts; no other round is played, nobody joins.
func (a *API) handleEnd(w http.ResponseWriter, r *http.Request) {
	const op = "end event"
	e, req, ok := a.eventFor(w, r)
	if !ok {
		return
	}
	if !e.IsHost(req.Token) {
		e.Unlock()
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may end the event: send the host's token").With("not_host", nil))
		return
	}
	err := e.Change(r.Context(), op, func() error {
		ev := e.Event()
		if err := ev.End(); err != nil {
			code := "event_over"
			if errors.Is(err, event.ErrEnded) {
				code = "event_ended"
			}
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With(code, nil)
		}
		if n := len(ev.Rounds); n > 0 && !ev.Rounds[n-1].Done() {
			e.SetClock(time.Now().UTC().Truncate(time.Millisecond), false, 0)
		}
		return nil
	})
	if err != nil {
		e.Unlock()
		a.writeError(w, r, err)
		return
	}
	ids := e.SyncClock() // those paused until now
	v := e.View()
	e.Unlock()
	a.rt.HoldTables(ids, false)
	httpx.WriteJSON(w, 200, v)
}

// handleClose closes a solo event: it takes no more players.
func (a *API) handleClose(w http.ResponseWriter, r *http.Request) {
	const op = "close event"
	e, req, ok := a.eventFor(w, r)
	if !ok {
		return
	}
	defer e.Unlock()
	if !e.IsHost(req.Token) {
		a.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only the host may close the event: send the host's token").With("not_host", nil))
		return
	}
	err := e.Change(r.Context(), op, func() error {
		if err := e.Event().Close(); err != nil {
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With("event_not_solo", nil)
		}
		return nil
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, e.View())
}
