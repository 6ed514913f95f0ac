package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"pitch/store/storetest"
)

// The play-now part of the store (playnow.go) on SQLite and, when
// PITCH_TEST_POSTGRES is set, on PostgreSQL.

func TestPlayNowSQLite(t *testing.T) {
	runPlayNow(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "pitch.db") })
}

func TestPlayNowPostgres(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	runPlayNow(t, func(t *testing.T) string { t.Helper(); return storetest.FreshPostgres(t, base) })
}

func runPlayNow(t *testing.T, fresh fresher) {
	t.Run("ClaimTakeOverLeave", func(t *testing.T) { testPlayNowClaim(t, fresh) })
	t.Run("Tables", func(t *testing.T) { testPlayNowTables(t, fresh) })
	t.Run("ConcurrentClaims", func(t *testing.T) { testPlayNowConcurrent(t, fresh) })
	t.Run("ConcurrentSamePerson", func(t *testing.T) { testPlayNowSamePerson(t, fresh) })
	t.Run("RatedAndPopular", func(t *testing.T) { testPlayNowRatedPopular(t, fresh) })
}

// playNowTable is a four-seat play-now auction table: seat 0 held by
// the token "ann" (owner "g:ann"), seats 1 to 3 bots.
func playNowTable(t *testing.T, s Store, id string, created time.Time) {
	t.Helper()
	tb := &Table{ID: id, Variant: "auction", Options: json.RawMessage(`{"target":11}`), Seed: 7, TurnTimer: 30, Created: created, FairDeals: true,
		Seats: []Seat{{Seat: 0, Kind: "human", Name: "Ann", TokenHash: hash("ann" + id)},
			{Seat: 1, Kind: "bot", Level: "medium"}, {Seat: 2, Kind: "bot", Level: "medium"}, {Seat: 3, Kind: "bot", Level: "medium"}}}
	if err := s.CreatePlayNow(ctx, tb, "g:ann"+id, 0); err != nil {
		t.Fatalf("CreatePlayNow(%s): %v", id, err)
	}
}

func claim(s Store, id string, seat int, who string) (bool, error) {
	return s.ClaimPlayNow(ctx, PlaySeat{Table: id, Seat: seat, Name: who, TokenHash: hash(who), Owner: "g:" + who})
}

