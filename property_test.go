package pitch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
)

// Property tests: many random hands of every game, played with
// RandomAction, checking invariants that must hold in every hand. Cheap
// invariants are checked at every step of every hand; the expensive ones
// (every seat's view at every step, resampling, exporting the record, every
// legal action applying) on every propSample-th hand.

const (
	propHands  = 100_000 // per game (variant)
	propSample = 100     // views, resampling and Legal in full on every 100th hand
	propExport = 25      // record export and re-scoring on every 25th hand
)

// propGames lists the option sets a variant's hands rotate through.
func propGames(v Variant) []*Game {
	switch v {
	case Auction:
		return []*Game{
			MustNewGame(Auction),
			MustNewGame(Auction, WithPlayers(2)),
			MustNewGame(Auction, WithPlayers(3)),
			MustNewGame(Auction, WithPlayers(5), WithLowToHolder(true)),
			MustNewGame(Auction, WithPlayers(7)),
			MustNewGame(Auction, WithPartnerships(true)),
			MustNewGame(Auction, WithPlayers(6), WithPartnerships(true), WithLowToHolder(true)),
			MustNewGame(Auction, WithLowToHolder(true)),
		}
	case TenPoint:
		return []*Game{MustNewGame(TenPoint)}
	}
	return []*Game{
		MustNewGame(Pawnee),
		MustNewGame(Pawnee, WithCallOwnCard(false)),
		MustNewGame(Pawnee, WithScoreTricks(true)),
		MustNewGame(Pawnee, WithFailBidderOnly(true)),
	}
}

// propScores draws match scores before a hand, partners equal; a third of
// the time all zero.
func propScores(g *Game, rng *rand.Rand) []int {
	if rng.IntN(3) == 0 {
		return nil
	}
	sc := make([]int, g.seats)
	for i := range sc {
		sc[i] = rng.IntN(g.Options.Target+30) - 25
		if g.teams && i >= 2 {
			sc[i] = sc[i%2]
		}
	}
	return sc
}

// propCounts tallies what the random hands exercised, so the test can
// check that the interesting cases really occur.
type propCounts struct {
	hands, sampled, exported, resampled, views int
	made, failed, moons                        int
	loneTrump, gameTie, jackUndealt            int // auction
	burnedPoint, passed, moonWins              int // ten-point
	forcedOut, alone, tricksFolded             int // pawnee
}

func TestPropertyRandomHands(t *testing.T) {
	start := time.Now()
	for _, v := range Variants {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			games := propGames(v)
			rng := NewRand(0x5eed + uint64(v))
			var c propCounts
			var actions []Action
			for i := range propHands {
				g := games[i%len(games)]
				p := propHand{t: t, g: g, rng: rng, c: &c, index: i,
					sample: i%propSample == 0, export: i%propExport == 0}
				actions = p.play(actions[:0])
			}
			t.Logf("%s: %+v (%.1fs)", v, c, time.Since(start).Seconds())
			if c.hands != propHands {
				t.Errorf("played %d hands, want %d", c.hands, propHands)
			}
			// the random hands must reach the cases the rules single out (burned
			// point cards and PW-DIS-3 are too rare to require: they are logged)
			checks := map[string]int{"made": c.made, "failed": c.failed, "moons": c.moons}
			switch v {
			case Auction:
				checks["lone trump (AP-PT-5)"] = c.loneTrump
				checks["game tie (AP-PT-4)"] = c.gameTie
				checks["jack not dealt (AP-PT-3)"] = c.jackUndealt
				delete(checks, "moons")
			case TenPoint:
				checks["trumps passed (TP-TR-5)"] = c.passed
				checks["moon wins (TP-MOON-1)"] = c.moonWins
				checks["seat out of trumps (TP-PLAY-1)"] = c.tricksFolded
			case Pawnee:
				checks["bidder alone (PW-CALL-1)"] = c.alone
				checks["seat folded (PW-PLAY-2)"] = c.tricksFolded
			}
			for what, n := range checks {
				if n == 0 {
					t.Errorf("no random hand had %s", what)
				}
			}
		})
	}
}

