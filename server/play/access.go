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
// whether it plays an event's round, of what kind, and where that round
// stands. A table of its own (or one whose event is not live here) is
// the zero Subject. The caller must not hold the table's lock.
func (s *Server) Subject(id string) access.Subject {
	r := s.roundOf(id)
	if r == nil {
		return access.Subject{}
	}
	return r.subject()
}

// subject is the policy's facts of the table's event round. It takes the
// event's lock: the table's may be held (a table calls into its event
// with its own lock held), never the other way round.
func (r *tableRound) subject() access.Subject {
	e := r.ev
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.subjectLocked(r.round)
}

// subjectLocked is the policy's facts of round r of e; e.mu is held.
func (e *liveEvent) subjectLocked(r int) access.Subject {
	return access.OfEvent(e.d.Event, e.d.Daily != nil, r)
}

// viewer is who asks, as the access policy knows viewers: an account
// holder when signed in, else anonymous.
func (s *Server) viewer(r *http.Request) access.Viewer {
	if me, ok := s.account(r); ok {
		return access.Viewer{Kind: access.Member, Account: me.ID}
	}
	return access.Viewer{Kind: access.Anonymous}
}

// subjectOf is the policy's facts of table t; t.mu may be held.
func (t *table) subjectOf() access.Subject {
	if t.round == nil {
		return access.Subject{}
	}
	return t.round.subject()
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
	return access.Decide(access.TableInfo, access.Viewer{Kind: access.Anonymous}, t.subjectOf()).Allowed
}
