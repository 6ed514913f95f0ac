package bot

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pitch"
)

// testGames lists the option sets a variant's hands rotate through, so the
// bots meet every table size and house rule.
func testGames(v pitch.Variant) []*pitch.Game {
	switch v {
	case pitch.Auction:
		return []*pitch.Game{
			pitch.MustNewGame(pitch.Auction),
			pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(2)),
			pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(3)),
			pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(5), pitch.WithLowToHolder(true)),
			pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(7)),
			pitch.MustNewGame(pitch.Auction, pitch.WithPartnerships(true)),
			pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(6), pitch.WithPartnerships(true)),
		}
	case pitch.TenPoint:
		return []*pitch.Game{pitch.MustNewGame(pitch.TenPoint)}
	}
	return []*pitch.Game{
		pitch.MustNewGame(pitch.Pawnee),
		pitch.MustNewGame(pitch.Pawnee, pitch.WithCallOwnCard(false)),
		pitch.MustNewGame(pitch.Pawnee, pitch.WithScoreTricks(true)),
		pitch.MustNewGame(pitch.Pawnee, pitch.WithFailBidderOnly(true)),
	}
}

// testDeal deals hand i of a test run: the game rotates through
// testGames, the dealer through the seats, and a third of the hands start
// from match scores, some negative (PW-BID-4) and some near the target
// (so a hand can end the match).
func testDeal(v pitch.Variant, i int, rng *rand.Rand) pitch.State {
	games := testGames(v)
	g := games[i%len(games)]
	var scores []int
	if i%3 == 1 {
		scores = make([]int, g.Seats())
		for k := range scores {
			scores[k] = rng.IntN(g.Options.Target+30) - 25
			if g.FixedTeams() && k >= 2 {
				scores[k] = scores[k%2]
			}
		}
	}
	return pitch.Deal(g, i%g.Seats(), scores, rng)
}

// legalHas reports whether a is one of the legal actions of s.
func legalHas(s *pitch.State, a pitch.Action) bool {
	return slices.Contains(s.Legal(nil), a)
}

// TestBotsPlayLegally plays whole hands with the same bot at every seat
// and checks that every action a bot returns is accepted by the engine
// (C-7: the engine refuses what the rules forbid). For the heuristic it
// also checks its rule-of-thumb policy itself, which Heuristic.Act would
// otherwise hide behind its fallback to the first legal action.
func TestBotsPlayLegally(t *testing.T) {
	hands := map[string]int{"random": 10000, "heuristic": 10000, "search": 300, "expert": 100}
	if testing.Short() {
		hands = map[string]int{"random": 1000, "heuristic": 1000, "search": 20, "expert": 40}
	}
	bots := []Bot{Random{}, Heuristic{}, &Search{Worlds: 2}, &Expert{Worlds: 3}}
	for _, b := range bots {
		for _, v := range pitch.Variants {
			t.Run(b.Name()+"/"+v.String(), func(t *testing.T) {
				t.Parallel()
				n := hands[b.Name()]
				rng := pitch.NewRand(1000 + uint64(v))
				var decisions int
				phases := map[pitch.Phase]int{}
				for i := range n {
					s := testDeal(v, i, rng)
					for steps := 0; !s.Terminal(); steps++ {
						if steps > 200 {
							t.Fatalf("hand %d: not over after 200 actions", i)
						}
						seat := s.Turn()
						seed := rng.Uint64()
						var a pitch.Action
						if _, ok := b.(Heuristic); ok {
							view := s.View(seat)
							w := view.Resample(pitch.NewRand(seed))
							p := policy(&w)
							if !legalHas(&s, p) {
								t.Fatalf("hand %d, %s, seat %d: the heuristic policy chose %v, which is not legal", i, s.Phase(), seat, p)
							}
							a = b.Act(Request{View: &view, Legal: s.Legal(nil), Rand: pitch.NewRand(seed)})
							if a != p {
								t.Fatalf("hand %d: Heuristic.Act returned %v, its policy %v", i, a, p)
							}
						} else {
							a = Decide(b, &s, pitch.NewRand(seed))
						}
						if a.Seat != int8(seat) {
							t.Fatalf("hand %d: seat %d to act, %s returned %v for seat %d", i, seat, b.Name(), a, a.Seat)
						}
						phases[s.Phase()]++
						decisions++
						if err := s.Apply(a); err != nil {
							t.Fatalf("hand %d, %s: %s chose an illegal action %v: %v", i, s.Phase(), b.Name(), a, err)
						}
					}
				}
				// The hands must have reached every phase of the game.
				want := map[pitch.Variant][]pitch.Phase{
					pitch.Auction:  {pitch.PhaseBid, pitch.PhasePlay},
					pitch.TenPoint: {pitch.PhaseBid, pitch.PhaseTrump, pitch.PhaseGiveStock, pitch.PhasePassBurn, pitch.PhasePlay},
					pitch.Pawnee:   {pitch.PhaseBid, pitch.PhaseCall, pitch.PhaseDiscard, pitch.PhasePlay},
				}[v]
				for _, p := range want {
					if phases[p] == 0 {
						t.Errorf("no decision in phase %s over %d hands", p, n)
					}
				}
				t.Logf("%d hands, %d decisions, by phase %v", n, decisions, phases)
			})
		}
	}
}

