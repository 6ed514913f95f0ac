package bot

import (
	"math"

	"pitch"
)

// Search is a determinized (Perfect-Information Monte Carlo) player: for
// each candidate action it draws worlds consistent with its view — voids
// shown by play, discards, the called card, trumps seen — plays each world
// out with the heuristic for every seat, and takes the action with the
// best average result for its side.
type Search struct {
	Worlds int    // worlds drawn per decision; 0 means DefaultWorlds
	Label  string // the name it reports
}

// DefaultWorlds is the search bot's default budget per decision.
const DefaultWorlds = 300

// maxCandidates bounds the actions searched when the rules allow many
// (discards, passes): the heuristic's choice and close variations of it.
const maxCandidates = 10

// Name returns the bot's label, "search" by default.
func (b *Search) Name() string {
	if b.Label != "" {
		return b.Label
	}
	return "search"
}

// Option is one candidate action with what the search found for it.
type Option struct {
	Action pitch.Action
	Value  float64 // mean result for the seat's side, in match points (with a bonus for winning the match)
	Made   float64 // for a bid: the share of the worlds where the seat won the auction in which it made the bid
	Won    float64 // for a bid: the share of worlds in which the seat won the auction
}

// MinMake is the least chance to make a bid that the search bot accepts:
// a bid it expects to lose more often than this is not made, whatever its
// average, because being set so often is what people hate in bots.
const MinMake = 0.7

// Act returns the best action found.
func (b *Search) Act(req Request) pitch.Action {
	if len(req.Legal) == 1 {
		return req.Legal[0]
	}
	opts := b.Analyze(req)
	best := -1
	for i, o := range opts {
		if o.Action.Kind == pitch.ActBid && (o.Won == 0 || o.Made < MinMake) && hasPass(opts) {
			continue // bid discipline: no bid without evidence it can be made
		}
		if best < 0 || o.Value > opts[best].Value {
			best = i
		}
	}
	return opts[best].Action
}

// Analyze evaluates the candidate actions of the request.
func (b *Search) Analyze(req Request) []Option {
	worlds := b.Worlds
	if worlds <= 0 {
		worlds = DefaultWorlds
	}
	return analyze(req, worlds)
}

// analyze plays out each candidate action of req, and the actions also
// (when not among them), in the same worlds, and averages the results.
func analyze(req Request, worlds int, also ...pitch.Action) []Option {
	seat := req.View.Seat
	first := req.View.Resample(req.Rand)
	cands := candidates(&first, req)
	for _, a := range also {
		if !isLegal(cands, a) {
			cands = append(cands, a)
		}
	}
	opts := make([]Option, len(cands))
	for i, c := range cands {
		opts[i].Action = c
	}
	for w := 0; w < worlds; w++ {
		world := first
		if w > 0 {
			world = req.View.Resample(req.Rand)
		}
		for i, c := range cands {
			x := world
			if err := x.Apply(c); err != nil {
				continue // cannot happen: candidates are legal in every world
			}
			rollout(&x)
			opts[i].Value += outcome(&x, seat)
			if c.Kind == pitch.ActBid && x.Bidder() == seat {
				opts[i].Won++
				if x.Made() {
					opts[i].Made++
				}
			}
		}
	}
	for i := range opts {
		opts[i].Value /= float64(worlds)
		if opts[i].Won > 0 {
			opts[i].Made /= opts[i].Won
		}
		opts[i].Won /= float64(worlds)
	}
	return opts
}

// rollout plays the hand out with the heuristic for every seat.
func rollout(s *pitch.State) { rolloutModel(s, model{}) }

// A model is how a search expects every seat to act in its playouts:
// the heuristic, with its bids moved by Bid points (bidShifted), so that
// it bids about as often as the players it models.
type model struct {
	Bid float64
	// Look plays each card by a one-step look ahead in the world: the
	// card whose heuristic playout scores best for the seat's side. It is
	// closer to how a search bot plays than the heuristic's rules of
	// thumb, at the cost of seeing every card of the world.
	Look bool
	// Fit bids as hard bots do, by a model fitted to their bids
	// (bidFitted; pawnee only).
	Fit bool
	// ReadFit reads the pawnee auction by the fitted model too
	// (fittedLikelihood).
	ReadFit bool
	// ReadCall reads the pawnee call (callLikelihood).
	ReadCall bool
	// ReadPlay reads the plays the view shows in order: each other
	// seat's card, as likely as the heuristic makes it with the cards a
	// world gives that seat (playLikelihood).
	ReadPlay bool
}

