package pitch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// cmnGames lists games of every variant, with a few table sizes and options.
func cmnGames() []*Game {
	return []*Game{
		MustNewGame(Auction),
		MustNewGame(Auction, WithPlayers(2)),
		MustNewGame(Auction, WithPlayers(3)),
		MustNewGame(Auction, WithPlayers(7)),
		MustNewGame(Auction, WithPlayers(6), WithPartnerships(true)),
		MustNewGame(TenPoint),
		MustNewGame(Pawnee),
		MustNewGame(Pawnee, WithCallOwnCard(false)),
	}
}

func cmnName(g *Game) string { return fmt.Sprintf("%s/%d", g.Variant, g.seats) }

// cmnPacket is the packet size the deal uses (AP-3 packets of 3; ten-point
// also 3; pawnee 5).
func cmnPacket(v Variant) int {
	if v == Pawnee {
		return 5
	}
	return 3
}

// C-1, AP-3, TP-3, PW-3: the deal goes clockwise from the dealer's left in
// packets; the undealt cards form the widow, the stock (in order) or are
// left out.
func TestDealClockwiseC1(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, g := range cmnGames() {
		n := g.seats
		for dealer := range n {
			deck := g.Deck().Cards()
			rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			s, err := NewHand(g, dealer, nil, deck)
			if err != nil {
				t.Fatal(err)
			}
			// the expected deal, worked out card by card
			want := make([]CardSet, n)
			p := cmnPacket(g.Variant)
			k := 0
			for round := 0; round < g.handSize/p; round++ {
				for i := 1; i <= n; i++ {
					seat := (dealer + i) % n
					for range p {
						want[seat] |= deck[k].Set()
						k++
					}
				}
			}
			for seat := range n {
				if got := s.Hand(seat); got != want[seat] {
					t.Errorf("%s dealer %d: seat %d dealt %v, want %v", cmnName(g), dealer, seat, got, want[seat])
				}
				if got := s.Hand(seat).Len(); got != g.HandSize() {
					t.Errorf("%s: seat %d holds %d cards", cmnName(g), seat, got)
				}
			}
			rest := deck[k:]
			switch g.Variant {
			case Pawnee:
				if got := s.widow; got != SetOf(rest...) || len(rest) != 4 {
					t.Errorf("%s: widow %v, want %v", cmnName(g), got, SetOf(rest...))
				}
			case TenPoint:
				if got := s.Record(nil).Stock; fmt.Sprint(got) != fmt.Sprint(rest) || len(rest) != 18 {
					t.Errorf("%s: stock %v, want %v in order", cmnName(g), got, rest)
				}
			case Auction:
				if got := s.undlt; got != SetOf(rest...) {
					t.Errorf("%s: undealt %v, want %v", cmnName(g), got, SetOf(rest...))
				}
			}
			// C-1: the bidding starts on the dealer's left
			if got, want := s.Turn(), (dealer+1)%n; got != want {
				t.Errorf("%s dealer %d: first to bid %d, want %d", cmnName(g), dealer, got, want)
			}
		}
	}
}

// C-1: bidding and play move clockwise (seat+1), skipping only seats the
// rules skip (a pawnee seat that passed, a seat with no trump in the
// trump-only games).
func TestBidAndPlayClockwiseC1(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range cmnGames() {
		n := int8(g.seats)
		for hand := range 300 {
			s := Deal(g, hand%int(n), nil, rng)
			for !s.Terminal() {
				before := s
				a := s.RandomAction(rng)
				if err := s.Apply(a); err != nil {
					t.Fatalf("%s: %v", cmnName(g), err)
				}
				if s.Terminal() || before.phase != s.phase {
					continue
				}
				// the next seat to act in the same bidding round or trick
				want := (a.Seat + 1) % n
				switch {
				case s.phase == PhaseBid:
					for s.passed&(1<<want) != 0 {
						want = (want + 1) % n
					}
				case s.phase == PhasePlay && s.trickLen > 0:
					for g.Variant != Auction && s.hands[want]&s.trumps() == 0 {
						want = (want + 1) % n
					}
				default:
					continue
				}
				if s.Turn() != int(want) {
					t.Fatalf("%s phase %s: after %v the turn is %d, want %d", cmnName(g), s.phase, a, s.Turn(), want)
				}
			}
		}
	}
}

