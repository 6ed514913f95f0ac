package store

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch/rating"
	"pitch/store/storetest"
)

func TestRatingsSQLite(t *testing.T) {
	runRatingsSuite(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "pitch.db") })
}

func TestRatingsPostgres(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	runRatingsSuite(t, func(t *testing.T) string { t.Helper(); return storetest.FreshPostgres(t, base) })
}

func runRatingsSuite(t *testing.T, fresh fresher) {
	for _, tc := range []struct {
		name string
		f    func(t *testing.T, fresh fresher)
	}{
		{"RateMatchOnce", testRateMatchOnce},
		{"RateMatchConcurrent", testRateMatchConcurrent},
		{"Leaderboard", testLeaderboard},
		{"DeleteAccountRatings", testDeleteAccountRatings},
		{"PairLimit", testPairLimit},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.f(t, fresh) })
	}
}

// mustAccount stores an account named name (its ID "id-"+name).
func mustAccount(t testing.TB, s Store, name string) string {
	t.Helper()
	a := &Account{ID: "id-" + name, Name: name, NameKey: strings.ToLower(name)}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// ratedTable stores a rated four-seat auction table: accounts a and b in
// seats 0 and 2, bots in 1 and 3.
func ratedTable(t *testing.T, s Store, id string) {
	t.Helper()
	tb := newTable(id, time.Now())
	tb.Rated = true
	mustCreate(t, s, tb)
	got, err := s.Table(ctx, id)
	if err != nil || !got.Rated {
		t.Fatalf("Table(%s): rated %v, err %v; want rated", id, got != nil && got.Rated, err)
	}
}

// auctionMatch is a finished match of ratedTable: b (seat 2) won, the
// bots next, a last.
func auctionMatch(table, a, b string, at time.Time) RatedMatch {
	bot := rating.Rating{Mu: 24, Sigma: 2}
	return RatedMatch{
		Table: table, Variant: "auction", At: at,
		Standing: rating.Standing{Sides: [][]int{{0}, {1}, {2}, {3}}, Ranks: []float64{4, 2, 1, 2}},
		Seats: []RatedSeat{
			{Seat: 0, Account: a, Hands: 9, Bids: 3, Sets: 2, Points: 4},
			{Seat: 1, Bot: bot},
			{Seat: 2, Account: b, Hands: 9, Bids: 4, Sets: 1, Moons: 0, Points: 11},
			{Seat: 3, Bot: bot},
		},
	}
}

// testRateMatchOnce: the first RateMatch rates the accounts as
// rating.Model.RateMatch does, bots keeping theirs; a second changes
// nothing and answers ErrConflict with the stored changes; the profile
// reads (PlayerRatings, RatingHistory, MatchRatings) give them back.
func testRateMatchOnce(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	a, b := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	ratedTable(t, s, "t1")
	m := auctionMatch("t1", a, b, time.Now())
	changes, err := s.RateMatch(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	model := rating.Default()
	n := model.New()
	want, _ := model.RateMatch(m.Standing, []rating.Rating{n, m.Seats[1].Bot, n, m.Seats[3].Bot})
	if len(changes) != 2 || changes[0].Seat != 0 || changes[0].After != want[0] || changes[1].Seat != 2 || changes[1].After != want[2] || changes[1].Before != n {
		t.Fatalf("changes %+v, want seat 0 → %+v and seat 2 → %+v", changes, want[0], want[2])
	}
	again, err := s.RateMatch(ctx, m)
	if !errors.Is(err, ErrConflict) || len(again) != 2 || again[0].After != want[0] || again[1].After != want[2] {
		t.Fatalf("second RateMatch: %+v, %v; want the stored changes and ErrConflict", again, err)
	}
	pr, err := s.PlayerRatings(ctx, b)
	if err != nil || len(pr) != 1 {
		t.Fatalf("PlayerRatings: %+v, %v", pr, err)
	}
	if p := pr[0]; p.Variant != "auction" || p.Rating != want[2] || p.Matches != 1 || p.Wins != 1 || p.Hands != 9 || p.Bids != 4 || p.Sets != 1 || p.Points != 11 {
		t.Errorf("PlayerRatings(b) = %+v after one match, won", p)
	}
	if pr, _ := s.PlayerRatings(ctx, a); len(pr) != 1 || pr[0].Wins != 0 || pr[0].Matches != 1 || pr[0].Rating.Mu >= 25 {
		t.Errorf("PlayerRatings(a) = %+v after one match, last", pr)
	}
	// A second match, later: the history lists both, oldest first.
	ratedTable(t, s, "t2")
	m2 := auctionMatch("t2", a, b, time.Now().Add(time.Minute))
	if _, err := s.RateMatch(ctx, m2); err != nil {
		t.Fatal(err)
	}
	h, err := s.RatingHistory(ctx, b, "auction", 10)
	if err != nil || len(h) != 2 || h[0].Table != "t1" || h[1].Table != "t2" || h[1].Before != want[2] || !h[0].Won || h[0].Place != 1 {
		t.Errorf("RatingHistory = %+v, %v", h, err)
	}
	if h, _ := s.RatingHistory(ctx, b, "auction", 1); len(h) != 1 || h[0].Table != "t2" {
		t.Errorf("RatingHistory limit 1 = %+v, want the last match", h)
	}
	if h, _ := s.RatingHistory(ctx, b, "pawnee", 10); len(h) != 0 {
		t.Errorf("RatingHistory(pawnee) = %+v, want none", h)
	}
	mr, err := s.MatchRatings(ctx, "t1")
	if err != nil || !slices.Equal(mr, changes) {
		t.Errorf("MatchRatings(t1) = %+v, %v; want %+v", mr, err, changes)
	}
}

// testRateMatchConcurrent: two stores on one database (PostgreSQL: two
// connections pools, as two processes) rate the same match at once;
// exactly one rates it.
func testRateMatchConcurrent(t *testing.T, fresh fresher) {
	dsn := fresh(t)
	s1 := open(t, dsn)
	s2 := s1
	if strings.HasPrefix(dsn, "postgres") {
		s2 = open(t, dsn)
	}
	a, b := mustAccount(t, s1, "Ada"), mustAccount(t, s1, "Bob")
	for round := range 5 {
		id := fmt.Sprintf("t%d", round)
		ratedTable(t, s1, id)
		m := auctionMatch(id, a, b, time.Now())
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st := []Store{s1, s2}[i%2]
				_, errs[i] = st.RateMatch(ctx, m)
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, ErrConflict):
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d of 4 calls rated the match, want exactly 1", round, ok)
		}
		if pr, _ := s1.PlayerRatings(ctx, b); len(pr) != 1 || pr[0].Matches != round+1 {
			t.Fatalf("round %d: %+v, want %d matches", round, pr, round+1)
		}
	}
}

