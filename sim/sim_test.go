package sim

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pitch"
)

// untimed clears the fields of r that measure time, the only ones that
// may differ between two runs of the same config.
func untimed(r *Result) *Result {
	c := *r
	c.Elapsed = 0
	c.Sides = append([]SideStats(nil), r.Sides...)
	for i := range c.Sides {
		c.Sides[i].DecisionSec = 0
	}
	return &c
}

func mustRun(t *testing.T, c Config) *Result {
	t.Helper()
	r, err := Run(c)
	if err != nil {
		t.Fatalf("Run(%+v): %v", c, err)
	}
	return r
}

// TestRunWorkersDeterministic: the result depends on the config only, not
// on how many workers play the deals (C-6: every random choice comes from
// the seed), in hands and in matches mode; the progress callback counts
// every deal once, in order.
func TestRunWorkersDeterministic(t *testing.T) {
	configs := []Config{
		{Game: pitch.MustNewGame(pitch.Auction), A: "heuristic", B: "random", Hands: 40, Seed: 1, Duplicate: true},
		{Game: pitch.MustNewGame(pitch.Auction, pitch.WithPartnerships(true)), A: "heuristic", B: "random", Hands: 40, Seed: 2},
		{Game: pitch.MustNewGame(pitch.TenPoint), A: "heuristic", B: "random", Hands: 40, Seed: 3, Duplicate: true},
		{Game: pitch.MustNewGame(pitch.Pawnee), A: "heuristic", B: "random", Hands: 40, Seed: 4, Duplicate: true},
		{Game: pitch.MustNewGame(pitch.Pawnee), Seats: []string{"medium", "heuristic", "random", "heuristic", "heuristic"}, Hands: 4, Seed: 5},
		{Game: pitch.MustNewGame(pitch.TenPoint, pitch.WithTarget(11)), A: "heuristic", B: "random", Matches: 6, Seed: 6, Duplicate: true},
		{Game: pitch.MustNewGame(pitch.Auction, pitch.WithTarget(4)), A: "random", B: "heuristic", Matches: 6, Seed: 7},
	}
	for i, c := range configs {
		t.Run(fmt.Sprintf("%d-%s", i, c.Game.Variant), func(t *testing.T) {
			t.Parallel()
			var results []*Result
			for _, w := range []int{1, 4} {
				c := c
				c.Workers = w
				var calls []int
				total := c.Hands + c.Matches
				c.Progress = func(done, n int) {
					if n != total {
						t.Errorf("progress total %d, want %d", n, total)
					}
					calls = append(calls, done)
				}
				results = append(results, untimed(mustRun(t, c)))
				if len(calls) != total || calls[0] != 1 || calls[len(calls)-1] != total {
					t.Errorf("workers %d: progress called with %v, want 1..%d", w, calls, total)
				}
			}
			if !reflect.DeepEqual(results[0], results[1]) {
				t.Errorf("1 worker:\n%+v\n4 workers:\n%+v", results[0], results[1])
			}
			// A different seed plays different deals.
			c.Seed += 100
			if other := untimed(mustRun(t, c)); reflect.DeepEqual(other, results[0]) {
				t.Errorf("seeds %d and %d gave the same result", c.Seed-100, c.Seed)
			}
		})
	}
}