// propHand plays one random hand and checks it.
type propHand struct {
	t              *testing.T
	g              *Game
	rng            *rand.Rand
	c              *propCounts
	index          int
	sample, export bool
}

func (p *propHand) fatalf(s *State, format string, args ...any) {
	p.t.Helper()
	p.t.Fatalf("%s/%d hand %d phase %s: %s", p.g.Variant, p.g.seats, p.index, s.phase, fmt.Sprintf(format, args...))
}

func (p *propHand) play(actions []Action) []Action {
	g, rng := p.g, p.rng
	s := Deal(g, rng.IntN(g.seats), propScores(g, rng), rng)
	cut := -1 // where the record is cut for the partial export check
	var cutState State
	if p.sample {
		cut = rng.IntN(40)
	}
	var legal []Action
	folded := false
	for !s.Terminal() {
		if len(actions) == cut {
			cutState = s
		}
		if p.sample {
			p.checkViews(&s, actions)
			p.checkLegal(&s)
		}
		a := s.RandomAction(rng)
		// Legal and RandomAction agree (the cheap phases on every step; the
		// discards and burns, whose lists run to thousands, on samples).
		if s.phase != PhaseDiscard && s.phase != PhasePassBurn {
			legal = s.Legal(legal[:0])
			if !propHas(legal, a) {
				p.fatalf(&s, "RandomAction %v is not in Legal %v", a, legal)
			}
			// On odd hands bid low: uniform bids mostly end in a moon.
			if a.Kind == ActBid && p.index%2 == 1 && rng.IntN(4) != 0 {
				a = legal[0] // pass, or the lowest bid when the dealer must bid
			}
		}
		prev := s
		if err := s.Apply(a); err != nil {
			p.fatalf(&prev, "RandomAction %v refused: %v", a, err)
		}
		actions = append(actions, a)
		if msg := propConservation(&s); msg != "" {
			p.fatalf(&s, "after %v: %s", a, msg)
		}
		if s.tricks != prev.tricks || s.phase == PhaseDone && prev.phase == PhasePlay {
			p.checkTrick(&prev, &s)
		}
		if a.Kind == ActPassTrumps {
			p.c.passed++
		}
		if s.phase == PhasePlay && prev.phase != PhasePlay {
			p.checkPlayStart(&s)
		}
		if s.phase == PhasePlay && g.Variant != Auction && s.turn >= 0 {
			for seat := range s.n {
				folded = folded || s.hands[seat]&s.trumps() == 0 && s.tricks < 5
			}
		}
		if len(actions) > 400 {
			p.fatalf(&s, "hand not over after %d actions", len(actions))
		}
	}
	if folded {
		p.c.tricksFolded++
	}
	p.c.hands++
	p.checkPoints(&s)
	if p.sample {
		p.checkViews(&s, actions)
		p.c.sampled++
	}
	if p.export {
		p.checkExport(&s, actions)
		if cut >= 0 && cut < len(actions) {
			p.checkExport(&cutState, actions[:cut])
		}
	}
	return actions
}

func propHas(list []Action, a Action) bool {
	for _, b := range list {
		if a == b {
			return true
		}
	}
	return false
}