// setRating stores an account's rating directly.
func setRating(t testing.TB, s Store, account, variant string, r rating.Rating, last time.Time) {
	t.Helper()
	ss := s.(*sqlStore)
	if _, err := ss.w.ExecContext(ctx, ss.d.q(`INSERT INTO ratings (account_id, variant, mu, sigma, matches, wins, last_played) VALUES (?, ?, ?, ?, 30, 10, ?)`),
		account, variant, r.Mu, r.Sigma, ss.d.timeArg(last)); err != nil {
		t.Fatal(err)
	}
}

// testLeaderboard: settled, recently active accounts that are not
// disabled, best first (a tie of mu broken by the account's ID), paged by
// place: forwards, backwards, the last page, from a place no longer on
// the board, each page with its first row's rank.
func testLeaderboard(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	now := time.Now()
	since := now.Add(-90 * 24 * time.Hour)
	for _, c := range []struct {
		name    string
		variant string
		r       rating.Rating
		last    time.Time
	}{
		{"Top", "pawnee", rating.Rating{Mu: 40, Sigma: 2}, now},                          // ranked by mu − 3σ: 34
		{"Disabled", "pawnee", rating.Rating{Mu: 38, Sigma: 2}, now},                     // 32
		{"Second", "pawnee", rating.Rating{Mu: 44, Sigma: rating.ProvisionalSigma}, now}, // 29
		{"TieB", "pawnee", rating.Rating{Mu: 32, Sigma: 2}, now},                         // 26
		{"TieA", "pawnee", rating.Rating{Mu: 32, Sigma: 2}, now},
		{"Third", "pawnee", rating.Rating{Mu: 30, Sigma: 2}, since.Add(time.Hour)}, // 24
		{"Provisional", "pawnee", rating.Rating{Mu: 50, Sigma: rating.ProvisionalSigma + 0.01}, now},
		{"Gone", "pawnee", rating.Rating{Mu: 45, Sigma: 1}, since.Add(-time.Hour)},
		{"Other", "auction", rating.Rating{Mu: 60, Sigma: 1}, now},
		// Ten-point: the higher mu, still unsure (σ 4.9, ordinal 20.3),
		// ranks below the lower, sure one (σ 1, ordinal 27).
		{"Unsure", "ten-point", rating.Rating{Mu: 35, Sigma: 4.9}, now},
		{"Sure", "ten-point", rating.Rating{Mu: 30, Sigma: 1}, now},
	} {
		setRating(t, s, mustAccount(t, s, c.name), c.variant, c.r, c.last)
	}
	if err := s.SetDisabled(ctx, "id-Disabled", true); err != nil {
		t.Fatal(err)
	}
	names := func(rows []LeaderRow) string {
		var out []string
		for _, r := range rows {
			out = append(out, r.Name)
		}
		return strings.Join(out, ",")
	}
	key := func(name string, ordinal float64) *LeaderKey {
		return &LeaderKey{Ordinal: ordinal, Account: "id-" + name}
	}
	for _, c := range []struct {
		what  string
		q     LeaderQuery
		names string
		rank  int
		more  bool
	}{
		{"the whole board", LeaderQuery{Limit: 10}, "Top,Second,TieA,TieB,Third", 1, false},
		{"page 1", LeaderQuery{Limit: 2}, "Top,Second", 1, true},
		{"page 2", LeaderQuery{Limit: 2, After: key("Second", 29)}, "TieA,TieB", 3, true},
		{"page 3", LeaderQuery{Limit: 2, After: key("TieB", 26)}, "Third", 5, false},
		{"after the end: the last page", LeaderQuery{Limit: 2, After: key("Third", 24)}, "TieB,Third", 4, false},
		{"between a tie", LeaderQuery{Limit: 2, After: key("TieA", 26)}, "TieB,Third", 4, false},
		{"from a place off the board", LeaderQuery{Limit: 2, After: key("Nobody", 30)}, "Second,TieA", 2, true},
		{"from the disabled account's place", LeaderQuery{Limit: 1, After: key("Disabled", 32)}, "Second", 2, true},
		{"before Third", LeaderQuery{Limit: 2, Before: key("Third", 24)}, "TieA,TieB", 3, true},
		{"before TieA: a whole page", LeaderQuery{Limit: 2, Before: key("TieA", 26)}, "Top,Second", 1, true},
		{"before Second: less than a page, so page 1", LeaderQuery{Limit: 2, Before: key("Second", 29)}, "Top,Second", 1, true},
		{"the last page", LeaderQuery{Limit: 2, Last: true}, "TieB,Third", 4, false},
		{"the last page, the whole board", LeaderQuery{Limit: 10, Last: true}, "Top,Second,TieA,TieB,Third", 1, false},
	} {
		c.q.Variant, c.q.Since = "pawnee", since
		page, err := s.Leaderboard(ctx, c.q)
		if err != nil || names(page.Rows) != c.names || page.Rank != c.rank || page.More != c.more {
			t.Errorf("%s: %q from rank %d, more %v (err %v); want %q from rank %d, more %v", c.what, names(page.Rows), page.Rank, page.More, err, c.names, c.rank, c.more)
		}
	}
	page, _ := s.Leaderboard(ctx, LeaderQuery{Variant: "pawnee", Since: since, Limit: 1, After: key("TieB", 26)})
	if len(page.Rows) != 1 || page.Rows[0].Rating != (rating.Rating{Mu: 30, Sigma: 2}) || page.Rows[0].Ordinal != 24 || page.Rows[0].Matches != 30 || page.Rows[0].Wins != 10 || page.Rows[0].Account != "id-Third" {
		t.Errorf("row %+v", page.Rows)
	}
	if page, _ := s.Leaderboard(ctx, LeaderQuery{Variant: "auction", Since: since, Limit: 5}); names(page.Rows) != "Other" {
		t.Errorf("auction's board: %q, want Other", names(page.Rows))
	}
	m := rating.Default()
	if page, _ := s.Leaderboard(ctx, LeaderQuery{Variant: "ten-point", Since: since, Limit: 5}); names(page.Rows) != "Sure,Unsure" ||
		math.Abs(page.Rows[1].Ordinal-m.Ordinal(page.Rows[1].Rating)) > 1e-12 {
		t.Errorf("ten-point's board: %q (%+v), want Sure (mu 30, σ 1) above Unsure (mu 35, σ 4.9), by mu − 3σ", names(page.Rows), page.Rows)
	}
	// Enabled again, the account is back in its place.
	if err := s.SetDisabled(ctx, "id-Disabled", false); err != nil {
		t.Fatal(err)
	}
	if page, _ := s.Leaderboard(ctx, LeaderQuery{Variant: "pawnee", Since: since, Limit: 3}); names(page.Rows) != "Top,Disabled,Second" {
		t.Errorf("after enabling Disabled: %q, want Top,Disabled,Second", names(page.Rows))
	}
	// A disabled account's new rating starts disabled too (ratings.disabled
	// copies accounts.disabled).
	banned := mustAccount(t, s, "Banned")
	if err := s.SetDisabled(ctx, banned, true); err != nil {
		t.Fatal(err)
	}
	ratedTable(t, s, "t-banned")
	if _, err := s.RateMatch(ctx, auctionMatch("t-banned", banned, "id-Top", now)); err != nil {
		t.Fatal(err)
	}
	ss := s.(*sqlStore)
	for id, want := range map[string]bool{banned: true, "id-Top": false} {
		var got bool
		if err := ss.r.QueryRowContext(ctx, ss.d.q(`SELECT disabled FROM ratings WHERE account_id = ? AND variant = 'auction'`), id).Scan(&got); err != nil || got != want {
			t.Errorf("%s's new auction rating: disabled %v (%v), want %v", id, got, err, want)
		}
	}
	for _, q := range []LeaderQuery{
		{Variant: "pawnee", Since: since, Limit: 0},
		{Variant: "pawnee", Since: since, Limit: 2, After: key("Top", 34), Last: true},
		{Variant: "pawnee", Since: since, Limit: 2, After: key("Top", 34), Before: key("Third", 24)},
		{Since: since, Limit: 2},
	} {
		if _, err := s.Leaderboard(ctx, q); err == nil {
			t.Errorf("Leaderboard(%+v) was taken", q)
		}
	}
}

