package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pitch/store/storetest"
)

func TestHistoryAndReviewsSQLite(t *testing.T) {
	testHistoryAndReviews(t, open(t, filepath.Join(t.TempDir(), "pitch.db")))
}

func TestHistoryAndReviewsPostgres(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	testHistoryAndReviews(t, open(t, storetest.FreshPostgres(t, base)))
}

func testHistoryAndReviews(t *testing.T, s Store) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		tb := newTable(id, t0.Add(time.Duration(i)*time.Minute))
		if i%2 == 1 {
			tb.Variant = "pawnee"
		}
		mustCreate(t, s, tb)
	}
	// c finished two hands, the second ending the match.
	mustAppend(t, s, "c", Append{Event: Event{Seq: 0, Action: action(0)}, Hand: &Hand{N: 1, Record: json.RawMessage(`{"n":1}`)}})
	mustAppend(t, s, "c", Append{Event: Event{Seq: 1, Action: action(1)}, Hand: &Hand{N: 2, Record: json.RawMessage(`{"n":2}`)}, Finished: true})

	page, total, err := s.History(ctx, HistoryQuery{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if total != 5 || len(page) != 2 || page[0].Table.ID != "e" || page[1].Table.ID != "d" {
		t.Fatalf("the first page: total %d, %v", total, ids(page))
	}
	if len(page[0].Table.Seats) != 4 || page[0].Table.Seats[3].Name != "Bot Bo" {
		t.Errorf("seats of e: %+v", page[0].Table.Seats)
	}
	page, _, _ = s.History(ctx, HistoryQuery{Offset: 2, Limit: 2})
	if len(page) != 2 || page[0].Table.ID != "c" || page[0].Hands != 2 || string(page[0].Last) != `{"n":2}` || !page[0].Table.Finished {
		t.Fatalf("the second page: %v, c has %d hands, last %s", ids(page), page[0].Hands, page[0].Last)
	}
	if page[1].Hands != 0 || page[1].Last != nil {
		t.Errorf("b: %d hands, last %s", page[1].Hands, page[1].Last)
	}
	page, total, _ = s.History(ctx, HistoryQuery{Offset: 4, Limit: 2})
	if total != 5 || len(page) != 1 || page[0].Table.ID != "a" {
		t.Errorf("the last page: %v", ids(page))
	}
	page, total, _ = s.History(ctx, HistoryQuery{Variant: "pawnee", Limit: 10})
	if total != 2 || len(page) != 2 || page[0].Table.ID != "d" || page[1].Table.ID != "b" {
		t.Errorf("pawnee: total %d, %v", total, ids(page))
	}
	page, total, _ = s.History(ctx, HistoryQuery{IDs: []string{"a", "c", "zz"}, Limit: 10})
	if total != 2 || len(page) != 2 || page[0].Table.ID != "c" {
		t.Errorf("a, c and zz: total %d, %v", total, ids(page))
	}
	page, total, _ = s.History(ctx, HistoryQuery{IDs: []string{}, Limit: 10})
	if total != 0 || len(page) != 0 {
		t.Errorf("no ids: total %d, %v", total, ids(page))
	}

	if err := s.PutReview(ctx, "c", Review{N: 1, Seat: 2, Data: json.RawMessage(`{"seat":2}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReview(ctx, "c", Review{N: 1, Seat: 2, Data: json.RawMessage(`{"seat":2,"again":true}`)}); err != nil {
		t.Errorf("the same review again: %v", err)
	}
	if err := s.PutReview(ctx, "c", Review{N: 1, Seat: 0, Data: json.RawMessage(`{"seat":0}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReview(ctx, "nope", Review{N: 1, Seat: 0, Data: json.RawMessage(`{}`)}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a review of no table: %v", err)
	}
	if err := s.PutReview(ctx, "c", Review{N: 1, Seat: 0, Data: json.RawMessage(`{`)}); err == nil {
		t.Error("a review that is not JSON stored")
	}
	got, err := s.Reviews(ctx, "c")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Seat != 0 || got[1].Seat != 2 || string(got[1].Data) != `{"seat":2}` {
		t.Errorf("reviews of c: %+v", got)
	}
	if _, err := s.Reviews(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("reviews of no table: %v", err)
	}
	one, err := s.Review(ctx, "c", 1, 2)
	if err != nil || one.N != 1 || one.Seat != 2 || string(one.Data) != `{"seat":2}` {
		t.Errorf("review of c hand 1 seat 2: %+v, %v", one, err)
	}
	for _, k := range [][2]int{{1, 1}, {2, 2}} {
		if _, err := s.Review(ctx, "c", k[0], k[1]); !errors.Is(err, ErrNotFound) {
			t.Errorf("review of c hand %d seat %d, not made: %v", k[0], k[1], err)
		}
	}
	if _, err := s.Review(ctx, "nope", 1, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("a review of no table: %v", err)
	}
}

func ids(page []Summary) []string {
	var out []string
	for _, p := range page {
		out = append(out, p.Table.ID)
	}
	return out
}
