package eventapi

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pitch/event"
	"pitch/server/access"
	"pitch/server/httpx"
)

// The standings as a spreadsheet, and a player's events on their profile.

// csvCell keeps a cell from being read as a formula by a spreadsheet
// (OWASP, CSV injection): a leading =, +, -, @, tab or return gets a '.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func (a *API) handleCSV(w http.ResponseWriter, r *http.Request) {
	e, err := a.rt.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.Lock()
	if !a.allowed(w, r, "standings", access.EventInfo, e, -1) {
		e.Unlock()
		return
	}
	st := e.Event().Standings()
	dup := e.Event().Settings.Movement == event.Duplicate
	e.Unlock()
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	head := []string{"place", "name", "total", "tables_won", "best_round", "rounds", "left"}
	if dup {
		head = []string{"place", "name", "percent", "results", "rounds", "left"}
	}
	_ = cw.Write(head)
	for _, x := range st {
		row := []string{strconv.Itoa(x.Place), csvCell(x.Name), strconv.Itoa(x.Total), strconv.Itoa(x.Won), strconv.Itoa(x.Best),
			strconv.Itoa(x.Rounds), strconv.FormatBool(x.Left)}
		if dup {
			row = []string{strconv.Itoa(x.Place), csvCell(x.Name), strconv.FormatFloat(x.Percent, 'f', 2, 64), strconv.Itoa(x.Boards),
				strconv.Itoa(x.Rounds), strconv.FormatBool(x.Left)}
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="pitch-event-`+e.ID()+`.csv"`)
	_, _ = w.Write(b.Bytes())
}

// userEventJSON is an event on a player's profile.
type userEventJSON struct {
	Event    string    `json:"event"` // its ID: /e/ID
	Variant  string    `json:"variant"`
	Movement string    `json:"movement"`
	Joined   time.Time `json:"joined"`
	State    string    `json:"state"`           // as the event's
	Place    int       `json:"place,omitempty"` // in the standings (absent when not in them: removed before playing)
	Of       int       `json:"of"`              // people in the standings
	Total    int       `json:"total"`           // progressive and mixed
	Percent  float64   `json:"percent"`         // duplicate
	Rounds   int       `json:"rounds"`          // rounds that counted for them
	Left     bool      `json:"left,omitempty"`
}

// UserEvent is an event a person joined, with their place.
type UserEvent = userEventJSON

// AccountEvents returns the events account id joined while signed in
// (at most limit), newest first, each with its place, as a profile
// lists them; an event gone from the store is left out.
func (a *API) AccountEvents(ctx context.Context, id string, limit int) ([]UserEvent, error) {
	played, err := a.cfg.Store.TournamentsOf(ctx, id, limit)
	if err != nil {
		return nil, err
	}
	out := []userEventJSON{}
	for _, p := range played {
		v, err := a.rt.View(ctx, p.Tournament)
		if err != nil {
			continue // gone from the store, or unreadable: not shown
		}
		ue := userEventJSON{Event: v.ID, Variant: v.Settings.Variant, Movement: string(v.Settings.Movement), Joined: p.Joined, State: v.State,
			Of: len(v.Stand)}
		for _, st := range v.Stand {
			if st.Entry == p.Entry {
				ue.Place, ue.Total, ue.Percent, ue.Rounds, ue.Left = st.Place, st.Total, st.Percent, st.Rounds, st.Left
			}
		}
		out = append(out, ue)
	}
	return out, nil
}

// maxUserEvents is how many events a profile lists.
const maxUserEvents = 50

// handleUserEvents answers GET /api/users/{name}/events: the events the
// player joined while signed in, newest first, with their place.
func (a *API) handleUserEvents(w http.ResponseWriter, r *http.Request) {
	const op = "user events"
	acc, ok := a.cfg.ProfileAccount(w, r, op)
	if !ok {
		return
	}
	if d := access.Ask(r.Context(), access.Profile, a.viewer(r), access.Subject{Owner: acc.ID}); !d.Allowed {
		a.writeError(w, r, httpx.Refused(op, d))
		return
	}
	out, err := a.AccountEvents(r.Context(), acc.ID, maxUserEvents)
	if err != nil {
		a.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	httpx.WriteJSON(w, 200, out)
}
