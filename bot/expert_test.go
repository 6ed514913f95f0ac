package bot

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"pitch"
)

// TestJunkKeepsJackAndLow: following a trump lead it cannot beat, the
// heuristic throws its cheapest trump: the queen before the jack of trump
// (AP-PT-3) and a middle trump before one that may be Low (AP-PT-2, which
// goes to the trick's taker).
func TestJunkKeepsJackAndLow(t *testing.T) {
	for _, c := range []struct{ hand, want string }{
		{"QC JC 7S 8S 9S TS", "QC"},
		{"2C 8C 7S 8S 9S TS", "8C"},
		{"JC 3C 7S 8S 9S TS", "3C"}, // the jack is worth more than a possible Low
	} {
		s := fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: []string{
			"2D 3D 4D 5D 6D 7D", "KC AD 8D 9D TD JD", c.hand, "2H 3H 4H 5H 6H 7H",
		}}.state(t)
		play(t, &s, pitch.Bid(1, 2), pitch.Pass(2), pitch.Pass(3), pitch.Pass(0), pitch.Play(1, card("KC")))
		for seed := range uint64(3) {
			if a := Decide(Heuristic{}, &s, pitch.NewRand(seed)); a != pitch.Play(2, card(c.want)) {
				t.Errorf("holding %s under KC: heuristic played %v, want %s", c.hand, a, c.want)
			}
		}
	}
}

// TestUnseenLeavesPassedTrumps: in ten-point a seat knows where the trumps
// it passed to its partner are (TP-TR-5), so they are not among the cards
// it cannot place.
func TestUnseenLeavesPassedTrumps(t *testing.T) {
	s := fixedDeal{g: pitch.MustNewGame(pitch.TenPoint), dealer: 3, hands: []string{
		"AH KH QH JH JD BJ LJ 2C 3C", "2H 3H 4H 4C 5C 6C 7C 8C 9C",
		"TC JC QC KC AC 3S 4S 5S 6S", "5H 6H 7H 8H 9H TH 7S 8S 9S",
	}}.state(t)
	play(t, &s, pitch.Bid(0, 5), pitch.Pass(1), pitch.Pass(2), pitch.Pass(3),
		pitch.NameTrump(0, pitch.Hearts), pitch.GiveStock(0, false))
	if s.Phase() != pitch.PhasePassBurn || s.Turn() != 0 || s.PassLimit() != 1 {
		t.Fatalf("setup: phase %s, seat %d to act, pass limit %d", s.Phase(), s.Turn(), s.PassLimit())
	}
	play(t, &s, pitch.PassTrumps(0, cards("LJ")))
	if u := unseen(&s, 0); u.Has(card("LJ")) || !u.Has(card("TH")) {
		t.Errorf("unseen by seat 0 after passing LJ: %v; want TH but not LJ", u)
	}
}

// TestSolverTableAgreesWithFullSearch: with two sides (ten-point teams,
// a pawnee bidder's side against the defenders) the alpha-beta solver
// gives every position the value of the unpruned search in which each
// seat picks its own best card (solve), with one solver's transposition
// table shared by every position it is asked about, as the expert shares
// it between the worlds and candidates of a decision (TP-PLAY-1,
// PW-PLAY-2: the tricks as the rules play them). The positions come from
// the middle tricks too, where transpositions are most common.
func TestSolverTableAgreesWithFullSearch(t *testing.T) {
	for _, v := range []pitch.Variant{pitch.TenPoint, pitch.Pawnee} {
		solvers := map[int]*solver{}
		n := 0
		for _, s := range decisionPoints(v, 40, 17+uint64(v)) {
			if s.Phase() != pitch.PhasePlay || worldLines(&s, 3000) > 3000 {
				continue
			}
			seat := s.Turn()
			if solvers[seat] == nil {
				solvers[seat] = newSolver(seat, sideObjective)
			}
			want := solve(&s, seat, sideObjective)[seat]
			for range 2 { // the second time from the table
				if got := solvers[seat].value(&s); math.Abs(want-got) > 1e-9 {
					t.Fatalf("%s, trick %d, seat %d: shared-table alpha-beta %v, full search %v", v, s.Tricks()+1, seat, got, want)
				}
			}
			n++
		}
		if n < 30 {
			t.Fatalf("%s: only %d positions", v, n)
		}
	}
}

