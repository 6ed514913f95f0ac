package play

import (
	"bytes"
	"encoding/json"
	"net/http"
	"pitch/server/access"
	"pitch/server/httpx"
	"slices"
	"strconv"
	"sync"
	"time"

	"pitch"
)

// lobby is the index behind GET /api/tables: the tables with a free seat
// that are neither finished nor closed, newest first, each with its
// public JSON encoded once per change. It has a lock of its own, taken
// after a table's (never the other way) and held only to swap entries;
// its slices are copied on write, never changed in place, so a listing
// takes one under the lock and pages and encodes it with no lock held.
type lobby struct {
	mu        sync.Mutex
	byID      map[string]*lobbyEntry
	all       []*lobbyEntry            // newest first
	byVariant map[string][]*lobbyEntry // the same, one game each
}

// lobbyEntry is one open table; it is never changed once made.
type lobbyEntry struct {
	id, variant string
	created     time.Time
	raw         json.RawMessage // the table object
}

func newLobby() *lobby {
	return &lobby{byID: map[string]*lobbyEntry{}, byVariant: map[string][]*lobbyEntry{}}
}

// before orders entries newest first, then by id.
func (e *lobbyEntry) before(o *lobbyEntry) bool {
	if !e.created.Equal(o.created) {
		return e.created.After(o.created)
	}
	return e.id < o.id
}

// cmp is before as a comparison for slices.BinarySearchFunc.
func (e *lobbyEntry) cmp(o *lobbyEntry) int {
	switch {
	case e.id == o.id:
		return 0
	case e.before(o):
		return -1
	}
	return 1
}

// set shows info in the lobby while open, and takes it out otherwise.
func (l *lobby) set(info tableInfo, open bool) {
	var e *lobbyEntry
	if open {
		raw, err := json.Marshal(info)
		if err != nil {
			return
		}
		e = &lobbyEntry{id: info.ID, variant: info.Variant, created: info.Created, raw: raw}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.byID[info.ID]
	if old == nil && e == nil {
		return
	}
	if old != nil {
		delete(l.byID, info.ID)
		l.all = without(l.all, old)
		l.byVariant[old.variant] = without(l.byVariant[old.variant], old)
	}
	if e != nil {
		l.byID[e.id] = e
		l.all = with(l.all, e)
		l.byVariant[e.variant] = with(l.byVariant[e.variant], e)
	}
}

// with returns a new slice: xs with e in its place.
func with(xs []*lobbyEntry, e *lobbyEntry) []*lobbyEntry {
	i, _ := slices.BinarySearchFunc(xs, e, (*lobbyEntry).cmp)
	out := make([]*lobbyEntry, 0, len(xs)+1)
	out = append(out, xs[:i]...)
	out = append(out, e)
	return append(out, xs[i:]...)
}

// without returns a new slice: xs without e.
func without(xs []*lobbyEntry, e *lobbyEntry) []*lobbyEntry {
	i, found := slices.BinarySearchFunc(xs, e, (*lobbyEntry).cmp)
	if !found {
		return xs
	}
	out := make([]*lobbyEntry, 0, len(xs)-1)
	out = append(out, xs[:i]...)
	return append(out, xs[i+1:]...)
}

// snapshot returns the open tables of variant ("" for all), newest first.
// The slice is never changed afterwards.
func (l *lobby) snapshot(variant string) []*lobbyEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	if variant == "" {
		return l.all
	}
	return l.byVariant[variant]
}

// The lobby's page sizes.
const (
	defaultPage = 20
	maxPage     = 100
)

// listQuery is a checked GET /api/tables query.
type listQuery struct {
	game          string // a variant's name, or "" for every game
	offset, limit int
}

// parseListQuery checks the query of GET /api/tables.
func parseListQuery(r *http.Request) (listQuery, error) {
	const op = "list tables"
	q := listQuery{limit: defaultPage}
	vals := r.URL.Query()
	for k := range vals {
		if k != "game" && k != "offset" && k != "limit" {
			return q, httpx.Errorf(httpx.Invalid, op, "unknown query parameter %q: the list takes game, offset and limit", k)
		}
	}
	if g := vals.Get("game"); g != "" {
		v, err := pitch.ParseVariant(g)
		if err != nil {
			return q, httpx.Errorf(httpx.Invalid, op, "game %q: %v", g, err)
		}
		q.game = v.String()
	}
	num := func(name string, lo, hi int, into *int) error {
		s := vals.Get(name)
		if s == "" {
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			return httpx.Errorf(httpx.Invalid, op, "%s must be a whole number from %d to %d, not %q", name, lo, hi, s)
		}
		*into = n
		return nil
	}
	if err := num("offset", 0, 1<<30, &q.offset); err != nil {
		return q, err
	}
	if err := num("limit", 1, maxPage, &q.limit); err != nil {
		return q, err
	}
	return q, nil
}

// handleList answers one page of the open tables, newest first:
// {"tables": [...], "total": N, "offset": O, "limit": L, "playing": {game: people}}. No lock is held
// while the page is cut and encoded.
func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	q, err := parseListQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The lobby holds only the tables anyone may see listed (table.listed).
	if d := access.Ask(r.Context(), access.HistoryEntry, s.viewer(r), access.Subject{}); !d.Allowed {
		s.writeError(w, r, httpx.Refused("lobby", d))
		return
	}
	open := s.lobby.snapshot(q.game)
	page := open[min(q.offset, len(open)):min(q.offset+q.limit, len(open))]
	var b bytes.Buffer
	b.Grow(64 + len(page)*1024)
	b.WriteString(`{"tables":[`)
	for i, e := range page {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(e.raw)
	}
	b.WriteString(`],"total":`)
	b.WriteString(strconv.Itoa(len(open)))
	b.WriteString(`,"offset":`)
	b.WriteString(strconv.Itoa(q.offset))
	b.WriteString(`,"limit":`)
	b.WriteString(strconv.Itoa(q.limit))
	b.WriteString(`,"playing":`)
	playing, _ := json.Marshal(s.playing())
	b.Write(playing)
	if q.game != "" {
		b.WriteString(`,"game":`)
		g, _ := json.Marshal(q.game)
		b.Write(g)
	}
	b.WriteString("}\n")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}
