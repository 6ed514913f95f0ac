package sim

import (
	"slices"
	"strings"
	"testing"

	"pitch"
	"pitch/bot"
)

// TestReferencesNeverAtATable: the perfect-information references see
// cards no seat may see, so nothing but pitch sim seats them: they are
// not among the levels a table, pitch play or the ratings offer
// (bot.Levels, which the server checks a seat's level against), nor a
// name bot.New accepts (pitch advise, pitch deal, a table's bots), while
// pitch sim seats them.
func TestReferencesNeverAtATable(t *testing.T) {
	for _, name := range ReferenceNames {
		for _, spelled := range []string{name, strings.ToUpper(name), "expert:" + name} {
			if slices.ContainsFunc(bot.Levels, func(l string) bool { return strings.EqualFold(l, spelled) }) {
				t.Errorf("%q is a level (%v)", spelled, bot.Levels)
			}
			if slices.ContainsFunc(bot.Names, func(l string) bool { return strings.EqualFold(l, spelled) }) {
				t.Errorf("%q is among bot.Names (%v)", spelled, bot.Names)
			}
			if b, err := bot.New(spelled); err == nil {
				t.Errorf("bot.New(%q) = %s, want an error", spelled, b.Name())
			}
		}
		if p, err := newPlayer(name); err != nil || p.Name() != name {
			t.Errorf("pitch sim's newPlayer(%q) = %v, %v", name, p, err)
		} else if _, ok := p.(*reference); !ok {
			t.Errorf("newPlayer(%q) is a %T, not a reference", name, p)
		}
	}
	for _, g := range []*pitch.Game{pitch.MustNewGame(pitch.TenPoint), pitch.MustNewGame(pitch.Pawnee)} {
		seats := []string{"perfect", "heuristic", "perfect-play", "heuristic", "heuristic"}[:g.Seats()]
		r := mustRun(t, Config{Game: g, Seats: seats, Hands: 2, Seed: 3})
		if len(r.Sides) != 3 || r.Sides[0].Bot != "perfect" || r.Sides[2].Bot != "perfect-play" || r.Sides[0].Decisions == 0 {
			t.Errorf("%s: sides %+v, want perfect, heuristic, perfect-play, deciding", g.Variant, r.Sides)
		}
	}
}

// TestReferencesSeeTheDeal: "perfect" searches the true state at every
// decision and "perfect-play" once the auction is over; in the auction
// "perfect-play" decides as the expert does from its view (the same
// random stream, the same action), and "perfect" as the raw expert's
// search given the true deal.
func TestReferencesSeeTheDeal(t *testing.T) {
	g := pitch.MustNewGame(pitch.Auction)
	ex, _ := bot.New("expert")
	raw, _ := bot.New("expert:raw")
	bids, plays := 0, 0
	for d := range uint64(3) {
		s := pitch.Deal(g, int(d)%4, nil, pitch.NewRand(d))
		for !s.Terminal() {
			legal := s.Legal(nil)
			if len(legal) > 1 {
				v := s.View(s.Turn())
				req := func(seed uint64) bot.Request {
					return bot.Request{View: &v, Legal: legal, Rand: pitch.NewRand(seed)}
				}
				pp, perfect := newReference("perfect-play"), newReference("perfect")
				trueDeal := []pitch.State{s}
				switch s.Phase() {
				case pitch.PhaseBid:
					if got, want := pp.decide(&s, pitch.NewRand(d)), ex.Act(req(d)); got != want {
						t.Errorf("deal %d: perfect-play bid %v, the expert %v", d, got, want)
					}
					bids++
				default:
					if got, want := pp.decide(&s, pitch.NewRand(d)), raw.(*bot.Expert).ActIn(req(d), trueDeal); got != want {
						t.Errorf("deal %d: perfect-play played %v, the expert's search of the true deal %v", d, got, want)
					}
					plays++
				}
				if got, want := perfect.decide(&s, pitch.NewRand(d)), raw.(*bot.Expert).ActIn(req(d), trueDeal); got != want {
					t.Errorf("deal %d, %s: perfect chose %v, the raw expert's search of the true deal %v", d, s.Phase(), got, want)
				}
			}
			if err := s.Apply(bot.Decide(bot.Heuristic{}, &s, pitch.NewRand(d))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if bids == 0 || plays == 0 {
		t.Fatalf("%d bid and %d play decisions", bids, plays)
	}
}
