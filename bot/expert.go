package bot

import (
	"math"
	"math/rand/v2"

	"pitch"
)

// Expert is the strongest level. It is a determinized search like
// Search, with these differences, set per game (ExpertSettings):
//
//   - Its playouts model the other players as hard bots act, not as the
//     heuristic does: bids moved to pass as often as they do, and play by
//     a one-step look ahead (model).
//   - It plays for its standing: a hand's result is its score change less
//     the mean of every rival's, the pawnee partner included (objective),
//     and in pawnee it weighs playing alone (aloneCalls).
//   - It reads the auction: it draws several times the worlds it needs,
//     weighs each by how likely every other seat's bids and passes are
//     with the cards the world gives it (auctionLikelihood), and keeps
//     the worlds drawn in proportion to that weight.
//   - It solves endgames: once few cards are left in the hands, each
//     world's play is solved exactly with all cards open (solve: every
//     seat picks its best card for its own side), instead of played out.
//   - It bids what it can make: the chance of making a bid that the
//     playouts give can be mapped to the chance measured against hard
//     bots (calibrate), and a bid's value is recomputed with that chance.
//   - Its work is bounded by counts, never by the clock, so a decision
//     is the same from the same seed anywhere: positions solved in an
//     endgame (Nodes), playouts a decision (Playouts).
type Expert struct {
	Worlds int    // worlds searched per decision; 0 means the game's setting
	Label  string // the name it reports; "expert" by default

	// changes are settings changed from the game's (expertTuning), as
	// "expert:SETTINGS" names them for measuring them with pitch sim.
	changes []setting

	forecasts [8]forecast // the last bids it made, for Forecast
	nf        int
}

// ExpertSettings are the expert's settings for one game.
type ExpertSettings struct {
	// Worlds is the worlds searched per decision, BidWorlds for a bid.
	// It draws expertDraw times as many before reading the auction.
	Worlds, BidWorlds int
	// Playouts, above 0, bounds a decision's playouts (worlds times
	// candidate actions) outside endgames: with many actions to choose
	// from it searches Playouts divided by their number worlds, if fewer
	// than Worlds (BidWorlds), and never fewer than minBoundedWorlds.
	// The decision's size, not the clock, sets its work.
	Playouts int
	// MinMake is the least calibrated chance of making a bid it accepts
	// when it may pass; negative for none.
	MinMake float64
	// Endgame is the most lines of play left at which every world is
	// solved exactly.
	Endgame int
	// EndWorlds, above 0, is the worlds solved in every endgame, however
	// long; 0 leaves it to the length (endgameWorlds).
	EndWorlds int
	// Nodes, above 0, bounds the work of solving an endgame: once the
	// worlds solved so far have visited more positions than Nodes (and
	// at least endgameMinWorlds worlds are solved), the rest are left
	// out. Positions are counted, not time, so a decision is the same
	// on any machine and under any load.
	Nodes int
	// BidShift, Look and Fit are its model of how every seat acts in
	// its playouts (model): the heuristic with its bids moved by BidShift
	// points, with Look each card played by a one-step look ahead, and
	// with Fit (pawnee) the bids of a model fitted to hard bots' bids
	// instead (bidFitted).
	BidShift float64
	Look     bool
	Fit      bool
	// ReadFit reads the pawnee auction by the fitted model
	// (fittedLikelihood) instead of by soft steps on the heuristic's
	// estimate (auctionLikelihood).
	ReadFit bool
	// ReadCall reads the pawnee call too (callLikelihood): the cards of
	// the trump suit above the called one are likely the bidder's.
	ReadCall bool
	// ReadPlay reads the plays too (playLikelihood): a world in which
	// the heuristic, holding that world's cards, would not have played
	// a card another seat played counts less.
	ReadPlay bool
	// Bonus is what a hand that wins the match is worth beyond its
	// points, as a share of the target (objective.Bonus): matchBonus
	// (pawnee: pawneeBonus), or 0 ("nobonus") for what a moon is worth
	// in points alone.
	Bonus float64
	// Match scores a hand that decides the match by what the match is
	// worth at the scores before it, not by its points
	// (objective.Match): the moon decisions, when to shoot one and how
	// to defend against one (ten-point; pawnee, where an even match is a
	// fifth of one).
	Match bool
	// Span, above 0, is objective.Span: the standing read over Span
	// times the target when Match scores a hand that decides the match.
	Span float64
	// Sides scores a hand against the other side of the hand only, as
	// the search bot does, not against every rival for the match
	// (objective).
	Sides bool
	// Raw turns the bid calibration off: Made is the playouts' own rate.
	Raw bool
	// Blind turns the auction reading off: worlds are drawn from the view
	// alone, as Search draws them.
	Blind bool
	// Calibration maps the playouts' chance of making a bid to the chance
	// measured (calibrate); nil is the identity.
	Calibration [][2]float64
	// MoonCalibration, when set, maps the chance of making a ten-point
	// moon (TP-MOON-1) in Calibration's place: the playouts rate moons
	// lower than they are made against hard bots. "mooncal" sets it to
	// tenPointMoonCalibration; it is off by default (it won no more
	// matches, docs/bots.md, Tuning, eleventh session).
	MoonCalibration [][2]float64
}