// TestRunDuplicate: duplicate mode plays every deal once per seating —
// partners opposite swapped for fixed teams, the lone bot at every seat
// otherwise — and counts each bot's seat-hands accordingly.
func TestRunDuplicate(t *testing.T) {
	const deals = 12
	tests := []struct {
		g          *pitch.Game
		duplicate  bool
		rotations  int
		seatHandsA int // per deal and rotation
		seatHandsB int
	}{
		{pitch.MustNewGame(pitch.Auction), true, 4, 1, 3},
		{pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(3)), true, 3, 1, 2},
		{pitch.MustNewGame(pitch.Auction, pitch.WithPartnerships(true)), true, 2, 2, 2},
		{pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(6), pitch.WithPartnerships(true)), true, 2, 3, 3},
		{pitch.MustNewGame(pitch.TenPoint), true, 2, 2, 2},
		{pitch.MustNewGame(pitch.Pawnee), true, 5, 1, 4},
		{pitch.MustNewGame(pitch.TenPoint), false, 1, 2, 2},
		{pitch.MustNewGame(pitch.Pawnee), false, 1, 1, 4},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s-%d-dup-%v", tc.g.Variant, tc.g.Seats(), tc.duplicate)
		t.Run(name, func(t *testing.T) {
			r := mustRun(t, Config{Game: tc.g, A: "heuristic", B: "random", Hands: deals, Seed: 9, Duplicate: tc.duplicate, Workers: 2})
			if r.Deals != deals || r.Rotations != tc.rotations || r.Hands != deals*tc.rotations {
				t.Errorf("deals %d, rotations %d, hands %d; want %d, %d, %d", r.Deals, r.Rotations, r.Hands, deals, tc.rotations, deals*tc.rotations)
			}
			if len(r.Sides) != 2 || r.Sides[0].Bot != "heuristic" || r.Sides[1].Bot != "random" {
				t.Fatalf("sides %+v, want heuristic then random", r.Sides)
			}
			if got, want := r.Sides[0].SeatHands, deals*tc.rotations*tc.seatHandsA; got != want {
				t.Errorf("heuristic seat-hands %d, want %d", got, want)
			}
			if got, want := r.Sides[1].SeatHands, deals*tc.rotations*tc.seatHandsB; got != want {
				t.Errorf("random seat-hands %d, want %d", got, want)
			}
			if len(r.Cumulative) != deals {
				t.Errorf("%d paired deals, want %d", len(r.Cumulative), deals)
			}
		})
	}
}

// TestRunDuplicateEvensOut: two names for the same deterministic player
// (heuristic and easy; in auction and ten-point the heuristic's choices
// depend only on what its seat sees, since the sides are public) must
// come out exactly even on every deal in duplicate mode, because every
// deal is played with each of them at every seat. Without duplicate
// (one seating per deal) they do not.
func TestRunDuplicateEvensOut(t *testing.T) {
	for _, g := range []*pitch.Game{
		pitch.MustNewGame(pitch.Auction),
		pitch.MustNewGame(pitch.Auction, pitch.WithPartnerships(true)),
		pitch.MustNewGame(pitch.TenPoint),
	} {
		t.Run(fmt.Sprintf("%s-%d", g.Variant, g.Seats()), func(t *testing.T) {
			c := Config{Game: g, A: "heuristic", B: "easy", Hands: 30, Seed: 11, Duplicate: true}
			r := mustRun(t, c)
			for i, x := range r.Cumulative {
				if math.Abs(x) > 1e-9 {
					t.Fatalf("after %d deals the difference is %v, want 0", i+1, x)
				}
			}
			if a, b := r.Sides[0].PointsHand, r.Sides[1].PointsHand; math.Abs(a-b) > 1e-9 {
				t.Errorf("points per hand %v and %v, want equal", a, b)
			}
			c.Duplicate = false
			r = mustRun(t, c)
			if r.Cumulative[len(r.Cumulative)-1] == 0 && r.Diff == 0 && r.DiffCI == 0 {
				t.Errorf("without duplicate deals the two came out exactly even too: %+v", r)
			}
		})
	}
}

