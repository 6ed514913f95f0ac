package bot

import (
	"math"
	"testing"

	"pitch"
)

// The ten-point expert's moon decisions (TP-MOON-1) with the setting
// match (expert:match): a hand that decides the match is worth what the
// match was worth at the scores before it (objective.Match, matchWorth),
// not its points.

// moonBid returns the expert's (name's) action as seat 0, first to bid in
// ten-point, holding hand at the match scores given (seats 0 and 2, then
// 1 and 3).
func moonBid(t *testing.T, name, hand string, us, them int, seed uint64) pitch.Action {
	t.Helper()
	s := fixedDeal{g: pitch.MustNewGame(pitch.TenPoint), dealer: 3, hands: []string{hand}, scores: []int{us, them, us, them}}.state(t)
	b, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	return Decide(b, &s, pitch.NewRand(seed))
}

// TestMoonShotByTheScores: the expert with match shoots the ten-point
// moon when the match it wins (TP-MOON-1: made from 0 or more, the match
// is won) is worth the risk at the scores, and not otherwise (the default
// expert plays for points; match measured no better, docs/bots.md,
// Tuning, ninth session):
//   - holding the six top trumps (the moon is made whoever holds the
//     rest: every trump is played under them, TP-PLAY-1, TP-PLAY-3), it
//     shoots from even scores;
//   - with the same hand at 48 to 0 (target 52) a plain bid wins the
//     match as surely (TP-END-1), so it does not risk the moon: the
//     points-maximising expert (the default) shoots there, the moon
//     scoring more;
//   - with a hand that makes the moon less than half the time it does
//     not shoot from even scores, but does at 0 to 48, where the other
//     side is about to win the match and only the moon saves it (a lost
//     moon loses little more); the points-maximising expert does not.
func TestMoonShotByTheScores(t *testing.T) {
	const sure, risky = "AH KH QH JH JD BJ 2C 3C 4C", "AH KH JH BJ 9H 2C 3C 4C 5C"
	moon := pitch.Bid(0, 10)
	for seed := range uint64(3) {
		if a := moonBid(t, "expert:match", sure, 0, 0, seed); a != moon {
			t.Errorf("seed %d: the six top trumps at 0 to 0: expert:match %v, want the moon", seed, a)
		}
		if a := moonBid(t, "expert:match", sure, 48, 0, seed); a == moon || a.Kind != pitch.ActBid {
			t.Errorf("seed %d: the six top trumps at 48 to 0: expert:match %v, want a plain bid", seed, a)
		}
		if a := moonBid(t, "expert", sure, 48, 0, seed); a != moon {
			t.Errorf("seed %d: the six top trumps at 48 to 0: expert (points) %v, want the moon", seed, a)
		}
		if a := moonBid(t, "expert:match", risky, 0, 0, seed); a == moon {
			t.Errorf("seed %d: %s at 0 to 0: expert:match shot the moon", seed, risky)
		}
		if a := moonBid(t, "expert:match", risky, 0, 48, seed); a != moon {
			t.Errorf("seed %d: %s at 0 to 48: expert:match %v, want the moon", seed, risky, a)
		}
		if a := moonBid(t, "expert", risky, 0, 48, seed); a == moon {
			t.Errorf("seed %d: %s at 0 to 48: expert (points) shot the moon", seed, risky)
		}
	}
}

// TestMatchWorthOfAMoon (TP-MOON-1, TP-END-1): with Match, a ten-point
// hand that decides the match is worth to a seat T-d and the bonus when
// its side wins, -(T+d) and the bonus when it loses (d its standing
// before the hand, T the target), whatever points were taken: a moon sunk
// with one point is worth as much to the defenders as one sunk with
// five. A hand that does not decide the match is scored as without it.
func TestMatchWorthOfAMoon(t *testing.T) {
	ob := objective{Standing: true, Bonus: matchBonus, Match: true}
	plain := objective{Standing: true, Bonus: matchBonus}
	rng := pitch.NewRand(3)
	g := pitch.MustNewGame(pitch.TenPoint)
	tg := float64(g.Options.Target)
	sunk, made := map[int]bool{}, 0
	for range 400 {
		us, them := rng.IntN(60)-10, rng.IntN(60)-10
		s := pitch.Deal(g, 3, []int{us, them, us, them}, rng)
		play(t, &s, pitch.Bid(0, 10))
		rollout(&s)
		for seat := range 4 {
			got := ob.of(&s, seat)
			if !s.MatchDecided() {
				if want := plain.of(&s, seat); got != want {
					t.Fatalf("scores %d to %d, moon from below 0 made: seat %d scored %v, want %v as without Match", us, them, seat, got, want)
				}
				continue
			}
			d := float64(s.ScoreBefore(seat) - s.ScoreBefore(seat^1))
			want := -math.Max(0, tg+d) - tg*matchBonus
			if s.WonMatch(seat) {
				want = math.Max(0, tg-d) + tg*matchBonus
			}
			if math.Abs(got-want) > 1e-9 {
				t.Fatalf("scores %d to %d, moon %s: seat %d scored %v, want %v", us, them, map[bool]string{true: "made", false: "sunk"}[s.Made()], seat, got, want)
			}
		}
		if s.MatchDecided() && !s.Made() {
			sunk[s.Taken(1)] = true
		} else if s.Made() {
			made++
		}
	}
	if len(sunk) < 2 || made == 0 {
		t.Fatalf("moons sunk with %d different takes, %d made: want sunk with two takes or more and some made", len(sunk), made)
	}
}

