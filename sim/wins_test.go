package sim

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"pitch"
)

// TestRatioCI: the rate of wins over seat-games and its 95% interval,
// the deals as clusters (worked by hand: ratio 3/8; the linearized
// values 0.125, −0.375, 0.125, 0.125 have a standard deviation of 0.25).
func TestRatioCI(t *testing.T) {
	r, ci := ratioCI([]float64{1, 0, 1, 1}, []float64{2, 2, 2, 2})
	if r != 0.375 || math.Abs(ci-1.96*0.25/2) > 1e-12 {
		t.Errorf("ratioCI = %v ± %v, want 0.375 ± %v", r, ci, 1.96*0.25/2)
	}
	if r, ci := ratioCI([]float64{0, 0}, []float64{0, 0}); r != 0 || ci != 0 {
		t.Errorf("no games: %v ± %v, want 0 ± 0", r, ci)
	}
}

// TestMatchWinsPerSeat: in duplicate matches of a game of two sides
// (ten-point, TP-END-1, TP-MOON-1) every finished match is a win for
// both seats of one team: the seats' wins add up to two per finished
// match, each bot's seat-matches are two per match played, outright and
// at-target wins add up to the wins, and the head-to-head share is A's
// share of the finished matches.
func TestMatchWinsPerSeat(t *testing.T) {
	g := pitch.MustNewGame(pitch.TenPoint, pitch.WithTarget(15))
	r := mustRun(t, Config{Game: g, A: "heuristic", B: "random", Matches: 12, Seed: 31, Duplicate: true})
	played := 12 * 2
	won := 0
	for _, s := range r.Sides {
		x := s.Wins
		if x.Games != 2*played {
			t.Errorf("%s: %d seat-matches, want %d", s.Bot, x.Games, 2*played)
		}
		if x.Won != 2*s.MatchWins || x.Outright+x.AtTarget != x.Won {
			t.Errorf("%s: %d seat wins (%d outright, %d at target) for %d matches won", s.Bot, x.Won, x.Outright, x.AtTarget, s.MatchWins)
		}
		if x.Rate != float64(x.Won)/float64(x.Games) || x.CI <= 0 && x.Won > 0 && x.Won < x.Games {
			t.Errorf("%s: rate %v ± %v for %d of %d", s.Bot, x.Rate, x.CI, x.Won, x.Games)
		}
		won += s.MatchWins
	}
	if won+r.Unfinished != played {
		t.Fatalf("%d won and %d unfinished of %d", won, r.Unfinished, played)
	}
	c := r.WinVs
	if c == nil || c.Deals != 12 {
		t.Fatalf("comparison %+v, want 12 paired matches", c)
	}
	a, b := r.Sides[0].Wins, r.Sides[1].Wins
	if want := float64(r.Sides[0].MatchWins) / float64(won); math.Abs(c.Share-want) > 1e-12 {
		t.Errorf("share %v, want A's %d of %d finished matches", c.Share, r.Sides[0].MatchWins, won)
	}
	if math.Abs(c.Diff-(a.Rate-b.Rate)) > 1e-12 || math.Abs(c.OutrightDiff+c.TargetDiff-c.Diff) > 1e-12 {
		t.Errorf("diff %v (outright %v, at target %v), want %v − %v split in two", c.Diff, c.OutrightDiff, c.TargetDiff, a.Rate, b.Rate)
	}
	var out bytes.Buffer
	r.WriteTable(&out)
	for _, want := range []string{"match wins per seat held (95%, by match", "heuristic − random: ", "match wins per seat (outright ", "heuristic takes "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestHandWinsOutrightOrAtTarget: in hands mode every deal starts from
// zero. A pawnee hand wins the match from there only by a moon made
// (PW-MOON-1): outright. An auction hand never wins outright (no moon
// rule), but with a target of 4 a pitcher that makes 4 reaches it
// (AP-END-1): at the target.
func TestHandWinsOutrightOrAtTarget(t *testing.T) {
	r := mustRun(t, Config{Game: pitch.MustNewGame(pitch.Pawnee), A: "random", B: "heuristic", Hands: 60, Seed: 8, Duplicate: true})
	total := 0
	for _, s := range r.Sides {
		x := s.Wins
		if x.Games != s.SeatHands || x.Won != s.HandsWonMatch || x.Outright != x.Won || x.AtTarget != 0 {
			t.Errorf("pawnee %s: %+v; want every one of its %d hands that won the match (of %d) outright", s.Bot, x, s.HandsWonMatch, s.SeatHands)
		}
		total += x.Won
	}
	if total == 0 {
		t.Fatalf("no pawnee hand won the match: %+v", r.Sides)
	}
	r = mustRun(t, Config{Game: pitch.MustNewGame(pitch.Auction, pitch.WithTarget(4)), A: "heuristic", B: "random", Hands: 60, Seed: 8, Duplicate: true})
	total = 0
	for _, s := range r.Sides {
		x := s.Wins
		if x.Outright != 0 || x.AtTarget != x.Won || x.Won != s.HandsWonMatch {
			t.Errorf("auction to 4 %s: %+v; want wins at the target only", s.Bot, x)
		}
		total += x.Won
	}
	if total == 0 {
		t.Fatalf("no auction hand reached 4: %+v", r.Sides)
	}
}
