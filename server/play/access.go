package play

import (
	"net/http"

	"pitch/server/access"
	"pitch/server/httpx"
)

// What the access policy (server/access) needs to know of the tables and
// their viewers. Every route of play that serves a table's data asks the
// policy with these facts; so do the other parts, through Subject.

// Subject is what the access policy needs to know of table id now:
// its event round (if any) and where that round stands, whether it is
// rated and where its match stands, and the accounts seated at it. A
// table not in memory is known by its event round only (or not at all:
// a table of its own). The caller must not hold the table's lock.
func (s *Server) Subject(id string) access.Subject {
	if t := s.inMemory(id); t != nil {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.subjectOf()
	}
	if r := s.roundOf(id); r != nil {
		return r.subject()
	}
	return access.Subject{}
}

// subject is the policy's facts of the table's event round. It takes the
// event's lock: the table's may be held (a table calls into its event
// with its own lock held), never the other way round.
func (r *tableRound) subject() access.Subject {
	e := r.ev
	e.mu.Lock()
	defer e.mu.Unlock()
	return access.OfEvent(e.d.Event, e.d.Daily != nil, r.round)
}

// viewer is who asks, as the access policy knows viewers: an account
// holder when signed in, else anonymous.
func (s *Server) viewer(r *http.Request) access.Viewer {
	me, ok := s.account(r)
	return access.Signed(me.ID, ok)
}

// hiddenReason is the close reason of a spectator refused at a duplicate
// or daily table whose deals are still being played.
const hiddenReason = "this table's deals are hidden until its round (a daily deal's day) is over: only its players may watch it now"

// subjectOf is the policy's facts of table t; t.mu is held.
func (t *table) subjectOf() access.Subject {
	var sub access.Subject
	if t.round != nil {
		sub = t.round.subject()
	}
	sub.Rated, sub.Match = t.info.Rated, access.During
	if t.over() {
		sub.Match = access.After
	}
	for _, st := range t.info.Seats {
		if st.Account != "" {
			sub.Players = append(sub.Players, st.Account)
		}
	}
	return sub
}

// advice reports whether the expert may help at t now (hints, reviews):
// the table's own setting, and the policy's word (no help at a
// competition under way); t.mu is held.
func (t *table) advice() bool {
	return !t.info.NoHints && access.Decide(access.Advice, access.Viewer{Kind: access.Seated}, t.subjectOf()).Allowed
}

// allowed asks the access policy whether r's viewer may see res of table
// id now; when not, it answers r with the refusal and returns false.
func (s *Server) allowed(w http.ResponseWriter, r *http.Request, op string, res access.Resource, id string) bool {
	d := access.Ask(r.Context(), res, s.viewer(r), s.Subject(id))
	if !d.Allowed {
		s.writeError(w, r, httpx.Refused(op, d))
	}
	return d.Allowed
}

// listed reports whether the lobby, which anyone may read, may list
// table t; t.mu is held.
func (t *table) listed() bool {
	return access.Decide(access.HistoryEntry, access.Viewer{Kind: access.Anonymous}, t.subjectOf()).Allowed
}

// SeatOf is the seat at table id whose token is token, or -1 (none, or
// the table is not in memory here).
func (s *Server) SeatOf(id, token string) int {
	t := s.inMemory(id)
	if t == nil || token == "" {
		return -1
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seatFor(token)
}