// TestWorldLinesCountsPlayableCards: in pawnee only trumps are played
// (PW-PLAY-2), so the lines of play left count a seat's trumps, not its
// other cards; in auction every card is played.
func TestWorldLinesCountsPlayableCards(t *testing.T) {
	for _, v := range []pitch.Variant{pitch.Auction, pitch.Pawnee} {
		checked := 0
		for _, s := range decisionPoints(v, 20, 3) {
			if s.Phase() != pitch.PhasePlay {
				continue
			}
			want := 1.0
			for i := range s.Seats() {
				h := s.Hand(i)
				if v == pitch.Pawnee {
					h &= s.Trumps()
				}
				for k := 2; k <= h.Len(); k++ {
					want *= float64(k)
				}
			}
			if want > 1e6 {
				continue
			}
			if got := worldLines(&s, 1e6); float64(got) != want {
				t.Fatalf("%s, trick %d: %d lines, want %.0f", v, s.Tricks()+1, got, want)
			}
			if want > 10 {
				if got := worldLines(&s, 10); got <= 10 {
					t.Fatalf("%s: with a limit of 10, %d lines of %.0f", v, got, want)
				}
			}
			checked++
		}
		if checked < 20 {
			t.Fatalf("%s: only %d positions", v, checked)
		}
	}
}

// TestAuctionLikelihoodReadsPasses: a world in which a seat that passed
// (AP-BID-1) holds A K J T 3 2 of a suit is much less likely than one in
// which it holds nothing, and the high bidder with nothing is less likely
// than with that suit.
func TestAuctionLikelihoodReadsPasses(t *testing.T) {
	strong, weak := "AS KS JS TS 3S 2S", "4C 6D 8H 9C 5D 7H"
	deal := func(h1, h2 string) pitch.State {
		others := []string{"QH JH 9D TC 2H 3H", h1, h2, "KD QD 8D 4S 5S 6S"}
		return fixedDeal{g: pitch.MustNewGame(pitch.Auction), dealer: 0, hands: others}.state(t)
	}
	bid := func(s *pitch.State) {
		play(t, s, pitch.Pass(1), pitch.Bid(2, 3), pitch.Pass(3))
	}
	a, b := deal(strong, weak), deal(weak, strong)
	bid(&a)
	bid(&b)
	v := a.View(0)
	la, lb := auctionLikelihood(&a, &v, model{}), auctionLikelihood(&b, &v, model{})
	if !(lb > 4*la) {
		t.Errorf("passer strong, bidder weak: %.4f; passer weak, bidder strong: %.4f; want the second over 4 times the first", la, lb)
	}
}

// TestObjectiveStanding: in pawnee every seat keeps its own score (PW-1),
// so the expert counts the partner among its rivals: a seat's standing is
// its score change less the mean of all four others', while the search
// bot's side objective leaves the partner out (PW-SC-1 pays the partner
// the side's take). In the team and auction games the two agree.
func TestObjectiveStanding(t *testing.T) {
	standing := objective{Standing: true, Bonus: matchBonus}
	rng := pitch.NewRand(5)
	partnered, decided := 0, 0
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		for i := range 60 {
			s := testDeal(v, i, rng)
			if s.Game().Seats() != map[pitch.Variant]int{pitch.Auction: 4, pitch.TenPoint: 4, pitch.Pawnee: 5}[v] {
				continue
			}
			rollout(&s)
			if s.MatchDecided() {
				// PW-MOON-1, TP-MOON-1: the bonus (a quarter of the
				// target) is the same for both, and Bonus 0 leaves it out.
				for seat := range s.Seats() {
					bonus := float64(s.Game().Options.Target) / 4
					if !s.WonMatch(seat) {
						bonus = -bonus
					}
					plain := objective{Standing: true}.of(&s, seat)
					if got := standing.of(&s, seat); math.Abs(got-plain-bonus) > 1e-9 {
						t.Errorf("%s seat %d, match decided: standing %v, without the bonus %v; want %+v apart", v, seat, got, plain, bonus)
					}
					if got := (objective{Standing: true, Bonus: 0.125}).of(&s, seat); math.Abs(got-plain-bonus/2) > 1e-9 {
						t.Errorf("%s seat %d, match decided: standing with an eighth %v, without the bonus %v; want %+v apart", v, seat, got, plain, bonus/2)
					}
					decided++
				}
				continue
			}
			for seat := range s.Seats() {
				side, st := sideObjective.of(&s, seat), standing.of(&s, seat)
				if got := Standing(&s, seat); got != st {
					t.Fatalf("%s seat %d: Standing %v, the expert's objective %v; want equal", v, seat, got, st)
				}
				if v != pitch.Pawnee || s.Game().FixedTeams() {
					if side != st {
						t.Fatalf("%s seat %d: side %v, standing %v; want equal", v, seat, side, st)
					}
					continue
				}
				sum := 0
				for o := range s.Seats() {
					if o != seat {
						sum += s.Delta(o)
					}
				}
				if want := float64(s.Delta(seat)) - float64(sum)/4; math.Abs(st-want) > 1e-9 {
					t.Fatalf("pawnee seat %d: standing %v, want %v (deltas %v)", seat, st, want, deltas(&s))
				}
				if p := s.Partner(); p >= 0 && p != s.Bidder() && seat == s.Bidder() && s.Delta(p) > 0 {
					partnered++
					if !(st < side) {
						t.Errorf("pawnee bidder with a partner who gained %d: standing %v, side %v; want standing lower", s.Delta(p), st, side)
					}
				}
			}
		}
	}
	if partnered < 5 {
		t.Fatalf("only %d pawnee hands with a partner who gained", partnered)
	}
	if decided == 0 {
		t.Errorf("no hand decided the match: the bonus went unchecked")
	}
}