// cmnPlay applies random legal actions to m until the match is over or
// limit actions were taken. It never shoots the moon and passes more often
// than it bids, so that matches last a while and bids are often made.
func cmnPlay(t *testing.T, m *Match, rng *rand.Rand, limit int) {
	t.Helper()
	for i := 0; i < limit && !m.Over(); i++ {
		s := m.State()
		a := s.RandomAction(rng)
		if a.Kind == ActBid {
			legal := s.Legal(nil)
			if legal[0].Kind == ActPass && rng.IntN(4) != 0 || a.Bid == 10 {
				a = legal[0] // pass, or the lowest bid when the dealer must bid
			}
		}
		if err := m.Apply(a); err != nil {
			t.Fatalf("action %d: %v", i, err)
		}
	}
}

// C-2: the first dealer comes from the seed (every seat can be drawn, the
// same seed always draws the same), and the deal passes left every hand.
func TestFirstDealerAndDealPassesLeftC2(t *testing.T) {
	for _, g := range cmnGames() {
		seen := map[int]bool{}
		for seed := uint64(0); seed < 200; seed++ {
			d := NewMatch(g, seed).State().Dealer()
			if d < 0 || d >= g.seats {
				t.Fatalf("%s seed %d: dealer %d", cmnName(g), seed, d)
			}
			if again := NewMatch(g, seed).State().Dealer(); again != d {
				t.Errorf("%s seed %d: dealer %d then %d", cmnName(g), seed, d, again)
			}
			seen[d] = true
		}
		if len(seen) != g.seats {
			t.Errorf("%s: 200 seeds drew first dealers %v; every seat should be possible", cmnName(g), seen)
		}

		m := NewMatch(MustNewGame(g.Variant, cmnOpts(g, WithTarget(MaxTarget))...), 42)
		rng := rand.New(rand.NewPCG(5, 6))
		first := m.State().Dealer()
		cmnPlay(t, m, rng, 600)
		recs := m.Records()
		if len(recs) < 3 {
			t.Fatalf("%s: only %d hands played", cmnName(g), len(recs))
		}
		for i, r := range recs {
			if want := (first + i) % g.seats; r.Dealer != want {
				t.Errorf("%s hand %d: dealer %d, want %d", cmnName(g), i, r.Dealer, want)
			}
			if i > 0 {
				// the scores carry over from hand to hand
				prev, _ := recs[i-1].State()
				if got, want := r.Scores, prev.NewScores(); !reflect.DeepEqual(got, want) {
					t.Errorf("%s hand %d: scores before %v, want %v", cmnName(g), i, got, want)
				}
			}
		}
		if got, want := m.State().Dealer(), (first+len(recs))%g.seats; got != want {
			t.Errorf("%s: hand in progress dealt by %d, want %d", cmnName(g), got, want)
		}
	}
}

// cmnOpts rebuilds g's options, with extra ones after.
func cmnOpts(g *Game, extra ...Option) []Option {
	o := g.Options
	opts := []Option{WithTarget(o.Target)}
	switch g.Variant {
	case Auction:
		opts = append(opts, WithPlayers(o.Players), WithPartnerships(o.Partnerships), WithLowToHolder(o.LowToHolder))
	case Pawnee:
		opts = append(opts, WithCallOwnCard(o.CallOwnCard), WithScoreTricks(o.ScoreTricks), WithFailBidderOnly(o.FailBidderOnly))
	}
	return append(opts, extra...)
}