// A setting is one change to the game's settings: a key of
// expertVariant and its value.
type setting struct {
	key string
	x   float64
}

// Settings returns the expert's settings for game v: the game's
// (expertTuning) with the bot's changes.
func (b *Expert) Settings(v pitch.Variant) ExpertSettings {
	st := expertTuning[v]
	if b.Worlds > 0 {
		st.Worlds = b.Worlds
	}
	for _, c := range b.changes {
		switch c.key {
		case "raw":
			st.Raw = true
		case "blind":
			st.Blind = true
		case "sides":
			st.Sides = true
		case "look":
			st.Look = c.x != 0
		case "fit":
			st.Fit = c.x != 0
		case "readfit":
			st.ReadFit = c.x != 0
		case "nobonus":
			st.Bonus = 0
		case "bonus":
			st.Bonus = c.x
		case "readcall":
			st.ReadCall = c.x != 0
		case "readplay":
			st.ReadPlay = c.x != 0
		case "match":
			st.Match = c.x != 0
		case "span":
			st.Span = c.x
		case "mooncal":
			st.MoonCalibration = nil
			if c.x != 0 && v == pitch.TenPoint {
				st.MoonCalibration = tenPointMoonCalibration
			}
		case "minmake":
			st.MinMake = c.x
		case "endgame":
			st.Endgame = int(c.x)
		case "endworlds":
			st.EndWorlds = int(c.x)
		case "nodes":
			st.Nodes = int(c.x)
		case "worlds":
			st.Worlds = int(c.x)
		case "bidworlds":
			st.BidWorlds = int(c.x)
		case "playouts":
			st.Playouts = int(c.x)
		case "bidshift":
			st.BidShift = c.x
		}
	}
	if st.BidWorlds <= 0 {
		st.BidWorlds = st.Worlds
	}
	return st
}

const expertDraw = 3

// minBoundedWorlds is the fewest worlds a decision is searched in when
// its playouts are bounded (ExpertSettings.Playouts).
const minBoundedWorlds = 40