func testPlayNowClaim(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	playNowTable(t, s, "t", time.Time{})
	mustCreate(t, s, newTable("own", time.Time{})) // a table of someone's own: not play now
	if h, err := s.PlayNowHeld(ctx, "g:annt"); err != nil || h != (Held{"t", 0}) {
		t.Fatalf("PlayNowHeld(creator) = %+v, %v; want seat 0 of t", h, err)
	}
	if pending, err := claim(s, "t", 1, "bob"); err != nil || !pending {
		t.Fatalf("claim of bot seat 1 = %v, %v; want a pending takeover", pending, err)
	}
	for _, tc := range []struct {
		id   string
		seat int
		who  string
		want error
	}{
		{"t", 1, "cat", ErrConflict},   // claimed by bob already: one owner
		{"t", 0, "cat", ErrConflict},   // a person's seat
		{"t", 2, "bob", ErrHeld},       // bob holds a claim already
		{"own", 1, "cat", ErrConflict}, // not a play-now table
		{"t", 9, "cat", ErrNotFound},
		{"nope", 1, "cat", ErrNotFound},
	} {
		if _, err := claim(s, tc.id, tc.seat, tc.who); !errors.Is(err, tc.want) {
			t.Errorf("claim(%s seat %d by %s) = %v, want %v", tc.id, tc.seat, tc.who, err, tc.want)
		}
	}
	tb := mustTable(t, s, "t")
	if c := tb.Seats[1].Claim; !tb.PlayNow || c == nil || c.Name != "bob" || string(c.TokenHash) != string(hash("bob")) || tb.Seats[1].Kind != "bot" {
		t.Fatalf("after the claim: play now %v, seat 1 %+v claim %+v; want a bot's seat claimed by bob", tb.PlayNow, tb.Seats[1], c)
	}
	if tb.Seats[2].Claim != nil || tb.Seats[0].TookOver != nil {
		t.Errorf("a refused claim left a mark: %+v", tb.Seats)
	}
	taken, err := s.TakeOverSeats(ctx, "t", 3, []TookOver{{}, {Bot: 1, Score: 14}, {Bot: 2}, {Bot: 3}})
	if err != nil || len(taken) != 1 || taken[0] != 1 {
		t.Fatalf("TakeOverSeats = %v, %v; want [1]", taken, err)
	}
	tb = mustTable(t, s, "t")
	if st := tb.Seats[1]; st.Kind != "human" || st.Name != "bob" || string(st.TokenHash) != string(hash("bob")) || st.Claim != nil ||
		st.TookOver == nil || *st.TookOver != (TookOver{Bot: 1, Hand: 3, Score: 14}) {
		t.Fatalf("after the takeover seat 1 is %+v (took over %+v), want bob's, from Bot 1 at 14 before hand 3", st, st.TookOver)
	}
	if taken, err := s.TakeOverSeats(ctx, "t", 3, nil); err != nil || len(taken) != 0 {
		t.Errorf("a second TakeOverSeats = %v, %v; want nothing", taken, err)
	}
	// A claim withdrawn, then bob leaving: the seat is a bot's again.
	if _, err := claim(s, "t", 2, "cat"); err != nil {
		t.Fatal(err)
	}
	if err := s.LeaveSeat(ctx, "t", 2, hash("cat"), "medium", 4); err != nil {
		t.Fatalf("withdrawing cat's claim: %v", err)
	}
	if err := s.LeaveSeat(ctx, "t", 1, hash("cat"), "medium", 4); !errors.Is(err, ErrConflict) {
		t.Errorf("leaving bob's seat with cat's token = %v, want ErrConflict", err)
	}
	if err := s.LeaveSeat(ctx, "t", 1, hash("bob"), "easy", 5); err != nil {
		t.Fatalf("bob leaving: %v", err)
	}
	tb = mustTable(t, s, "t")
	if st := tb.Seats[1]; st.Kind != "bot" || st.Level != "easy" || st.Name != "" || st.TokenHash != nil || st.TookOver != nil {
		t.Errorf("after bob left seat 1 is %+v, want an easy bot's", st)
	}
	if tb.Seats[2].Claim != nil {
		t.Errorf("cat's withdrawn claim is still there: %+v", tb.Seats[2].Claim)
	}
	// Who held each seat from which hand: Ann seat 0 all along, bob seat
	// 1 for hands 3 and 4 between its bot's, cat's withdrawn claim no
	// holder.
	want := map[int]string{0: "[{1 human Ann }]", 1: "[{1 bot  } {3 human bob } {5 bot  }]", 2: "[{1 bot  }]"}
	for seat, w := range want {
		if got := fmt.Sprint(tb.Seats[seat].Holders); got != w {
			t.Errorf("seat %d holders %s, want %s", seat, got, w)
		}
	}
	for _, who := range []string{"g:bob", "g:cat"} {
		if _, err := s.PlayNowHeld(ctx, who); !errors.Is(err, ErrNotFound) {
			t.Errorf("PlayNowHeld(%s) after leaving = %v, want ErrNotFound", who, err)
		}
	}
	// Bob may play again; a finished table frees its people's holds.
	if _, err := claim(s, "t", 3, "bob"); err != nil {
		t.Fatalf("bob's second claim: %v", err)
	}
	mustAppend(t, s, "t", Append{Event: Event{Seq: 0, Action: action(0)}, Hand: &Hand{N: 1, Record: json.RawMessage(`{}`)}, Finished: true})
	if _, err := s.PlayNowHeld(ctx, "g:bob"); !errors.Is(err, ErrNotFound) {
		t.Errorf("PlayNowHeld at a finished table = %v, want ErrNotFound", err)
	}
	if _, err := claim(s, "t", 2, "dan"); !errors.Is(err, ErrConflict) {
		t.Errorf("a claim at a finished table = %v, want ErrConflict", err)
	}
	playNowTable(t, s, "u", time.Time{})
	if _, err := claim(s, "u", 1, "bob"); err != nil {
		t.Errorf("bob's claim once his table finished: %v", err)
	}
}