func (m model) act(s *pitch.State) pitch.Action {
	switch s.Phase() {
	case pitch.PhaseBid:
		if m.Fit && s.Game().Variant == pitch.Pawnee {
			return bidFitted(s, s.Turn())
		}
		if m.Bid != 0 {
			return bidShifted(s, s.Turn(), m.Bid)
		}
	case pitch.PhasePlay:
		if m.Look {
			return lookAhead(s)
		}
	}
	return policy(s)
}

// lookAhead returns the play of the seat to act in s whose heuristic
// playout gives its side the best outcome.
func lookAhead(s *pitch.State) pitch.Action {
	seat := s.Turn()
	legal := s.LegalPlays()
	if legal.Len() == 1 {
		return pitch.Play(seat, legal.First())
	}
	best, bv := pitch.Action{}, math.Inf(-1)
	for c := legal; c != 0; c &= c - 1 {
		a := pitch.Play(seat, c.First())
		x := *s
		if err := x.Apply(a); err != nil {
			continue
		}
		rollout(&x)
		if v := outcome(&x, seat); v > bv {
			best, bv = a, v
		}
	}
	return best
}

// rolloutModel plays the hand out with m for every seat.
func rolloutModel(s *pitch.State, m model) {
	for !s.Terminal() {
		if err := s.Apply(m.act(s)); err != nil {
			panic("bot: heuristic chose an illegal action: " + err.Error())
		}
	}
}

// outcome scores a finished hand for seat: its side's score change less
// the others' average, and a bonus or malus when the hand ends the match.
// It is the search bot's objective.
func outcome(s *pitch.State, seat int) float64 { return sideObjective.of(s, seat) }

// An objective scores a finished hand for a seat: its own score change
// less the average change of its rivals, and a bonus or malus when the
// hand ends the match. The rivals are the seats on the other
// side of the hand, or with Standing every seat that keeps a score of its
// own apart from the seat's (in pawnee, the partner too: it is a rival
// for the match, whatever side it played on).
type objective struct {
	Standing bool
	// Bonus is the bonus (or malus) of a hand that wins (or loses) the
	// match, as a share of the target; 0 for none.
	Bonus float64
	// Match scores a hand that decides the match by what the match was
	// worth to the seat before it (matchWorth), not by the hand's points:
	// the points of a ten-point moon, made or sunk, no longer count, only
	// the match it wins or loses.
	Match bool
	// Span, above 0, reads the standing over Span times the target in
	// matchWorth instead of the target: below 1, a point of standing is
	// more of the match, and a won match is worth fewer points.
	Span float64
}

// matchBonus is the share of the target a won match is worth to the
// search bot and, unless changed, the expert: a quarter.
const matchBonus = 0.25

// Standing is seat's standing after the finished hand s, as the expert
// counts it without the match bonus: its score change less the mean of
// its rivals' (the other side in team games, every other seat
// otherwise). pitch sim's paired comparisons report it.
func Standing(s *pitch.State, seat int) float64 {
	return objective{Standing: true}.of(s, seat)
}

// sideObjective is the search bot's: the hand's two sides.
var sideObjective = objective{Bonus: matchBonus}

// lead is seat's score less the mean of its rivals' (as ob counts
// them), each score read by score.
func (ob objective) lead(s *pitch.State, seat int, score func(int) int) float64 {
	others, n := 0, 0
	team := s.Game().FixedTeams()
	for o := range s.Seats() {
		rival := !s.SameSide(o, seat)
		if ob.Standing && !team {
			rival = o != seat
		}
		if rival {
			others += score(o)
			n++
		}
	}
	v := float64(score(seat))
	if n > 0 {
		v -= float64(others) / float64(n)
	}
	return v
}