// testDeleteAccountRatings: deleting an account removes its ratings and
// its history; the other player's stay.
func testDeleteAccountRatings(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	a, b := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob")
	ratedTable(t, s, "t1")
	if _, err := s.RateMatch(ctx, auctionMatch("t1", a, b, time.Now())); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, a, "anon-1"); err != nil {
		t.Fatal(err)
	}
	ss := s.(*sqlStore)
	for _, table := range []string{"ratings", "rating_history"} {
		var n int
		if err := ss.r.QueryRowContext(ctx, ss.d.q(`SELECT COUNT(*) FROM `+table+` WHERE account_id = ?`), a).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows of the deleted account (err %v)", table, n, err)
		}
		if err := ss.r.QueryRowContext(ctx, ss.d.q(`SELECT COUNT(*) FROM `+table+` WHERE account_id = ?`), b).Scan(&n); err != nil || n != 1 {
			t.Errorf("%s: %d rows of the other account, want 1 (err %v)", table, n, err)
		}
	}
}

// TestLeaderboardBound: the leaderboard's queries and the ratings_board
// index (as migrations 0012 and 0013 make it) all bound sigma by
// rating.ProvisionalSigma.
func TestLeaderboardBound(t *testing.T) {
	bound := fmt.Sprintf("sigma <= %.1f", rating.ProvisionalSigma)
	if !strings.Contains(boardWhere, bound) {
		t.Errorf("boardWhere lacks %q", bound)
	}
	for _, d := range []string{"sqlite", "postgres"} {
		for _, f := range []string{"0012_leaderboard.sql", "0013_leaderboard_ordinal.sql"} {
			b, err := migrationsFS.ReadFile("migrations/" + d + "/" + f)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "WHERE "+bound) {
				t.Errorf("%s %s: the index lacks %q", d, f, bound)
			}
		}
	}
}