// TestDefenceSinksTheMoon (TP-MOON-1): against a ten-point moon from
// zero scores the defenders win the match by taking any point, so the
// expert with match defending plays, in an endgame solved in the worlds it is
// given, a card that sinks the moon in the most of them (solved with
// every card open), whatever the points. (The points-maximising expert,
// the default, did as well in all of 1,516 such positions: a sunk moon is
// worth 20 points or more to it, more than any points taken.)
func TestDefenceSinksTheMoon(t *testing.T) {
	g := pitch.MustNewGame(pitch.TenPoint)
	ex := &Expert{changes: []setting{{key: "match", x: 1}}}
	st := ex.Settings(pitch.TenPoint)
	if !st.Match {
		t.Fatal("expert with match: Match is off")
	}
	rng := pitch.NewRand(7)
	positions := 0
	for i := 0; positions < 60; i++ {
		s := pitch.Deal(g, 3, nil, rng)
		play(t, &s, pitch.Bid(0, 10))
		for !s.Terminal() {
			seat := s.Turn()
			v := s.View(seat)
			if s.Phase() == pitch.PhasePlay && seat%2 == 1 && s.LegalPlays().Len() > 1 && endgameLinesOf(&v, st.Endgame) <= st.Endgame {
				worlds := make([]pitch.State, 20)
				for k := range worlds {
					worlds[k] = v.Resample(rng)
				}
				// Each card's worlds in which the defence sinks the moon
				// with every card open.
				sinks := map[pitch.Action]int{}
				best := 0
				for c := s.LegalPlays(); c != 0; c &= c - 1 {
					a := pitch.Play(seat, c.First())
					sv := newSolver(seat, st.objective())
					for k := range worlds {
						x := worlds[k]
						if err := x.Apply(a); err != nil {
							t.Fatal(err)
						}
						if sv.value(&x) > 0 {
							sinks[a]++
						}
					}
					best = max(best, sinks[a])
				}
				a := ex.ActIn(Request{View: &v, Legal: s.Legal(nil), Rand: pitch.NewRand(uint64(i))}, worlds)
				if sinks[a] != best {
					t.Errorf("deal %d, trick %d, seat %d: played %v, sinking the moon in %d of %d worlds; the best card sinks it in %d (%v)", i, s.Tricks()+1, seat, a, sinks[a], len(worlds), best, sinks)
				}
				positions++
			}
			if err := s.Apply(Decide(Heuristic{}, &s, rng)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestMatchWorthOfAPawneeMoon (PW-MOON-1, PW-END-1): with Match, a pawnee
// hand that decides the match is worth to a seat T-d and the bonus when
// it wins the match, -(T/4+d) and the bonus when another seat does (d its
// score before the hand less the mean of the other four's, T the
// target): a seat has a fifth of an even match, so another's win costs
// it a fifth of what its own would gain it. A hand that does not decide
// the match is scored as without Match.
func TestMatchWorthOfAPawneeMoon(t *testing.T) {
	ob := objective{Standing: true, Bonus: pawneeBonus, Match: true}
	plain := objective{Standing: true, Bonus: pawneeBonus}
	rng := pitch.NewRand(5)
	g := pitch.MustNewGame(pitch.Pawnee)
	tg := float64(g.Options.Target)
	won, lost, madeMoons, setMoons := 0, 0, 0, 0
	for range 300 {
		scores := make([]int, 5)
		for i := range scores {
			scores[i] = rng.IntN(50) - 8
		}
		scores[0] = rng.IntN(40) // the moon's bidder may bid 10 (PW-BID-4)
		s := pitch.Deal(g, 4, scores, rng)
		play(t, &s, pitch.Bid(0, 10))
		rollout(&s)
		if s.Made() {
			madeMoons++
		} else {
			setMoons++
		}
		for seat := range 5 {
			got := ob.of(&s, seat)
			if !s.MatchDecided() {
				if want := plain.of(&s, seat); got != want {
					t.Fatalf("scores %v: seat %d scored %v, want %v as without Match", scores, seat, got, want)
				}
				continue
			}
			others := 0
			for o := range 5 {
				if o != seat {
					others += s.ScoreBefore(o)
				}
			}
			d := float64(s.ScoreBefore(seat)) - float64(others)/4
			want := -math.Max(0, tg/4+d) - tg*pawneeBonus
			if s.WonMatch(seat) {
				want = math.Max(0, tg-d) + tg*pawneeBonus
				won++
			} else {
				lost++
			}
			if math.Abs(got-want) > 1e-9 {
				t.Fatalf("scores %v, moon made %v: seat %d scored %v, want %v", scores, s.Made(), seat, got, want)
			}
		}
	}
	if won == 0 || lost == 0 || madeMoons == 0 || setMoons == 0 {
		t.Fatalf("seats that won the match %d, lost it %d; moons made %d, set %d: want some of each", won, lost, madeMoons, setMoons)
	}
}

// TestMoonChanceMapped (TP-MOON-1): the ten-point expert with mooncal
// maps its playouts' chance of making a moon by tenPointMoonCalibration,
// and no other bid's: from the same worlds (the same random stream), the
// moon's chance is the map of the chance without it (the default), its
// value that of the map's chance weighing the same results made and set
// (higher when the map raises the chance), and every other option is as
// without it.
func TestMoonChanceMapped(t *testing.T) {
	g := pitch.MustNewGame(pitch.TenPoint)
	moons := 0
	for i, hand := range []string{"7H 8H 4S 5S TS JS QS KS AS", "AH KH JH BJ 9H 2C 3C 4C 5C", "9C 7D 4H 8H JH QH KH AH QS"} {
		s := fixedDeal{g: g, dealer: 3, hands: []string{hand}}.state(t)
		v := s.View(0)
		analyze := func(name string) []Option {
			b, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			return b.(*Expert).Analyze(Request{View: &v, Legal: s.Legal(nil), Rand: pitch.NewRand(uint64(i))})
		}
		on, off := analyze("expert:mooncal"), analyze("expert")
		if len(on) != len(off) {
			t.Fatalf("%s: %d options with the map, %d without", hand, len(on), len(off))
		}
		for k := range on {
			a, b := on[k], off[k]
			if a.Action != b.Action || a.Won != b.Won {
				t.Fatalf("%s: option %d is %v (won %v) with the map, %v (won %v) without", hand, k, a.Action, a.Won, b.Action, b.Won)
			}
			if a.Action.Kind != pitch.ActBid || a.Action.Bid != 10 {
				if a.Made != b.Made || a.Value != b.Value {
					t.Errorf("%s: %v made %v value %v with the map, %v %v without: only the moon is mapped", hand, a.Action, a.Made, a.Value, b.Made, b.Value)
				}
				continue
			}
			moons++
			if want := calibrate(tenPointMoonCalibration, b.Made); math.Abs(a.Made-want) > 1e-9 {
				t.Errorf("%s: the moon made %v with the map, want %v (the map of %v)", hand, a.Made, want, b.Made)
			}
			if a.Made > b.Made && a.Value <= b.Value {
				t.Errorf("%s: the moon's chance mapped up from %v to %v, its value %v not above %v", hand, b.Made, a.Made, a.Value, b.Value)
			}
		}
	}
	if moons != 3 {
		t.Fatalf("%d moons analysed, want 3", moons)
	}
	mapped := &Expert{changes: []setting{{key: "mooncal", x: 1}}}
	for _, v := range pitch.Variants {
		if got := mapped.Settings(v).MoonCalibration != nil; got != (v == pitch.TenPoint) {
			t.Errorf("%s: expert:mooncal has a moon map %v, want one in ten-point only", v, got)
		}
		if (&Expert{}).Settings(v).MoonCalibration != nil {
			t.Errorf("%s: the expert has a moon map by default", v)
		}
	}
}

// TestMoonShotMapped (TP-MOON-1): first to bid at even scores holding
// A K Q J T 5 4 of spades and two small hearts, the moon rated about 60%
// made by the playouts: mapped (tenPointMoonCalibration, expert:mooncal)
// it is a moon made about 65% of the time against hard bots, worth more
// than a plain bid (a moon made from 0 wins the match), and the expert
// shoots it; without the map (the default) it makes a plain bid.
func TestMoonShotMapped(t *testing.T) {
	const hand = "7H 8H 4S 5S TS JS QS KS AS"
	moon := pitch.Bid(0, 10)
	for seed := range uint64(3) {
		if a := moonBid(t, "expert:mooncal", hand, 0, 0, seed); a != moon {
			t.Errorf("seed %d: %s at 0 to 0: expert:mooncal %v, want the moon", seed, hand, a)
		}
		if a := moonBid(t, "expert", hand, 0, 0, seed); a == moon || a.Kind != pitch.ActBid {
			t.Errorf("seed %d: %s at 0 to 0: expert %v, want a plain bid", seed, hand, a)
		}
	}
}