func deltas(s *pitch.State) []int {
	var out []int
	for i := range s.Seats() {
		out = append(out, s.Delta(i))
	}
	return out
}

// TestBidShiftBidsMore: the heuristic's bid moved up by a point bids at
// least as high as unmoved (a pass counted as 0), higher somewhere, and
// moved far down passes whenever it may (AP-BID-1, TP-BID-1, PW-BID-1);
// a forced dealer still bids (TP-BID-2, PW-BID-3).
func TestBidShiftBidsMore(t *testing.T) {
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		higher := 0
		for _, s := range decisionPoints(v, 60, 17) {
			if s.Phase() != pitch.PhaseBid {
				continue
			}
			seat := s.Turn()
			up, base, down := bidShifted(&s, seat, 1), bidShifted(&s, seat, 0), bidShifted(&s, seat, -20)
			for _, a := range []pitch.Action{up, base, down} {
				if !legalHas(&s, a) {
					t.Fatalf("%s: shifted bid %v is not legal", v, a)
				}
			}
			if up.Bid < base.Bid {
				t.Fatalf("%s seat %d: moved up it bids %v, unmoved %v", v, seat, up, base)
			}
			if up.Bid > base.Bid {
				higher++
			}
			if _, canPass := s.BidOptions(); canPass && down.Kind != pitch.ActPass {
				t.Fatalf("%s seat %d: moved far down it bids %v, want a pass", v, seat, down)
			}
		}
		if higher == 0 {
			t.Errorf("%s: moving the bids up a point never bid higher", v)
		}
	}
}

// TestAloneCalls: the expert also weighs playing alone (PW-CALL-1): in
// each suit it holds, a call of its own highest card, only when the rules
// let a bidder call its own card.
func TestAloneCalls(t *testing.T) {
	hands := []string{"AH KH 3H 9S 2S JC 4D 5D 6D 7D"}
	for _, own := range []bool{true, false} {
		g := pitch.MustNewGame(pitch.Pawnee, pitch.WithCallOwnCard(own))
		s := fixedDeal{g: g, dealer: 4, hands: hands}.state(t)
		play(t, &s, pitch.Bid(0, 6), pitch.Pass(1), pitch.Pass(2), pitch.Pass(3), pitch.Pass(4))
		v := s.View(0)
		got := aloneCalls(Request{View: &v, Legal: s.Legal(nil), Rand: pitch.NewRand(1)}, nil)
		want := []pitch.Action{pitch.Call(0, card("JC")), pitch.Call(0, card("7D")), pitch.Call(0, card("AH")), pitch.Call(0, card("9S"))}
		if !own {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("call_own_card %v: alone calls %v, want %v", own, got, want)
		}
		if own {
			have := []pitch.Action{pitch.Call(0, card("AH"))}
			if got := aloneCalls(Request{View: &v, Legal: s.Legal(nil)}, have); len(got) != 3 {
				t.Errorf("with AH among the candidates: %v, want the three others", got)
			}
		}
	}
}

