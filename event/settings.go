// Package event runs tournaments of many tables: progressive (winners
// move up a table), mixed (new tablemates each round) and duplicate
// (every table plays the same deals, scored by matchpoints). It is pure
// logic: the settings of an event, the seating of each round, the
// movement from one round to the next, late joiners and leavers, and the
// standings. The server (server/event*.go) stores an event, makes its
// tables and feeds their results back. See docs/events.md.
package event

import (
	"encoding/json"
	"fmt"

	"pitch"
)

// Movement is how players move between rounds.
type Movement string

// The movements.
const (
	// Progressive: the winners at each table move up one table, the losers
	// of the head table go to the bottom; partners switch each round.
	Progressive Movement = "progressive"
	// Mixed: new tablemates each round, as few repeats as can be.
	Mixed Movement = "mixed"
	// Duplicate: every table of a round plays the same deals in the same
	// order; each result is compared with those who held the same cards.
	Duplicate Movement = "duplicate"
)

// End is how a round ends at a table.
type End string

// The ways a round ends.
const (
	EndHands End = "hands" // after Settings.Hands hands (or sooner, if the match ends)
	EndMatch End = "match" // when the match ends (the game's target)
	EndClock End = "clock" // when Settings.Minutes are up; the hand in progress is played out
)

// Limits on an event's settings.
const (
	MaxRounds  = 20
	MaxHands   = 50
	MaxMinutes = 240
	MaxPlayers = 400
	MaxSolo    = 100000 // people at a solo event (each plays alone)
)

// Settings are what the host chooses for an event.
type Settings struct {
	Variant string `json:"variant"` // auction, ten-point or pawnee
	// Options are the game's options by hand-record name (as a table's);
	// at auction, "players" is the preferred table size (default 4).
	Options  map[string]json.RawMessage `json:"options,omitempty"`
	Rounds   int                        `json:"rounds"`
	End      End                        `json:"end"`
	Hands    int                        `json:"hands,omitempty"`   // End == EndHands
	Minutes  int                        `json:"minutes,omitempty"` // End == EndClock
	Movement Movement                   `json:"movement"`
	// SwitchPartners (progressive, fixed partnerships): partners switch
	// each round. HeadStays: except the winners at the head table, who
	// stay together.
	SwitchPartners bool `json:"switch_partners"`
	HeadStays      bool `json:"head_stays"`
	// Bots is the level of the bots that fill gaps and replace leavers
	// (easy, medium, hard or expert; default medium).
	Bots string `json:"bots,omitempty"`
	// Fill is what fills a round's gaps when the people do not fill its
	// tables: FillByes (the default for a new event) or FillBots. An
	// event stored before the setting existed has none (FillLegacy) and
	// keeps the seating it was made with: bots spread one a table and
	// moving up the ladder like people.
	Fill Fill `json:"fill,omitempty"`
	// Solo (duplicate, one round): each person plays the round's deals
	// alone, with bots at the other seats, whenever they like until the
	// event is closed, and is compared with everyone who played them.
	Solo bool `json:"solo,omitempty"`
}

// Fill is what fills the gaps of a round whose people do not fill its
// tables.
type Fill string

// The ways of filling a round's gaps.
const (
	// FillByes: only full tables are seated; the people left over sit
	// out the round (a bye), in turn (docs/events.md, Byes).
	FillByes Fill = "byes"
	// FillBots: bots fill the gaps, all at the bottom table, and never
	// move: they do not climb the ladder.
	FillBots Fill = "bots"
	// FillLegacy is the setting of an event stored before Fill existed:
	// bots spread one a table from the bottom up, and move up the ladder
	// as people do. Check never gives it.
	FillLegacy Fill = ""
)

