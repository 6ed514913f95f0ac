package access

import (
	"context"
	"testing"
)

// kindOf is what a table, hand or deal belongs to, for the decision table.
type kindOf int

const (
	own       kindOf = iota // a casual table of its own
	progress                // a table of an event's progressive or mixed round
	duplicate               // a table of a duplicate round
	daily                   // a daily deal's table (a solo duplicate event)
	rated                   // a rated table of its own
	numKindOf
)

var kindOfNames = [numKindOf]string{"own", "progress", "duplicate", "daily", "rated"}

// subjectOf is a table of kind k with its hand, round and match at m, at
// which the account "seated" holds a seat.
func subjectOf(k kindOf, m Moment) Subject {
	s := Subject{Hand: m, Round: m, Match: m, Players: []string{"seated"}}
	switch k {
	case progress:
		s.Event = true
	case duplicate:
		s.Event, s.Duplicate = true, true
	case daily:
		s.Event, s.Duplicate, s.Solo, s.Daily = true, true, true, true
	case rated:
		s.Rated = true
	}
	return s
}

// TestDecide is the policy as a table of (resource × what it belongs to ×
// moment) → allowed, for viewers not seated at the table (every kind of
// viewer but a seated one) and for the players seated there (by their
// account, or known as seated). Each row is written out: a change of
// rule must change a row here. AccountData is TestDecideAccountData's.
func TestDecide(t *testing.T) {
	// Columns: before, during, after.
	all, after := [3]bool{true, true, true}, [3]bool{false, false, true}
	// docs/events.md, "What stays hidden": a duplicate or daily deal is hidden
	// from everyone not seated at the table until the round (day) is
	// over; the expert's help is off at every competition until it is.
	others := map[Resource][numKindOf][3]bool{
		TableInfo:    {all, all, all, all, all},
		TableLive:    {all, all, after, after, all},
		HandList:     {all, all, after, after, all},
		HandRecord:   {after, after, after, after, after},
		MatchRecords: {all, all, after, after, all},
		HistoryEntry: {all, all, after, after, all},
		EventInfo:    {all, all, all, all, all},
		EventTable:   {all, all, after, after, all},
		EventResults: {all, all, after, after, all},
		DailyInfo:    {all, all, all, all, all},
		Profile:      {all, all, all, all, all},
		Advice:       {all, after, after, after, after},
	}
	seated := map[Resource][numKindOf][3]bool{
		TableInfo:    {all, all, all, all, all},
		TableLive:    {all, all, all, all, all},
		HandList:     {all, all, all, all, all},
		HandRecord:   {after, after, after, after, after},
		MatchRecords: {all, all, all, all, all},
		HistoryEntry: {all, all, all, all, all},
		EventInfo:    {all, all, all, all, all},
		EventTable:   {all, all, after, after, all},
		EventResults: {all, all, after, after, all},
		DailyInfo:    {all, all, all, all, all},
		Profile:      {all, all, all, all, all},
		Advice:       {all, after, after, after, after},
	}
	notSeated := []Viewer{{Kind: Anonymous}, {Kind: Guest}, {Kind: Member, Account: "someone"}, {Kind: Host}, {Kind: Operator}}
	isSeated := []Viewer{{Kind: Seated}, {Kind: Member, Account: "seated"}}
	for _, r := range Resources() {
		if r == AccountData {
			continue
		}
		for _, c := range []struct {
			rows    map[Resource][numKindOf][3]bool
			viewers []Viewer
		}{{others, notSeated}, {seated, isSeated}} {
			rows, ok := c.rows[r]
			if !ok {
				t.Errorf("%v has no rows in the decision table", r)
				continue
			}
			for k := range numKindOf {
				for _, m := range Moments() {
					for _, v := range c.viewers {
						got := Decide(r, v, subjectOf(k, m))
						if want := rows[k][m]; got.Allowed != want {
							t.Errorf("Decide(%v, %v %q, %s table, %v) = %+v, want allowed %v", r, v.Kind, v.Account, kindOfNames[k], m, got, want)
						}
						if !got.Allowed && got.Reason == "" {
							t.Errorf("Decide(%v, %v, %s table, %v) refuses without a reason", r, v.Kind, kindOfNames[k], m)
						}
					}
				}
			}
		}
	}
}