// propConservation checks that every card of the deck is in exactly one
// place: a hand, a seat's cards put out of play, a seat's played cards, or
// the widow (pawnee, until taken), the stock (ten-point, what the fill and give_stock have not handed out)
// or the undealt cards (auction); and that tricks won, shown cards and
// face-down discards are consistent with those places.
func propConservation(s *State) string {
	g := s.g
	var all CardSet
	total := 0
	add := func(x CardSet) {
		all |= x
		total += x.Len()
	}
	var outAll, playedAll, wonAll CardSet
	wins := 0
	for i := range s.n {
		add(s.hands[i])
		add(s.out[i])
		add(s.played[i])
		outAll |= s.out[i]
		playedAll |= s.played[i]
		if wonAll&s.won[i] != 0 {
			return fmt.Sprintf("cards %v won by two seats", wonAll&s.won[i])
		}
		wonAll |= s.won[i]
		wins += int(s.trickWins[i])
		if s.hidden[i]&^s.out[i] != 0 {
			return fmt.Sprintf("seat %d face-down cards %v not out of play", i, s.hidden[i]&^s.out[i])
		}
	}
	switch {
	case g.Variant == Pawnee && s.phase <= PhaseCall:
		add(s.widow)
	case g.Variant == TenPoint && s.phase <= PhaseGiveStock:
		add(SetOf(s.stock[s.stockTop:]...)) // the fill has taken the top (TP-TR-3)
	case g.Variant == Auction:
		add(s.undlt)
	}
	if total != g.Deck().Len() || all != g.Deck() {
		return fmt.Sprintf("%d cards in %d places; missing %v", all.Len(), total, g.Deck()&^all)
	}
	if (s.shown|s.pending)&^outAll != 0 {
		return fmt.Sprintf("shown or pending cards %v not out of play", (s.shown|s.pending)&^outAll)
	}
	var trick CardSet
	for i := range s.trickLen {
		trick |= s.trick[i].Set()
	}
	if wonAll&trick != 0 || wonAll|trick != playedAll {
		return fmt.Sprintf("won %v + trick %v != played %v", wonAll, trick, playedAll)
	}
	if wins != int(s.tricks) {
		return fmt.Sprintf("%d trick wins for %d tricks", wins, s.tricks)
	}
	return ""
}

// propStrength ranks card c for a trick with trump t and suit led: trumps
// by TrumpOrder (C-5) above everything, then the suit led by rank, others -1.
func propStrength(g *Game, t Suit, led Suit, c Card) int {
	for i, x := range propOrders()[b2i(g.jokers)][t] {
		if x == c {
			return 100 - i
		}
	}
	if c.Suit() == led {
		return int(c.Rank())
	}
	return -1
}

// propOrders caches TrumpOrder (not at package initialisation: the trump
// tables are built by an init function, which runs after it).
var propOrders = sync.OnceValue(func() (o *[2][4][]Card) {
	o = new([2][4][]Card)
	for j := range 2 {
		for s := Clubs; s < NoSuit; s++ {
			o[j][s] = TrumpOrder(s, j == 1)
		}
	}
	return o
})

// checkTrick: every finished trick has one winner, the seat that played
// its best card (AP-PLAY-3, TP-PLAY-2, PW-PLAY-2), who takes all its cards.
func (p *propHand) checkTrick(prev, s *State) {
	if s.tricks != prev.tricks+1 {
		p.fatalf(s, "tricks went from %d to %d", prev.tricks, s.tricks)
	}
	cards := s.last[:s.lastLen]
	seats := s.lastSeat[:s.lastLen]
	best := 0
	for i := range cards {
		if propStrength(p.g, s.trump, cards[0].Suit(), cards[i]) > propStrength(p.g, s.trump, cards[0].Suit(), cards[best]) {
			best = i
		}
	}
	w := seats[best]
	if s.lastWon != w {
		p.fatalf(s, "trick %v by seats %v won by %d, want %d", cards, seats, s.lastWon, w)
	}
	for seat := range s.n {
		gained := s.won[seat] &^ prev.won[seat]
		want := CardSet(0)
		if seat == w {
			want = SetOf(cards...)
		}
		if gained != want || s.trickWins[seat]-prev.trickWins[seat] != int8(b2i(seat == w)) {
			p.fatalf(s, "trick %v: seat %d gained %v and %d wins", cards, seat, gained, s.trickWins[seat]-prev.trickWins[seat])
		}
	}
	// every seat that plays in a trick plays once
	seen := map[int8]bool{}
	for _, x := range seats {
		if seen[x] {
			p.fatalf(s, "seat %d played twice in trick %v", x, cards)
		}
		seen[x] = true
	}
}

// checkPlayStart: when play begins, hands are down to 6 (TP-TR-5, PW-DIS-1)
// and in the trump-only games hold only trumps.
func (p *propHand) checkPlayStart(s *State) {
	for seat := range s.n {
		h := s.hands[seat]
		switch p.g.Variant {
		case TenPoint:
			if h.Len() > 6 || h&^s.trumps() != 0 {
				p.fatalf(s, "seat %d starts play with %v", seat, h)
			}
		case Pawnee:
			if h.Len() != 6 {
				p.fatalf(s, "seat %d starts play with %d cards", seat, h.Len())
			}
		}
	}
}