// decisionPoints plays n hands of v with the heuristic at every seat and
// returns every state where a seat had to choose among two or more actions.
func decisionPoints(v pitch.Variant, n int, seed uint64) []pitch.State {
	rng := pitch.NewRand(seed)
	var out []pitch.State
	for i := range n {
		s := testDeal(v, i, rng)
		for !s.Terminal() {
			if len(s.Legal(nil)) > 1 {
				out = append(out, s)
			}
			if err := s.Apply(Decide(Heuristic{}, &s, rng)); err != nil {
				panic(err)
			}
		}
	}
	return out
}

// TestBotsDeterministic: the same bot, given the same view, the same legal
// actions and a generator with the same seed, decides the same; a fresh
// bot of the same name does too (no state kept between decisions), and a
// decision leaves the view it was given unchanged.
func TestBotsDeterministic(t *testing.T) {
	type botCase struct {
		name  string
		make  func() Bot
		every int // check every k-th decision point
	}
	cases := []botCase{
		{"random", func() Bot { return Random{} }, 1},
		{"heuristic", func() Bot { return Heuristic{} }, 1},
		{"search-8", func() Bot { return &Search{Worlds: 8} }, 3},
		{"medium", func() Bot { b, _ := New("medium"); return b }, 40},
		{"expert-6", func() Bot { return &Expert{Worlds: 6} }, 3},
		{"expert-6-readplay", func() Bot { b, _ := New("expert:worlds=6,readplay"); return b }, 3},
	}
	for _, v := range pitch.Variants {
		points := decisionPoints(v, 60, 77+uint64(v))
		for _, bc := range cases {
			t.Run(bc.name+"/"+v.String(), func(t *testing.T) {
				t.Parallel()
				checked := 0
				for k := 0; k < len(points); k += bc.every {
					s := points[k]
					v1, v2 := s.View(s.Turn()), s.View(s.Turn())
					keep := s.View(s.Turn())
					seed := uint64(k)*7919 + 1
					a1 := bc.make().Act(Request{View: &v1, Legal: s.Legal(nil), Rand: pitch.NewRand(seed)})
					a2 := bc.make().Act(Request{View: &v2, Legal: s.Legal(nil), Rand: pitch.NewRand(seed)})
					if a1 != a2 {
						t.Fatalf("point %d (%s): same view and seed gave %v, then %v", k, s.Phase(), a1, a2)
					}
					if !reflect.DeepEqual(v1, keep) {
						t.Fatalf("point %d: deciding changed the view:\n got %+v\nwant %+v", k, v1, keep)
					}
					checked++
				}
				if checked < 10 {
					t.Fatalf("only %d decision points checked", checked)
				}
			})
		}
	}
}