// TestRunConfigErrors: a config that cannot run is refused with a message
// that says what is wrong.
func TestRunConfigErrors(t *testing.T) {
	tp := pitch.MustNewGame(pitch.TenPoint)
	tests := []struct {
		name string
		c    Config
		want []string // substrings of the error
	}{
		{"no bots", Config{Game: tp, Hands: 5}, []string{"--seats", "--a", "--b"}},
		{"one side only", Config{Game: tp, A: "heuristic", Hands: 5}, []string{"--seats", "--a", "--b"}},
		{"wrong seat count", Config{Game: tp, Seats: []string{"random", "random", "random"}, Hands: 5},
			[]string{"3 bots", "ten-point", "4 seats"}},
		{"too many seats", Config{Game: pitch.MustNewGame(pitch.Pawnee), Seats: []string{"random", "random", "random", "random", "random", "random"}, Hands: 5},
			[]string{"6 bots", "pawnee", "5 seats"}},
		{"unknown bot in a side", Config{Game: tp, A: "heuristic", B: "deep-blue", Hands: 5},
			[]string{`"deep-blue"`, "random", "heuristic", "search", "easy", "medium", "hard"}},
		{"unknown bot in a seat", Config{Game: tp, Seats: []string{"random", "random", "nobody", "random"}, Hands: 5},
			[]string{`"nobody"`, "heuristic"}},
		{"neither hands nor matches", Config{Game: tp, A: "heuristic", B: "random"}, []string{"hands", "matches"}},
		{"negative hands", Config{Game: tp, A: "heuristic", B: "random", Hands: -3}, []string{"hands", "matches"}},
		{"against with matches", Config{Game: tp, A: "heuristic", B: "random", Against: "random", Matches: 3}, []string{"--against", "--hands", "--matches"}},
		{"against with seats", Config{Game: tp, Seats: []string{"random", "random", "random", "random"}, Against: "random", Hands: 3}, []string{"--against", "--a", "--seats"}},
		{"against the same bot", Config{Game: tp, A: "heuristic", B: "heuristic", Against: "random", Hands: 3}, []string{`"heuristic"`, "two different bots"}},
		{"against an unknown bot", Config{Game: tp, A: "heuristic", B: "random", Against: "hall", Hands: 3}, []string{`"hall"`, "heuristic"}},
	}
	for _, tc := range tests {
		r, err := Run(tc.c)
		if err == nil {
			t.Errorf("%s: Run returned %+v, want an error", tc.name, r)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.name, err, w)
			}
		}
	}
}

// TestRunAgainst: with Against, A and B each sit in every seat among
// the Against bots on the same cards. The same bot under two names
// decides the same everywhere, so nothing differs; a strong bot against
// a weak one shows on the right side; and the result does not depend on
// the workers.
func TestRunAgainst(t *testing.T) {
	const hands = 12
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		g := pitch.MustNewGame(v)
		n := g.Seats()
		t.Run(v.String()+"/same bot", func(t *testing.T) {
			r, err := Run(Config{Game: g, A: "easy", B: "heuristic", Against: "random", Hands: hands, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if r.Diff != 0 || r.Differ != 0 {
				t.Errorf("easy − heuristic (the same bot): diff %+.3f, %d seat-hands differ; want 0 and 0", r.Diff, r.Differ)
			}
			if r.SeatHands != hands*n || r.Hands != 2*hands*n {
				t.Errorf("%d paired seat-hands, %d hands; want %d and %d", r.SeatHands, r.Hands, hands*n, 2*hands*n)
			}
			for _, s := range r.Sides {
				if s.SeatHands != hands*n {
					t.Errorf("%s: %d seat-hands, want one per deal and seat (%d)", s.Bot, s.SeatHands, hands*n)
				}
			}
		})
		t.Run(v.String()+"/strong against weak", func(t *testing.T) {
			c := Config{Game: g, A: "heuristic", B: "random", Against: "heuristic", Hands: hands, Seed: 5, Workers: 1}
			r1, err := Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if r1.Diff-r1.DiffCI <= 0 || r1.Differ == 0 {
				t.Errorf("heuristic − random among heuristics: %+.3f ± %.3f, %d seat-hands differ; want above 0", r1.Diff, r1.DiffCI, r1.Differ)
			}
			c.Workers = 3
			r3, err := Run(c)
			if err != nil {
				t.Fatal(err)
			}
			if r1.Diff != r3.Diff || r1.Differ != r3.Differ || !reflect.DeepEqual(r1.Cumulative, r3.Cumulative) {
				t.Errorf("1 worker: %+.4f (%d differ); 3 workers: %+.4f (%d differ); want the same", r1.Diff, r1.Differ, r3.Diff, r3.Differ)
			}
		})
	}
}

// TestRunMatches: matches mode plays whole matches to their end (AP-END-1,
// TP-END-1, PW-END-1: each has exactly one winning side) and credits each
// match to the bot that won it.
func TestRunMatches(t *testing.T) {
	const matches = 8
	tests := []struct {
		g         *pitch.Game
		duplicate bool
		rotations int
	}{
		{pitch.MustNewGame(pitch.Auction, pitch.WithTarget(5)), false, 1},
		{pitch.MustNewGame(pitch.Auction, pitch.WithTarget(5), pitch.WithPartnerships(true)), true, 2},
		{pitch.MustNewGame(pitch.TenPoint, pitch.WithTarget(15)), true, 2},
		{pitch.MustNewGame(pitch.Pawnee, pitch.WithTarget(15)), false, 1},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s-%d-dup-%v", tc.g.Variant, tc.g.Seats(), tc.duplicate), func(t *testing.T) {
			t.Parallel()
			r := mustRun(t, Config{Game: tc.g, A: "heuristic", B: "random", Matches: matches, Seed: 21, Duplicate: tc.duplicate})
			played := matches * tc.rotations
			if r.Deals != matches || r.Rotations != tc.rotations {
				t.Errorf("deals %d, rotations %d; want %d, %d", r.Deals, r.Rotations, matches, tc.rotations)
			}
			wins := r.Unfinished
			for _, s := range r.Sides {
				if s.Matches != played {
					t.Errorf("%s played %d matches, want %d", s.Bot, s.Matches, played)
				}
				if want := float64(s.MatchWins) / float64(played); s.WinRate != want {
					t.Errorf("%s win rate %v, want %d/%d", s.Bot, s.WinRate, s.MatchWins, played)
				}
				wins += s.MatchWins
			}
			if wins != played {
				t.Errorf("%d match wins and %d unfinished over %d matches, want one or the other per match", wins-r.Unfinished, r.Unfinished, played)
			}
			// A match of several hands: more hands than matches, and every
			// hand counted at every seat.
			if r.Hands <= played {
				t.Errorf("%d hands for %d matches", r.Hands, played)
			}
			if got, want := r.Sides[0].SeatHands+r.Sides[1].SeatHands, r.Hands*tc.g.Seats(); got != want {
				t.Errorf("seat-hands %d, want hands × seats = %d", got, want)
			}
		})
	}
}