// TestLookAheadPlaysBestForItsSide: the look-ahead model plays a legal
// card whose heuristic playout is best for the seat's side among all its
// legal cards (TP-PLAY-1, PW-PLAY-2, AP-PLAY-1 say which are legal), and
// it is not the heuristic's own choice everywhere.
func TestLookAheadPlaysBestForItsSide(t *testing.T) {
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		differ := 0
		for _, s := range decisionPoints(v, 20, 23) {
			if s.Phase() != pitch.PhasePlay {
				continue
			}
			seat := s.Turn()
			a := lookAhead(&s)
			if !legalHas(&s, a) {
				t.Fatalf("%s: look-ahead chose %v, not legal", v, a)
			}
			value := func(a pitch.Action) float64 {
				x := s
				play(t, &x, a)
				rollout(&x)
				return outcome(&x, seat)
			}
			got := value(a)
			for c := s.LegalPlays(); c != 0; c &= c - 1 {
				if o := value(pitch.Play(seat, c.First())); o > got {
					t.Fatalf("%s: look-ahead played %v for %v, but %v gives %v", v, a, got, c.First(), o)
				}
			}
			if a != policy(&s) {
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("%s: the look-ahead always played as the heuristic", v)
		}
	}
}

// TestExpertSettings: a named expert variant changes only the settings it
// names, on top of each game's own (expertTuning); Worlds overrides the
// game's worlds, for bids too unless bidworlds is named.
func TestExpertSettings(t *testing.T) {
	b, err := New("expert:look=0,fit=0,bidshift=-0.5,bidworlds=7,endworlds=40,nodes=5000,playouts=90,raw,nobonus,readcall=0,readplay,bonus=0.2")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range pitch.Variants {
		got := b.(*Expert).Settings(v)
		want := expertTuning[v]
		want.Look, want.Fit, want.BidShift, want.BidWorlds, want.EndWorlds, want.Raw = false, false, -0.5, 7, 40, true
		want.ReadCall, want.Bonus = false, 0.2 // nobonus, then bonus=0.2
		want.Nodes, want.ReadPlay, want.Playouts = 5000, true, 90
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: settings %+v, want %+v", v, got, want)
		}
		if nb, _ := New("expert:nobonus"); nb.(*Expert).Settings(v).Bonus != 0 || expertTuning[v].Bonus <= 0 {
			t.Errorf("%s: nobonus leaves a bonus of %v (the game's: %v)", v, nb.(*Expert).Settings(v).Bonus, expertTuning[v].Bonus)
		}
		plain := (&Expert{Worlds: 3}).Settings(v)
		if plain.Worlds != 3 || plain.BidWorlds != 3 || plain.Look != expertTuning[v].Look {
			t.Errorf("%s: Expert{Worlds: 3} has settings %+v", v, plain)
		}
	}
}

// TestActInSolvesTheTrueDeal: given the true deal as its one world
// (pitch sim's perfect references), the expert plays a ten-point endgame
// perfectly: its card is worth, with every card open, as much as the
// best legal card (TP-PLAY-1: the tricks as the rules play them), by its
// own objective (its standing, with the match bonus). From its view
// alone (Act) it misses the best card in some of them.
func TestActInSolvesTheTrueDeal(t *testing.T) {
	ex := &Expert{}
	st := ex.Settings(pitch.TenPoint)
	n, missed := 0, 0
	for _, s := range decisionPoints(pitch.TenPoint, 60, 41) {
		if s.Phase() != pitch.PhasePlay || s.LegalPlays().Len() < 2 {
			continue
		}
		v := s.View(s.Turn())
		if endgameLinesOf(&v, st.Endgame) > st.Endgame {
			continue
		}
		seat := s.Turn()
		ob := st.objective()
		best, values := math.Inf(-1), map[pitch.Action]float64{}
		for c := s.LegalPlays(); c != 0; c &= c - 1 {
			x := s
			a := pitch.Play(seat, c.First())
			if err := x.Apply(a); err != nil {
				t.Fatal(err)
			}
			values[a] = newSolver(seat, ob).value(&x)
			best = math.Max(best, values[a])
		}
		a := ex.ActIn(Request{View: &v, Legal: s.Legal(nil), Rand: pitch.NewRand(uint64(n))}, []pitch.State{s})
		if got := values[a]; math.Abs(got-best) > 1e-9 {
			t.Errorf("trick %d, seat %d: played %v worth %v with the cards open; the best is worth %v (%v)", s.Tricks()+1, seat, a, got, best, values)
		}
		if missed == 0 {
			if a := ex.Act(Request{View: &v, Legal: s.Legal(nil), Rand: pitch.NewRand(uint64(n))}); math.Abs(values[a]-best) > 1e-9 {
				missed++
			}
		}
		n++
	}
	if n < 20 || missed == 0 {
		t.Fatalf("%d endgame positions, the view alone never missed the best card (%d); want 20 or more, one missed", n, missed)
	}
}