// propValue is what a point is worth: the trump three 3 (TP-PT-1, PW-PT-1), else 1.
func propValue(k PointKind) int {
	if k == PointThree {
		return 3
	}
	return 1
}

// propPointCards lists the point cards and their kinds for trump t,
// written out from TP-PT-1 and PW-PT-1.
func propPointCards(v Variant, t Suit) map[Card]PointKind {
	m := map[Card]PointKind{
		NewCard(Jack, t): PointJack, OffJack(t): PointOffJack, BigJoker: PointBigJoker,
		LittleJoker: PointLittleJoker, NewCard(Ten, t): PointTen, NewCard(Three, t): PointThree,
	}
	if v == TenPoint {
		m[NewCard(Ace, t)] = PointAce
		m[NewCard(Two, t)] = PointTwo
	}
	return m
}

// checkPoints: the points awarded are exactly the points in play, each to
// the right seat, and the sides take and score what the rules say.
func (p *propHand) checkPoints(s *State) {
	g := p.g
	res := s.Result()
	if !res.Complete || res.Bidder != int(s.bidder) || res.Trump != s.trump || res.Trump == NoSuit {
		p.fatalf(s, "result %+v", res)
	}
	t := s.trump
	owner := func(c Card) int8 {
		for seat := range s.n {
			if s.won[seat].Has(c) {
				return seat
			}
		}
		p.fatalf(s, "point card %v is in no won trick", c)
		return -1
	}
	player := func(c Card) int8 {
		for seat := range s.n {
			if s.played[seat].Has(c) {
				return seat
			}
		}
		p.fatalf(s, "card %v in play was never played", c)
		return -1
	}
	side := func(seat int8) int8 {
		switch {
		case g.teams:
			return seat % 2
		case g.Variant == Pawnee:
			return int8(b2i(seat == s.bidder || seat == s.partner))
		}
		return seat
	}
	var outAll CardSet
	for seat := range s.n {
		outAll |= s.out[seat]
	}
	var want []Point
	order := propOrders()[b2i(g.jokers)][t]
	hiLo := func(inPlay CardSet) (hi, lo Card) {
		hi, lo = NoCard, NoCard
		for _, c := range order {
			if inPlay.Has(c) {
				if hi == NoCard {
					hi = c
				}
				lo = c
			}
		}
		return hi, lo
	}
	wantTotal := 0
	switch g.Variant {
	case Auction:
		dealt := g.Deck() &^ s.undlt
		hi, lo := hiLo(dealt & Trumps(t, false))
		want = append(want, Point{PointHigh, hi, owner(hi)}) // AP-PT-1
		lowSeat := owner(lo)                                 // AP-PT-2
		if g.Options.LowToHolder {
			for seat := range s.n {
				if s.dealt[seat].Has(lo) {
					lowSeat = seat
				}
			}
		}
		want = append(want, Point{PointLow, lo, lowSeat})
		if hi == lo {
			p.c.loneTrump++ // AP-PT-5
		}
		wantTotal = 2
		if j := NewCard(Jack, t); dealt.Has(j) { // AP-PT-3
			want = append(want, Point{PointJack, j, owner(j)})
			wantTotal++
		} else {
			p.c.jackUndealt++
		}
		var value [MaxSeats]int // AP-PT-4
		for seat := range s.n {
			for _, c := range s.won[seat].Cards() {
				value[side(seat)] += map[Rank]int{Ten: 10, Ace: 4, King: 3, Queen: 2, Jack: 1}[c.Rank()]
			}
		}
		best, bestSide, tie := -1, int8(-1), false
		for k := range s.n {
			if k != side(k) {
				continue
			}
			switch {
			case value[k] > best:
				best, bestSide, tie = value[k], k, false
			case value[k] == best:
				tie = true
			}
		}
		if tie {
			p.c.gameTie++
		} else {
			want = append(want, Point{PointGame, NoCard, bestSide})
			wantTotal++
		}
	case TenPoint: // TP-PT-1: ten in all, less the burned point cards (TP-TR-5)
		wantTotal = 10
		for c, k := range propPointCards(TenPoint, t) {
			if s.shown.Has(c) {
				wantTotal -= propValue(k)
				p.c.burnedPoint++
				continue
			}
			want = append(want, Point{k, c, owner(c)})
		}
	case Pawnee: // PW-PT-1..3: ten in all, less point cards forced out (PW-DIS-3)
		wantTotal = 10
		hi, lo := hiLo(Trumps(t, true) &^ outAll)
		want = append(want, Point{PointHigh, hi, player(hi)}, Point{PointLow, lo, player(lo)})
		for c, k := range propPointCards(Pawnee, t) {
			if outAll.Has(c) {
				if !s.shown.Has(c) {
					p.fatalf(s, "point card %v forced out but not shown", c)
				}
				wantTotal -= propValue(k)
				p.c.forcedOut++
				continue
			}
			want = append(want, Point{k, c, owner(c)})
		}
		if s.partner < 0 {
			p.c.alone++
		}
	}
	sort.Slice(want, func(i, j int) bool {
		return want[i].Kind < want[j].Kind || want[i].Kind == want[j].Kind && want[i].Seat < want[j].Seat
	})
	if !reflect.DeepEqual(res.Points, want) {
		p.fatalf(s, "points %v, want %v", res.Points, want)
	}
	total := 0
	var taken [MaxSeats]int
	for _, pt := range res.Points {
		total += propValue(pt.Kind)
		for seat := range s.n {
			if side(seat) == side(pt.Seat) {
				taken[seat] += propValue(pt.Kind)
			}
		}
	}
	if total != wantTotal {
		p.fatalf(s, "%d points awarded, want %d", total, wantTotal)
	}
	// the sides' takings and the score changes (AP-SC, TP-SC, TP-MOON-1, PW-SC)
	b := s.bidder
	bid := int(s.bid)
	made := taken[b] >= bid
	if res.Made != made {
		p.fatalf(s, "made %v, want %v (took %d of %d)", res.Made, made, taken[b], bid)
	}
	if made {
		p.c.made++
	} else {
		p.c.failed++
	}
	if bid == 10 {
		p.c.moons++
	}
	before := s.Scores()
	for seat := range s.n {
		if res.Taken[seat] != taken[seat] {
			p.fatalf(s, "seat %d took %d, want %d", seat, res.Taken[seat], taken[seat])
		}
		var d int
		mine := side(seat) == side(b)
		switch g.Variant {
		case Auction:
			d = taken[seat]
			if mine && !made {
				d = -bid
			}
		case TenPoint:
			switch {
			case !mine:
				d = taken[seat]
			case made && bid == 10 && before[seat] < 0:
				d = -before[seat]
			case made:
				d = bid
			default:
				d = -bid
			}
		case Pawnee:
			d = taken[seat]
			if g.Options.ScoreTricks {
				d = 0
				for k := range s.n {
					if side(k) == side(seat) {
						d += int(s.trickWins[k])
					}
				}
			}
			if mine && !made {
				d = -bid
				if seat != b && g.Options.FailBidderOnly {
					d = 0
				}
			}
		}
		if res.Delta[seat] != d || res.Scores[seat] != before[seat]+d {
			p.fatalf(s, "seat %d score change %d (to %d), want %d from %d", seat, res.Delta[seat], res.Scores[seat], d, before[seat])
		}
	}
	if g.Variant == TenPoint && bid == 10 && res.Winner != nil {
		p.c.moonWins++
	}
}

