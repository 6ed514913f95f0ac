package play

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"pitch/event"
	"pitch/server/eventview"
)

// When a limit refuses a connection to an event's table or page (or a
// request about them), the event's host is told: who (when the
// connection said), where and why, on the host's page. Refused people
// see the reason themselves (the page shows the close's reason); the
// host sees that someone's seat may be played by the stand-in because of
// it. The list is the process's, in memory, the last maxRefusals.

// maxRefusals is how many refusals an event keeps for its host.
const maxRefusals = 20

// noteRefused tells the host of the event table id belongs to, if any,
// that a connection to seat (-1: not known) was refused for reason. No
// table or event lock may be held.
func (s *Server) noteRefused(id string, seat int, reason string) {
	ref := s.roundOf(id)
	if ref == nil {
		return
	}
	e := ref.ev
	e.mu.Lock()
	defer e.mu.Unlock()
	n := eventview.Refusal{At: time.Now().UTC(), Round: ref.round + 1, Table: ref.index + 1, Seat: seat, Reason: reason}
	if seat >= 0 && ref.round < len(e.d.Event.Rounds) && ref.index < len(e.d.Event.Rounds[ref.round].Tables) {
		if id := e.d.Event.Rounds[ref.round].Tables[ref.index].Seats[seat]; id != event.Bot {
			n.Name = e.d.Event.Entries[id].Name
		}
	}
	e.refuse(n)
}

// noteEventRefused tells the host of event id (when it is in memory)
// that a connection to its page, or a request about it, by entry (-1:
// not known) was refused for reason. No event lock may be held.
func (s *Server) noteEventRefused(id string, entry int, reason string) {
	s.ev.mu.Lock()
	e := s.ev.byID[id]
	s.ev.mu.Unlock()
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	n := eventview.Refusal{At: time.Now().UTC(), Seat: -1, Reason: reason}
	if entry >= 0 && entry < len(e.d.Event.Entries) {
		n.Name = e.d.Event.Entries[entry].Name
	}
	e.refuse(n)
}

// noteUpgradeRefused tells the host of the event whose table or page
// (what, "table" or "event", id) a WebSocket was refused before its
// hello.
func (s *Server) noteUpgradeRefused(what, id, reason string) {
	switch what {
	case "table":
		s.noteRefused(id, -1, reason)
	case "event":
		s.noteEventRefused(id, -1, reason)
	}
}

// noteRequestRefused tells the host of the event or table r is about
// that r was refused for reason.
func (s *Server) noteRequestRefused(r *http.Request, reason string) {
	if rest, ok := strings.CutPrefix(r.URL.Path, "/api/events/"); ok {
		id, _, _ := strings.Cut(rest, "/")
		s.noteEventRefused(id, -1, reason)
	} else if rest, ok := strings.CutPrefix(r.URL.Path, "/api/tables/"); ok {
		id, _, _ := strings.Cut(rest, "/")
		s.noteRefused(id, -1, reason)
	}
}

// refuse keeps n for the host and tells them. The lock must be held.
func (e *liveEvent) refuse(n eventview.Refusal) {
	if len(e.refused) == maxRefusals {
		e.refused = append(e.refused[:0], e.refused[1:]...)
	}
	e.refused = append(e.refused, n)
	e.changed()
}

// hostNotes is what only the host is sent besides the event: the
// refusals (JSON; nil when there are none). The lock must be held.
func (e *liveEvent) hostNotes() []byte {
	if len(e.refused) == 0 {
		return nil
	}
	b, _ := json.Marshal(e.refused)
	return b
}