func (ob objective) of(s *pitch.State, seat int) float64 {
	v := ob.lead(s, seat, s.Delta)
	if s.MatchDecided() && ob.Match {
		return ob.matchWorth(s, seat)
	}
	if s.MatchDecided() && ob.Bonus != 0 {
		bonus := float64(s.Game().Options.Target) * ob.Bonus
		if s.WonMatch(seat) {
			v += bonus
		} else {
			v -= bonus
		}
	}
	return v
}

// matchWorth scores a hand that decided the match for seat, by the
// standing before it: d, the seat's score less the mean of its rivals'
// (as of counts them). It reads the standing as a share of the match,
// linear and clamped, one point of standing being worth the same share
// of the match as in every hand that does not decide it. Against one
// rival (a side in team games, or the other side with ob.Standing off)
// the seat wins (d+T)/2T of its matches (T the target; an even match at
// d = 0, a sure win from d = T on). Against n rivals each keeping a score
// of its own (pawnee), it wins 1/(n+1) + d·n/((n+1)T): a fifth at d = 0
// in pawnee, a sure win from d = T on, none from d = -T/n down. A won
// match lifts that share to 1, worth T-d points of standing, a lost one
// drops it to 0, worth -(T/n+d) (with one rival -(T+d)); each with the
// bonus. So a moon matters most when it wins a match the seat was losing
// (or sinking one saves it), near the target a plain bid that wins the
// match is worth as much as a moon, and in pawnee another seat's match
// won costs a seat less than its own gains it, since it had only a
// fifth of the match to lose.
func (ob objective) matchWorth(s *pitch.State, seat int) float64 {
	d := ob.lead(s, seat, s.ScoreBefore)
	t := float64(s.Game().Options.Target)
	bonus, k := t*ob.Bonus, t
	if ob.Span > 0 {
		k *= ob.Span
	}
	if s.WonMatch(seat) {
		return max(0, k-d) + bonus
	}
	return -max(0, k/float64(ob.rivals(s))+d) - bonus
}

// rivals is how many scores the seat's standing is read against: 1 in
// team games and when only the other side of the hand counts, otherwise
// every other seat (pawnee with Standing).
func (ob objective) rivals(s *pitch.State) int {
	if !ob.Standing || s.Game().FixedTeams() {
		return 1
	}
	return s.Seats() - 1
}

// candidates returns the actions worth searching: all legal ones when
// they are few; otherwise the heuristic's choice and variations of it.
func candidates(world *pitch.State, req Request) []pitch.Action {
	legal := req.Legal
	if len(legal) <= maxCandidates {
		return legal
	}
	h := policy(world)
	out := []pitch.Action{h}
	seen := map[pitch.Action]bool{h: true}
	add := func(a pitch.Action) {
		if !seen[a] && isLegal(legal, a) {
			seen[a] = true
			out = append(out, a)
		}
	}
	seat := req.View.Seat
	switch h.Kind {
	case pitch.ActCall:
		// The two highest cards each suit's bidder lacks.
		for t := pitch.Clubs; t < pitch.NoSuit; t++ {
			k := 0
			for _, c := range trumpOrders[1][t] {
				if !c.IsJoker() && c.Suit() == t && !req.View.Hand.Has(c) && k < 2 {
					add(pitch.Call(seat, c))
					k++
				}
			}
		}
	case pitch.ActDiscard, pitch.ActPassTrumps:
		// Swap one chosen card for one kept card.
		kept := req.View.Hand &^ h.Cards
		for d := h.Cards; d != 0 && len(out) < maxCandidates; d &= d - 1 {
			for k := kept; k != 0 && len(out) < maxCandidates; k &= k - 1 {
				add(pitch.Action{Kind: h.Kind, Seat: h.Seat, Cards: h.Cards&^d.First().Set() | k.First().Set()})
			}
		}
	}
	for len(out) < maxCandidates && len(out) < len(legal) {
		add(legal[req.Rand.IntN(len(legal))])
	}
	return out
}

func hasPass(opts []Option) bool {
	for _, o := range opts {
		if o.Action.Kind == pitch.ActPass {
			return true
		}
	}
	return false
}

func isLegal(legal []pitch.Action, a pitch.Action) bool {
	for _, l := range legal {
		if l == a {
			return true
		}
	}
	return false
}
