package daily

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"pitch/event"
	"pitch/server/access"
	"pitch/server/eventview"
	"pitch/server/httpx"
)

// gameJSON is one game's daily event of a day.
type gameJSON struct {
	Variant     string           `json:"variant"`
	Event       string           `json:"event"` // its ID: /api/events/ID, /e/ID/deals/1/N
	Deals       int              `json:"deals"`
	Bots        string           `json:"bots"`
	Over        bool             `json:"over"`        // closed, every table finished: each deal's page is open
	Commitments []string         `json:"commitments"` // published when the day opened
	Players     int              `json:"players"`     // who have played or are playing
	Standings   []event.Standing `json:"standings"`   // by average matchpoint percentage
}

// dayJSON is a day's daily events.
type dayJSON struct {
	Day      string     `json:"day"`
	Opens    time.Time  `json:"opens"`
	Closes   time.Time  `json:"closes"`
	Games    []gameJSON `json:"games"`
	Past     []string   `json:"past,omitempty"` // the days before with a daily event, newest first (today's answer only)
	Previous string     `json:"previous,omitempty"`
	// GuestsUnranked: a guest (not signed in) may play the day's deals,
	// unranked; the standings are of accounts only.
	GuestsUnranked bool `json:"guests_unranked"`
}

// newSeed is a random seed for a new event's draws.
func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// game is e as gameJSON. The lock must not be held.
func game(e Event) gameJSON {
	e.Lock()
	defer e.Unlock()
	ev := e.Event()
	g := gameJSON{Variant: ev.Settings.Variant, Event: e.ID(), Deals: ev.Settings.Hands, Bots: ev.Settings.Bots, Over: ev.Over(),
		Commitments: e.Commitments(0), Standings: ev.Standings()}
	if len(ev.Rounds) > 0 {
		g.Players = len(ev.Rounds[0].Tables)
	}
	return g
}

// handleDaily answers GET /api/daily[?day=2026-03-01]: a day's daily
// events (today's, opened if need be).
func (d *Daily) handleDaily(w http.ResponseWriter, r *http.Request) {
	const op = "daily"
	if dec := access.Ask(r.Context(), access.DailyInfo, d.viewer(r), access.Subject{Event: true, Duplicate: true, Solo: true, Daily: true}); !dec.Allowed {
		d.writeError(w, r, httpx.Refused(op, dec))
		return
	}
	today := d.today()
	day := today
	if q := r.URL.Query().Get("day"); q != "" {
		t, err := time.Parse(time.DateOnly, q)
		if err != nil || t.After(today) {
			d.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "day %q is not a day up to today, written 2026-03-01", q).With("bad_day", nil))
			return
		}
		day = t
	}
	out := dayJSON{Day: day.Format(time.DateOnly), Opens: day, Closes: day.AddDate(0, 0, 1), Games: []gameJSON{}, GuestsUnranked: true}
	for _, v := range games {
		e, err := d.event(r.Context(), day, v, day.Equal(today))
		if err != nil {
			var ae *httpx.Error
			if errors.As(err, &ae) && ae.Kind == httpx.NotFound {
				continue // no daily that day
			}
			d.writeError(w, r, err)
			return
		}
		out.Games = append(out.Games, game(e))
	}
	if day.Equal(today) {
		for k := 1; k <= past; k++ {
			t := today.AddDate(0, 0, -k)
			if d.exists(r.Context(), t) {
				out.Past = append(out.Past, t.Format(time.DateOnly))
			}
		}
	}
	httpx.WriteJSON(w, 200, out)
}

// req is a request to play today's daily event or to find one's seat: a
// guest sends its browser's identity and a name; a signed-in player's
// account is its session's.
type req struct {
	Guest string `json:"guest,omitempty"`
	Name  string `json:"name,omitempty"`
}

// meJSON is a person's part in today's daily event of a game.
type meJSON struct {
	Played bool              `json:"played"` // they have a table (playing or finished)
	Seat   *eventview.MySeat `json:"seat,omitempty"`
	// Deal is the deal they are at (from 1) while they play (Seat); Deals
	// how many the day has: "deal 3 of 8".
	Deal    int             `json:"deal,omitempty"`
	Deals   int             `json:"deals,omitempty"`
	Done    bool            `json:"done"` // their table has finished
	Result  *event.Standing `json:"standing,omitempty"`
	Account string          `json:"account,omitempty"` // the signed-in name they play under
	// Unranked: a guest plays the deals unranked (sign in to be ranked).
	Unranked bool `json:"unranked,omitempty"`
}