// TestRunUnfinished: a match with no winner after MaxHands hands is
// stopped and counted as unfinished (count and share), not an error. An
// auction pitcher gains at most 4 a hand (AP-SC-1), so no auction match
// to 13 can end within 3 hands: every one is unfinished.
func TestRunUnfinished(t *testing.T) {
	g := pitch.MustNewGame(pitch.Auction, pitch.WithTarget(13))
	r := mustRun(t, Config{Game: g, A: "random", B: "random", Matches: 5, MaxHands: 3, Seed: 4})
	if r.Unfinished != 5 || r.UnfinishedShare != 1 || r.Hands != 15 || r.MaxHands != 3 {
		t.Errorf("unfinished %d (share %v) over %d hands, max %d; want 5 (1) over 15, max 3", r.Unfinished, r.UnfinishedShare, r.Hands, r.MaxHands)
	}
	for _, s := range r.Sides {
		if s.Matches != 5 || s.MatchWins != 0 || s.WinRate != 0 {
			t.Errorf("%s: %d matches, %d wins (%v); want 5, none", s.Bot, s.Matches, s.MatchWins, s.WinRate)
		}
	}
	var b bytes.Buffer
	r.WriteTable(&b)
	if want := "unfinished: 5 of 5 matches (100.0%) had no winner after 3 hands"; !strings.Contains(b.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, b.String())
	}
	// Some finish and some do not: the two add up to the matches played.
	g = pitch.MustNewGame(pitch.Auction, pitch.WithTarget(5))
	r = mustRun(t, Config{Game: g, A: "random", B: "random", Matches: 40, MaxHands: 4, Seed: 5})
	wins := 0
	for _, s := range r.Sides {
		wins += s.MatchWins
	}
	if r.Unfinished == 0 || wins == 0 || wins+r.Unfinished != 40 || r.UnfinishedShare != float64(r.Unfinished)/40 {
		t.Errorf("%d wins and %d unfinished (share %v) of 40 matches; want both, adding up to 40", wins, r.Unfinished, r.UnfinishedShare)
	}
}

