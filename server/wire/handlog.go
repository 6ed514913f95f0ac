package wire

import (
	"bytes"
	"encoding/json"

	"pitch"
)

// HandLog is one hand's log as every viewer of a table may see it (each
// seat, and spectators), its entries encoded once as actions are
// applied. An entry every viewer sees alike (most of them: bids, calls,
// plays) is kept once; a hidden action's entry (a pawnee discard, the
// trumps passed to a partner) is kept once a viewer. A table's viewers
// differ only in those, so the log costs about one viewer's bytes, not
// one a viewer.
//
// A HandLog is not safe for concurrent use: the table's lock guards it.
type HandLog struct {
	viewers int
	// buf holds every segment's JSON, back to back; segment k is
	// buf[ends[k-1]:ends[k]] (from 0 for k = 0).
	buf  []byte
	ends []uint32
	// first[e] is entry e's first segment: one segment when every viewer
	// sees the entry alike, else one a viewer, in viewer order.
	first []uint32
}

// NewHandLog is an empty log for seats seats and spectators.
func NewHandLog(seats int) *HandLog { return &HandLog{viewers: seats + 1} }

// Add appends the action a (raw, its JSON), made by by ("", "timer",
// "stand-in"), as each viewer may see it (LogEntryFor).
func (h *HandLog) Add(g *pitch.Game, a pitch.Action, raw json.RawMessage, by string) {
	start := len(h.ends)
	alike := true
	for i := range h.viewers {
		e := LogEntryFor(g, a, raw, i-1)
		e.By = by
		from := len(h.buf)
		h.buf = appendLogEntry(h.buf, &e)
		h.ends = append(h.ends, uint32(len(h.buf)))
		if i > 0 && alike && !bytes.Equal(h.buf[from:], h.segment(start)) {
			alike = false
		}
	}
	if alike { // keep the first viewer's segment only
		h.buf = h.buf[:h.ends[start]]
		h.ends = h.ends[:start+1]
	}
	h.first = append(h.first, uint32(start))
}

// segment is segment k's JSON.
func (h *HandLog) segment(k int) []byte {
	from := uint32(0)
	if k > 0 {
		from = h.ends[k-1]
	}
	return h.buf[from:h.ends[k]]
}

// Len is the number of entries.
func (h *HandLog) Len() int {
	if h == nil {
		return 0
	}
	return len(h.first)
}

// For is the log as seat (-1: a spectator) may see it, as it is now:
// entries added later are not in it.
func (h *HandLog) For(seat int) LogJSON {
	if h == nil {
		return LogJSON{}
	}
	return LogJSON{h: h, viewer: seat + 1, n: len(h.first)}
}

// LogJSON is a hand's log as one viewer may see it (HandLog.For),
// written as a JSON array of its entries (an empty log as []). It reads
// its HandLog when written: write it while the HandLog's lock is held.
type LogJSON struct {
	h         *HandLog
	viewer, n int
}

// Len is the number of entries.
func (l LogJSON) Len() int { return l.n }

// IsZero reports whether the log has no entries (omitzero leaves it out).
func (l LogJSON) IsZero() bool { return l.n == 0 }

// AppendTo appends the log as a JSON array.
func (l LogJSON) AppendTo(b []byte) []byte {
	b = append(b, '[')
	for e := range l.n {
		if e > 0 {
			b = append(b, ',')
		}
		k := int(l.h.first[e])
		if next := l.h.segments(e); next-k > 1 {
			k += l.viewer
		}
		b = append(b, l.h.segment(k)...)
	}
	return append(b, ']')
}

// segments is where entry e's segments end: the next entry's first
// segment, or the number of segments after the last entry.
func (h *HandLog) segments(e int) int {
	if e+1 < len(h.first) {
		return int(h.first[e+1])
	}
	return len(h.ends)
}

// MarshalJSON writes the log as a JSON array.
func (l LogJSON) MarshalJSON() ([]byte, error) { return l.AppendTo(nil), nil }