// The owners of daily entries: an account's ID, or the SHA-256 of a
// guest's browser identity.
const (
	accountPrefix = "a:"
	guestPrefix   = "g:"
)

// played reports whether err refuses a seat for having one already.
func played(err error) bool {
	var he *httpx.Error
	return errors.As(err, &he) && he.Code == "event_played"
}

// guestPlay takes a guest's play from r's address's quota.
func (d *Daily) guestPlay(r *http.Request) bool {
	ok, _ := d.guests.Take(httpx.ClientAddr(r))
	return ok
}

// GuestPlaysPerHour is how many guests one address may start a daily
// table for in an hour (burst as many): a club's guests share an address.
const GuestPlaysPerHour = 300

// owner says who a daily request is from: "a:ID" for a signed-in
// player, "g:HASH" for a guest, with the name to play under.
func (d *Daily) owner(r *http.Request, q req) (owner, name string, err error) {
	const op = "daily"
	if id, name, ok := d.cfg.Who(r); ok {
		return accountPrefix + id, name, nil
	}
	if !validGuest(q.Guest) {
		return "", "", httpx.Errorf(httpx.Invalid, op, "a guest sends its browser's identity: 16 to 64 letters, digits, - or _").With("bad_guest", nil)
	}
	return guestOwner(q.Guest), q.Name, nil
}

// validGuest reports whether g may be a browser's identity
// (httpx.ValidGuest).
func validGuest(g string) bool { return httpx.ValidGuest(g) }

// guestOwner is the owner of a guest's browser identity.
func guestOwner(guest string) string {
	h := sha256.Sum256([]byte(guest))
	return guestPrefix + hex.EncodeToString(h[:])
}

// me is owner's part in e. The lock must be held.
func me(e Event, owner string) meJSON {
	me := meJSON{Unranked: strings.HasPrefix(owner, guestPrefix)}
	i := e.OwnerEntry(owner)
	if i < 0 {
		return me
	}
	ev := e.Event()
	if ti, _, ok := ev.Seated(i); ok {
		me.Played = true
		me.Done = ev.Rounds[0].Tables[ti].Result != nil
		if !me.Done {
			id := e.TableID(0, ti)
			me.Seat = &eventview.MySeat{Entry: i, Name: ev.Entries[i].Name, Round: 1, Table: id, TableNo: ti + 1, Seat: 0, SeatToken: e.SeatToken(i, id, 0)}
		}
	}
	for _, st := range ev.Standings() {
		if st.Entry == i {
			me.Result = &st
		}
	}
	return me
}

// eventFor reads a daily request and returns today's event of the
// request's game and who asks.
func (d *Daily) eventFor(w http.ResponseWriter, r *http.Request) (e Event, owner, name, browser string, ok bool) {
	const op = "daily"
	var q req
	if err := httpx.Decode(w, r, &q); err != nil {
		d.writeError(w, r, err)
		return nil, "", "", "", false
	}
	v := r.PathValue("game")
	if !slices.Contains(games, v) {
		d.writeError(w, r, httpx.Errorf(httpx.NotFound, op, "there is no daily event of %q: the games are %v", v, games).With("bad_game", map[string]any{"Game": v}))
		return nil, "", "", "", false
	}
	owner, name, err := d.owner(r, q)
	if err != nil {
		d.writeError(w, r, err)
		return nil, "", "", "", false
	}
	e, err = d.event(r.Context(), d.today(), v, true)
	if err != nil {
		d.writeError(w, r, err)
		return nil, "", "", "", false
	}
	e.Lock()
	dec := access.Ask(r.Context(), access.DailyInfo, d.viewer(r), access.OfEvent(e.Event(), true, -1))
	e.Unlock()
	if !dec.Allowed {
		d.writeError(w, r, httpx.Refused(op, dec))
		return nil, "", "", "", false
	}
	if strings.HasPrefix(owner, accountPrefix) && validGuest(q.Guest) {
		browser = guestOwner(q.Guest) // a signed-in player's browser, which may have played as a guest
	}
	return e, owner, name, browser, true
}