// sampleResult is a result written by hand for the report tests.
func sampleResult() *Result {
	return &Result{
		Variant: "pawnee", Deals: 10, Unit: "deals", Rotations: 5, Hands: 50,
		Sides: []SideStats{
			{Bot: "search", SeatHands: 50, PointsHand: 1.25, PointsCI: 0.5, BidTurns: 40, PassRate: 0.625, Bids: 12, Set: 3, SetRate: 0.25, Decisions: 900, DecisionSec: 400},
			{Bot: "heuristic", SeatHands: 200, PointsHand: -0.5, PointsCI: 0.125, Bids: 30, Set: 9, SetRate: 0.3, Decisions: 3000, DecisionSec: 250000},
		},
		Diff: 1.75, DiffCI: 0.625, Cumulative: []float64{2, -1, 3, 17.5}, Elapsed: 1.5,
	}
}

func TestWriteTable(t *testing.T) {
	t.Run("hands", func(t *testing.T) {
		var b bytes.Buffer
		sampleResult().WriteTable(&b)
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		if len(lines) != 7 {
			t.Fatalf("%d lines, want 7 (summary, blank, header, 2 rows, blank, difference):\n%s", len(lines), b.String())
		}
		if got, want := lines[0], "pawnee: 10 deals × 5 seatings = 50 hands in 1.5s"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
		if got, want := strings.Fields(lines[2]), []string{"bot", "seat-hands", "points/hand", "±95%", "passed", "bids", "set", "match", "wins", "±95%", "decisions/s"}; !reflect.DeepEqual(got, want) {
			t.Errorf("header %q, want %q", got, want)
		}
		rows := [][]string{
			{"search", "50", "+1.250", "0.500", "62.5%", "12", "25.0%", "-", "-", "400"},
			{"heuristic", "200", "-0.500", "0.125", "0.0%", "30", "30.0%", "-", "-", "250000"},
		}
		for i, want := range rows {
			if got := strings.Fields(lines[3+i]); !reflect.DeepEqual(got, want) {
				t.Errorf("row %d %q, want %q", i, got, want)
			}
		}
		// Right-aligned columns: every row as long as the header.
		if w := utf8.RuneCountInString(lines[2]); utf8.RuneCountInString(lines[3]) != w || utf8.RuneCountInString(lines[4]) != w {
			t.Errorf("rows not aligned with the header:\n%s", b.String())
		}
		if got, want := lines[6], "search − heuristic: +1.750 ± 0.625 points per hand (95%, 4 paired deals)"; got != want {
			t.Errorf("difference line %q, want %q", got, want)
		}
	})
	t.Run("against", func(t *testing.T) {
		r := sampleResult()
		r.Against, r.Differ, r.SeatHands, r.Hands = "hard", 7, 50, 100
		var b bytes.Buffer
		r.WriteTable(&b)
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		if len(lines) != 7 {
			t.Fatalf("%d lines, want 7 (summary, blank, header, 2 rows, blank, difference):\n%s", len(lines), b.String())
		}
		if got, want := lines[0], "pawnee: 10 deals × 5 seats × 2 bots = 100 hands in 1.5s"; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
		if got, want := lines[6], "search − heuristic, each in one seat among hard: +1.750 ± 0.625 points of standing per hand (95%, 4 paired deals; 7 of 50 seat-hands differ)"; got != want {
			t.Errorf("difference line %q, want %q", got, want)
		}
	})
	t.Run("matches, one bot", func(t *testing.T) {
		r := sampleResult()
		r.Sides = r.Sides[:1]
		r.Sides[0].Matches, r.Sides[0].MatchWins, r.Sides[0].WinRate, r.Sides[0].WinCI = 8, 3, 0.375, 0.25
		var b bytes.Buffer
		r.WriteTable(&b)
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("%d lines, want 4 (no difference line with one bot):\n%s", len(lines), b.String())
		}
		if got, want := strings.Fields(lines[3])[7:9], []string{"37.5%", "25.0%"}; !reflect.DeepEqual(got, want) {
			t.Errorf("match columns %q, want %q", got, want)
		}
	})
	t.Run("from a run", func(t *testing.T) {
		r := mustRun(t, Config{Game: pitch.MustNewGame(pitch.TenPoint), A: "random", B: "heuristic", Hands: 6, Seed: 3})
		var b bytes.Buffer
		r.WriteTable(&b)
		out := b.String()
		for _, want := range []string{"ten-point: 6 deals × 1 seatings = 6 hands in ", "\nrandom − heuristic: "} {
			if !strings.Contains(out, want) {
				t.Errorf("table lacks %q:\n%s", want, out)
			}
		}
		var first []string
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 0 {
				first = append(first, f[0])
			}
		}
		if want := []string{"ten-point:", "bot", "random", "heuristic", "match", "bot", "random", "heuristic", "random", "random", "random"}; !reflect.DeepEqual(first, want) {
			t.Errorf("lines begin %q, want %q:\n%s", first, want, out)
		}
	})
}