// checkLegal: Legal lists no action twice, every action it lists applies,
// and RandomAction only ever draws listed actions.
func (p *propHand) checkLegal(s *State) {
	legal := s.Legal(nil)
	if len(legal) == 0 {
		p.fatalf(s, "no legal action for seat %d", s.turn)
	}
	seen := make(map[Action]bool, len(legal))
	for _, a := range legal {
		if seen[a] {
			p.fatalf(s, "Legal lists %v twice", a)
		}
		seen[a] = true
	}
	try := legal
	if len(try) > 200 { // thousands of discards: a random 200 of them
		try = make([]Action, 200)
		for i := range try {
			try[i] = legal[p.rng.IntN(len(legal))]
		}
	}
	for _, a := range try {
		x := *s
		if err := x.Apply(a); err != nil {
			p.fatalf(s, "legal %v refused: %v", a, err)
		}
	}
	for range 20 {
		if a := s.RandomAction(p.rng); !seen[a] {
			p.fatalf(s, "RandomAction %v is not in Legal", a)
		}
	}
}

// checkViews: no view holds a card its seat may not see, each view is
// consistent with the public one and shows the auction so far (actions,
// the hand's actions to s) in order, and a state resampled from a view
// gives back the same view, keeps hidden cards where they may be, and
// plays on legally to the end.
func (p *propHand) checkViews(s *State, actions []Action) {
	g := p.g
	var auction []Action
	for _, a := range actions {
		if a.Kind == ActBid || a.Kind == ActPass {
			auction = append(auction, a)
		}
	}
	spect := s.View(-1)
	holder := s.bidder
	if s.partner >= 0 {
		holder = s.partner
	}
	for seat := -1; seat < int(s.n); seat++ {
		v := s.View(seat)
		p.c.views++
		if !slices.Equal(v.Auction, auction) { // AP-BID-1, TP-BID-1, PW-BID-1: the auction is public
			p.fatalf(s, "seat %d's view shows the auction %v; it went %v", seat, v.Auction, auction)
		}
		// the cards this seat may not see
		var secret CardSet
		for j := range s.n {
			if int(j) != seat {
				secret |= s.hands[j] | s.out[j]&^s.shown
			}
		}
		switch {
		case g.Variant == Pawnee && s.phase <= PhaseCall:
			secret |= s.widow
		case g.Variant == TenPoint && s.phase <= PhaseGiveStock:
			secret |= SetOf(s.stock[s.stockTop:]...)
		case g.Variant == Auction:
			secret |= s.undlt
		}
		var allowed CardSet
		if seat >= 0 && g.Variant == TenPoint {
			allowed |= s.passedTo[seat] // TP-TR-5: the trumps it passed
		}
		if s.phase == PhaseDone {
			allowed |= s.widow
		}
		shows := v.Hand | v.Out | v.Shown | v.PassedCards | v.Widow | SetOf(v.Trick...) | SetOf(v.Last...)
		for j := range MaxSeats {
			shows |= v.KnownIn[j] | v.Played[j] | v.Won[j]
		}
		if leak := shows & secret &^ allowed; leak != 0 {
			p.fatalf(s, "seat %d's view shows hidden cards %v", seat, leak)
		}
		if seat < 0 {
			if v.Hand != 0 || v.Out != 0 || v.PassedCards != 0 || v.KnownIn != ([MaxSeats]CardSet{}) {
				p.fatalf(s, "spectator view holds private cards: %+v", v)
			}
		} else if v.Hand != s.hands[seat] || v.Out != s.out[seat] {
			p.fatalf(s, "seat %d view hand %v out %v, want %v %v", seat, v.Hand, v.Out, s.hands[seat], s.out[seat])
		}
		for j := range s.n {
			if v.NotIn[j]&s.hands[j] != 0 {
				p.fatalf(s, "seat %d's view says %v are not in seat %d's hand, which holds them", seat, v.NotIn[j]&s.hands[j], j)
			}
			if v.KnownIn[j]&^s.hands[j] != 0 || v.Counts[j] != s.hands[j].Len() {
				p.fatalf(s, "seat %d's view: KnownIn[%d] %v, count %d; hand %v", seat, j, v.KnownIn[j], v.Counts[j], s.hands[j])
			}
			if v.KnownIn[j] != 0 && (seat < 0 || int(j) != (seat+2)%4 || v.KnownIn[j]&^s.passedTo[seat] != 0) {
				p.fatalf(s, "seat %d knows %v in seat %d's hand without passing them", seat, v.KnownIn[j], j)
			}
		}
		// the widow: the bidder's once taken, everyone's after the hand
		wantWidow := CardSet(0)
		if g.Variant == Pawnee && (s.phase == PhaseDone || seat == int(s.bidder) && s.phase > PhaseCall) {
			wantWidow = s.widow
		}
		if v.Widow != wantWidow {
			p.fatalf(s, "seat %d sees widow %v, want %v", seat, v.Widow, wantWidow)
		}
		// pawnee: the partner is known to the called card's holder, and to
		// everyone once play begins (PW-CALL-1, PW-PLAY-1)
		if g.Variant == Pawnee {
			known := s.called != NoCard && (s.phase >= PhasePlay || seat == int(holder))
			if v.PartnerKnown != known || known && v.Partner != int(s.partner) || !known && v.Partner != -1 {
				p.fatalf(s, "seat %d: partner known %v (%d), want %v (%d)", seat, v.PartnerKnown, v.Partner, known, s.partner)
			}
		}
		// apart from the private fields, every seat sees what a spectator sees
		pub := v
		pub.Seat, pub.Hand, pub.Out, pub.KnownIn, pub.PassedCards = -1, 0, 0, [MaxSeats]CardSet{}, 0
		pub.Widow, pub.Partner, pub.PartnerKnown = spect.Widow, spect.Partner, spect.PartnerKnown
		if !reflect.DeepEqual(pub, spect) {
			p.fatalf(s, "seat %d's view differs from the public view beyond its own cards:\n%+v\n%+v", seat, pub, spect)
		}
		p.checkResample(s, &v)
	}
}

