package store

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// testTournaments: an event is created at version 1, read back, updated
// only at its current version (a stale update changes nothing), listed
// oldest first, left out of the unfinished list once finished, and kept
// across a reopen.
func testTournaments(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	s := open(t, dsn)
	t0 := time.Date(2026, 3, 1, 19, 0, 0, 123456000, time.UTC)
	a := &Tournament{ID: "evA", Data: json.RawMessage(`{"round":0}`), Created: t0.Add(time.Minute)}
	b := &Tournament{ID: "evB", Data: json.RawMessage(`{"round":0}`), Created: t0}
	for _, tt := range []*Tournament{a, b} {
		if err := s.CreateTournament(ctx, tt); err != nil {
			t.Fatalf("CreateTournament(%s): %v", tt.ID, err)
		}
		if tt.Version != 1 {
			t.Errorf("%s: version %d after create, want 1", tt.ID, tt.Version)
		}
	}
	if err := s.CreateTournament(ctx, &Tournament{ID: "evA", Data: json.RawMessage(`{}`)}); !errors.Is(err, ErrConflict) {
		t.Errorf("creating evA twice: %v, want ErrConflict", err)
	}
	if err := s.CreateTournament(ctx, &Tournament{ID: "evC", Data: json.RawMessage(`{`)}); err == nil {
		t.Errorf("creating an event with bad JSON worked")
	}
	stale := *a
	a.Data = json.RawMessage(`{"round":1}`)
	if err := s.UpdateTournament(ctx, a); err != nil || a.Version != 2 {
		t.Fatalf("UpdateTournament: %v, version %d; want nil, 2", err, a.Version)
	}
	stale.Data = json.RawMessage(`{"round":99}`)
	if err := s.UpdateTournament(ctx, &stale); !errors.Is(err, ErrConflict) {
		t.Errorf("a stale update: %v, want ErrConflict", err)
	}
	if err := s.UpdateTournament(ctx, &Tournament{ID: "nope", Data: json.RawMessage(`{}`), Version: 1}); !errors.Is(err, ErrNotFound) {
		t.Errorf("updating no event: %v, want ErrNotFound", err)
	}
	if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("reading no event: %v, want ErrNotFound", err)
	}
	b.Finished = true
	if err := s.UpdateTournament(ctx, b); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, dsn)
	got, err := s.Tournament(ctx, "evA")
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Data) != `{"round":1}` || got.Version != 2 || !got.Created.Equal(normTime(a.Created)) || got.Finished {
		t.Errorf("evA after reopen: %+v (data %s), want round 1, version 2, created %v, unfinished", got, got.Data, a.Created)
	}
	all, err := s.Tournaments(ctx, false)
	if err != nil || len(all) != 2 || all[0].ID != "evB" || all[1].ID != "evA" {
		t.Errorf("Tournaments(all) = %v, %v; want evB, evA (oldest first)", all, err)
	}
	open, err := s.Tournaments(ctx, true)
	if err != nil || len(open) != 1 || open[0].ID != "evA" {
		t.Errorf("Tournaments(unfinished) = %v, %v; want evA", open, err)
	}
}