// TestHandsWonMatch: in hands mode every deal starts from zero scores, so
// a hand wins the match only by a moon: in pawnee one made, for its
// bidder alone (PW-MOON-1); in ten-point for a whole team, made or failed
// (TP-MOON-1); in auction never (AP-END-1: four points a hand). The table
// reports those hands in its match wins per seat, which points/hand
// leaves out. Random bots bid the
// moon often.
func TestHandsWonMatch(t *testing.T) {
	r := mustRun(t, Config{Game: pitch.MustNewGame(pitch.Pawnee), A: "random", B: "heuristic", Hands: 60, Seed: 8, Duplicate: true})
	total := 0
	for _, s := range r.Sides {
		if made := s.Bids - s.Set; s.HandsWonMatch > made {
			t.Errorf("%s: %d hands won the match, more than its %d bids made", s.Bot, s.HandsWonMatch, made)
		}
		total += s.HandsWonMatch
	}
	if total == 0 {
		t.Fatalf("no hand won the match in 300 hands of random and heuristic bots: %+v", r.Sides)
	}
	var b bytes.Buffer
	r.WriteTable(&b)
	x := r.Sides[0].Wins
	want := fmt.Sprintf("random %d %.1f%% %.1f%% %.1f%%", x.Games, 100*x.Rate, 100*x.CI, 100*x.OutrightRate)
	if !strings.Contains(b.String(), "match wins per seat held") || !strings.Contains(strings.Join(strings.Fields(b.String()), " "), want) {
		t.Errorf("table lacks the hands that won the match (%q):\n%s", want, b.String())
	}
	r = mustRun(t, Config{Game: pitch.MustNewGame(pitch.TenPoint), A: "random", B: "heuristic", Hands: 40, Seed: 8})
	for _, s := range r.Sides {
		if s.HandsWonMatch%2 != 0 {
			t.Errorf("ten-point: %s won the match in %d seat-hands; a team wins together", s.Bot, s.HandsWonMatch)
		}
	}
	r = mustRun(t, Config{Game: pitch.MustNewGame(pitch.Auction), A: "random", B: "heuristic", Hands: 40, Seed: 8})
	for _, s := range r.Sides {
		if s.HandsWonMatch != 0 {
			t.Errorf("auction: %s won the match in %d hands from zero scores; no one hand reaches the target", s.Bot, s.HandsWonMatch)
		}
	}
	b.Reset()
	r.WriteTable(&b)
	if strings.Contains(b.String(), "match wins per seat held") {
		t.Errorf("auction: the table reports hands that won the match where none did:\n%s", b.String())
	}
}

// svgDoc is the part of the SVG the tests read.
type svgDoc struct {
	XMLName  xml.Name `xml:"svg"`
	Width    int      `xml:"width,attr"`
	Height   int      `xml:"height,attr"`
	Title    string   `xml:"title"`
	Polyline struct {
		Points string `xml:"points,attr"`
	} `xml:"polyline"`
	Texts []string `xml:"text"`
}

