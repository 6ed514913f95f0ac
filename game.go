package pitch

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Variant names one of the three games.
type Variant uint8

// The three games.
const (
	Auction  Variant = iota // Auction Pitch (Setback), rules AP-*
	TenPoint                // 10 Point Pitch, rules TP-*
	Pawnee                  // Pawnee Ten Point Call Your Partner Pitch, rules PW-*
)

// Variants lists every game.
var Variants = []Variant{Auction, TenPoint, Pawnee}

var variantNames = [...]string{"auction", "ten-point", "pawnee"}

// String returns the name used on the command line and in hand records.
func (v Variant) String() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return fmt.Sprintf("Variant(%d)", v)
}

// ParseVariant reads "auction", "ten-point" or "pawnee".
func ParseVariant(s string) (Variant, error) {
	for i, n := range variantNames {
		if strings.EqualFold(s, n) {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q: the variants are auction, ten-point and pawnee", s)
}

// MaxSeats is the most seats any game has (auction with 7 players).
const MaxSeats = 7

// Options are the house rules named in the rules (C-8, AP-1, AP-PT-2,
// PW-CALL-1 and the pawnee readings). The zero value is not meaningful:
// use DefaultOptions.
type Options struct {
	Target         int  // score that ends a match (C-8)
	Players        int  // auction: 2 to 7 (AP-1); fixed at 4 and 5 in the others
	Partnerships   bool // auction: two teams seated alternately, 4 or 6 players (AP-1)
	LowToHolder    bool // auction: Low to the seat dealt it (AP-PT-2)
	CallOwnCard    bool // pawnee: the bidder may call a card they hold (PW-CALL-1)
	ScoreTricks    bool // pawnee: sides score tricks, not points (reading 3)
	FailBidderOnly bool // pawnee: a failed bid costs only the bidder (reading 6)
}

// DefaultOptions returns the defaults the rules give for v.
func DefaultOptions(v Variant) Options {
	switch v {
	case TenPoint:
		return Options{Target: 52, Players: 4}
	case Pawnee:
		return Options{Target: 42, Players: 5, CallOwnCard: true, FailBidderOnly: true}
	}
	return Options{Target: 7, Players: 4}
}

// Option changes one house rule of a new Game.
type Option func(*Options)

// WithTarget sets the score that ends the match (C-8).
func WithTarget(n int) Option { return func(o *Options) { o.Target = n } }

// WithPlayers sets the number of players (auction only, AP-1).
func WithPlayers(n int) Option { return func(o *Options) { o.Players = n } }

// WithPartnerships plays auction in two partnerships seated alternately (AP-1).
func WithPartnerships(on bool) Option { return func(o *Options) { o.Partnerships = on } }

// WithLowToHolder gives auction Low to the seat dealt it (AP-PT-2).
func WithLowToHolder(on bool) Option { return func(o *Options) { o.LowToHolder = on } }

// WithCallOwnCard allows or forbids a pawnee bidder to call a card they hold (PW-CALL-1).
func WithCallOwnCard(on bool) Option { return func(o *Options) { o.CallOwnCard = on } }

// WithScoreTricks makes pawnee sides score tricks instead of points (reading 3).
func WithScoreTricks(on bool) Option { return func(o *Options) { o.ScoreTricks = on } }

// WithFailBidderOnly makes a failed pawnee bid cost only the bidder (reading 6).
func WithFailBidderOnly(on bool) Option { return func(o *Options) { o.FailBidderOnly = on } }

// Game is one game with its house rules fixed: the immutable data every
// state of a match points to.
type Game struct {
	Variant Variant
	Options Options

	seats    int
	handSize int  // cards dealt to each seat
	jokers   bool // jokers and the off-jack are trumps
	teams    bool // fixed partnerships: seat%2

	// dealTo[d][k] is the seat the k-th card of the deck goes to when seat
	// d deals: packets of 3 in auction (AP-3) and ten-point, packets of 5
	// in pawnee, from the dealer's left. Only the first seats*handSize
	// positions are used.
	dealTo [slots][54]int8
}

// MaxTarget is the largest target accepted, to keep scores far from overflow.
const MaxTarget = 10000

// NewGame returns the game v with the defaults changed by opts, or an
// error that says which option is out of range and what is allowed.
func NewGame(v Variant, opts ...Option) (*Game, error) {
	if int(v) >= len(variantNames) {
		return nil, fmt.Errorf("unknown variant %d: the variants are auction, ten-point and pawnee", v)
	}
	o := DefaultOptions(v)
	for _, f := range opts {
		f(&o)
	}
	return newGame(v, o)
}

// MustNewGame is NewGame for tests and examples; it panics on a bad option.
func MustNewGame(v Variant, opts ...Option) *Game {
	g, err := NewGame(v, opts...)
	if err != nil {
		panic(err)
	}
	return g
}

func newGame(v Variant, o Options) (*Game, error) {
	d := DefaultOptions(v)
	if o.Target < 1 || o.Target > MaxTarget {
		return nil, fmt.Errorf("option target %d is out of range: it must be 1 to %d", o.Target, MaxTarget)
	}
	switch v {
	case Auction:
		if o.Players < 2 || o.Players > 7 {
			return nil, fmt.Errorf("auction is for 2 to 7 players, not %d", o.Players)
		}
		if o.Partnerships && o.Players != 4 && o.Players != 6 {
			return nil, fmt.Errorf("auction partnerships need 4 or 6 players, not %d", o.Players)
		}
		if o.CallOwnCard || o.ScoreTricks || o.FailBidderOnly {
			return nil, fmt.Errorf("options call_own_card, pawnee_score_tricks and pawnee_fail_bidder_only apply only to pawnee")
		}
	default:
		if o.Players != d.Players {
			return nil, fmt.Errorf("%s is for exactly %d players, not %d", v, d.Players, o.Players)
		}
		if o.Partnerships || o.LowToHolder {
			return nil, fmt.Errorf("options partnerships and low_to_holder apply only to auction")
		}
		if v == TenPoint && (o.CallOwnCard || o.ScoreTricks || o.FailBidderOnly) {
			return nil, fmt.Errorf("options call_own_card, pawnee_score_tricks and pawnee_fail_bidder_only apply only to pawnee")
		}
	}
	g := &Game{Variant: v, Options: o, seats: o.Players}
	switch v {
	case Auction:
		g.handSize, g.teams = 6, o.Partnerships
	case TenPoint:
		g.handSize, g.jokers, g.teams = 9, true, true
	case Pawnee:
		g.handSize, g.jokers = 10, true
	}
	packet := 3
	if v == Pawnee {
		packet = 5
	}
	for d := range g.seats {
		for k := range g.seats * g.handSize {
			g.dealTo[d][k] = int8((d + 1 + k/packet) % g.seats)
		}
	}
	return g, nil
}

// Seats returns the number of seats at the table.
func (g *Game) Seats() int { return g.seats }

// HandSize returns the number of cards dealt to each seat (AP-3, TP-3, PW-3).
func (g *Game) HandSize() int { return g.handSize }

// Deck returns the cards the game is played with (AP-2, TP-2, PW-2).
func (g *Game) Deck() CardSet {
	if g.jokers {
		return Deck54
	}
	return Deck52
}

// FixedTeams reports whether partnerships are fixed for the whole match
// (ten-point, and auction with the partnerships option).
func (g *Game) FixedTeams() bool { return g.teams }

// Team returns seat's partnership, 0 or 1 (seats alternate), when
// partnerships are fixed for the match, and -1 otherwise.
func (g *Game) Team(seat int) int {
	if !g.teams {
		return -1
	}
	return seat % 2
}

// MoonBid returns the bid that is the moon: 10 in ten-point (TP-BID-1)
// and pawnee (PW-BID-1), 0 in auction, which has none.
func (g *Game) MoonBid() int {
	if g.Variant == Auction {
		return 0
	}
	return 10
}

// Jokers reports whether the jokers and the off-jack are trumps (C-4, C-5).
func (g *Game) Jokers() bool { return g.jokers }

func (g *Game) trump(s Suit) *trumpOrder { return &trumpOrders[b2i(g.jokers)][s] }

// optionKeys lists, per variant, the option names a hand record may carry.
var optionKeys = map[Variant][]string{
	Auction:  {"target", "players", "partnerships", "low_to_holder"},
	TenPoint: {"target"},
	Pawnee:   {"target", "call_own_card", "pawnee_score_tricks", "pawnee_fail_bidder_only"},
}

// OptionNames returns the option names that apply to v, as used in hand records.
func OptionNames(v Variant) []string { return append([]string(nil), optionKeys[v]...) }

// ParseOptions reads a hand record's "options" object for variant v:
// absent options take their defaults and one that does not apply is refused.
func ParseOptions(v Variant, raw map[string]json.RawMessage) (*Game, error) {
	o := DefaultOptions(v)
	allowed := optionKeys[v]
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		val := raw[k]
		ok := false
		for _, a := range allowed {
			ok = ok || a == k
		}
		if !ok {
			return nil, fmt.Errorf("option %q does not apply to %s: its options are %s", k, v, strings.Join(allowed, ", "))
		}
		var err error
		switch k {
		case "target":
			err = json.Unmarshal(val, &o.Target)
		case "players":
			err = json.Unmarshal(val, &o.Players)
		case "partnerships":
			err = json.Unmarshal(val, &o.Partnerships)
		case "low_to_holder":
			err = json.Unmarshal(val, &o.LowToHolder)
		case "call_own_card":
			err = json.Unmarshal(val, &o.CallOwnCard)
		case "pawnee_score_tricks":
			err = json.Unmarshal(val, &o.ScoreTricks)
		case "pawnee_fail_bidder_only":
			err = json.Unmarshal(val, &o.FailBidderOnly)
		}
		if err != nil {
			kind := "true or false"
			if k == "target" || k == "players" {
				kind = "a whole number"
			}
			return nil, fmt.Errorf("option %q must be %s, not %s", k, kind, string(val))
		}
	}
	return newGame(v, o)
}

// OptionMap returns the game's options by their hand-record names.
func (g *Game) OptionMap() map[string]any {
	o := g.Options
	m := map[string]any{"target": o.Target}
	switch g.Variant {
	case Auction:
		m["players"], m["partnerships"], m["low_to_holder"] = o.Players, o.Partnerships, o.LowToHolder
	case Pawnee:
		m["call_own_card"], m["pawnee_score_tricks"], m["pawnee_fail_bidder_only"] = o.CallOwnCard, o.ScoreTricks, o.FailBidderOnly
	}
	return m
}
