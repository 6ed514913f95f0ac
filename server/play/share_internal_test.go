package play

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

const idChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// TestAssign: 300 tables over 3 processes go 100 ± 15 to each (the cap
// makes it at most 105, so at least 90); when one process leaves, the
// tables of the others mostly stay where they were (rendezvous hashing
// moves the leaver's share), and the same when one joins; every process
// that computes it gets the same answer.
func TestAssign(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3)) // table ids as the server makes them, the same every run
	var tables []string
	for range 300 {
		b := make([]byte, 12)
		for i := range b {
			b[i] = idChars[rng.IntN(len(idChars))]
		}
		tables = append(tables, string(b))
	}
	procs := []string{"host-101-aaaa", "host-102-bbbb", "host-103-cccc"}
	got := assign(tables, procs)
	counts := map[string]int{}
	for _, id := range tables {
		counts[got[id]]++
	}
	for _, p := range procs {
		if n := counts[p]; n < 90 || n > 105 {
			t.Errorf("process %s drives %d of 300 tables, want 100 ± 15 (90 to 105)", p, n)
		}
	}
	if again := assign(tables, []string{procs[2], procs[0], procs[1]}); fmt.Sprint(again) != fmt.Sprint(got) {
		t.Error("the same tables and processes in another order give another assignment")
	}
	moved := func(a, b map[string]string, who string) int {
		n := 0
		for id, p := range a {
			if p == who && b[id] != who {
				n++
			}
		}
		return n
	}
	// procs[0] leaves: its tables go to the others; theirs mostly stay.
	left := assign(tables, procs[1:])
	for _, p := range procs[1:] {
		if n := moved(got, left, p); n > 10 {
			t.Errorf("when a process left, %d of %s's %d tables moved", n, p, counts[p])
		}
	}
	for id, p := range left {
		if p == procs[0] {
			t.Errorf("table %s is still for the process that left", id)
		}
	}
	// A fourth joins: the others give it about a quarter, and keep the rest.
	joined := assign(tables, append(procs, "host-104-dddd"))
	took := 0
	for _, p := range joined {
		if p == "host-104-dddd" {
			took++
		}
	}
	if took < 60 || took > 80 {
		t.Errorf("a process that joined drives %d of 300 tables, want about 75", took)
	}
	for _, p := range procs {
		if n := moved(got, joined, p); n > counts[p]/4+12 {
			t.Errorf("when a process joined, %d of %s's %d tables moved, want about a quarter", n, p, counts[p])
		}
	}
	if len(assign(tables, nil)) != 0 {
		t.Error("tables assigned to no process")
	}
}

// TestReleasedMine: a process takes a released table at once (without a
// lease round) exactly when it is its share: by the last round's shares
// (a process handing a table to it), or, for a table of the releasing
// process (one that drains, already out of the live processes), by the
// shares without that process; a table that is a third process's share
// is left to the lease round.
func TestReleasedMine(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 5))
	var tables []string
	for range 300 {
		b := make([]byte, 12)
		for i := range b {
			b[i] = idChars[rng.IntN(len(idChars))]
		}
		tables = append(tables, string(b))
	}
	procs := []string{"host-101-aaaa", "host-102-bbbb", "host-103-cccc"}
	me, other, drainer := procs[0], procs[1], procs[2]
	share := assign(tables, procs)
	after := assign(tables, []string{me, other})
	cl := &cluster{id: me, open: tables, live: procs, share: share}
	taken := 0
	for _, id := range tables {
		var want bool
		switch share[id] {
		case me:
			want = true // handed to this process by whoever held it
		case drainer:
			want = after[id] == me // the drainer's: this process's share without it
		case other:
			want = false
		}
		if got := cl.mine(id, drainer); got != want {
			t.Errorf("table %s (share %s, without the drainer %s): mine = %v, want %v", id, share[id], after[id], got, want)
		}
		if share[id] == drainer && want {
			taken++
		}
	}
	if taken == 0 {
		t.Errorf("none of the drainer's %d tables is this process's without it", len(tables)/3)
	}
	if mine := (&cluster{id: me}).mine(tables[0], drainer); mine {
		t.Errorf("before any lease round (no shares yet), a released table is taken at once")
	}
}