// TestDecideReasons: each refusal says why, so the client is told the
// right thing (httpx.Refused).
func TestDecideReasons(t *testing.T) {
	anyone := Viewer{Kind: Anonymous}
	tests := []struct {
		r    Resource
		s    Subject
		want Reason
	}{
		{HandRecord, subjectOf(own, During), NotFinished},
		{HandRecord, subjectOf(daily, During), NotFinished},
		{HandRecord, Subject{Hand: After, Event: true, Duplicate: true, Round: During}, RoundNotOver},
		{TableLive, subjectOf(duplicate, During), RoundNotOver},
		{EventTable, subjectOf(duplicate, Before), RoundNotOver},
		{Advice, subjectOf(rated, During), Competing},
		{Advice, subjectOf(progress, During), Competing},
		{Advice, subjectOf(daily, During), RoundNotOver},
		{AccountData, Subject{Owner: "a1"}, NotYours},
	}
	for _, tt := range tests {
		if got := Decide(tt.r, anyone, tt.s); got.Allowed || got.Reason != tt.want {
			t.Errorf("Decide(%v, anyone, %+v) = %+v, want refused for %q", tt.r, tt.s, got, tt.want)
		}
	}
}

// TestDecideAccountData: an account's data is its holder's and the
// operator's only.
func TestDecideAccountData(t *testing.T) {
	tests := []struct {
		v    Viewer
		want bool
	}{
		{Viewer{Kind: Member, Account: "a1"}, true},
		{Viewer{Kind: Member, Account: "a2"}, false},
		{Viewer{Kind: Anonymous}, false},
		{Viewer{Kind: Guest}, false},
		{Viewer{Kind: Seated, Account: "a2"}, false},
		{Viewer{Kind: Host}, false},
		{Viewer{Kind: Operator}, true},
	}
	for _, tt := range tests {
		if got := Decide(AccountData, tt.v, Subject{Owner: "a1"}); got.Allowed != tt.want || !got.Allowed && got.Reason != NotYours {
			t.Errorf("Decide(AccountData, %+v) = %+v, want allowed %v", tt.v, got, tt.want)
		}
	}
	// A request's viewer: its account when signed in, else nobody's.
	if !Decide(AccountData, Signed("a1", true), Subject{Owner: "a1"}).Allowed || Decide(AccountData, Signed("a1", false), Subject{Owner: "a1"}).Allowed {
		t.Error("Signed: a signed-in request is not its account's, or one not signed in is")
	}
	// An account with no ID owns nothing: "" never matches "".
	if got := Decide(AccountData, Viewer{Kind: Member}, Subject{}); got.Allowed {
		t.Errorf("an empty account ID was given an empty owner's data")
	}
}

// TestAskTracked: Ask notes that it was asked in a tracked context, and
// answers as Decide does.
func TestAskTracked(t *testing.T) {
	ctx, asked := Track(context.Background())
	if asked() {
		t.Fatal("asked before Ask")
	}
	s := Subject{Event: true, Duplicate: true, Round: During}
	if got, want := Ask(ctx, EventTable, Viewer{}, s), Decide(EventTable, Viewer{}, s); got != want {
		t.Errorf("Ask = %+v, Decide = %+v", got, want)
	}
	if !asked() {
		t.Error("Ask was not noted")
	}
	Ask(context.Background(), TableInfo, Viewer{}, Subject{}) // untracked: no note, no panic
}

// TestNames: every resource, kind and moment has a name of its own.
func TestNames(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Resources() {
		seen[r.String()] = true
	}
	for _, k := range Kinds() {
		seen[k.String()] = true
	}
	for _, m := range Moments() {
		seen[m.String()] = true
	}
	if want := int(numResources) + int(numKinds) + int(numMoments); len(seen) != want {
		t.Errorf("%d distinct names, want %d", len(seen), want)
	}
	if got := Resource(99).String(); got != "Resource(99)" {
		t.Errorf("Resource(99) = %q", got)
	}
}