// Check validates s and fills its defaults (bots medium, fill byes). Call
// it on a new event's settings only: a stored event's settings stay as
// they were made (an old one's Fill stays FillLegacy). The error says
// what is wrong and what is allowed.
func (s *Settings) Check() error {
	v, err := pitch.ParseVariant(s.Variant)
	if err != nil {
		return err
	}
	if _, err := pitch.ParseOptions(v, s.Options); err != nil {
		return err
	}
	s.Variant = v.String()
	if s.Rounds < 1 || s.Rounds > MaxRounds {
		return fmt.Errorf("rounds must be 1 to %d, not %d", MaxRounds, s.Rounds)
	}
	switch s.End {
	case EndHands:
		if s.Hands < 1 || s.Hands > MaxHands {
			return fmt.Errorf("a round of hands must have 1 to %d hands, not %d", MaxHands, s.Hands)
		}
	case EndMatch:
	case EndClock:
		if s.Minutes < 1 || s.Minutes > MaxMinutes {
			return fmt.Errorf("a round on the clock must last 1 to %d minutes, not %d", MaxMinutes, s.Minutes)
		}
	default:
		return fmt.Errorf("a round ends by %q, %q or %q, not %q", EndHands, EndMatch, EndClock, s.End)
	}
	switch s.Movement {
	case Progressive, Mixed:
	case Duplicate:
		if s.End != EndHands {
			return fmt.Errorf("duplicate rounds end after a number of hands (end %q), so that every table plays the same deals", EndHands)
		}
	default:
		return fmt.Errorf("the movement is %q, %q or %q, not %q", Progressive, Mixed, Duplicate, s.Movement)
	}
	if s.Solo && (s.Movement != Duplicate || s.Rounds != 1) {
		return fmt.Errorf("a solo event is a duplicate event (movement %q) of one round, not %q of %d", Duplicate, s.Movement, s.Rounds)
	}
	switch s.Bots {
	case "":
		s.Bots = "medium"
	case "easy", "medium", "hard", "expert":
	default:
		return fmt.Errorf("bots are easy, medium, hard or expert, not %q", s.Bots)
	}
	switch s.Fill {
	case FillLegacy:
		s.Fill = FillByes
	case FillByes, FillBots:
	default:
		return fmt.Errorf("the gaps at the tables are filled by %q (people sit out in turn) or %q, not %q", FillByes, FillBots, s.Fill)
	}
	return nil
}

// base is the game of the settings, its options as given (Check first).
func (s *Settings) base() *pitch.Game {
	v, _ := pitch.ParseVariant(s.Variant)
	g, err := pitch.ParseOptions(v, s.Options)
	if err != nil {
		panic("event: settings not checked: " + err.Error())
	}
	return g
}

// Game returns the game played at a table of size seats (Check first):
// the settings' game, with that many players at auction.
func (s *Settings) Game(seats int) (*pitch.Game, error) {
	g := s.base()
	if g.Variant != pitch.Auction {
		if seats != g.Seats() {
			return nil, fmt.Errorf("%s is played by %d, not %d", g.Variant, g.Seats(), seats)
		}
		return g, nil
	}
	o := g.Options
	return pitch.NewGame(pitch.Auction, pitch.WithTarget(o.Target), pitch.WithPlayers(seats),
		pitch.WithPartnerships(o.Partnerships), pitch.WithLowToHolder(o.LowToHolder))
}

// SoloSize is the size of a solo event's tables (Check first): the
// game's, or at auction the "players" option's (3 to 7; default 4).
func (s *Settings) SoloSize() int {
	g := s.base()
	if g.Variant == pitch.Auction && !g.Options.Partnerships {
		return s.TableSizes(max(3, g.Options.Players))[0]
	}
	return g.Seats()
}

// Teams reports whether the game has fixed partnerships (ten-point;
// auction with partnerships), seated alternately.
func (s *Settings) Teams() bool { return s.base().FixedTeams() }

// fixedSize returns the size of every table of the game, or 0 at auction
// without partnerships (3 to 7 a table).
func (s *Settings) fixedSize() int {
	g := s.base()
	if g.Variant != pitch.Auction || g.Options.Partnerships {
		return g.Seats()
	}
	return 0
}

// MinPlayers is the fewest people who make one table without bots: the
// game's table size, or 3 at auction without partnerships.
func (s *Settings) MinPlayers() int {
	if n := s.fixedSize(); n > 0 {
		return n
	}
	return 3
}

// TableSizes returns the sizes of the tables for n players, head table
// first: ten-point 4, pawnee 5 and auction with partnerships its players
// (4 or 6) at every table, the last filled with bots when n does not
// divide; auction otherwise 3 to 7 a table, as close to the "players"
// option (default 4) as the split allows, split as evenly as it can, the
// larger tables first. Fewer than the smallest table make one table.
func (s *Settings) TableSizes(n int) []int {
	g := s.base()
	if g.Variant != pitch.Auction || g.Options.Partnerships {
		size := g.Seats()
		k := max(1, (n+size-1)/size)
		sizes := make([]int, k)
		for i := range sizes {
			sizes[i] = size
		}
		return sizes
	}
	if n < 3 {
		return []int{3}
	}
	pref := g.Options.Players
	if pref < 3 {
		pref = 3
	}
	k := max(1, (n+pref/2)/pref) // nearest to n/pref
	k = max(k, (n+6)/7)          // no table over 7
	k = min(k, max(1, n/3))      // no table under 3
	sizes := make([]int, k)
	for i := range sizes {
		sizes[i] = n / k
		if i < n%k {
			sizes[i]++
		}
	}
	return sizes
}