// checkResample: a resampled state gives back the view it came from,
// respects what the view says cannot be where, keeps every card in one
// place, and plays on legally to the end.
func (p *propHand) checkResample(s *State, v *View) {
	r := v.Resample(p.rng)
	p.c.resampled++
	if got := r.View(v.Seat); !reflect.DeepEqual(got, *v) {
		p.fatalf(s, "seat %d: resampled view differs:\n got %+v\nwant %+v", v.Seat, got, *v)
	}
	for j := range r.n {
		if int(j) != v.Seat && (r.hands[j]&v.NotIn[j] != 0 || v.KnownIn[j]&^r.hands[j] != 0) {
			p.fatalf(s, "seat %d: resampled hand %d %v breaks NotIn %v / KnownIn %v", v.Seat, j, r.hands[j], v.NotIn[j], v.KnownIn[j])
		}
	}
	if msg := propConservation(&r); msg != "" {
		p.fatalf(s, "seat %d: resampled state: %s", v.Seat, msg)
	}
	for k := 0; !r.Terminal(); k++ {
		a := r.RandomAction(p.rng)
		if err := r.Apply(a); err != nil {
			p.fatalf(s, "seat %d: resampled state refuses %v: %v", v.Seat, a, err)
		}
		if msg := propConservation(&r); msg != "" || k > 400 {
			p.fatalf(s, "seat %d: resampled state after %v: %s (%d actions)", v.Seat, a, msg, k)
		}
	}
}

