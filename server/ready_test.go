package server_test

import (
	"slices"
	"testing"
	"time"
)

// TestReadyAfterSummary: when a hand ends, the table waits for the people
// reading its summary (those whose client said so in its hello): no bot
// moves and no turn timer runs behind the summary until they say ready,
// and the wait's bound (Options.ReadyWait) ends it when they do not. The
// state that ends a hand carries the finished hand as the seat saw it at
// its end, until the next hand's first move.
func TestReadyAfterSummary(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		opts := fastOptions()
		opts.ReadyWait = 3 * time.Second
		ts := startServer(t, fresh(t), opts)
		tab := ts.create(`{"variant":"auction","options":{"target":21},"turn_timer":1,"seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		h := newHub(t, ts, tab.ID, 5)
		h.summary = true
		reading := false
		h.hold = func(c *client, m *wire) bool { return reading }
		c0 := h.connect("seat 0", 0, ts.join(tab.ID, 0, "Ann"), true)
		spec := h.connect("spectator", -1, "", false) // a spectator sees no summary and is not waited for
		h.run(30*time.Second, "hand 1 to end", func() bool { return c0.last != nil && len(c0.last.Sheet) == 1 })
		ended, seq := time.Now(), c0.last.Seq
		reading = true // seat 0 reads the summary: it makes no move
		if got := c0.last.Reading; !slices.Equal(got, []int{0}) {
			t.Errorf("after hand 1 the state says reading %v, want [0]", got)
		}
		lh := c0.last.LastHand
		if lh == nil || lh.View == nil || lh.View.Phase != "done" || len(lh.Log) == 0 || lh.Log[len(lh.Log)-1].kind() != "play" {
			t.Fatalf("the state that ends hand 1 lacks the finished hand as seat 0 saw it: %+v", lh)
		}

		// Twice the turn timer: nobody moves, no clock runs.
		time.Sleep(2*time.Second - time.Since(ended))
		h.run(time.Second, "the messages of those two seconds", func() bool { return len(h.in) == 0 })
		if c0.last.Seq != seq {
			t.Fatalf("while seat 0 read the summary, the table went on from seq %d to %d", seq, c0.last.Seq)
		}
		if spec.last == nil || spec.last.Seq != seq || spec.last.LastHand == nil || spec.last.LastHand.View == nil {
			t.Error("the spectator is not sent the finished hand as it was")
		}
		for _, m := range c0.msgs {
			if m.Type == "state" && m.Seq == seq && m.Timer != nil {
				t.Errorf("a turn timer %+v runs while seat 0 reads the summary", *m.Timer)
			}
		}

		// The bound ends the wait; seat 0 still makes no move, so the
		// table goes on without it.
		h.run(10*time.Second, "the wait's bound", func() bool { return c0.last.Seq > seq })
		if waited := time.Since(ended); waited < opts.ReadyWait-100*time.Millisecond {
			t.Errorf("play went on %v after the hand ended, before the %v bound, though seat 0 never said ready", waited, opts.ReadyWait)
		}
		if c0.last.Reading != nil {
			t.Errorf("after the bound the state still says reading %v", c0.last.Reading)
		}
		if lh := c0.last.LastHand; lh == nil || lh.View != nil || lh.Log != nil {
			t.Error("after the next hand's first move the state still carries the finished hand's view and log")
		}

		// Hand 2: seat 0 says ready at once, and play goes on at once.
		reading = false
		h.run(60*time.Second, "hand 2 to end", func() bool { return len(c0.last.Sheet) == 2 })
		if c0.last.Over {
			t.Fatal("the match ended at hand 2; the test wants a third hand")
		}
		ended, seq = time.Now(), c0.last.Seq
		c0.send(map[string]any{"type": "ready", "hand": 1}) // an old hand's: changes nothing
		c0.send(map[string]any{"type": "ready", "hand": 2})
		h.run(10*time.Second, "play to go on after ready", func() bool { return c0.last.Seq > seq })
		if waited := time.Since(ended); waited > opts.ReadyWait/2 {
			t.Errorf("play went on %v after seat 0 said ready, want at once", waited)
		}
		checkMessages(t, ts.st, tab.ID, h.clients)
	})
}

// TestReadyLateClock: a person still reading a hand's summary when the
// wait's bound passes is not played for. The states say how long the
// table waits (reading_left_ms); at the bound it goes on, but when the
// reader's turn comes no turn timer runs and no stand-in moves until they
// say ready, and then the timer has its whole time. A page that never says
// ready gets the clock one more ReadyWait after the bound.
func TestReadyLateClock(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		opts := fastOptions()
		opts.ReadyWait = 4 * time.Second
		ts := startServer(t, fresh(t), opts)
		tab := ts.create(`{"variant":"auction","options":{"target":21},"turn_timer":1,"seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		h := newHub(t, ts, tab.ID, 7)
		h.summary = true
		still := false // seat 0 makes no move of its own: the table's timer plays for it
		h.hold = func(c *client, m *wire) bool { return still }
		c0 := h.connect("seat 0", 0, ts.join(tab.ID, 0, "Ann"), true)
		h.run(30*time.Second, "hand 1 to end", func() bool { return c0.last != nil && len(c0.last.Sheet) == 1 })
		ended, seq := time.Now(), c0.last.Seq
		still = true
		if left := c0.last.ReadingLeftMS; left <= 0 || left > opts.ReadyWait.Milliseconds() {
			t.Errorf("after hand 1 the state says reading_left_ms %d, want within (0, %d]", left, opts.ReadyWait.Milliseconds())
		}
		myTurn := func() bool { return c0.last.Seq > seq && c0.last.View.Turn == 0 && len(c0.last.Legal) > 0 }
		h.run(20*time.Second, "seat 0's turn after the bound", myTurn)
		if waited := time.Since(ended); waited < opts.ReadyWait-100*time.Millisecond {
			t.Errorf("play went on %v after the hand ended, before the %v bound", waited, opts.ReadyWait)
		}
		if c0.last.Reading != nil || c0.last.ReadingLeftMS != 0 {
			t.Errorf("after the bound the state says reading %v, reading_left_ms %d", c0.last.Reading, c0.last.ReadingLeftMS)
		}
		turnSeq, logLen := c0.last.Seq, len(c0.last.Log)
		// Past the turn timer: seat 0 still reads, and nothing is played
		// for it (the late bound, 2*ReadyWait after the hand, is further).
		time.Sleep(1500 * time.Millisecond)
		h.run(time.Second, "the messages of that pause", func() bool { return len(h.in) == 0 })
		if time.Since(ended) >= 2*opts.ReadyWait {
			t.Skip("the machine was too slow to see the pause before the late bound")
		}
		if c0.last.Seq != turnSeq {
			t.Fatalf("while seat 0 read the summary after the bound, a move was made for it (seq %d to %d)", turnSeq, c0.last.Seq)
		}
		for _, m := range c0.msgs {
			if m.Type == "state" && m.Seq == turnSeq && m.Timer != nil {
				t.Errorf("a turn timer %+v ran for seat 0 while it read the summary", *m.Timer)
			}
		}
		c0.send(map[string]any{"type": "ready", "hand": 1})
		readyAt := time.Now()
		h.run(10*time.Second, "seat 0's clock after ready", func() bool { return c0.last.Timer != nil || c0.last.Seq != turnSeq })
		if tm := c0.last.Timer; tm == nil || tm.Seat != 0 || tm.LeftMS < tm.TotalMS/2 || tm.TotalMS != 1000 {
			t.Fatalf("after ready the timer is %+v, want seat 0's whole second", tm)
		}
		h.run(10*time.Second, "the timer's move for seat 0", func() bool { return c0.last.Seq != turnSeq })
		if took := time.Since(readyAt); took < 900*time.Millisecond {
			t.Errorf("the timer played for seat 0 %v after it said ready, want its whole second", took)
		}
		// The first move after seat 0's turn began (a slow reader may
		// have skipped to a later state, with more moves after it).
		if len(c0.last.Log) <= logLen {
			t.Fatalf("the state after seat 0's turn holds %d moves, no more than the %d before it", len(c0.last.Log), logLen)
		}
		if e := c0.last.Log[logLen]; e.Seat != 0 || e.By != "timer" {
			t.Errorf("seat 0's move after ready is %+v, want one by the timer", e)
		}

		// Hand 2: seat 0 never says ready: its clock starts at the late
		// bound, and the timer plays for it then.
		h.run(90*time.Second, "hand 2 to end", func() bool { return len(c0.last.Sheet) == 2 })
		if c0.last.Over {
			checkMessages(t, ts.st, tab.ID, h.clients)
			return
		}
		ended, seq = time.Now(), c0.last.Seq
		h.run(20*time.Second, "seat 0's turn in hand 3", myTurn)
		h.run(20*time.Second, "seat 0's clock at the late bound", func() bool { return c0.last.Timer != nil && c0.last.Timer.Seat == 0 })
		if waited := time.Since(ended); waited < 2*opts.ReadyWait-100*time.Millisecond {
			t.Errorf("seat 0's clock started %v after hand 2 ended, before the late bound %v", waited, 2*opts.ReadyWait)
		}
		checkMessages(t, ts.st, tab.ID, h.clients)
	})
}