func testPlayNowTables(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	playNowTable(t, s, "b", base.Add(time.Second))
	playNowTable(t, s, "a", base)
	other := &Table{ID: "p", Variant: "pawnee", Seed: 1, TurnTimer: 30, Seats: []Seat{{Seat: 0, Kind: "human", TokenHash: hash("x")}}}
	if err := s.CreatePlayNow(ctx, other, "g:x", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.CreatePlayNow(ctx, &Table{ID: "q", Variant: "pawnee", Seed: 1, Seats: []Seat{{Seat: 0, Kind: "human", TokenHash: hash("y")}}}, "g:x", 0); !errors.Is(err, ErrHeld) {
		t.Errorf("a second table for one person = %v, want ErrHeld", err)
	}
	if _, err := s.Table(ctx, "q"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the refused table was stored: %v", err)
	}
	mustCreate(t, s, newTable("own", base))
	if _, err := claim(s, "a", 2, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseTable(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	playNowTable(t, s, "c", base.Add(2*time.Second))
	for _, tc := range []struct {
		variant, opts string
		timer         int
		want          string
	}{
		{"auction", `{"target":11}`, 30, "[a c]"},
		{"auction", `{"target":11}`, 15, "[]"},
		{"auction", `{"target":21}`, 30, "[]"},
		{"pawnee", ``, 30, "[p]"},
	} {
		list, err := s.PlayNowTables(ctx, tc.variant, json.RawMessage(tc.opts), tc.timer, false)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, tb := range list {
			ids = append(ids, tb.ID)
			if len(tb.Seats) == 0 {
				t.Errorf("table %s listed without its seats", tb.ID)
			}
			if tb.ID == "a" && (tb.Seats[2].Claim == nil || tb.Seats[2].Claim.Name != "bob") {
				t.Errorf("table a listed without bob's claim: %+v", tb.Seats[2])
			}
		}
		if got := fmt.Sprint(ids); got != tc.want && !(tc.want == "[]" && ids == nil) {
			t.Errorf("PlayNowTables(%s %s %d) = %s, want %s", tc.variant, tc.opts, tc.timer, got, tc.want)
		}
	}
}

// testPlayNowConcurrent: many people claiming one bot's seat at once:
// exactly one gets it, the others are refused, and the seat has one
// claim, theirs.
func testPlayNowConcurrent(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	playNowTable(t, s, "t", time.Time{})
	const n = 24
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _, errs[i] = claim(s, "t", 2, fmt.Sprintf("p%02d", i)) })
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner < 0:
			winner = i
		case err == nil:
			t.Errorf("claims %d and %d both landed on one seat", winner, i)
		case !errors.Is(err, ErrConflict):
			t.Errorf("claim %d: %v, want nil or ErrConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no claim landed")
	}
	c := mustTable(t, s, "t").Seats[2].Claim
	if want := fmt.Sprintf("p%02d", winner); c == nil || c.Name != want {
		t.Errorf("the seat's claim is %+v, want %s's", c, want)
	}
	for i := range n {
		h, err := s.PlayNowHeld(ctx, fmt.Sprintf("g:p%02d", i))
		if i == winner && (err != nil || h != (Held{"t", 2})) || i != winner && !errors.Is(err, ErrNotFound) {
			t.Errorf("PlayNowHeld(p%02d) = %+v, %v", i, h, err)
		}
	}
}

// testPlayNowSamePerson: one person pressing Play in many tabs at once,
// each tab claiming some seat of two tables: one claim lands, the others
// are refused, and the person holds exactly one seat.
func testPlayNowSamePerson(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	playNowTable(t, s, "t", time.Time{})
	playNowTable(t, s, "u", time.Time{})
	const n = 18
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id := []string{"t", "u"}[i%2]
			_, errs[i] = s.ClaimPlayNow(ctx, PlaySeat{Table: id, Seat: 1 + i%3, Name: "Zoe", TokenHash: hash(fmt.Sprint("zoe", i)), Owner: "g:zoe"})
		})
	}
	wg.Wait()
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrHeld) && !errors.Is(err, ErrConflict):
			t.Errorf("tab %d: %v, want nil, ErrHeld or ErrConflict", i, err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d tabs got a seat, want 1", ok)
	}
	h, err := s.PlayNowHeld(ctx, "g:zoe")
	if err != nil {
		t.Fatal(err)
	}
	claims := 0
	for _, id := range []string{"t", "u"} {
		for _, st := range mustTable(t, s, id).Seats {
			if st.Claim != nil {
				claims++
				if id != h.Table || st.Seat != h.Seat {
					t.Errorf("a claim at %s seat %d, but zoe holds %+v", id, st.Seat, h)
				}
			}
		}
	}
	if claims != 1 {
		t.Errorf("%d claims stored, want 1", claims)
	}
}