// checkExport: the hand's record, written as JSON, read back and scored,
// gives the same result as the state (HAND-RECORD.md).
func (p *propHand) checkExport(s *State, actions []Action) {
	p.c.exported++
	b, err := json.Marshal(s.Record(actions))
	if err != nil {
		p.fatalf(s, "marshal record: %v", err)
	}
	rec, err := ReadRecord(bytes.NewReader(b))
	if err != nil {
		p.fatalf(s, "read back record: %v\n%s", err, b)
	}
	if rec.Game.Options != p.g.Options || len(rec.Actions) != len(actions) {
		p.fatalf(s, "record read back with options %+v and %d actions", rec.Game.Options, len(rec.Actions))
	}
	out, err := rec.Score()
	if err != nil {
		p.fatalf(s, "score record: %v\n%s", err, b)
	}
	res := s.Result()
	if msg := propSameResult(out, &res, p.g.Variant == Pawnee && s.phase > PhaseCall); msg != "" {
		p.fatalf(s, "exported record scores differently: %s\n%s", msg, b)
	}
}

// propSameResult compares `pitch score` output with a State's Result.
func propSameResult(out *ScoreOutput, res *Result, partnerKnown bool) string {
	intp := func(x *int) int {
		if x == nil {
			return -1
		}
		return *x
	}
	var trump Suit = NoSuit
	if out.Trump != nil {
		trump, _ = ParseSuit(*out.Trump)
	}
	var points []Point
	for _, jp := range out.Points {
		k, err := ParsePointKind(jp.Kind)
		if err != nil {
			return err.Error()
		}
		c := NoCard
		if jp.Card != nil {
			c = *jp.Card
		}
		points = append(points, Point{k, c, int8(jp.Seat)})
	}
	wantPartner := -1
	if partnerKnown {
		wantPartner = res.Partner
	}
	wantBid := res.Bid
	if res.Bidder < 0 {
		wantBid = -1
	}
	switch {
	case out.Complete != res.Complete:
		return "complete"
	case intp(out.Bidder) != res.Bidder || intp(out.Bid) != wantBid:
		return fmt.Sprintf("bidder %d bid %d, want %d %d", intp(out.Bidder), intp(out.Bid), res.Bidder, res.Bid)
	case trump != res.Trump:
		return fmt.Sprintf("trump %v, want %v", trump, res.Trump)
	case intp(out.Partner) != wantPartner:
		return fmt.Sprintf("partner %d, want %d", intp(out.Partner), wantPartner)
	case !reflect.DeepEqual(out.Teams, res.Teams):
		return fmt.Sprintf("teams %v, want %v", out.Teams, res.Teams)
	case len(points) != len(res.Points) || len(points) > 0 && !reflect.DeepEqual(points, res.Points):
		return fmt.Sprintf("points %v, want %v", points, res.Points)
	case !reflect.DeepEqual(out.Taken, res.Taken) || !reflect.DeepEqual(out.ScoreDelta, res.Delta) || !reflect.DeepEqual(out.Scores, res.Scores):
		return fmt.Sprintf("taken %v delta %v scores %v, want %v %v %v", out.Taken, out.ScoreDelta, out.Scores, res.Taken, res.Delta, res.Scores)
	case (out.Made != nil) != res.Complete || out.Made != nil && *out.Made != res.Made:
		return "made"
	case !reflect.DeepEqual(out.Winner, res.Winner):
		return fmt.Sprintf("winner %v, want %v", out.Winner, res.Winner)
	}
	return ""
}