// expertTuning holds, per game, the settings pitch sim measured best for
// the expert (docs/bots.md, "Tuning"):
//
//   - MinMake: in auction and ten-point the bid with the best value is
//     made whatever its chance (its chances are calibrated, so the value
//     already weighs the risk); in pawnee, where the playouts' values are
//     least sure, it keeps a discipline, at 60% (the search bot's 70%
//     and 50% measured worse).
//   - Endgame: ten-point's hands thin out fast (only trumps are held), so
//     its endgames are solved from earlier on; in pawnee only trumps are
//     played, and with the transposition table nearly all of play is
//     solved, always in EndWorlds worlds.
//   - BidShift: the heuristic's bids moved so that it passes about as
//     often as hard bots do in the same seats (auction and pawnee: hard
//     bots bid more often than the heuristic).
//   - Look: in auction and ten-point the playouts' play is a one-step
//     look ahead, over fewer worlds; in pawnee it did not help.
//   - Fit: in pawnee the playouts bid as a model fitted to hard bots'
//     bids does; BidShift still moves the hands the auction is read with.
//   - Calibration: measured for each game's playouts as they are: the
//     identity in auction and ten-point; in pawnee the playouts overrate
//     near-certain bids (rated 97%, made 93%) and underrate those near
//     60% (docs/bots.md, "Calibration").
//   - ReadFit: reading the pawnee auction by the fitted model measured
//     no better than the soft steps, so it is off.
//   - ReadCall: reading the pawnee call changes few decisions, and those
//     for the better (+0.003 ± 0.012 points a hand, paired), so it is on.
//   - Bonus: a hand that wins the match is worth a quarter of the target
//     more (matchBonus), in pawnee an eighth (pawneeBonus).
//   - Match: scoring a ten-point hand that decides the match (a moon
//     above all, TP-MOON-1) by what the match was worth at the scores
//     before it (objective.matchWorth) won more matches on two seeds and
//     fewer on a third, by less than the noise, and scored fewer points
//     a hand on all three, so it is off (docs/bots.md, Tuning, ninth
//     session); expert:match turns it on. In pawnee (a moon made wins
//     the match, PW-MOON-1; an even match is a fifth of one) it is off
//     too (docs/bots.md, Tuning, tenth session).
//   - MoonCalibration: in ten-point the playouts rate moons too low
//     (tenPointMoonCalibration), but a moon's chance mapped by a map of
//     its own won no more matches against hard on two seeds, so it is
//     off (docs/bots.md, Tuning, eleventh session); expert:mooncal turns
//     it on.
//   - Nodes and Playouts bound the work of a decision by counts, for
//     at most 100 ms a decision at the 99th percentile on one core
//     (BenchmarkExpertP99): pawnee's endgames (pawneeNodes), auction's
//     playouts (auctionPlayouts).
var expertTuning = map[pitch.Variant]ExpertSettings{
	pitch.Auction:  {Worlds: 100, Playouts: auctionPlayouts, MinMake: -1, Endgame: endgameLines, BidShift: 0.75, Look: true, Bonus: matchBonus},
	pitch.TenPoint: {Worlds: 50, MinMake: -1, Endgame: 20000, Look: true, Bonus: matchBonus},
	pitch.Pawnee: {Worlds: 300, MinMake: 0.6, Endgame: pawneeEndgame, EndWorlds: 100, Nodes: pawneeNodes, BidShift: 1, Fit: true, ReadCall: true, Bonus: pawneeBonus,
		Calibration: [][2]float64{{0, 0}, {0.6, 0.62}, {0.75, 0.75}, {0.85, 0.835}, {0.92, 0.88}, {1, 0.955}}},
}

// tenPointMoonCalibration maps the ten-point expert's chance of making
// a moon (TP-MOON-1) to the chance measured against hard bots
// (ExpertSettings.MoonCalibration). A moon falls to any one point the
// defenders take, and in the playouts they play by a look ahead with
// every card of the world open, which likely rates moons too low: in
// the 252 bid turns of seeds 5 (300 deals) and 6 (400) where the expert
// rated a moon 30% or more, each moon played out twice from the turn
// (the expert pitching, hard bots defending), moons rated 35% on
// average were made 42% of the time (rated 30–35%: 36%; 35–40%: 54%;
// 40–45%: 49%; above 45%, 18 turns, too few to tell). The map adds
// about 8 points from 35% to 45% and comes back to a sure moon at 1.
// It is a setting, off by default: with it the expert shot more moons
// and won no more matches (docs/bots.md, Tuning, eleventh session).
var tenPointMoonCalibration = [][2]float64{{0, 0}, {0.2, 0.22}, {0.35, 0.43}, {0.45, 0.53}, {1, 1}}

