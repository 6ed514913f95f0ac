package store

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestKeptStatements: on SQLite every statement of an append and the
// batch's savepoints is prepared once, when the store opens, and appends
// run through them: the next event number is stored, a wrong one is a
// conflict and changes nothing, and the store closes them when it closes.
func TestKeptStatements(t *testing.T) {
	st := open(t, filepath.Join(t.TempDir(), "kept.db")).(*sqlStore)
	for _, q := range keptQueries {
		if st.prepared(q) == nil {
			t.Errorf("%q is not kept prepared", q)
		}
	}
	if err := st.CreateTable(ctx, newTable("kept", time.Now())); err != nil {
		t.Fatal(err)
	}
	for seq := range 3 {
		if err := st.Append(ctx, "kept", Append{Event: Event{Seq: seq, Action: []byte(`{"seat":0,"bid":2}`), At: time.Now()}}); err != nil {
			t.Fatalf("append %d: %v", seq, err)
		}
	}
	if err := st.Append(ctx, "kept", Append{Event: Event{Seq: 1, Action: []byte(`{"seat":0,"bid":2}`), At: time.Now()}}); !errors.Is(err, ErrConflict) {
		t.Errorf("an event number taken: %v, want a conflict", err)
	}
	if events, err := st.Events(ctx, "kept"); err != nil || len(events) != 3 {
		t.Errorf("%d events (%v), want 3", len(events), err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st.prepared(keptQueries[0]) != nil {
		t.Error("a kept statement outlives the store")
	}
}