// testPairLimit: with PairLimit 3, the same two accounts are rated 3
// matches of a game together a UTC day; the fourth that day changes
// nothing and answers ErrPairLimit (and can be rated by nobody later that
// day), while the next UTC day, another game and another pair are rated.
// RatedTogether counts what RateMatch counts.
func testPairLimit(t *testing.T, fresh fresher) {
	s := open(t, fresh(t))
	a, b, c := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	day := time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
	rate := func(table, x, y, variant string, at time.Time) error {
		ratedTable(t, s, table)
		m := auctionMatch(table, x, y, at)
		m.Variant, m.PairLimit = variant, 3
		_, err := s.RateMatch(ctx, m)
		return err
	}
	for i, c := range []struct {
		table, x, y, variant string
		at                   time.Time
		limited              bool
	}{
		{"p1", a, b, "auction", day.Add(1 * time.Hour), false},
		{"p2", b, a, "auction", day.Add(2 * time.Hour), false}, // the other way round: the same pair
		{"p3", a, b, "auction", day.Add(23 * time.Hour), false},
		{"p4", a, b, "auction", day.Add(23*time.Hour + 59*time.Minute), true},
		{"p5", a, b, "pawnee", day.Add(3 * time.Hour), false},   // another game
		{"p6", a, c, "auction", day.Add(4 * time.Hour), false},  // another pair
		{"p7", a, b, "auction", day.Add(24 * time.Hour), false}, // the next day
	} {
		err := rate(c.table, c.x, c.y, c.variant, c.at)
		if c.limited != errors.Is(err, ErrPairLimit) || (!c.limited && err != nil) {
			t.Errorf("match %d (%s): %v, want limited %v", i+1, c.table, err, c.limited)
		}
		if cs, err := s.MatchRatings(ctx, c.table); err != nil || (len(cs) == 0) != c.limited {
			t.Errorf("match %d (%s): %d changes stored (%v), want limited %v", i+1, c.table, len(cs), err, c.limited)
		}
	}
	if err := rate("p4b", a, b, "auction", day.Add(12*time.Hour)); !errors.Is(err, ErrPairLimit) {
		t.Errorf("a fourth match of the day, rated later: %v, want ErrPairLimit", err)
	}
	for _, c := range []struct {
		accounts []string
		variant  string
		at       time.Time
		want     int
	}{
		{[]string{a, b}, "auction", day.Add(5 * time.Hour), 3},
		{[]string{b, a}, "auction", day, 3},
		{[]string{a, b, c}, "auction", day, 3},
		{[]string{a, c}, "auction", day, 1},
		{[]string{a, b}, "pawnee", day, 1},
		{[]string{a, b}, "auction", day.Add(24 * time.Hour), 1},
		{[]string{a}, "auction", day, 0},
	} {
		if n, err := s.RatedTogether(ctx, c.accounts, c.variant, c.at); err != nil || n != c.want {
			t.Errorf("RatedTogether(%v, %s, %s) = %d (%v), want %d", c.accounts, c.variant, c.at.Format(time.DateOnly), n, err, c.want)
		}
	}
}