// TestNodesBoundTheEndgame: with a bound on the positions solved
// (ExpertSettings.Nodes), a pawnee endgame is decided by the worlds solved
// before the bound was passed, never fewer than endgameMinWorlds: with a
// bound of one position, the options are those of the first
// endgameMinWorlds worlds solved without a bound. Without a bound every
// world counts, and some decisions differ.
func TestNodesBoundTheEndgame(t *testing.T) {
	tight, _ := New("expert:nodes=1")
	free, _ := New("expert:nodes=1000000000")
	n, differ := 0, 0
	for _, s := range decisionPoints(pitch.Pawnee, 12, 3) {
		if s.Phase() != pitch.PhasePlay || s.LegalPlays().Len() < 2 {
			continue
		}
		v := s.View(s.Turn())
		req := Request{View: &v, Legal: s.Legal(nil), Rand: pitch.NewRand(uint64(n))}
		worlds := drawWorlds(&v, req.Rand, 40, true, model{})
		lines := 0
		for i := range worlds {
			lines = max(lines, worldLines(&worlds[i], pawneeEndgame))
		}
		if lines > pawneeEndgame {
			continue // played out, not solved
		}
		got := tight.(*Expert).analyze(req, worlds)
		want := free.(*Expert).analyze(req, worlds[:endgameMinWorlds])
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("position %d: with nodes=1 the options are %v, want those of the first %d worlds, %v", n, got, endgameMinWorlds, want)
		}
		all := free.(*Expert).analyze(req, worlds)
		if all[pickBest(all, 0)].Action != got[pickBest(got, 0)].Action {
			differ++
		}
		n++
	}
	if n < 10 || differ == 0 {
		t.Fatalf("%d positions, %d decided otherwise with every world; want 10 or more, some", n, differ)
	}
}

// TestPlayoutsBoundTheWorlds: the auction expert searches a decision
// outside endgames in at most auctionPlayouts playouts, worlds times
// the actions to choose among, and never fewer than minBoundedWorlds
// worlds: its options are those of the first that many worlds it draws.
// With four or more actions (opening bids, leads) that is fewer than
// its 100 worlds.
func TestPlayoutsBoundTheWorlds(t *testing.T) {
	ex := &Expert{}
	st := ex.Settings(pitch.Auction)
	if st.Playouts != auctionPlayouts || st.Worlds != 100 {
		t.Fatalf("auction settings %+v", st)
	}
	n, fewer := 0, 0
	for k, s := range decisionPoints(pitch.Auction, 8, 17) {
		v := s.View(s.Turn())
		legal := s.Legal(nil)
		if s.Phase() == pitch.PhasePlay && endgameLinesOf(&v, st.Endgame) <= st.Endgame || k%3 != 0 {
			continue // endgames are not bounded by playouts
		}
		worlds := min(st.Worlds, max(minBoundedWorlds, auctionPlayouts/min(len(legal), maxCandidates)))
		if worlds < st.Worlds {
			fewer++
		}
		got := ex.Analyze(Request{View: &v, Legal: legal, Rand: pitch.NewRand(uint64(k))})
		m := st.model()
		want := ex.analyze(Request{View: &v, Legal: legal, Rand: pitch.NewRand(1 << 40)}, drawWorlds(&v, pitch.NewRand(uint64(k)), worlds, true, m))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s with %d actions: options %v, want those of %d worlds, %v", s.Phase(), len(legal), got, worlds, want)
		}
		n++
	}
	if n < 10 || fewer == 0 {
		t.Fatalf("%d decisions checked, %d with fewer worlds; want 10 or more, some", n, fewer)
	}
}