// C-6: the same seed and the same decisions replay a match exactly; a
// different seed gives a different match.
func TestReplayC6(t *testing.T) {
	for _, g := range cmnGames() {
		for seed := uint64(1); seed <= 5; seed++ {
			m := NewMatch(g, seed)
			cmnPlay(t, m, rand.New(rand.NewPCG(seed, 99)), 3000)
			r, err := Replay(g, seed, m.History())
			if err != nil {
				t.Fatalf("%s seed %d: %v", cmnName(g), seed, err)
			}
			if !reflect.DeepEqual(r.Records(), m.Records()) {
				t.Errorf("%s seed %d: replayed records differ", cmnName(g), seed)
			}
			if *r.State() != *m.State() || !reflect.DeepEqual(r.Winner(), m.Winner()) || r.Over() != m.Over() {
				t.Errorf("%s seed %d: replayed match ends differently", cmnName(g), seed)
			}
			if len(m.Records()) == 0 {
				t.Fatalf("%s seed %d: no hand finished", cmnName(g), seed)
			}
			// every record replays on its own to the same end
			for i, rec := range m.Records() {
				st, err := rec.State()
				if err != nil || !st.Terminal() {
					t.Errorf("%s hand %d: record replays to %v, %v", cmnName(g), i, st.phase, err)
				}
			}
			// a different seed deals a different first hand
			other := NewMatch(g, seed+1000)
			if other.State().Record(nil).Hands[0] == m.Records()[0].Hands[0] &&
				other.State().Record(nil).Hands[1] == m.Records()[0].Hands[1] {
				t.Errorf("%s: seeds %d and %d deal the same first hand", cmnName(g), seed, seed+1000)
			}
			// a replay with an action the rules refuse fails, naming it
			bad := append(append([]Action(nil), m.History()[:3]...), Play(0, NoCard))
			if _, err := Replay(g, seed, bad); err == nil || !strings.Contains(err.Error(), "action 3") {
				t.Errorf("%s: replay of a refused action: %v", cmnName(g), err)
			}
		}
	}
}

