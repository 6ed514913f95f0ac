package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch/store/storetest"
)

// The suite runs against SQLite always and against PostgreSQL when
// PITCH_TEST_POSTGRES holds a URL (each test then gets a schema of its
// own, dropped afterwards).

// fresher gives a test the DSN of an empty database of its own.
type fresher func(t *testing.T) string

func TestSQLite(t *testing.T) {
	runSuite(t, func(t *testing.T) string {
		return filepath.Join(t.TempDir(), "pitch.db")
	})
}

func TestPostgres(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	runSuite(t, func(t *testing.T) string {
		t.Helper()
		return storetest.FreshPostgres(t, base)
	})
}

func runSuite(t *testing.T, fresh fresher) {
	tests := []struct {
		name string
		f    func(t *testing.T, fresh fresher)
	}{
		{"CreateAndRead", testCreateAndRead},
		{"CreateValidation", testCreateValidation},
		{"TablesOrderAndUnfinished", testTablesOrderAndUnfinished},
		{"ClaimSeat", testClaimSeat},
		{"AppendSeq", testAppendSeq},
		{"AppendAtomic", testAppendAtomic},
		{"HandsAndFinished", testHandsAndFinished},
		{"UnknownTable", testUnknownTable},
		{"Reopen", testReopen},
		{"ConcurrentAppends", testConcurrentAppends},
		{"ConcurrentSameSeq", testConcurrentSameSeq},
		{"ConcurrentOpen", testConcurrentOpen},
		{"TouchAndClose", testTouchAndClose},
		{"ByHintsNext", testByHintsNext},
		{"FairDeals", testFairDeals},
		{"Tournaments", testTournaments},
		{"Commitments", testCommitments},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.f(t, fresh) })
	}
}

var ctx = context.Background()