// TestResampleRespectsView checks the worlds the bots reason on: drawn
// from a seat's view, at every phase, a world keeps the seat's own hand
// and the number of cards each seat holds, never puts a card in a hand the
// view excludes (voids shown by play, dropped non-trumps: NotIn), keeps
// the cards the seat knows another holds (trumps it passed, TP-TR-5:
// KnownIn) and, in pawnee once the seat knows the partner (PW-CALL-1,
// PW-PLAY-1), gives the called card to that partner. Viewed again from
// the seat, the world shows the same view, and the card winning the trick
// in progress is the same.
func TestResampleRespectsView(t *testing.T) {
	const worlds = 4
	for _, v := range pitch.Variants {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			rng := pitch.NewRand(500 + uint64(v))
			phases := map[pitch.Phase]int{}
			var notIn, knownIn, partnerKnown, alone int
			for i := range 600 {
				s := testDeal(v, i, rng)
				// Half the hands are played at random, half by the heuristic.
				randomPlay := i%2 == 0
				for {
					for seat := range s.Seats() {
						view := s.View(seat)
						phases[s.Phase()]++
						for j := range s.Seats() {
							if view.NotIn[j] != 0 && j != seat {
								notIn++
							}
							if view.KnownIn[j] != 0 {
								knownIn++
							}
						}
						if view.PartnerKnown {
							partnerKnown++
							if view.Partner < 0 {
								alone++
							}
						}
						for range worlds {
							w := view.Resample(rng)
							if msg := worldBreaksView(&w, &view); msg != "" {
								t.Fatalf("hand %d, %s, seat %d: %s", i, s.Phase(), seat, msg)
							}
							// The trick in progress is won by the same card
							// (AP-PLAY-3, TP-PLAY-2, PW-PLAY-2).
							wc, ws := w.Winning()
							if c, cs := s.Winning(); wc != c || ws != cs {
								t.Fatalf("hand %d, seat %d: in the world %v (seat %d) wins the trick %v; in the hand %v (seat %d)",
									i, seat, wc, ws, view.Trick, c, cs)
							}
						}
					}
					if s.Terminal() {
						break
					}
					var a pitch.Action
					if randomPlay {
						a = s.RandomAction(rng)
					} else {
						a = Decide(Heuristic{}, &s, rng)
					}
					if err := s.Apply(a); err != nil {
						t.Fatal(err)
					}
				}
			}
			want := map[pitch.Variant][]pitch.Phase{
				pitch.Auction:  {pitch.PhaseBid, pitch.PhasePlay, pitch.PhaseDone},
				pitch.TenPoint: {pitch.PhaseBid, pitch.PhaseTrump, pitch.PhaseGiveStock, pitch.PhasePassBurn, pitch.PhasePlay, pitch.PhaseDone},
				pitch.Pawnee:   {pitch.PhaseBid, pitch.PhaseCall, pitch.PhaseDiscard, pitch.PhasePlay, pitch.PhaseDone},
			}[v]
			for _, p := range want {
				if phases[p] == 0 {
					t.Errorf("no view drawn in phase %s", p)
				}
			}
			if notIn == 0 {
				t.Errorf("no view excluded any card from another seat's hand")
			}
			if v == pitch.TenPoint && knownIn == 0 {
				t.Errorf("no view knew a card in another hand (passed trumps)")
			}
			if v == pitch.Pawnee && (partnerKnown == 0 || alone == 0) {
				t.Errorf("partner known in %d views, alone in %d: want both", partnerKnown, alone)
			}
			t.Logf("views by phase %v; NotIn %d, KnownIn %d, partner known %d (alone %d)", phases, notIn, knownIn, partnerKnown, alone)
		})
	}
}

