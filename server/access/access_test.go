package access

import (
	"context"
	"testing"
)

// kindOf is what a table, hand or deal belongs to, for the decision table.
type kindOf int

const (
	own       kindOf = iota // a table of its own
	progress                // a table of an event's progressive or mixed round
	duplicate               // a table of a duplicate round
	daily                   // a daily deal's table (a solo duplicate event)
)

func subjectOf(k kindOf, m Moment) Subject {
	s := Subject{Hand: m, Round: m}
	switch k {
	case progress:
		s.Event = true
	case duplicate:
		s.Event, s.Duplicate = true, true
	case daily:
		s.Event, s.Duplicate, s.Solo, s.Daily = true, true, true, true
	}
	return s
}

// TestDecide is the policy as a table of (resource × what it belongs to ×
// moment) → allowed, for every kind of viewer but the account holder's
// own data (TestDecideAccountData). Each row is written out: a change
// of rule must change a row here.
func TestDecide(t *testing.T) {
	// Columns: before, during, after.
	all, never, after := [3]bool{true, true, true}, [3]bool{false, false, false}, [3]bool{false, false, true}
	table := map[Resource]map[kindOf][3]bool{
		TableInfo:    {own: all, progress: all, duplicate: all, daily: all},
		TableLive:    {own: all, progress: all, duplicate: all, daily: all},
		HandList:     {own: all, progress: all, duplicate: all, daily: all},
		HandRecord:   {own: after, progress: after, duplicate: after, daily: after},
		MatchRecords: {own: all, progress: all, duplicate: all, daily: all},
		HistoryEntry: {own: all, progress: all, duplicate: all, daily: all},
		EventInfo:    {own: all, progress: all, duplicate: all, daily: all},
		EventTable:   {own: all, progress: all, duplicate: after, daily: after},
		EventResults: {own: all, progress: all, duplicate: all, daily: after},
		DailyInfo:    {own: all, progress: all, duplicate: all, daily: all},
		Profile:      {own: all, progress: all, duplicate: all, daily: all},
		AccountData:  {own: never, progress: never, duplicate: never, daily: never},
	}
	for _, r := range Resources() {
		rows, ok := table[r]
		if !ok {
			t.Errorf("%v has no rows in the decision table", r)
			continue
		}
		for k := own; k <= daily; k++ {
			for _, m := range Moments() {
				for _, kind := range Kinds() {
					if r == AccountData && kind == Operator {
						continue // TestDecideAccountData
					}
					v := Viewer{Kind: kind, Account: "someone"}
					got := Decide(r, v, subjectOf(k, m))
					if want := rows[k][m]; got.Allowed != want {
						t.Errorf("Decide(%v, %v, kind %d, %v) = %v, want allowed %v", r, kind, k, m, got, want)
					}
					if !got.Allowed && got.Reason == "" {
						t.Errorf("Decide(%v, %v, kind %d, %v) refuses without a reason", r, kind, k, m)
					}
				}
			}
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
