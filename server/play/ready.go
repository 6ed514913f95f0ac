package play

import (
	"time"

	"pitch"
)

// The pause at the end of a hand: no clock runs behind a dialog.
//
// A client that shows each hand's summary says so in its hello
// ({"type":"hello","summary":true}). When a hand ends (and the match goes
// on), every seat with such a connection open is "reading" that hand's
// summary, and the table waits: no bot moves, no stand-in plays and no
// turn timer starts until each of them has sent {"type":"ready","hand":N}
// or DefaultReadyWait (Options.ReadyWait) has passed since the hand ended,
// so that one person cannot stall the table for ever. The states say how
// long is left (reading_left_ms), so that the summary shows it and closes
// itself when it runs out.
//
// At the bound the table goes on, but a seat whose person has still not
// closed the summary is "late": its own turn's clock does not start until
// it says ready (its summary has closed and the table is in sight), and
// then with the whole turn time, so that no stand-in plays for a person
// who has not seen the table. A page that never says ready (one that does
// not follow this protocol) gets the clock one more ReadyWait after the
// bound.

// DefaultReadyWait is the longest a table waits, after a hand ends, for
// its people to close the hand's summary (Options.ReadyWait).
const DefaultReadyWait = 30 * time.Second

// reading is who a table waits for after a hand ends. The table's lock
// guards it.
type reading struct {
	hand  int                  // the finished hand whose summary is read
	seats [pitch.MaxSeats]bool // the seats not yet ready
	until time.Time            // when the wait ends regardless
}

// startReading begins the wait after hand n ended: every seat with a
// connection here that shows summaries is reading it. The lock must be
// held.
func (t *table) startReading(n int) {
	t.read = reading{hand: n}
	some := false
	for c := range t.conns {
		if c.seat >= 0 && c.summary && t.bots[c.seat] == nil {
			t.read.seats[c.seat], some = true, true
		}
	}
	if some {
		t.read.until = time.Now().Add(t.srv.opts.ReadyWait)
	}
}

// readers lists the seats the table still waits for, in order; nil when it
// waits for none (or the wait's bound has passed). The lock must be held.
func (t *table) readers() []int {
	if t.read.until.IsZero() || !time.Now().Before(t.read.until) || t.over() {
		return nil
	}
	var out []int
	for s := range t.game.Seats() {
		if t.read.seats[s] {
			out = append(out, s)
		}
	}
	return out
}

// readingLeft is how long the table still waits for its readers (the
// states' reading_left_ms): zero when it waits for nobody. The lock must
// be held.
func (t *table) readingLeft() time.Duration {
	if t.readers() == nil {
		return 0
	}
	return max(time.Until(t.read.until), time.Millisecond)
}

// lateBound is when a late seat's clock starts even though it never said
// ready (see the top of this file).
func (t *table) lateBound() time.Time { return t.read.until.Add(t.srv.opts.ReadyWait) }

// late reports whether seat's turn clock waits for its person to close
// the last hand's summary: they were reading it when the wait's bound
// passed and have not said ready since (until lateBound). The lock must
// be held.
func (t *table) late(seat int) bool {
	now := time.Now()
	return !t.read.until.IsZero() && t.read.seats[seat] && !now.Before(t.read.until) && now.Before(t.lateBound())
}

// ready records that seat has closed the summary of hand n; when nobody
// is left reading, play goes on at once. A late seat (the table went on
// at the bound) gets its whole turn time from now if it is its turn. A
// ready for another hand, or from a seat the table does not wait for,
// changes nothing. The lock must be held.
func (t *table) ready(seat, n int) {
	if seat < 0 || seat >= t.game.Seats() || n != t.read.hand || !t.read.seats[seat] {
		return
	}
	wasLate := t.late(seat)
	t.read.seats[seat] = false
	switch {
	case wasLate:
		if !t.over() && !t.match.AwaitingDeal() && t.match.State().Turn() == seat {
			t.deadline = time.Time{} // schedule starts the turn's clock afresh
			t.deadlineSeq = -1
		}
	case t.readers() == nil:
		t.read = reading{hand: t.read.hand}
		t.turnAt = time.Now() // the turn begins for the players now (botDelay)
	}
	t.schedule(0)
	t.broadcast()
}

// waitReading arms the timer that ends the wait at its bound, and reports
// whether the table is waiting for readers. The lock must be held, and gen
// is schedule's.
func (t *table) waitReading(gen int) bool {
	if t.readers() == nil {
		return false
	}
	t.timer = time.AfterFunc(time.Until(t.read.until), func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.gen != gen {
			return
		}
		// The bound: nobody is waited for any longer; those still
		// reading are late (their turn's clock waits for them).
		t.turnAt = time.Now()
		t.schedule(0)
		t.broadcast()
	})
	return true
}

// waitLate arms the timer that starts a late seat's turn clock at
// lateBound, if its person has not said ready by then. The lock must be
// held, and gen is schedule's.
func (t *table) waitLate(gen int) {
	t.timer = time.AfterFunc(time.Until(t.lateBound()), func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.gen != gen {
			return
		}
		t.schedule(0)
		t.broadcast()
	})
}
