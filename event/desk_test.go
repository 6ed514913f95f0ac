package event

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// deskEvent is a progressive ten-point event of 9 people (byes) whose
// first round is played: 8 at two tables, one sitting out; entry 9,
// "Twin", joined during round 1 and plays from round 2.
func deskEvent(t *testing.T) *Event {
	t.Helper()
	e, err := New(Settings{Variant: "ten-point", Rounds: 4, End: EndMatch, Movement: Progressive, SwitchPartners: true}, 77)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 9 {
		e.Join(fmt.Sprint("P", i))
	}
	if _, err := e.NextRound(); err != nil {
		t.Fatal(err)
	}
	e.Join("Twin")
	e.Record(0, 0, teamResult(0, 52, 30))
	e.Record(0, 1, teamResult(1, 40, 20))
	return e
}

func snapshot(t *testing.T, e *Event) string {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDeskRefusals: each bad desk action is refused with a message that
// says what is wrong, and leaves the event exactly as it was.
func TestDeskRefusals(t *testing.T) {
	e := deskEvent(t)
	e.NextRound() // round 2 in play
	seated := e.Rounds[1].Tables[0].Seats
	a, b := seated[0], seated[1]
	dup, _ := New(Settings{Variant: "ten-point", Rounds: 1, End: EndHands, Hands: 1, Movement: Duplicate}, 1)
	for i := range 4 {
		dup.Join(fmt.Sprint(i))
	}
	dup.NextRound()
	dup.Record(0, 0, teamResult(0, 5, 0))
	for _, tt := range []struct {
		name string
		ev   *Event
		do   func(e *Event) error
		want string
	}{
		{"rename unknown", e, func(e *Event) error { return e.Rename(99, "X") }, "no entry 99: entries are 0 to 9"},
		{"rename same", e, func(e *Event) error { return e.Rename(0, "P0") }, "called P0 already"},
		{"merge into itself", e, func(e *Event) error { return e.Merge(3, 3) }, "cannot be merged into itself"},
		{"merge unknown", e, func(e *Event) error { return e.Merge(3, -1) }, "no entry -1"},
		{"merge same round", e, func(e *Event) error { return e.Merge(a, b) }, "were both seated in round 1"},
		{"withdraw unknown", e, func(e *Event) error { _, err := e.Withdraw(10); return err }, "no entry 10"},
		{"adjust unfinished", e, func(e *Event) error { return e.Adjust(1, 0, []int{1, 2, 1, 2}, "typo") }, "table 1 of round 2 has not finished"},
		{"adjust no reason", e, func(e *Event) error { return e.Adjust(0, 0, []int{1, 2, 1, 2}, "  ") }, "needs a reason of 1 to 200"},
		{"adjust long reason", e, func(e *Event) error { return e.Adjust(0, 0, []int{1, 2, 1, 2}, strings.Repeat("é", 201)) }, "not 201"},
		{"adjust no round", e, func(e *Event) error { return e.Adjust(5, 0, []int{1, 2, 1, 2}, "x") }, "no round 6: the rounds seated are 1 to 2"},
		{"adjust no table", e, func(e *Event) error { return e.Adjust(0, 7, []int{1, 2, 1, 2}, "x") }, "no table 8 in round 1: its tables are 1 to 2"},
		{"adjust seats", e, func(e *Event) error { return e.Adjust(0, 0, []int{1, 2}, "x") }, "give 4 scores, one a seat, not 2"},
		{"adjust partners", e, func(e *Event) error { return e.Adjust(0, 0, []int{1, 2, 3, 2}, "x") }, "partners share their side's score: seats 1 and 3 have 1 and 3"},
		{"adjust same", e, func(e *Event) error { return e.Adjust(0, 0, []int{52, 30, 52, 30}, "x") }, "nothing to adjust"},
		{"adjust range", e, func(e *Event) error { return e.Adjust(0, 0, []int{10000, 0, 10000, 0}, "x") }, "out of range"},
		{"adjust duplicate", dup, func(e *Event) error { return e.Adjust(0, 0, []int{1, 0, 1, 0}, "x") }, "compared deal by deal"},
	} {
		before := snapshot(t, tt.ev)
		err := tt.do(tt.ev)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
		if after := snapshot(t, tt.ev); after != before {
			t.Errorf("%s: the event changed:\n%s\n%s", tt.name, before, after)
		}
	}
	// Merging someone at a table in play into one never seated is
	// refused.
	fresh, _ := e.Join("Fresh")
	before := snapshot(t, e)
	if err := e.Merge(a, fresh); err == nil || !strings.Contains(err.Error(), "is playing table 1 of round 2") || snapshot(t, e) != before {
		t.Errorf("merge of someone playing: %v", err)
	}
}

// TestDeskMerge: a double entry's seats and results are credited to the
// other entry; it leaves the standings; its token's holder is the other.
func TestDeskMerge(t *testing.T) {
	e := deskEvent(t)
	// Entry 9 (Twin) joined during round 1 and was never seated: the one
	// who played round 1 as p is the same person.
	var p int
	for _, id := range e.Rounds[0].Tables[1].Seats {
		p = id
	}
	pTotal := 0
	for _, s := range e.Standings() {
		if s.Entry == p {
			pTotal = s.Total
		}
	}
	if err := e.Leave(p); err != nil { // they left, then joined again as Twin
		t.Fatal(err)
	}
	if err := e.Merge(p, 9); err != nil {
		t.Fatal(err)
	}
	if e.Resolve(p) != 9 || e.Entries[9].Joined != 0 || e.Entries[9].Left != -1 {
		t.Errorf("after merge: resolve %d, Twin %+v; want 9, joined 0, playing", e.Resolve(p), e.Entries[9])
	}
	st := e.Standings()
	var twin *Standing
	for i := range st {
		if st[i].Entry == p {
			t.Errorf("the merged entry is in the standings: %+v", st[i])
		}
		if st[i].Entry == 9 {
			twin = &st[i]
		}
	}
	if twin == nil || twin.Total != pTotal || twin.Rounds != 1 {
		t.Fatalf("Twin's standing %+v, want %d from round 1", twin, pTotal)
	}
	if err := e.Merge(9, p); err == nil || !strings.Contains(err.Error(), "was merged into Twin") {
		t.Errorf("merging back: %v", err)
	}
	r2, _ := e.NextRound()
	seated := slices.Contains(r2.Byes, 9)
	for _, tab := range r2.Tables {
		if slices.Contains(tab.Seats, p) {
			t.Errorf("round 2: the merged entry is seated: %v", tab.Seats)
		}
		seated = seated || slices.Contains(tab.Seats, 9)
	}
	if !seated {
		t.Errorf("round 2: Twin is neither seated nor sitting out")
	}
	if l := e.Log[len(e.Log)-1]; l.Action != ActMerge || l.Entry != p || l.Into != 9 {
		t.Errorf("log %+v", l)
	}
}

// TestDeskWithdraw: a no-show withdrawn mid-round no longer counts for
// that round (a bot plays the seat) and is seated nowhere after; one
// withdrawn between rounds is just not seated (under byes nobody takes
// the place: the tables are made of who is left).
func TestDeskWithdraw(t *testing.T) {
	e := deskEvent(t)
	e.NextRound()
	x := e.Rounds[1].Tables[0].Seats[2]
	from, err := e.Withdraw(x)
	if err != nil || from != 1 || !e.BotPlays(x, 1) || e.Counts(x, 1) || !e.Entries[x].Withdrawn {
		t.Fatalf("withdraw mid-round: from %d, %v; bot plays %v, counts %v", from, err, e.BotPlays(x, 1), e.Counts(x, 1))
	}
	if _, err := e.Withdraw(x); err == nil || !strings.Contains(err.Error(), "has left the event already") {
		t.Errorf("withdraw twice: %v", err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	playAll(t, e, 1, rng)
	// Between rounds: y withdrawn, seated nowhere in round 3.
	y := e.Rounds[1].Tables[1].Seats[0]
	if from, err := e.Withdraw(y); err != nil || from != 2 || !e.Counts(y, 1) {
		t.Fatalf("withdraw between rounds: %d, %v, round 2 counts %v", from, err, e.Counts(y, 1))
	}
	r3, err := e.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range r3.Tables {
		if slices.Contains(tab.Seats, x) || slices.Contains(tab.Seats, y) || slices.Contains(tab.Seats, Bot) {
			t.Errorf("round 3 %v: the withdrawn %d, %d seated, or a bot", tab.Seats, x, y)
		}
	}
	if slices.Contains(r3.Byes, x) || slices.Contains(r3.Byes, y) || len(r3.Byes) != 0 {
		t.Errorf("round 3 byes %v: 8 left, two full tables", r3.Byes)
	}
	for _, s := range e.Standings() {
		if (s.Entry == x || s.Entry == y) && !(s.Withdrawn && s.Left) {
			t.Errorf("%+v: want withdrawn and left", s)
		}
		if s.Entry == x && s.Rounds != 1 {
			t.Errorf("%+v: want round 1 only counted", s)
		}
	}
}

// TestDeskAdjust: an adjusted result feeds the standings and the next
// round's movement, and its reason is shown with those it concerns.
func TestDeskAdjust(t *testing.T) {
	e := deskEvent(t)
	tab := e.Rounds[0].Tables[0] // side 0 won 52 to 30
	if err := e.Adjust(0, 0, []int{30, 52, 30, 52}, " scores swapped on the card "); err != nil {
		t.Fatal(err)
	}
	if w := e.Winners(0, 0); !slices.Equal(w, []int{1, 3}) {
		t.Errorf("winners after the adjustment %v, want seats 1 and 3", w)
	}
	for _, s := range e.Standings() {
		seat := slices.Index(tab.Seats, s.Entry)
		if seat < 0 {
			if len(s.Adjusted) != 0 {
				t.Errorf("%+v: a note of a table they did not sit at", s)
			}
			continue
		}
		want := map[bool]int{true: 30, false: 52}[seat%2 == 0]
		if s.Total != want || len(s.Adjusted) != 1 || s.Adjusted[0] != (Note{Round: 1, Table: 1, Reason: "scores swapped on the card"}) {
			t.Errorf("%+v: want total %d and the reason", s, want)
		}
	}
	e.NextRound()
	// The adjusted winners (seats 1, 3) stay at the head table.
	head := e.Rounds[1].Tables[0].Seats
	if !slices.Contains(head, tab.Seats[1]) || !slices.Contains(head, tab.Seats[3]) {
		t.Errorf("round 2 head table %v: want the adjusted winners %d and %d", head, tab.Seats[1], tab.Seats[3])
	}
	if l := e.Log[len(e.Log)-1]; l.Action != ActAdjust || !slices.Equal(l.Before, []int{52, 30, 52, 30}) || l.Round != 1 || l.Table != 1 {
		t.Errorf("log %+v", l)
	}
	if a := e.Rounds[0].Tables[0].Adjusted; a == nil || !slices.Equal(a.Was, []int{52, 30, 52, 30}) {
		t.Errorf("adjusted %+v", a)
	}
}

// TestDeskAddRename: a late entry added by the host plays from the next
// round; a rename shows everywhere; both are logged.
func TestDeskAddRename(t *testing.T) {
	e := deskEvent(t)
	i, err := e.AddLate("Walk-in")
	if err != nil || e.Entries[i].Joined != 1 {
		t.Fatalf("add: %d %v %+v", i, err, e.Entries)
	}
	if err := e.Rename(i, "Walk-in Wanda"); err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, l := range e.Log {
		got = append(got, fmt.Sprint(l.Action, " ", l.Entry, " ", l.Name, " ", l.Was))
	}
	if want := []string{"add 10 Walk-in ", "rename 10 Walk-in Wanda Walk-in"}; !slices.Equal(got, want) {
		t.Errorf("log %q, want %q", got, want)
	}
}
