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
// so that one person cannot stall the table for ever.

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

// ready records that seat has closed the summary of hand n; when nobody
// is left reading, play goes on at once. A ready for another hand, or from
// a seat the table does not wait for, changes nothing. The lock must be
// held.
func (t *table) ready(seat, n int) {
	if seat < 0 || seat >= t.game.Seats() || n != t.read.hand || !t.read.seats[seat] {
		return
	}
	t.read.seats[seat] = false
	if t.readers() == nil {
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
		t.read = reading{hand: t.read.hand} // the bound: nobody is waited for any longer
		t.turnAt = time.Now()
		t.schedule(0)
		t.broadcast()
	})
	return true
}