func TestWriteSVG(t *testing.T) {
	r := sampleResult()
	var b bytes.Buffer
	if err := r.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	var doc svgDoc
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, b.String())
	}
	if doc.Width != 800 || doc.Height != 400 {
		t.Errorf("size %dx%d, want 800x400", doc.Width, doc.Height)
	}
	if want := "pawnee: cumulative difference in points per hand, search − heuristic, over deals"; doc.Title != want {
		t.Errorf("title %q, want %q", doc.Title, want)
	}
	pts := strings.Fields(doc.Polyline.Points)
	if len(pts) != len(r.Cumulative) {
		t.Fatalf("%d points, want one per deal (%d): %q", len(pts), len(r.Cumulative), doc.Polyline.Points)
	}
	// x rises from left to right within the plot; y is inverted: the
	// highest value (17.5) at the top margin, the lowest (-1) at the bottom.
	var xs, ys []float64
	for _, p := range pts {
		x, y, ok := strings.Cut(p, ",")
		xf, err1 := strconv.ParseFloat(x, 64)
		yf, err2 := strconv.ParseFloat(y, 64)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("bad point %q", p)
		}
		xs, ys = append(xs, xf), append(ys, yf)
	}
	if xs[0] != 50 || xs[len(xs)-1] != 750 {
		t.Errorf("x from %v to %v, want 50 to 750", xs[0], xs[len(xs)-1])
	}
	for i := 1; i < len(xs); i++ {
		if xs[i] <= xs[i-1] {
			t.Errorf("x not increasing: %v", xs)
		}
	}
	if ys[3] != 50 || ys[1] != 350 || !(ys[2] < ys[0] && ys[0] < ys[1]) {
		t.Errorf("y %v: want 17.5 at 50, -1 at 350, and 3 above 2", ys)
	}
	var labels []string
	for _, s := range doc.Texts {
		labels = append(labels, strings.TrimSpace(s))
	}
	for _, want := range []string{"18", "-1", "deals (4)"} {
		if !slices.Contains(labels, want) {
			t.Errorf("labels %q lack %q", labels, want)
		}
	}

	// Fewer than two bots: nothing to compare, an error, nothing written.
	one := mustRun(t, Config{Game: pitch.MustNewGame(pitch.Auction), Seats: []string{"random", "random", "random", "random"}, Hands: 3, Seed: 1})
	if len(one.Sides) != 1 {
		t.Fatalf("sides %+v, want one", one.Sides)
	}
	var w bytes.Buffer
	if err := one.WriteSVG(&w); err == nil || !strings.Contains(err.Error(), "two bots") {
		t.Errorf("WriteSVG with one bot: error %v, want one saying it needs two bots", err)
	}
	if w.Len() != 0 {
		t.Errorf("WriteSVG with one bot wrote %q", w.String())
	}
	if err := r.WriteSVG(failWriter{}); err == nil {
		t.Errorf("WriteSVG to a failing writer returned no error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrShortWrite }

// TestRunPassRate: the pass rate counts the turns in the auction where a
// bot could pass and had a choice (AP-BID-1, TP-BID-1, PW-BID-1), not the
// forced dealer's (TP-BID-2, PW-BID-3): a heuristic whose bids are moved
// far down passes every such turn, and the plain heuristic does not.
func TestRunPassRate(t *testing.T) {
	for _, v := range pitch.Variants {
		g := pitch.MustNewGame(v)
		seats := make([]string, g.Seats())
		for i := range seats {
			seats[i] = "heuristic"
		}
		seats[0] = "heuristic:bidshift=-20"
		r := mustRun(t, Config{Game: g, Seats: seats, Hands: 20, Seed: 4, Duplicate: true})
		never, plain := r.Sides[0], r.Sides[1]
		if never.BidTurns == 0 || never.PassRate != 1 {
			t.Errorf("%s: never bidding: %d bid turns, passed %.3f; want some, all passed", v, never.BidTurns, never.PassRate)
		}
		if plain.BidTurns == 0 || plain.PassRate >= 1 {
			t.Errorf("%s: heuristic: %d bid turns, passed %.3f; want some, not all passed", v, plain.BidTurns, plain.PassRate)
		}
	}
}