// auctionPlayouts bounds the auction expert's playouts a decision
// (ExpertSettings.Playouts): 300, so that a decision among four or more
// actions (the opening bid, a lead) searches fewer than its 100 worlds.
// Its slowest decisions were its opening bids and first leads; with the
// bound its 99th percentile went from 96 ms to 68 ms of one core, at no
// measured cost (docs/bots.md, Tuning, eighth session).
const auctionPlayouts = 300

// pawneeEndgame is the most lines of play at which the pawnee expert
// solves every world exactly: nearly every decision of play.
const pawneeEndgame = 200000

// pawneeNodes bounds the positions the pawnee expert visits solving one
// decision's endgame (ExpertSettings.Nodes): about 45 ms on one core of
// the machine it was measured on, which keeps its decisions within
// 100 ms at the 99th percentile (BenchmarkExpertP99). Without it the
// longest endgames took up to 1.2 s, solved in 100 worlds; with it they
// are solved in 16 to 100, fewer the longer they are.
const pawneeNodes = 300000

// pawneeBonus is the pawnee expert's bonus for a hand that wins the
// match: an eighth of the target. From zero scores every made pawnee moon
// wins the match (PW-MOON-1), and the more a won match counts, the more
// moons the expert bids in place of a 9: it wins more matches and scores
// fewer points a hand. An eighth keeps most of the matches a quarter
// wins and gives up far fewer points (docs/bots.md, "Pawnee's moons").
const pawneeBonus = matchBonus / 2

type forecast struct {
	hand   pitch.CardSet
	bid    int
	chance float64
}

// Name returns the bot's label, "expert" by default.
func (b *Expert) Name() string {
	if b.Label != "" {
		return b.Label
	}
	return "expert"
}

// Forecaster is a bot that says how likely it judged a bid to be made
// when it made it.
type Forecaster interface {
	// Forecast returns the chance the bot gave of making bid with hand,
	// the cards it was dealt, if it is one of the last bids it made.
	Forecast(hand pitch.CardSet, bid int) (float64, bool)
}

// Forecast implements Forecaster.
func (b *Expert) Forecast(hand pitch.CardSet, bid int) (float64, bool) {
	for _, f := range b.forecasts {
		if f.hand == hand && f.bid == bid && f.hand != 0 {
			return f.chance, true
		}
	}
	return 0, false
}

// Act returns the best action found.
func (b *Expert) Act(req Request) pitch.Action { return b.act(req, nil) }

// ActIn acts as Act does, but searches the worlds given instead of
// drawing them from the view: its search with the hidden cards known.
// pitch sim's perfect-information references give it the true deal
// (sim.ReferenceNames); no level does, since a bot at a table must not
// see the cards its seat does not.
func (b *Expert) ActIn(req Request, worlds []pitch.State) pitch.Action {
	if len(worlds) == 0 {
		return b.act(req, nil)
	}
	return b.act(req, worlds)
}

// act is Act, searching given worlds when there are any.
func (b *Expert) act(req Request, given []pitch.State) pitch.Action {
	if len(req.Legal) == 1 {
		return req.Legal[0]
	}
	opts := b.analyze(req, given)
	best := pickBest(opts, b.Settings(req.View.Game.Variant).MinMake)
	a := opts[best].Action
	if a.Kind == pitch.ActBid {
		b.forecasts[b.nf%len(b.forecasts)] = forecast{hand: req.View.Hand, bid: int(a.Bid), chance: opts[best].Made}
		b.nf++
	}
	return a
}

// pickBest returns the index of the option with the best value, keeping
// to the bid discipline: no bid made less often than minMake when a pass
// is allowed, and no bid that never won the auction in the worlds.
func pickBest(opts []Option, minMake float64) int {
	best := -1
	for i, o := range opts {
		if o.Action.Kind == pitch.ActBid && (o.Won == 0 || o.Made < minMake) && hasPass(opts) {
			continue
		}
		if best < 0 || o.Value > opts[best].Value {
			best = i
		}
	}
	if best < 0 {
		best = 0
	}
	return best
}