// A resampled state puts the cards shown face up (ten-point burns,
// revealed pawnee trump discards) back out of play at seats that put out
// that many face up, so that every card is in one place and every seat
// has handled as many cards as the real one (TP-TR-5, PW-DIS-2).
func TestResampleKeepsShownCards(t *testing.T) {
	for _, g := range []*Game{MustNewGame(TenPoint), MustNewGame(Pawnee)} {
		rng := NewRand(11)
		checked := 0
		for hand := 0; checked < 200 && hand < 20000; hand++ {
			s := Deal(g, hand%g.seats, nil, rng)
			for !s.Terminal() {
				if s.shown != 0 && s.phase == PhasePlay {
					checked++
					for seat := -1; seat < g.seats; seat++ {
						v := s.View(seat)
						r := v.Resample(rng)
						if msg := propConservation(&r); msg != "" {
							t.Fatalf("%s seat %d: resampled with shown %v: %s", g.Variant, seat, s.shown, msg)
						}
						for i := range s.n {
							if got, want := r.out[i].Len(), s.out[i].Len(); got != want {
								t.Fatalf("%s seat %d: resampled seat %d has %d cards out of play, want %d", g.Variant, seat, i, got, want)
							}
							if got, want := (r.hands[i] | r.played[i] | r.out[i]).Len(), (s.hands[i] | s.played[i] | s.out[i]).Len(); got != want {
								t.Fatalf("%s seat %d: resampled seat %d handled %d cards, want %d", g.Variant, seat, i, got, want)
							}
						}
					}
					break
				}
				if err := s.Apply(s.RandomAction(rng)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if checked < 200 {
			t.Errorf("%s: only %d hands with shown cards", g.Variant, checked)
		}
	}
}