// worldBreaksView returns what world w gets wrong about view v, or "".
func worldBreaksView(w *pitch.State, v *pitch.View) string {
	if got := w.Hand(v.Seat); got != v.Hand {
		return fmt.Sprintf("own hand %v, want %v", got, v.Hand)
	}
	var all pitch.CardSet
	for j := range w.Seats() {
		h := w.Hand(j)
		if h.Len() != v.Counts[j] {
			return fmt.Sprintf("seat %d holds %d cards, the view says %d", j, h.Len(), v.Counts[j])
		}
		if bad := h & v.NotIn[j]; bad != 0 {
			return fmt.Sprintf("seat %d holds %v, which the view says it does not", j, bad)
		}
		if miss := v.KnownIn[j] &^ h; miss != 0 {
			return fmt.Sprintf("seat %d lacks %v, which the view says it holds", j, miss)
		}
		if h&all != 0 {
			return fmt.Sprintf("cards %v are in two hands", h&all)
		}
		all |= h
	}
	if v.Game.Variant == pitch.Pawnee && v.PartnerKnown {
		holder := v.Bidder
		if v.Partner >= 0 {
			holder = v.Partner
		}
		if !(w.Hand(holder) | w.Played(holder)).Has(v.Called) {
			return fmt.Sprintf("the called card %v is not with seat %d", v.Called, holder)
		}
		if w.Partner() != v.Partner {
			return fmt.Sprintf("partner %d, the view says %d", w.Partner(), v.Partner)
		}
	}
	if got := w.View(v.Seat); !reflect.DeepEqual(got, *v) {
		return fmt.Sprintf("the world seen from the seat differs from the view:\n got %+v\nwant %+v", got, *v)
	}
	return ""
}

// TestNewNames: every listed name gives a bot, in any case, with the
// label asked for; an unknown name is refused with the valid names.
func TestNewNames(t *testing.T) {
	tests := []struct {
		name, label string
		want        Bot
	}{
		{"random", "random", Random{}},
		{"heuristic", "heuristic", Heuristic{}},
		{"easy", "heuristic", Heuristic{}},
		{"search", "search", &Search{Label: "search"}},
		{"Search", "search", &Search{Label: "search"}},
		{"hard", "hard", &Search{Label: "hard"}},
		{"medium", "medium", &Search{Worlds: MediumWorlds, Label: "medium"}},
		{"expert", "expert", &Expert{}},
		{"Expert", "expert", &Expert{}},
		{"expert-raw", "expert-raw", &Expert{changes: []setting{{key: "raw"}}, Label: "expert-raw"}},
		{"expert-blind", "expert-blind", &Expert{changes: []setting{{key: "blind"}}, Label: "expert-blind"}},
		{"expert:look=0,bidshift=-0.5,sides", "expert:look=0,bidshift=-0.5,sides",
			&Expert{changes: []setting{{"look", 0}, {"bidshift", -0.5}, {"sides", 1}}, Label: "expert:look=0,bidshift=-0.5,sides"}},
		{"heuristic:bidshift=-1.5", "heuristic:bidshift=-1.5", Heuristic{BidShift: -1.5, Label: "heuristic:bidshift=-1.5"}},
	}
	for _, tc := range tests {
		b, err := New(tc.name)
		if err != nil {
			t.Errorf("New(%q): %v", tc.name, err)
			continue
		}
		if !reflect.DeepEqual(b, tc.want) || b.Name() != tc.label {
			t.Errorf("New(%q) = %#v named %q, want %#v named %q", tc.name, b, b.Name(), tc.want, tc.label)
		}
	}
	for _, n := range Names {
		if _, err := New(n); err != nil {
			t.Errorf("New(%q), a listed name: %v", n, err)
		}
	}
	for _, bad := range []string{"expert:look=2", "expert:fit=yes", "expert:raw=1", "expert:bidshift=much", "expert:worlds=0", "expert:endworlds=-3", "expert:bonus=0", "expert:bonus=-1", "expert:fast", "heuristic:bidshift=x"} {
		if b, err := New(bad); err == nil {
			t.Errorf("New(%q) = %v, want an error", bad, b)
		} else if !strings.Contains(err.Error(), bad) {
			t.Errorf("New(%q) error %q does not name it", bad, err)
		}
	}
	for _, bad := range []string{"", "grandmaster", "searchy"} {
		b, err := New(bad)
		if err == nil {
			t.Errorf("New(%q) = %v, want an error", bad, b)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, `"`+bad+`"`) {
			t.Errorf("New(%q) error %q does not name it", bad, msg)
		}
		for _, n := range []string{"random", "heuristic", "search", "easy", "medium", "hard", "expert"} {
			if !strings.Contains(msg, n) {
				t.Errorf("New(%q) error %q does not list %q", bad, msg, n)
			}
		}
	}
}