// Analyze evaluates the candidate actions of the request: Value is the
// mean result for the seat's side over the worlds, Made (for a bid) the
// calibrated chance of making it when it wins the auction.
func (b *Expert) Analyze(req Request) []Option { return b.analyze(req, nil) }

// analyze is Analyze over the given worlds, or over worlds drawn from
// the view when there are none.
func (b *Expert) analyze(req Request, given []pitch.State) []Option {
	v := req.View
	st := b.Settings(v.Game.Variant)
	n := st.Worlds
	if v.Phase == pitch.PhaseBid {
		n = st.BidWorlds
	}
	seat := v.Seat
	m := st.model()
	ob := st.objective()
	endgame, lines := false, 0
	if v.Phase == pitch.PhasePlay && v.Game.Variant != pitch.Pawnee {
		// Every card held may be played in time and the cards each seat
		// holds are counted in the view: the view knows the lines left.
		lines = endgameLinesOf(v, st.Endgame)
		if endgame = lines <= st.Endgame; endgame {
			n = min(n, st.endgameWorlds(lines))
		}
	}
	if st.Playouts > 0 && !endgame {
		n = min(n, max(minBoundedWorlds, st.Playouts/min(len(req.Legal), maxCandidates)))
	}
	pawneePlay := v.Phase == pitch.PhasePlay && v.Game.Variant == pitch.Pawnee
	worlds := given
	if worlds == nil {
		k := n
		if pawneePlay && st.EndWorlds > 0 {
			// Nearly every pawnee decision of play is an endgame, solved
			// in EndWorlds worlds: draw those first, the rest only if
			// it is not one.
			k = min(n, st.EndWorlds)
		}
		worlds = drawWorlds(v, req.Rand, k, !st.Blind, m)
	}
	if pawneePlay {
		// Only trumps are played (PW-PLAY-2), and how many each seat
		// holds differs between worlds: the world with the most lines
		// left decides.
		for i := range worlds {
			lines = max(lines, worldLines(&worlds[i], st.Endgame))
		}
		if endgame = lines <= st.Endgame; endgame {
			worlds = worlds[:min(len(worlds), n, st.endgameWorlds(lines))]
		} else if given == nil && len(worlds) < n {
			worlds = append(worlds, drawWorlds(v, req.Rand, n-len(worlds), !st.Blind, m)...)
		}
	}
	cands := candidates(&worlds[0], req)
	if v.Phase == pitch.PhaseCall {
		cands = append(cands, aloneCalls(req, cands)...)
	}
	sv := newSolver(seat, ob) // one table for every world and candidate
	opts := make([]Option, len(cands))
	type bidStats struct{ made, set, lost float64 }
	stats := make([]bidStats, len(cands))
	for i, c := range cands {
		opts[i].Action = c
	}
	for k, world := range worlds {
		if endgame && st.Nodes > 0 && k >= endgameMinWorlds && sv.nodes > st.Nodes {
			worlds = worlds[:k] // the work bound: the worlds solved decide
			break
		}
		for i, c := range cands {
			x := world
			if err := x.Apply(c); err != nil {
				continue // cannot happen: candidates are legal in every world
			}
			var val float64
			if endgame {
				val = sv.value(&x)
			} else {
				rolloutModel(&x, m)
				val = ob.of(&x, seat)
			}
			opts[i].Value += val
			if c.Kind == pitch.ActBid {
				switch {
				case x.Bidder() != seat:
					stats[i].lost += val
				case x.Made():
					opts[i].Won++
					opts[i].Made++
					stats[i].made += val
				default:
					opts[i].Won++
					stats[i].set += val
				}
			}
		}
	}
	w := float64(len(worlds))
	for i := range opts {
		opts[i].Value /= w
		o := &opts[i]
		if o.Action.Kind != pitch.ActBid || o.Won == 0 {
			o.Won /= w
			continue
		}
		made, won := o.Made, o.Won
		p := made / won
		if !st.Raw {
			cal := st.Calibration
			if o.Action.Bid == 10 && v.Game.Variant == pitch.TenPoint && st.MoonCalibration != nil {
				cal = st.MoonCalibration
			}
			pc := calibrate(cal, p)
			// The value again, with the calibrated chance: the mean
			// result when made and when set, weighed by it. A side that
			// was always made (or set) in the worlds has no mean for the
			// other case; it is taken as the bid's usual swing.
			vm, vs := stats[i].made/math.Max(made, 1), stats[i].set/math.Max(won-made, 1)
			if made == 0 {
				vm = vs + swing(v, int(o.Action.Bid))
			}
			if won == made {
				vs = vm - swing(v, int(o.Action.Bid))
			}
			o.Value = (stats[i].lost + won*(pc*vm+(1-pc)*vs)) / w
			p = pc
		}
		o.Made = p
		o.Won = won / w
	}
	return opts
}