// testPlayNowRatedPopular: a rated play-now table is listed for rated
// Plays only and refuses a guest's claim; the house rules most played
// are counted over finished and running tables created since a time.
func testPlayNowRatedPopular(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if err := s.CreateAccount(ctx, &Account{ID: "acct-ann", Name: "Ann", NameKey: "ann", Created: base}); err != nil {
		t.Fatal(err)
	}
	rated := &Table{ID: "r", Variant: "auction", Options: json.RawMessage(`{"target":11}`), Seed: 1, TurnTimer: 30, Created: base, Rated: true,
		Seats: []Seat{{Seat: 0, Kind: "human", Name: "Ann", TokenHash: hash("ann"), Account: "acct-ann"}, {Seat: 1, Kind: "bot", Level: "medium"}}}
	if err := s.CreatePlayNow(ctx, rated, "a:acct-ann", 0); err != nil {
		t.Fatal(err)
	}
	for _, r := range []bool{true, false} {
		list, err := s.PlayNowTables(ctx, "auction", json.RawMessage(`{"target":11}`), 30, r)
		if err != nil || len(list) != map[bool]int{true: 1, false: 0}[r] {
			t.Errorf("PlayNowTables(rated %v) = %d tables, %v", r, len(list), err)
		}
	}
	if _, err := claim(s, "r", 1, "guest"); !errors.Is(err, ErrConflict) {
		t.Errorf("a guest's claim at a rated table = %v, want ErrConflict", err)
	}
	// Deleting Ann's account takes her name out of the seat's holders too.
	if err := s.DeleteAccount(ctx, "acct-ann", "anon-1"); err != nil {
		t.Fatal(err)
	}
	if hs := mustTable(t, s, "r").Seats[0].Holders; len(hs) != 1 || hs[0].Name != "anon-1" || hs[0].Account != "" {
		t.Errorf("seat 0's holders after Ann's account was deleted: %+v; want anon-1, no account", hs)
	}
	// Rules counted: target 11 at r and two more tables (one finished),
	// target 21 at two (one closed unfinished: not counted), the default
	// at one; pawnee's at one; a table before the window is left out.
	mk := func(id, variant, opts string, at time.Time) {
		t.Helper()
		tb := newTable(id, at)
		tb.Variant, tb.Options = variant, json.RawMessage(opts)
		mustCreate(t, s, tb)
	}
	mk("a11", "auction", `{"target":11}`, base.Add(time.Hour))
	mk("f11", "auction", `{"target":11}`, base.Add(2*time.Hour))
	mustAppend(t, s, "f11", Append{Event: Event{Seq: 0, Action: action(0)}, Hand: &Hand{N: 1, Record: json.RawMessage(`{}`)}, Finished: true})
	mk("a21", "auction", `{"target":21}`, base.Add(3*time.Hour))
	mk("c21", "auction", `{"target":21}`, base.Add(4*time.Hour))
	if err := s.CloseTable(ctx, "c21"); err != nil {
		t.Fatal(err)
	}
	mk("def", "auction", `{"target":7}`, base.Add(5*time.Hour))
	mk("old", "auction", `{"target":21}`, base.Add(-time.Hour))
	mk("old2", "auction", `{"target":21}`, base.Add(-2*time.Hour))
	mk("paw", "pawnee", `{"target":42}`, base.Add(time.Hour))
	got, err := s.PopularRules(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range got {
		lines = append(lines, fmt.Sprintf("%s %s %d", p.Variant, p.Options, p.Tables))
	}
	want := `[auction {"target":11} 3 auction {"target":7} 1 auction {"target":21} 1 pawnee {"target":42} 1]` // a tie: the newest first
	if fmt.Sprint(lines) != want {
		t.Errorf("PopularRules = %v, want %s", lines, want)
	}
}