// handleMe answers POST /api/daily/{game}/me: the caller's part in
// today's event of the game.
func (d *Daily) handleMe(w http.ResponseWriter, r *http.Request) {
	e, owner, _, _, ok := d.eventFor(w, r)
	if !ok {
		return
	}
	e.Lock()
	m := me(e, owner)
	e.Unlock()
	d.progress(r.Context(), e, &m)
	httpx.WriteJSON(w, 200, m)
}

// progress tells m, while its table at e plays, the deal it is at of
// the day's: the hands its table has finished, and one. e's lock must
// not be held (it asks the store). A store that does not answer leaves
// it untold.
func (d *Daily) progress(ctx context.Context, e Event, m *meJSON) {
	if m.Seat == nil || d.cfg.HandsPlayed == nil {
		return
	}
	e.Lock()
	deals := e.Event().Settings.Hands
	e.Unlock()
	n, err := d.cfg.HandsPlayed(ctx, m.Seat.Table)
	if err != nil {
		d.log.Warn("daily: the hands of a table", "table", m.Seat.Table, "err", err.Error())
		return
	}
	m.Deal, m.Deals = min(n+1, deals), deals
}

// handlePlay answers POST /api/daily/{game}/play: the caller's table at
// today's event of the game (made once: after that, back to it while
// it is played).
func (d *Daily) handlePlay(w http.ResponseWriter, r *http.Request) {
	const op = "play daily"
	e, owner, name, browser, ok := d.eventFor(w, r)
	if !ok {
		return
	}
	name, err := httpx.CleanName(name)
	if err != nil {
		d.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_name", nil))
		return
	}
	if strings.HasPrefix(owner, guestPrefix) && d.cfg.Names != nil {
		// A guest may not pass for a bot or an account (docs/accounts.md).
		if err := httpx.GuestName(r.Context(), op, name, d.cfg.Names); err != nil {
			d.writeError(w, r, err)
			return
		}
	}
	// again answers one who has played or is playing (the lock held).
	again := func() {
		i, m := e.OwnerEntry(owner), me(e, owner)
		e.Unlock()
		if !m.Played {
			// Their entry was made a moment ago by another Play sent at
			// once (another tab, another process) that has not seated
			// them yet: seat them here. The event's versioned update lets
			// one of the two do it; the other finds them seated.
			if _, err := e.SitSolo(r.Context(), i); err != nil && !played(err) {
				d.writeError(w, r, err)
				return
			}
			e.Lock()
			m = me(e, owner)
			e.Unlock()
		}
		if m.Seat != nil {
			d.progress(r.Context(), e, &m)
			httpx.WriteJSON(w, 200, m) // back to their table
			return
		}
		d.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "%v", event.ErrPlayed).With("event_played", nil))
	}
	e.Lock()
	if e.OwnerEntry(owner) >= 0 {
		again()
		return
	}
	// An account whose browser has played the day's deals as a guest
	// has seen them: its ranked try is refused. (Another browser is
	// another identity: what binds is the account, docs/events.md.)
	if browser != "" && e.OwnerEntry(browser) >= 0 {
		e.Unlock()
		d.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "this browser has played today's deals as a guest: one try a day, and the ranked one needs deals not seen").
			With("daily_seen", nil))
		return
	}
	// An account plays once a game a day, whatever its address; guests,
	// who can make identities at will, draw on a quota of their own per
	// address (not the one of tables and events made: a club's guests
	// share one address).
	guest := strings.HasPrefix(owner, guestPrefix)
	if guest && !d.guestPlay(r) {
		e.Unlock()
		d.writeError(w, r, httpx.Errorf(httpx.TooMany, op, "too many guests have played the daily deals from your address (%d an hour at most): sign in to play, or try again later", GuestPlaysPerHour).
			With("daily_guests", map[string]any{"Max": GuestPlaysPerHour}))
		return
	}
	var i int
	back := false // they joined at another server meanwhile
	err = e.Change(r.Context(), op, func() error {
		if i = e.OwnerEntry(owner); i >= 0 {
			back = true
			return errUnchanged
		}
		var err error
		if i, err = e.Event().Join(name); err != nil {
			return httpx.Errorf(httpx.Conflict, op, "%v", err).With("event_closed", nil)
		}
		e.Event().Entries[i].Unranked = guest
		e.AddOwner(owner)
		return nil
	})
	if back {
		again()
		return
	}
	e.Unlock()
	if err != nil {
		d.writeError(w, r, err)
		return
	}
	if _, err := e.SitSolo(r.Context(), i); err != nil && !played(err) { // played: a Play sent at once seated them
		d.writeError(w, r, err)
		return
	}
	e.Lock()
	m := me(e, owner)
	e.Unlock()
	d.progress(r.Context(), e, &m)
	httpx.WriteJSON(w, 200, m)
}