// aloneCalls returns the calls that leave the bidder alone, which the
// search bot's candidates only reach by chance: in each suit, the highest
// card of its own (when the rules let it call one), if not in have.
// Playing alone keeps the whole take from a partner who is a rival for
// the match.
func aloneCalls(req Request, have []pitch.Action) []pitch.Action {
	var out []pitch.Action
	seat := req.View.Seat
	for t := pitch.Clubs; t < pitch.NoSuit; t++ {
		for _, c := range trumpOrders[1][t] {
			if c.IsJoker() || c.Suit() != t || !req.View.Hand.Has(c) {
				continue
			}
			a := pitch.Call(seat, c)
			if isLegal(req.Legal, a) && !isLegal(have, a) {
				out = append(out, a)
			}
			break
		}
	}
	return out
}

// swing is about what a bid changes between made and set: the bid lost
// and what the side would have taken.
func swing(v *pitch.View, bid int) float64 {
	if v.Game.Variant == pitch.TenPoint {
		return 2 * float64(bid)
	}
	return 2*float64(bid) + 1
}

// drawWorlds returns n worlds consistent with the view. With read, once
// the auction has said something, it draws expertDraw times as many,
// weighs them by the auction as mod would have bid it (auctionLikelihood)
// and keeps n of them by systematic resampling, so a world is kept about
// in proportion to its weight.
func drawWorlds(v *pitch.View, rng *rand.Rand, n int, read bool, mod model) []pitch.State {
	var plays []seenPlay
	if read && mod.ReadPlay {
		plays = seenPlays(v)
	}
	if !read || v.Bidder < 0 && v.Passed == 0 && len(plays) == 0 {
		out := make([]pitch.State, n)
		for i := range out {
			out[i] = v.Resample(rng)
		}
		return out
	}
	m := n * expertDraw
	pool := make([]pitch.State, m)
	w := make([]float64, m)
	total := 0.0
	for i := range pool {
		pool[i] = v.Resample(rng)
		w[i] = auctionLikelihood(&pool[i], v, mod)
		if len(plays) > 0 && w[i] > 0 {
			w[i] *= playLikelihood(&pool[i], v, plays, rng)
		}
		total += w[i]
	}
	out := make([]pitch.State, 0, n)
	if total <= 0 {
		return pool[:n]
	}
	step := total / float64(n)
	u := rng.Float64() * step
	acc := 0.0
	for i := range pool {
		acc += w[i]
		for u < acc && len(out) < n {
			out = append(out, pool[i])
			u += step
		}
	}
	for len(out) < n { // rounding
		out = append(out, pool[m-1])
	}
	return out
}

// minBid is the lowest bid of the game's auction that a hand would make
// on its own strength.
func minBid(v pitch.Variant) int {
	switch v {
	case pitch.TenPoint:
		return 4
	case pitch.Pawnee:
		return 5
	}
	return 2
}