func open(t *testing.T, dsn string) Store {
	t.Helper()
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func hash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// newTable is a four-seat table: seats 0 and 2 human (free), 1 and 3 bots.
func newTable(id string, created time.Time) *Table {
	return &Table{
		ID:        id,
		Variant:   "auction",
		Options:   json.RawMessage(`{"target":11, "players":4}`),
		Seed:      1<<63 + 12345, // needs all 64 bits
		TurnTimer: 30,
		Created:   created,
		Seats: []Seat{
			{Seat: 0, Kind: "human"},
			{Seat: 1, Kind: "bot", Level: "easy", Name: "Bot Ann"},
			{Seat: 2, Kind: "human"},
			{Seat: 3, Kind: "bot", Level: "hard", Name: "Bot Bo"},
		},
	}
}

func mustCreate(t *testing.T, s Store, tb *Table) {
	t.Helper()
	if err := s.CreateTable(ctx, tb); err != nil {
		t.Fatalf("CreateTable(%s): %v", tb.ID, err)
	}
}

func action(seq int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"seat":%d,"bid":%d}`, seq%4, seq))
}

func mustAppend(t *testing.T, s Store, id string, a Append) {
	t.Helper()
	if err := s.Append(ctx, id, a); err != nil {
		t.Fatalf("Append(%s, %d): %v", id, a.Event.Seq, err)
	}
}

func appendN(t *testing.T, s Store, id string, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		mustAppend(t, s, id, Append{Event: Event{Seq: i, Action: action(i)}})
	}
}

// seqs lists the numbers and checks the actions of a table's log.
func seqs(t *testing.T, s Store, id string) []int {
	t.Helper()
	evs, err := s.Events(ctx, id)
	if err != nil {
		t.Fatalf("Events(%s): %v", id, err)
	}
	got := []int{}
	for _, e := range evs {
		got = append(got, e.Seq)
		if want := action(e.Seq); !bytes.Equal(e.Action, want) {
			t.Errorf("event %d of %s: action %s, want %s", e.Seq, id, e.Action, want)
		}
	}
	return got
}

func upTo(n int) []int {
	s := []int{}
	for i := range n {
		s = append(s, i)
	}
	return s
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func mustTable(t *testing.T, s Store, id string) *Table {
	t.Helper()
	tb, err := s.Table(ctx, id)
	if err != nil {
		t.Fatalf("Table(%s): %v", id, err)
	}
	return tb
}

func checkTable(t *testing.T, got, want *Table) {
	t.Helper()
	if got.ID != want.ID || got.Variant != want.Variant || got.Seed != want.Seed ||
		got.TurnTimer != want.TurnTimer || got.Finished != want.Finished {
		t.Errorf("table = {%s %s seed %d timer %d finished %v}, want {%s %s seed %d timer %d finished %v}",
			got.ID, got.Variant, got.Seed, got.TurnTimer, got.Finished,
			want.ID, want.Variant, want.Seed, want.TurnTimer, want.Finished)
	}
	if !bytes.Equal(got.Options, want.Options) {
		t.Errorf("options = %q, want %q", got.Options, want.Options)
	}
	if !got.Created.Equal(want.Created) {
		t.Errorf("created = %v, want %v", got.Created, want.Created)
	}
	if len(got.Seats) != len(want.Seats) {
		t.Fatalf("%d seats, want %d: %+v", len(got.Seats), len(want.Seats), got.Seats)
	}
	for i, g := range got.Seats {
		w := want.Seats[i]
		if g.Seat != w.Seat || g.Kind != w.Kind || g.Level != w.Level || g.Name != w.Name || !bytes.Equal(g.TokenHash, w.TokenHash) {
			t.Errorf("seat %d = %+v, want %+v", i, g, w)
		}
		if (g.TokenHash == nil) != (w.TokenHash == nil) {
			t.Errorf("seat %d token hash nil = %v, want %v", i, g.TokenHash == nil, w.TokenHash == nil)
		}
	}
}

func testCreateAndRead(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	created := time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.FixedZone("x", 3600))
	tb := newTable("t1", created)
	tb.Seats[2].Name = "Cy" // a human seat claimed at creation
	tb.Seats[2].TokenHash = hash("cy")
	mustCreate(t, s, tb)

	want := newTable("t1", time.Date(2025, 3, 4, 4, 6, 7, 123456000, time.UTC)) // µs, UTC
	want.Seats[2].Name = "Cy"
	want.Seats[2].TokenHash = hash("cy")
	got := mustTable(t, s, "t1")
	checkTable(t, got, want)
	if got.Created.Location() != time.UTC {
		t.Errorf("created in %v, want UTC", got.Created.Location())
	}

	// No options, no seats, no creation time.
	before := time.Now().Add(-time.Second)
	bare := &Table{ID: "bare", Variant: "pawnee"}
	mustCreate(t, s, bare)
	got = mustTable(t, s, "bare")
	if got.Options != nil {
		t.Errorf("options = %q, want nil", got.Options)
	}
	if len(got.Seats) != 0 {
		t.Errorf("seats = %+v, want none", got.Seats)
	}
	if got.Created.Before(before) || got.Created.After(time.Now().Add(time.Second)) {
		t.Errorf("created = %v, want about now", got.Created)
	}
	if !got.Created.Equal(bare.Created) {
		t.Errorf("created = %v, CreateTable set %v", got.Created, bare.Created)
	}

	// The same ID again.
	err := s.CreateTable(ctx, newTable("t1", created))
	if !errors.Is(err, ErrConflict) {
		t.Errorf("CreateTable(existing ID) = %v, want ErrConflict", err)
	}
}

func testCreateValidation(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	tests := []struct {
		name string
		edit func(*Table)
	}{
		{"no ID", func(tb *Table) { tb.ID = "" }},
		{"no variant", func(tb *Table) { tb.Variant = "" }},
		{"bad kind", func(tb *Table) { tb.Seats[1].Kind = "robot" }},
		{"seat twice", func(tb *Table) { tb.Seats[1].Seat = 0 }},
		{"bad options", func(tb *Table) { tb.Options = json.RawMessage(`{"target":`) }},
	}
	for i, tc := range tests {
		tb := newTable("v"+strconv.Itoa(i), time.Time{})
		tc.edit(tb)
		if err := s.CreateTable(ctx, tb); err == nil {
			t.Errorf("%s: CreateTable succeeded, want an error", tc.name)
		}
	}
	list, err := s.Tables(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("after refused creations, %d tables exist", len(list))
	}
}

func testTablesOrderAndUnfinished(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		id  string
		off time.Duration
	}{{"c", 2 * time.Second}, {"a", 0}, {"d", 3 * time.Second}, {"b", time.Second}} {
		mustCreate(t, s, newTable(c.id, t0.Add(c.off)))
	}
	mustAppend(t, s, "b", Append{Event: Event{Seq: 0, Action: action(0)}, Finished: true})

	tests := []struct {
		unfinished bool
		want       []string
	}{
		{false, []string{"a", "b", "c", "d"}},
		{true, []string{"a", "c", "d"}},
	}
	for _, tc := range tests {
		list, err := s.Tables(ctx, tc.unfinished)
		if err != nil {
			t.Fatalf("Tables(%v): %v", tc.unfinished, err)
		}
		var got []string
		for _, tb := range list {
			got = append(got, tb.ID)
			if len(tb.Seats) != 4 || tb.Seats[3].Name != "Bot Bo" {
				t.Errorf("Tables(%v): table %s seats = %+v, want the four created", tc.unfinished, tb.ID, tb.Seats)
			}
			if wantFinished := tb.ID == "b"; tb.Finished != wantFinished {
				t.Errorf("Tables(%v): table %s finished = %v, want %v", tc.unfinished, tb.ID, tb.Finished, wantFinished)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Tables(%v) = %v, want %v", tc.unfinished, got, tc.want)
		}
	}
}

func testClaimSeat(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	mustCreate(t, s, newTable("t", time.Time{}))

	if err := s.ClaimSeat(ctx, "t", 0, "Ann", hash("ann")); err != nil {
		t.Fatalf("ClaimSeat(free human seat): %v", err)
	}
	tests := []struct {
		name  string
		id    string
		seat  int
		want  error
		inErr string
	}{
		{"taken", "t", 0, ErrConflict, "store: claim seat 0 of table t"},
		{"bot seat", "t", 1, ErrConflict, "bot"},
		{"no such seat", "t", 7, ErrNotFound, "seat 7"},
		{"no such table", "nope", 0, ErrNotFound, "table nope"},
	}
	for _, tc := range tests {
		err := s.ClaimSeat(ctx, tc.id, tc.seat, "Mallory", hash("mallory"))
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: ClaimSeat = %v, want %v", tc.name, err, tc.want)
		} else if !strings.Contains(err.Error(), tc.inErr) {
			t.Errorf("%s: error %q does not mention %q", tc.name, err, tc.inErr)
		}
	}
	if err := s.ClaimSeat(ctx, "t", 2, "Cy", nil); err == nil || errors.Is(err, ErrConflict) {
		t.Errorf("ClaimSeat with no token hash = %v, want a plain error", err)
	}

	got := mustTable(t, s, "t")
	want := newTable("t", got.Created)
	want.Seats[0].Name = "Ann"
	want.Seats[0].TokenHash = hash("ann")
	checkTable(t, got, want)
}

func testAppendSeq(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	mustCreate(t, s, newTable("t", time.Time{}))
	at := time.Date(2025, 6, 7, 8, 9, 10, 987654321, time.UTC)
	mustAppend(t, s, "t", Append{Event: Event{Seq: 0, Action: json.RawMessage(`{"seat": 1, "bid": 5}`), At: at}})
	mustAppend(t, s, "t", Append{Event: Event{Seq: 1, Action: json.RawMessage(`{"seat":2,"pass":true}`)}})

	for _, seq := range []int{0, 1, 3, 100, -1} { // used numbers, gaps, negative
		err := s.Append(ctx, "t", Append{Event: Event{Seq: seq, Action: action(seq)}})
		if !errors.Is(err, ErrConflict) {
			t.Errorf("Append(seq %d) with 2 events = %v, want ErrConflict", seq, err)
			continue
		}
		if want := fmt.Sprintf("store: append event %d to table t: ", seq); !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Append(seq %d) error %q, want it to start %q", seq, err, want)
		}
	}
	if err := s.Append(ctx, "t", Append{Event: Event{Seq: 2, Action: json.RawMessage(`{"seat":`)}}); err == nil {
		t.Errorf("Append(invalid JSON) succeeded")
	}

	evs, err := s.Events(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	wantActions := []string{`{"seat": 1, "bid": 5}`, `{"seat":2,"pass":true}`}
	if len(evs) != len(wantActions) {
		t.Fatalf("%d events, want %d: %+v", len(evs), len(wantActions), evs)
	}
	for i, e := range evs {
		if e.Seq != i || string(e.Action) != wantActions[i] {
			t.Errorf("event %d = {%d %s}, want {%d %s}", i, e.Seq, e.Action, i, wantActions[i])
		}
	}
	if want := time.Date(2025, 6, 7, 8, 9, 10, 987654000, time.UTC); !evs[0].At.Equal(want) {
		t.Errorf("event 0 at %v, want %v", evs[0].At, want)
	}
	if d := time.Since(evs[1].At); d < -time.Second || d > time.Minute {
		t.Errorf("event 1 at %v, want about now (zero At means now)", evs[1].At)
	}
	mustAppend(t, s, "t", Append{Event: Event{Seq: 2, Action: action(2)}})
}

// testAppendAtomic: a refused append writes nothing, neither its event nor
// its hand nor the finished flag.
func testAppendAtomic(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	mustCreate(t, s, newTable("t", time.Time{}))
	appendN(t, s, "t", 0, 3)
	mustAppend(t, s, "t", Append{Event: Event{Seq: 3, Action: action(3)}, Hand: &Hand{N: 1, Record: json.RawMessage(`{"hand":1}`)}})

	tests := []struct {
		name string
		a    Append
		want error
	}{
		{"gap", Append{Event: Event{Seq: 5, Action: action(5)}, Hand: &Hand{N: 2, Record: json.RawMessage(`{"hand":2}`)}, Finished: true}, ErrConflict},
		{"duplicate", Append{Event: Event{Seq: 3, Action: action(3)}, Hand: &Hand{N: 2, Record: json.RawMessage(`{"hand":2}`)}, Finished: true}, ErrConflict},
		{"hand recorded twice", Append{Event: Event{Seq: 4, Action: action(4)}, Hand: &Hand{N: 1, Record: json.RawMessage(`{"hand":"again"}`)}, Finished: true}, ErrConflict},
		{"bad hand record", Append{Event: Event{Seq: 4, Action: action(4)}, Hand: &Hand{N: 2, Record: json.RawMessage(`{`)}, Finished: true}, nil},
		{"hand 0", Append{Event: Event{Seq: 4, Action: action(4)}, Hand: &Hand{N: 0, Record: json.RawMessage(`{}`)}, Finished: true}, nil},
	}
	for _, tc := range tests {
		err := s.Append(ctx, "t", tc.a)
		if err == nil {
			t.Errorf("%s: Append succeeded", tc.name)
		} else if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: Append = %v, want %v", tc.name, err, tc.want)
		}
		if got := seqs(t, s, "t"); !equalInts(got, upTo(4)) {
			t.Errorf("%s: events %v after a refused append, want %v", tc.name, got, upTo(4))
		}
		hands, err := s.Hands(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		if len(hands) != 1 || string(hands[0].Record) != `{"hand":1}` {
			t.Errorf("%s: hands %+v after a refused append, want only hand 1", tc.name, hands)
		}
		if mustTable(t, s, "t").Finished {
			t.Errorf("%s: table finished after a refused append", tc.name)
		}
	}
}

func testHandsAndFinished(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	mustCreate(t, s, newTable("t", time.Time{}))
	mustCreate(t, s, newTable("other", time.Time{}))
	rec1 := json.RawMessage(`{"variant":"auction","hand":1,  "actions":[]}`)
	rec2 := json.RawMessage(`{"variant":"auction","hand":2}`)

	appendN(t, s, "t", 0, 3)
	mustAppend(t, s, "t", Append{Event: Event{Seq: 3, Action: action(3)}, Hand: &Hand{N: 1, Record: rec1}})
	if h, err := s.Hands(ctx, "other"); err != nil || len(h) != 0 {
		t.Errorf("Hands(other) = %+v, %v; want none", h, err)
	}
	appendN(t, s, "t", 4, 7)
	if mustTable(t, s, "t").Finished {
		t.Errorf("table finished before an append said so")
	}
	mustAppend(t, s, "t", Append{Event: Event{Seq: 7, Action: action(7)}, Hand: &Hand{N: 2, Record: rec2}, Finished: true})

	hands, err := s.Hands(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	want := []Hand{{1, rec1}, {2, rec2}}
	if len(hands) != len(want) {
		t.Fatalf("hands = %+v, want %d", hands, len(want))
	}
	for i := range want {
		if hands[i].N != want[i].N || !bytes.Equal(hands[i].Record, want[i].Record) {
			t.Errorf("hand %d = {%d %s}, want {%d %s}", i, hands[i].N, hands[i].Record, want[i].N, want[i].Record)
		}
	}
	// The hands' final actions are in the log with them.
	if got := seqs(t, s, "t"); !equalInts(got, upTo(8)) {
		t.Errorf("events %v, want %v", got, upTo(8))
	}
	if !mustTable(t, s, "t").Finished {
		t.Errorf("table not finished after the finishing append")
	}
	if mustTable(t, s, "other").Finished {
		t.Errorf("the other table finished too")
	}
}

func testUnknownTable(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	mustCreate(t, s, newTable("t", time.Time{}))
	checks := []struct {
		name string
		err  error
	}{
		{"Table", func() error { _, err := s.Table(ctx, "nope"); return err }()},
		{"Events", func() error { _, err := s.Events(ctx, "nope"); return err }()},
		{"Hands", func() error { _, err := s.Hands(ctx, "nope"); return err }()},
		{"Append", s.Append(ctx, "nope", Append{Event: Event{Seq: 0, Action: action(0)}})},
	}
	for _, c := range checks {
		if !errors.Is(c.err, ErrNotFound) {
			t.Errorf("%s(unknown table) = %v, want ErrNotFound", c.name, c.err)
		} else if !strings.Contains(c.err.Error(), "nope") {
			t.Errorf("%s(unknown table) error %q does not name the table", c.name, c.err)
		}
	}
	if evs, err := s.Events(ctx, "t"); err != nil || evs == nil || len(evs) != 0 {
		t.Errorf("Events(new table) = %#v, %v; want an empty log", evs, err)
	}
}

func testReopen(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, newTable("t", time.Time{}))
	if err := s.ClaimSeat(ctx, "t", 2, "Cy", hash("cy")); err != nil {
		t.Fatal(err)
	}
	appendN(t, s, "t", 0, 5)
	mustAppend(t, s, "t", Append{Event: Event{Seq: 5, Action: action(5)}, Hand: &Hand{N: 1, Record: json.RawMessage(`{"n":1}`)}, Finished: true})
	wantTable := mustTable(t, s, "t")
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	for round := range 2 { // and a second time: migrations run again harmlessly
		s = open(t, dsn)
		checkTable(t, mustTable(t, s, "t"), wantTable)
		if got := seqs(t, s, "t"); !equalInts(got, upTo(6)) {
			t.Errorf("round %d: events %v, want %v", round, got, upTo(6))
		}
		if h, err := s.Hands(ctx, "t"); err != nil || len(h) != 1 || string(h[0].Record) != `{"n":1}` {
			t.Errorf("round %d: hands = %+v, %v", round, h, err)
		}
		if err := s.ClaimSeat(ctx, "t", 2, "Dee", hash("dee")); !errors.Is(err, ErrConflict) {
			t.Errorf("round %d: claim of the seat claimed before the reopen = %v, want ErrConflict", round, err)
		}
		s.Close()
	}
}

func testConcurrentAppends(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	const tables, events = 8, 25
	for i := range tables {
		mustCreate(t, s, newTable("t"+strconv.Itoa(i), time.Time{}))
	}
	var wg sync.WaitGroup
	errs := make(chan error, tables*events+tables)
	for i := range tables {
		id := "t" + strconv.Itoa(i)
		wg.Add(2)
		go func() { // a writer per table
			defer wg.Done()
			for seq := range events {
				var hand *Hand
				if seq%10 == 9 {
					hand = &Hand{N: seq/10 + 1, Record: json.RawMessage(`{}`)}
				}
				if err := s.Append(ctx, id, Append{Event: Event{Seq: seq, Action: action(seq)}, Hand: hand}); err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() { // and a reader beside it
			defer wg.Done()
			for range 5 {
				if _, err := s.Events(ctx, id); err != nil {
					errs <- err
					return
				}
				if _, err := s.Tables(ctx, true); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent: %v", err)
	}
	for i := range tables {
		id := "t" + strconv.Itoa(i)
		if got := seqs(t, s, id); !equalInts(got, upTo(events)) {
			t.Errorf("table %s: events %v, want %v", id, got, upTo(events))
		}
		if h, err := s.Hands(ctx, id); err != nil || len(h) != 2 {
			t.Errorf("table %s: hands %+v, %v; want 2", id, h, err)
		}
	}
}

// testConcurrentSameSeq: of many appends of the same number to one table,
// exactly one lands.
func testConcurrentSameSeq(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	mustCreate(t, s, newTable("t", time.Time{}))
	appendN(t, s, "t", 0, 2)
	const n = 8
	results := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			results <- s.Append(ctx, "t", Append{Event: Event{Seq: 2, Action: action(2)}})
		})
	}
	wg.Wait()
	close(results)
	ok := 0
	for err := range results {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrConflict):
			t.Errorf("racing append: %v, want nil or ErrConflict", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d racing appends landed, want 1", ok)
	}
	if got := seqs(t, s, "t"); !equalInts(got, upTo(3)) {
		t.Errorf("events %v, want %v", got, upTo(3))
	}
}

// testConcurrentOpen: several opens of a new database at once (as several
// processes would) all migrate it without error, and only once.
func testConcurrentOpen(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	const n = 4
	stores := make([]Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = Open(ctx, dsn) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("open %d: %v", i, errs[i])
			continue
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	if t.Failed() {
		return
	}
	ms, err := migrations(stores[0].(*sqlStore).d.name)
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := stores[0].(*sqlStore).r.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != len(ms) {
		t.Errorf("schema_migrations has %d rows, want %d", rows, len(ms))
	}
	mustCreate(t, stores[1], newTable("t", time.Time{}))
	appendN(t, stores[2], "t", 0, 1)
	if got := seqs(t, stores[3], "t"); !equalInts(got, upTo(1)) {
		t.Errorf("events %v, want [0]", got)
	}
}

// SQLite only.

func TestSQLitePragmas(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "p.db")).(*sqlStore)
	tests := []struct {
		db     *sql.DB
		pragma string
		want   string
	}{
		{s.w, "journal_mode", "wal"},
		{s.w, "synchronous", "2"}, // FULL
		{s.w, "foreign_keys", "1"},
		{s.w, "busy_timeout", "10000"},
		{s.r, "foreign_keys", "1"},
		{s.r, "busy_timeout", "10000"},
		{s.r, "query_only", "1"},
	}
	for _, tc := range tests {
		var got string
		if err := tc.db.QueryRowContext(ctx, "PRAGMA "+tc.pragma).Scan(&got); err != nil {
			t.Fatalf("PRAGMA %s: %v", tc.pragma, err)
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s = %s, want %s", tc.pragma, got, tc.want)
		}
	}
	if got := s.w.Stats().MaxOpenConnections; got != 1 {
		t.Errorf("writer pool allows %d connections, want 1", got)
	}
}

func TestSQLiteDSNForms(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		dsn  string
		file string
	}{
		{filepath.Join(dir, "plain.db"), "plain.db"},
		{"file:" + filepath.Join(dir, "file.db"), "file.db"},
		{"sqlite:" + filepath.Join(dir, "sqlite.db"), "sqlite.db"},
		{"sqlite://" + filepath.Join(dir, "slashes.db"), "slashes.db"},
	}
	for _, tc := range tests {
		s, err := Open(ctx, tc.dsn)
		if err != nil {
			t.Errorf("Open(%q): %v", tc.dsn, err)
			continue
		}
		mustCreate(t, s, newTable("t", time.Time{}))
		s.Close()
		if _, err := os.Stat(filepath.Join(dir, tc.file)); err != nil {
			t.Errorf("Open(%q) made no %s: %v", tc.dsn, tc.file, err)
		}
	}

	t.Chdir(dir)
	s, err := Open(ctx, "")
	if err != nil {
		t.Fatalf(`Open(""): %v`, err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, DefaultPath)); err != nil {
		t.Errorf(`Open("") made no %s: %v`, DefaultPath, err)
	}
}

// TestOpenErrors: a database that cannot be used gives a clear error
// naming it, never a panic or a silently read-only store.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	roFile := filepath.Join(dir, "ro.db")
	s := open(t, roFile)
	mustCreate(t, s, newTable("t", time.Time{}))
	s.Close()
	if err := os.Chmod(roFile, 0o444); err != nil {
		t.Fatal(err)
	}

	roDir := filepath.Join(dir, "rodir")
	if err := os.Mkdir(roDir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(roDir, 0o755) })

	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 500), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		dsn  string
		want []string // in the message
		not  string   // never in the message
	}{
		{roFile, []string{"store: open " + roFile + ": ", "read-only"}, ""},
		{filepath.Join(roDir, "new.db"), []string{"store: open " + roDir, "read-only"}, ""},
		{filepath.Join(dir, "missing", "x.db"), []string{"store: open ", "directory", "no such file"}, ""},
		{dir, []string{"store: open ", "directory"}, ""},
		{garbage, []string{"store: open " + garbage + ": ", "not a SQLite database"}, ""},
		{"postgres://pitch:s3cret@127.0.0.1:1/pitch?sslmode=disable", []string{"store: open postgres://pitch:", "127.0.0.1:1", "cannot connect"}, "s3cret"},
		{"mysql://u@h/db", []string{"store: open mysql://", "unsupported"}, ""},
	}
	for _, tc := range tests {
		s, err := Open(ctx, tc.dsn)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded, want an error", tc.dsn)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Open(%q) = %q, want it to contain %q", tc.dsn, err, w)
			}
		}
		if tc.not != "" && strings.Contains(err.Error(), tc.not) {
			t.Errorf("Open(%q) = %q, shows %q", tc.dsn, err, tc.not)
		}
	}
	if _, err := os.Stat(filepath.Join(roDir, "new.db")); err == nil {
		t.Errorf("a database file was made in the read-only directory")
	}
}

// TestKill9: every append that returned survives the process being killed
// at once. A child process (this test binary again) appends and prints each
// number once Append has returned; the parent kills it and reopens.
func TestKill9(t *testing.T) {
	if path := os.Getenv("PITCH_STORE_KILL9_CHILD"); path != "" {
		kill9Child(path)
		return
	}
	if testing.Short() {
		t.Skip("short")
	}
	path := filepath.Join(t.TempDir(), "k.db")
	s := open(t, path)
	mustCreate(t, s, newTable("t", time.Time{}))
	s.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestKill9$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PITCH_STORE_KILL9_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const killAt = 60
	acked := -1
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		n, err := strconv.Atoi(sc.Text())
		if err != nil {
			continue // test framework chatter
		}
		acked = n
		if acked == killAt {
			cmd.Process.Kill() // SIGKILL
			break
		}
	}
	for sc.Scan() { // what it acknowledged before it died
		if n, err := strconv.Atoi(sc.Text()); err == nil {
			acked = n
		}
	}
	cmd.Wait()
	if acked < killAt {
		t.Fatalf("the child acknowledged only up to %d before it ended", acked)
	}
	s = open(t, path)
	got := seqs(t, s, "t")
	if len(got) < acked+1 || !equalInts(got[:acked+1], upTo(acked+1)) {
		t.Errorf("after kill -9 at acknowledged event %d the log is %v", acked, got)
	}
}

func kill9Child(path string) {
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	deadline := time.Now().Add(30 * time.Second) // the parent kills us long before
	for seq := 0; time.Now().Before(deadline); seq++ {
		if err := s.Append(ctx, "t", Append{Event: Event{Seq: seq, Action: action(seq)}}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Fprintln(w, seq)
		w.Flush()
	}
	os.Exit(3)
}

// testTouchAndClose: Touch records the latest time a table saw someone
// (never an earlier one); a closed table keeps its record and is left out
// of the unfinished tables; unknown tables are ErrNotFound to CloseTable.
func testTouchAndClose(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	s := open(t, dsn)
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"a", "b", "c"} {
		mustCreate(t, s, newTable(id, t0.Add(time.Duration(i)*time.Second)))
	}
	appendN(t, s, "b", 0, 3)
	if tb, err := s.Table(ctx, "a"); err != nil || !tb.Active.IsZero() || tb.Closed {
		t.Fatalf("a new table: active %v closed %v (%v), want zero and open", tb.Active, tb.Closed, err)
	}
	later := t0.Add(48 * time.Hour)
	if err := s.Touch(ctx, later, "a", "b", "nope"); err != nil {
		t.Fatal(err)
	}
	if err := s.Touch(ctx, t0.Add(time.Hour), "a"); err != nil { // earlier: no change
		t.Fatal(err)
	}
	if err := s.Touch(ctx, later); err != nil { // no ids: nothing to do
		t.Fatal(err)
	}
	if tb, _ := s.Table(ctx, "a"); !tb.Active.Equal(later) {
		t.Errorf("a: active %v, want %v", tb.Active, later)
	}
	if tb, _ := s.Table(ctx, "c"); !tb.Active.IsZero() {
		t.Errorf("c was not touched, yet active is %v", tb.Active)
	}
	if err := s.CloseTable(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseTable(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("closing no table: %v, want ErrNotFound", err)
	}
	s.Close()
	s = open(t, dsn) // it lasts
	var ids []string
	list, err := s.Tables(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range list {
		ids = append(ids, tb.ID)
		if len(tb.Seats) != 4 {
			t.Errorf("table %s: %d seats", tb.ID, len(tb.Seats))
		}
	}
	if strings.Join(ids, ",") != "a,c" {
		t.Errorf("unfinished tables %v, want a,c (b is closed)", ids)
	}
	tb, err := s.Table(ctx, "b")
	if err != nil || !tb.Closed || len(tb.Seats) != 4 {
		t.Fatalf("the closed table: %+v (%v), want it kept, closed", tb, err)
	}
	if ev, err := s.Events(ctx, "b"); err != nil || len(ev) != 3 {
		t.Errorf("the closed table's log: %d events (%v), want its 3", len(ev), err)
	}
	if all, _ := s.Tables(ctx, false); len(all) != 3 {
		t.Errorf("all tables: %d, want 3", len(all))
	}
}

// testByHintsNext: who made an action, a table's hints setting and its next
// match are stored and read back, across a reopen; the next match is set once.
func testByHintsNext(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	s := open(t, dsn)
	tb := newTable("t", time.Time{})
	tb.NoHints = true
	mustCreate(t, s, tb)
	mustCreate(t, s, newTable("u", time.Time{}))
	mustAppend(t, s, "t", Append{Event: Event{Seq: 0, Action: action(0)}})
	mustAppend(t, s, "t", Append{Event: Event{Seq: 1, Action: action(1), By: "timer"}})
	mustAppend(t, s, "t", Append{Event: Event{Seq: 2, Action: action(2), By: "stand-in"}})
	if err := s.SetNext(ctx, "t", "u"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetNext(ctx, "t", "u"); err != nil {
		t.Errorf("setting the same next again: %v, want nil", err)
	}
	if err := s.SetNext(ctx, "t", "v"); !errors.Is(err, ErrConflict) {
		t.Errorf("setting another next: %v, want ErrConflict", err)
	}
	if err := s.SetNext(ctx, "nope", "u"); !errors.Is(err, ErrNotFound) {
		t.Errorf("next of no table: %v, want ErrNotFound", err)
	}
	s.Close()
	s = open(t, dsn)
	ev, err := s.Events(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ev {
		got = append(got, e.By)
	}
	if want := []string{"", "timer", "stand-in"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("by %q, want %q", got, want)
	}
	for _, c := range []struct {
		id      string
		noHints bool
		next    string
	}{{"t", true, "u"}, {"u", false, ""}} {
		got, err := s.Table(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if got.NoHints != c.noHints || got.Next != c.next {
			t.Errorf("table %s: no hints %v, next %q; want %v, %q", c.id, got.NoHints, got.Next, c.noHints, c.next)
		}
	}
}

// testCommitments: a table's commitments are stored, their pending deals
// replaced by commitment, and read back by hand and time across a reopen;
// bad input is refused.
func testCommitments(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	s := open(t, dsn)
	mustCreate(t, s, newTable("t", time.Time{}))
	mustCreate(t, s, newTable("u", time.Time{}))
	for _, c := range []Commitment{
		{N: 2, Commitment: "c2", At: "2026-01-01T00:00:02.000000Z", Pending: json.RawMessage(`{"v":1}`)},
		{N: 1, Commitment: "c1b", At: "2026-01-01T00:00:01.000000Z", Pending: json.RawMessage(`{"v":1}`)},
		{N: 1, Commitment: "c1a", At: "2026-01-01T00:00:00.000000Z", Pending: json.RawMessage(`{"v":1}`)},
		{N: 2, Commitment: "c2", At: "2026-01-01T00:00:02.000000Z", Pending: json.RawMessage(`{"v":2}`)}, // a contribution came
	} {
		if err := s.SaveCommitment(ctx, "t", c); err != nil {
			t.Fatalf("SaveCommitment %+v: %v", c, err)
		}
	}
	if err := s.SaveCommitment(ctx, "nope", Commitment{N: 1, Commitment: "x", At: "a", Pending: json.RawMessage(`{}`)}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a commitment of no table: %v, want ErrNotFound", err)
	}
	if err := s.SaveCommitment(ctx, "t", Commitment{N: 0, Commitment: "x", At: "a", Pending: json.RawMessage(`{}`)}); err == nil || !strings.Contains(err.Error(), "not positive") {
		t.Errorf("hand 0: %v, want an error saying it is not positive", err)
	}
	if err := s.SaveCommitment(ctx, "t", Commitment{N: 1, Commitment: "x", At: "a", Pending: json.RawMessage(`{`)}); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("bad JSON: %v", err)
	}
	s.Close()
	s = open(t, dsn)
	defer s.Close()
	cs, err := s.Commitments(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprintf("%d:%s:%s", c.N, c.Commitment, c.Pending))
	}
	if want := []string{`1:c1a:{"v":1}`, `1:c1b:{"v":1}`, `2:c2:{"v":2}`}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("commitments %q, want %q", got, want)
	}
	if cs, err := s.Commitments(ctx, "u"); err != nil || cs == nil || len(cs) != 0 {
		t.Errorf("commitments of a table with none: %v, %v; want an empty list", cs, err)
	}
	if _, err := s.Commitments(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("commitments of no table: %v, want ErrNotFound", err)
	}
}

// testFairDeals: a table's fair-deals flag and its deals are stored and
// read back in order of hand, across a reopen; a hand is dealt once; a
// table from before has the flag off.
func testFairDeals(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	s := open(t, dsn)
	tb := newTable("t", time.Time{})
	tb.FairDeals = true
	mustCreate(t, s, tb)
	mustCreate(t, s, newTable("u", time.Time{}))
	for _, n := range []int{2, 1} {
		if err := s.AddDeal(ctx, "t", Deal{N: n, Data: json.RawMessage(fmt.Sprintf(`{"hand":%d}`, n))}); err != nil {
			t.Fatalf("AddDeal %d: %v", n, err)
		}
	}
	if err := s.AddDeal(ctx, "t", Deal{N: 1, Data: json.RawMessage(`{"again":true}`)}); !errors.Is(err, ErrConflict) {
		t.Errorf("dealing hand 1 again: %v, want ErrConflict", err)
	}
	if err := s.AddDeal(ctx, "nope", Deal{N: 1, Data: json.RawMessage(`{}`)}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a deal of no table: %v, want ErrNotFound", err)
	}
	if err := s.AddDeal(ctx, "t", Deal{N: 0, Data: json.RawMessage(`{}`)}); err == nil || !strings.Contains(err.Error(), "not positive") {
		t.Errorf("hand 0: %v, want an error saying it is not positive", err)
	}
	if err := s.AddDeal(ctx, "t", Deal{N: 3, Data: json.RawMessage(`{`)}); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("bad JSON: %v", err)
	}
	s.Close()
	s = open(t, dsn)
	ds, err := s.Deals(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%d:%s", d.N, d.Data))
	}
	if want := []string{`1:{"hand":1}`, `2:{"hand":2}`}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("deals %q, want %q", got, want)
	}
	if ds, err := s.Deals(ctx, "u"); err != nil || ds == nil || len(ds) != 0 {
		t.Errorf("deals of a table with none: %v, %v; want an empty list", ds, err)
	}
	if _, err := s.Deals(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("deals of no table: %v, want ErrNotFound", err)
	}
	for id, want := range map[string]bool{"t": true, "u": false} {
		got, err := s.Table(ctx, id)
		if err != nil || got.FairDeals != want {
			t.Errorf("table %s: fair deals %v (%v), want %v", id, got.FairDeals, err, want)
		}
	}
	all, _ := s.Tables(ctx, false)
	for _, tb := range all {
		if tb.FairDeals != (tb.ID == "t") {
			t.Errorf("Tables: table %s has fair deals %v", tb.ID, tb.FairDeals)
		}
	}
}