// C-7: an action the rules do not allow is refused with an *ActionError
// whose message says what was wrong, and changes nothing. Every phase of
// every game is tried: the seat to act trying something illegal, and
// another seat trying an otherwise legal action.
func TestRefusedActionChangesNothingC7(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, g := range cmnGames() {
		refused := map[Phase]int{}
		for hand := range 150 {
			s := Deal(g, hand%g.seats, nil, rng)
			for {
				legal := map[Action]bool{}
				for _, a := range s.Legal(nil) {
					legal[a] = true
				}
				for _, a := range cmnCandidates(&s, rng) {
					if legal[a] {
						continue
					}
					before := s
					err := s.Apply(a)
					var ae *ActionError
					if !errors.As(err, &ae) {
						t.Fatalf("%s phase %s: %v returned %v, want an *ActionError", cmnName(g), s.phase, a, err)
					}
					if ae.Problem == "" || ae.Error() != ae.Problem || ae.Action != a {
						t.Errorf("%s: %v refused with %+v", cmnName(g), a, ae)
					}
					if s != before {
						t.Fatalf("%s phase %s: refused %v (%v) changed the state", cmnName(g), s.phase, a, err)
					}
					refused[s.phase]++
				}
				if s.Terminal() {
					break
				}
				if err := s.Apply(s.RandomAction(rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
		want := []Phase{PhaseBid, PhasePlay, PhaseDone}
		switch g.Variant {
		case TenPoint:
			want = append(want, PhaseTrump, PhaseGiveStock, PhasePassBurn)
		case Pawnee:
			want = append(want, PhaseCall, PhaseDiscard)
		}
		for _, p := range want {
			if refused[p] == 0 {
				t.Errorf("%s: no refused action tried in phase %s", cmnName(g), p)
			}
		}
	}
}

// cmnCandidates returns actions of every kind, most of them illegal now:
// the legal ones by the wrong seat, and random ones by the seat to act.
func cmnCandidates(s *State, rng *rand.Rand) []Action {
	n := s.Seats()
	seat := s.Turn()
	if seat < 0 {
		seat = rng.IntN(n)
	}
	other := (seat + 1 + rng.IntN(n-1)) % n
	var out []Action
	legal := s.Legal(nil)
	for _, a := range legal[:min(3, len(legal))] {
		a.Seat = int8(other)
		out = append(out, a)
	}
	h := s.Hand(seat)
	c := Card(rng.IntN(54))
	set := CardSet(rng.Uint64()) & Deck54
	hs := randomSubset(h, rng.IntN(h.Len()+1), rng)
	for _, sst := range []int{seat, other} {
		out = append(out, Bid(sst, rng.IntN(12)), Pass(sst), Call(sst, c), Call(sst, BigJoker),
			NameTrump(sst, Suit(rng.IntN(5))), NameTrump(sst, NoSuit), GiveStock(sst, rng.IntN(2) == 0),
			PassTrumps(sst, hs), PassTrumps(sst, set), PassTrumps(sst, h), Discard(sst, hs), Discard(sst, set), Discard(sst, 0),
			Play(sst, c), Play(sst, h.Nth(rng.IntN(max(1, h.Len())))))
	}
	return out
}

// C-7: the message says what was wrong and what is allowed.
func TestRefusalMessagesC7(t *testing.T) {
	ap := MustNewGame(Auction)
	pw := MustNewGame(Pawnee, WithCallOwnCard(false))
	deckOrder := func(g *Game) []Card { return g.Deck().Cards() }
	s1, _ := NewHand(ap, 0, nil, deckOrder(ap))
	s2, _ := NewHand(pw, 0, nil, deckOrder(pw))
	tests := []struct {
		name string
		s    State
		acts []Action // applied first
		bad  Action
		want []string
	}{
		{"wrong seat", s1, nil, Bid(2, 2), []string{"seat 1's turn", "not seat 2's"}},
		{"bid too low", s1, []Action{Bid(1, 2)}, Bid(2, 2), []string{"may not bid 2", "pass, 3, 4"}},
		{"wrong kind", s1, nil, Play(1, MustParseCard("2C")), []string{"may not play", "bid or pass"}},
		{"dealer forced AP-BID-4", s1, []Action{Pass(1), Pass(2), Pass(3)}, Pass(0), []string{"must bid", "2, 3, 4"}},
		{"not held", s1, []Action{Bid(1, 4)}, Play(1, MustParseCard("AS")), []string{"does not hold AS", "holds"}},
		{"call joker", s2, []Action{Bid(1, 5), Pass(2), Pass(3), Pass(4), Pass(0)}, Call(1, BigJoker), []string{"not a joker"}},
		{"call own card", s2, []Action{Bid(1, 5), Pass(2), Pass(3), Pass(4), Pass(0)}, Call(1, s2.Hand(1).First()), []string{"call_own_card is off"}},
		{"pawnee moon bid 11", s2, nil, Bid(1, 11), []string{"may not bid 11", "pass, 5, 6, 7, 8, 9, 10"}},
	}
	for _, tt := range tests {
		s := tt.s
		for _, a := range tt.acts {
			if err := s.Apply(a); err != nil {
				t.Fatalf("%s: setup %v: %v", tt.name, a, err)
			}
		}
		before := s
		err := s.Apply(tt.bad)
		if err == nil {
			t.Errorf("%s: %v accepted", tt.name, tt.bad)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: message %q lacks %q", tt.name, err, w)
			}
		}
		if s != before {
			t.Errorf("%s: state changed", tt.name)
		}
	}
}

// C-8: the target defaults to 7, 52 and 42, and can be set per game.
func TestTargetDefaultsC8(t *testing.T) {
	for _, tt := range []struct {
		v    Variant
		want int
	}{{Auction, 7}, {TenPoint, 52}, {Pawnee, 42}} {
		if got := MustNewGame(tt.v).Options.Target; got != tt.want {
			t.Errorf("%s default target %d, want %d", tt.v, got, tt.want)
		}
		if got := DefaultOptions(tt.v).Target; got != tt.want {
			t.Errorf("DefaultOptions(%s).Target = %d, want %d", tt.v, got, tt.want)
		}
		if got := MustNewGame(tt.v, WithTarget(11)).Options.Target; got != 11 {
			t.Errorf("%s WithTarget(11) gives %d", tt.v, got)
		}
		if got := MustNewGame(tt.v, WithTarget(11)).OptionMap()["target"]; got != 11 {
			t.Errorf("%s option map target %v", tt.v, got)
		}
	}
}

// C-8 with AP-END-1, TP-END-1, PW-END-1: a match ends at a custom target.
// The same seed and decisions under the default target play on past it.
func TestCustomTargetEndsMatchC8(t *testing.T) {
	for _, tt := range []struct {
		g      *Game
		target int
	}{
		{MustNewGame(Auction), 3},
		{MustNewGame(TenPoint), 12},
		{MustNewGame(Pawnee), 10},
	} {
		ended := 0
		for seed := uint64(1); seed <= 20; seed++ {
			g := MustNewGame(tt.g.Variant, WithTarget(tt.target))
			m := NewMatch(g, seed)
			cmnPlay(t, m, rand.New(rand.NewPCG(seed, 3)), 20000)
			if !m.Over() {
				t.Fatalf("%s target %d seed %d: no winner after %d hands", g.Variant, tt.target, seed, len(m.Records()))
			}
			last := m.LastHand()
			scores := last.NewScores()
			moon := last.HighBid() == 10
			for _, w := range m.Winner() {
				if scores[w] < tt.target && !moon {
					t.Errorf("%s seed %d: winner %d has %d, under the target %d", g.Variant, seed, w, scores[w], tt.target)
				}
			}
			if moon {
				continue
			}
			// with the default target (far above every score) the match goes on
			best := -1 << 30
			for _, v := range scores {
				best = max(best, v)
			}
			if best >= tt.g.Options.Target {
				continue
			}
			ended++
			r, err := Replay(tt.g, seed, m.History())
			if err != nil {
				t.Fatal(err)
			}
			if r.Over() || len(r.Records()) != len(m.Records()) {
				t.Errorf("%s seed %d: with the default target the match is over (%v) after %d hands", g.Variant, seed, r.Over(), len(r.Records()))
			}
			if got := r.Records()[0].Game.Options.Target; got != tt.g.Options.Target {
				t.Errorf("record target %d", got)
			}
		}
		if ended == 0 {
			t.Errorf("%s: no match ended below the default target", tt.g.Variant)
		}
	}
}

// NewGame refuses options out of range or not for the variant, saying
// which and what is allowed (C-8, AP-1, TP-1, PW-1).
func TestNewGameOptionErrors(t *testing.T) {
	tests := []struct {
		v    Variant
		opts []Option
		want string
	}{
		{Auction, []Option{WithTarget(0)}, "target 0"},
		{Pawnee, []Option{WithTarget(-5)}, "target -5"},
		{TenPoint, []Option{WithTarget(MaxTarget + 1)}, "1 to 10000"},
		{Auction, []Option{WithPlayers(1)}, "2 to 7 players, not 1"},
		{Auction, []Option{WithPlayers(8)}, "2 to 7 players, not 8"},
		{Auction, []Option{WithPlayers(5), WithPartnerships(true)}, "4 or 6 players, not 5"},
		{Auction, []Option{WithPartnerships(true), WithPlayers(3)}, "4 or 6 players, not 3"},
		{Auction, []Option{WithCallOwnCard(true)}, "only to pawnee"},
		{Auction, []Option{WithScoreTricks(true)}, "only to pawnee"},
		{Auction, []Option{WithFailBidderOnly(true)}, "only to pawnee"},
		{TenPoint, []Option{WithPlayers(5)}, "exactly 4 players, not 5"},
		{TenPoint, []Option{WithPartnerships(true)}, "only to auction"},
		{TenPoint, []Option{WithLowToHolder(true)}, "only to auction"},
		{TenPoint, []Option{WithCallOwnCard(true)}, "only to pawnee"},
		{TenPoint, []Option{WithScoreTricks(true)}, "only to pawnee"},
		{Pawnee, []Option{WithPlayers(4)}, "exactly 5 players, not 4"},
		{Pawnee, []Option{WithLowToHolder(true)}, "only to auction"},
		{Pawnee, []Option{WithPartnerships(true)}, "only to auction"},
		{Variant(3), nil, "auction, ten-point and pawnee"},
	}
	for _, tt := range tests {
		g, err := NewGame(tt.v, tt.opts...)
		if err == nil || g != nil {
			t.Errorf("NewGame(%s, ...) = %v, %v; want an error with %q", tt.v, g, err, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewGame(%s, ...) error %q, want it to contain %q", tt.v, err, tt.want)
		}
	}
	// the limits themselves are allowed
	for _, opts := range [][]Option{{WithTarget(1)}, {WithTarget(MaxTarget)}, {WithPlayers(2)}, {WithPlayers(7)},
		{WithPlayers(4), WithPartnerships(true)}, {WithLowToHolder(true)}} {
		if _, err := NewGame(Auction, opts...); err != nil {
			t.Errorf("NewGame(Auction, ...) refused: %v", err)
		}
	}
	for _, opts := range [][]Option{{WithCallOwnCard(false)}, {WithScoreTricks(true)}, {WithFailBidderOnly(true)}} {
		if _, err := NewGame(Pawnee, opts...); err != nil {
			t.Errorf("NewGame(Pawnee, ...) refused: %v", err)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("MustNewGame with a bad option did not panic")
			}
		}()
		MustNewGame(TenPoint, WithPlayers(3))
	}()
	// ParseVariant
	for i, name := range []string{"auction", "ten-point", "pawnee"} {
		if v, err := ParseVariant(strings.ToUpper(name)); err != nil || v != Variant(i) || v.String() != name {
			t.Errorf("ParseVariant(%q) = %v, %v", name, v, err)
		}
	}
	if _, err := ParseVariant("setback"); err == nil || !strings.Contains(err.Error(), `"setback"`) {
		t.Errorf("ParseVariant(setback): %v", err)
	}
}

// NewHand checks its deck, dealer and scores.
func TestNewHandErrors(t *testing.T) {
	g := MustNewGame(TenPoint)
	deck := g.Deck().Cards()
	tests := []struct {
		dealer int
		scores []int
		deck   []Card
		want   string
	}{
		{4, nil, deck, "dealer 4 is not a seat"},
		{-1, nil, deck, "dealer -1 is not a seat"},
		{0, nil, deck[:53], "deck has 53 cards"},
		{0, nil, append(append([]Card{}, deck[:53]...), deck[0]), "twice"},
		{0, []int{1, 2, 3}, deck, "scores has 3 entries"},
		{0, []int{1, 2, 3, 4}, deck, "partners must hold equal scores"},
	}
	for _, tt := range tests {
		if _, err := NewHand(g, tt.dealer, tt.scores, tt.deck); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewHand(dealer %d, scores %v, %d cards): %v, want %q", tt.dealer, tt.scores, len(tt.deck), err, tt.want)
		}
	}
}

// AP-1, TP-1, TP-BID-1, PW-BID-1: which bid is the moon, and the fixed
// partnerships (seats alternate; none in pawnee or auction alone).
func TestMoonBidAndTeams(t *testing.T) {
	for _, c := range []struct {
		name  string
		g     *Game
		moon  int
		teams []int
	}{
		{"auction", MustNewGame(Auction), 0, []int{-1, -1, -1, -1}},
		{"auction partnerships", MustNewGame(Auction, WithPlayers(6), WithPartnerships(true)), 0, []int{0, 1, 0, 1, 0, 1}},
		{"ten-point", MustNewGame(TenPoint), 10, []int{0, 1, 0, 1}},
		{"pawnee", MustNewGame(Pawnee), 10, []int{-1, -1, -1, -1, -1}},
	} {
		if got := c.g.MoonBid(); got != c.moon {
			t.Errorf("%s: MoonBid() = %d, want %d", c.name, got, c.moon)
		}
		var teams []int
		for seat := range c.g.Seats() {
			teams = append(teams, c.g.Team(seat))
		}
		if !slices.Equal(teams, c.teams) {
			t.Errorf("%s: teams %v, want %v", c.name, teams, c.teams)
		}
	}
}