// handTaken is the points a seat's side can expect from hand, the
// heuristic's estimate mapped to points taken (as bidAction does, with no
// margin), in suit t or, with t NoSuit, in its best suit.
func handTaken(g *pitch.Game, hand pitch.CardSet, t pitch.Suit) float64 {
	e := 0.0
	if t == pitch.NoSuit {
		for s := pitch.Clubs; s < pitch.NoSuit; s++ {
			e = math.Max(e, estimateHand(g, hand, s, pointsFor(g.Variant, s)))
		}
	} else {
		e = estimateHand(g, hand, t, pointsFor(g.Variant, t))
	}
	switch g.Variant {
	case pitch.Auction:
		return 1.65*e - 0.84
	case pitch.TenPoint:
		return 4.43 + 0.64*e
	}
	return 4.47 + 0.64*e
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// auctionLikelihood is how likely the auction as the view shows it is in
// world w, from the other seats' dealt cards: a seat that passed is
// unlikely to hold a hand worth the bid it could have made, the high
// bidder is unlikely to hold one worth much less than its bid, and a seat
// outbid is unlikely to have had nothing. Each seat's action is a soft
// step (a logistic in points) with a floor, since people and bots bid
// differently; a hand's points are moved by the model's bid shift, as
// the playouts bid them (bidShifted). With the model's ReadCall it reads
// the pawnee call as well (callLikelihood).
func auctionLikelihood(w *pitch.State, v *pitch.View, m model) float64 {
	if m.ReadFit && v.Game.Variant == pitch.Pawnee {
		return fittedLikelihood(w, v) * callLikelihood(w, v, m)
	}
	return bidsLikelihood(w, v, m) * callLikelihood(w, v, m)
}

// callLikelihood is how likely the pawnee bidder's call is in world w:
// bots and most people call the highest card of the trump suit they lack
// (PW-CALL-1), so a world that deals the bidder every card of the suit
// above the called one is likely, and every such card it lacks makes the
// world callMiss times less likely.
func callLikelihood(w *pitch.State, v *pitch.View, m model) float64 {
	if !m.ReadCall || v.Game.Variant != pitch.Pawnee || v.Called == pitch.NoCard || v.Bidder < 0 || v.Bidder == v.Seat {
		return 1
	}
	const callMiss = 0.25
	t, h, l := v.Called.Suit(), w.Dealt(v.Bidder), 1.0
	for _, c := range trumpOrders[1][t] {
		if c == v.Called {
			break
		}
		if !c.IsJoker() && c.Suit() == t && !h.Has(c) {
			l *= callMiss
		}
	}
	return l
}

// bidsLikelihood reads the bids and passes for auctionLikelihood.
func bidsLikelihood(w *pitch.State, v *pitch.View, m model) float64 {
	g := v.Game
	n := g.Seats()
	lo := float64(minBid(g.Variant))
	scale := 0.8
	if g.Variant != pitch.Auction {
		scale = 1.2
	}
	const floor = 0.08
	forced := v.Bidder == v.Dealer && g.Variant != pitch.Auction && passedAllBut(v, v.Dealer)
	// The seats that have had their turn in a one-round auction.
	acted := func(i int) bool {
		if v.Passed&(1<<i) != 0 || i == v.Bidder {
			return true
		}
		if g.Variant == pitch.Pawnee {
			return false
		}
		if v.Phase != pitch.PhaseBid {
			return !(v.Bid == 10 || (g.Variant == pitch.Auction && v.Bid == 4)) // closed early: not all spoke
		}
		return (i-v.Dealer-1+2*n)%n < (v.Turn-v.Dealer-1+2*n)%n
	}
	// after reports whether seat i spoke after the high bidder (one round).
	after := func(i int) bool {
		if v.Bidder < 0 || g.Variant == pitch.Pawnee {
			return false
		}
		return (i-v.Dealer-1+2*n)%n > (v.Bidder-v.Dealer-1+2*n)%n
	}
	l := 1.0
	for i := range n {
		if i == v.Seat || !acted(i) {
			continue
		}
		var t pitch.Suit = pitch.NoSuit
		if i == v.Bidder && v.Trump != pitch.NoSuit {
			t = v.Trump
		}
		taken := handTaken(g, w.Dealt(i), t) + m.Bid
		var p float64
		switch {
		case i == v.Bidder:
			if forced || (g.Variant == pitch.Auction && i == v.Dealer && passedAllBut(v, i)) {
				continue
			}
			p = sigmoid((taken - (float64(v.Bid) - 0.7)) / scale)
		case v.Passed&(1<<i) != 0:
			th := lo + 0.3
			if after(i) {
				th = float64(v.Bid) + 0.7
				if g.Variant == pitch.Auction && i == v.Dealer {
					th = float64(v.Bid) + 0.3 // it could have stolen
				}
			}
			p = sigmoid((th - taken) / scale)
		default: // outbid
			p = sigmoid((taken - (lo - 0.7)) / scale)
		}
		l *= floor + (1-floor)*p
	}
	return l
}

// passedAllBut reports whether every seat but i passed.
func passedAllBut(v *pitch.View, i int) bool {
	for k := range v.Game.Seats() {
		if k != i && v.Passed&(1<<k) == 0 {
			return false
		}
	}
	return true
}

// objective is how the settings score a finished hand for the expert.
func (st *ExpertSettings) objective() objective {
	return objective{Standing: !st.Sides, Bonus: st.Bonus, Match: st.Match, Span: st.Span}
}

// model is how the settings model every seat in playouts and readings.
func (st *ExpertSettings) model() model {
	return model{Bid: st.BidShift, Look: st.Look, Fit: st.Fit, ReadFit: st.ReadFit, ReadCall: st.ReadCall, ReadPlay: st.ReadPlay}
}

// endgameWorlds is how many worlds an endgame of lines lines of play is
// solved in: EndWorlds, or fewer the longer it is, for about the same
// work.
func (st *ExpertSettings) endgameWorlds(lines int) int {
	if st.EndWorlds > 0 {
		return st.EndWorlds
	}
	return max(endgameMinWorlds, min(endgameWorlds, endgameWork/lines))
}

// endgameLinesOf bounds the lines of play left as the view counts them
// (linesOf its seats' card counts). Outside pawnee every card held is
// played.
func endgameLinesOf(v *pitch.View, limit int) int {
	return linesOf(v.Counts[:v.Game.Seats()], limit)
}

// worldLines bounds the lines of play left in world s: linesOf the cards
// each seat may still play. In pawnee only trumps are ever played
// (PW-PLAY-2), so a seat's other cards do not count.
func worldLines(s *pitch.State, limit int) int {
	var counts [pitch.MaxSeats]int
	for i := range s.Seats() {
		h := s.Hand(i)
		if s.Game().Variant == pitch.Pawnee {
			h &= s.Trumps()
		}
		counts[i] = h.Len()
	}
	return linesOf(counts[:s.Seats()], limit)
}

// linesOf is the product of the factorials of counts, the lines of play
// of seats holding that many playable cards each, stopping past limit.
func linesOf(counts []int, limit int) int {
	lines := 1
	for _, c := range counts {
		for k := 2; k <= c; k++ {
			lines *= k
			if lines > limit {
				return lines
			}
		}
	}
	return lines
}

// The endgame is solved exactly when its lines of play are at most
// endgameLines (four seats with three cards each: 1,296), in between
// endgameMinWorlds and endgameWorlds worlds, about endgameWork/lines.
const (
	endgameLines     = 1300
	endgameWorlds    = 60
	endgameMinWorlds = 16
	endgameWork      = 25000
)

// calibrate returns the measured chance of making a bid that the
// playouts make with chance p, from the map pts: pairs of the playouts'
// chance and the chance measured, interpolated linearly; nil is the
// identity.
func calibrate(pts [][2]float64, p float64) float64 {
	for i := 1; i < len(pts); i++ {
		if p <= pts[i][0] || i == len(pts)-1 {
			a, b := pts[i-1], pts[i]
			if b[0] == a[0] {
				return b[1]
			}
			return a[1] + (b[1]-a[1])*(p-a[0])/(b[0]-a[0])
		}
	}
	return p
}