// resultJSON is one daily result on a player's profile.
type resultJSON struct {
	Day     string  `json:"day"`
	Variant string  `json:"variant"`
	Event   string  `json:"event"`
	Place   int     `json:"place"`
	Of      int     `json:"of"` // how many played
	Percent float64 `json:"percent"`
	Deals   int     `json:"deals"` // results compared
	Over    bool    `json:"over"`  // the day is over
}

// handleUserDaily answers GET /api/users/{name}/daily: the player's
// daily results of the last 30 days, newest first.
func (d *Daily) handleUserDaily(w http.ResponseWriter, r *http.Request) {
	const op = "user daily"
	a, ok := d.cfg.ProfileAccount(w, r, op)
	if !ok {
		return
	}
	if dec := access.Ask(r.Context(), access.Profile, d.viewer(r), access.Subject{Owner: a.ID}); !dec.Allowed {
		d.writeError(w, r, httpx.Refused(op, dec))
		return
	}
	out := d.results(r.Context(), accountPrefix+a.ID)
	httpx.WriteJSON(w, 200, out)
}

// results are owner's daily results of the last profileDays days.
func (d *Daily) results(ctx context.Context, owner string) []resultJSON {
	out := []resultJSON{}
	today := d.today()
	for k := range profileDays {
		day := today.AddDate(0, 0, -k)
		for _, v := range games {
			e, err := d.event(ctx, day, v, false)
			if err != nil {
				continue
			}
			if res, ok := resultOf(e, owner, day.Format(time.DateOnly), v); ok {
				out = append(out, res)
			}
		}
	}
	return out
}

// resultOf is owner's result in e, day's daily event of variant, if they
// have one.
func resultOf(e Event, owner, day, variant string) (resultJSON, bool) {
	e.Lock()
	defer e.Unlock()
	if i := e.OwnerEntry(owner); i >= 0 {
		st := e.Event().Standings()
		for _, x := range st {
			if x.Entry == i && x.Boards > 0 {
				return resultJSON{Day: day, Variant: variant, Event: e.ID(), Place: x.Place, Of: len(st),
					Percent: x.Percent, Deals: x.Boards, Over: e.Event().Over()}, true
			}
		}
	}
	return resultJSON{}, false
}

// Result is one daily result of a person (a profile's, an export's).
type Result = resultJSON

// AccountResults returns every daily result of account id, oldest first
// (a profile shows the last 30 days'; an account's export has them all):
// the daily events whose owners name it (Config.Held).
func (d *Daily) AccountResults(ctx context.Context, id string) ([]Result, error) {
	out := []Result{}
	if d.cfg.Held == nil {
		return out, nil
	}
	ids, err := d.cfg.Held(ctx, accountPrefix+id)
	if err != nil {
		return nil, err
	}
	for _, eid := range ids {
		rest, ok := strings.CutPrefix(eid, "daily-")
		day, variant, ok2 := strings.Cut(rest, "-")
		t, err := time.Parse("20060102", day)
		if !ok || !ok2 || err != nil {
			continue // not a daily event's ID (eventID)
		}
		e, err := d.rt.Event(ctx, eid)
		if err != nil {
			var ae *httpx.Error
			if errors.As(err, &ae) && ae.Kind == httpx.NotFound {
				continue
			}
			return nil, err
		}
		if res, ok := resultOf(e, accountPrefix+id, t.Format(time.DateOnly), variant); ok {
			out = append(out, res)
		}
	}
	return out, nil
}

// viewer is who asks, as the access policy knows viewers.
func (d *Daily) viewer(r *http.Request) access.Viewer {
	id, _, ok := d.cfg.Who(r)
	return access.Signed(id, ok)
}
