// Package bot holds the computer players. A bot sees only what its seat
// may see — a pitch.View — and the legal actions; to reason about hidden
// cards it draws worlds consistent with the view (View.Resample).
package bot

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"pitch"
)

// Request is one decision put to a bot.
type Request struct {
	View  *pitch.View    // what the seat to act may see
	Legal []pitch.Action // the actions it may take (never empty)
	Rand  *rand.Rand     // the bot's own seeded generator
}

// Bot chooses an action for the seat to act. The same request and the same
// generator state give the same action.
type Bot interface {
	Name() string
	Act(req Request) pitch.Action
}

// MediumWorlds is the medium level's budget of worlds per decision: few
// enough that it stands clearly between easy and hard in every game
// (docs/bots.md, "Strength").
const MediumWorlds = 10

// Levels are the levels people choose among, weakest first.
var Levels = []string{"easy", "medium", "hard", "expert"}

// Names lists the bots and levels New accepts.
var Names = []string{"random", "heuristic", "search", "easy", "medium", "hard", "expert"}

// New returns the bot or level called name: random, heuristic, search
// (default strength), or a level for people: easy (heuristic), medium
// (search with MediumWorlds worlds), hard (search at default strength) and
// expert (Expert). "expert-raw" (without its bid calibration) and
// "expert-blind" (without its auction reading) are how those parts are
// measured; they are not listed, nor are "expert:SETTINGS"
// (expertVariant), "search:worlds=N" and "heuristic:bidshift=X".
func New(name string) (Bot, error) {
	switch strings.ToLower(name) {
	case "random":
		return Random{}, nil
	case "heuristic", "easy":
		return Heuristic{}, nil
	case "medium":
		return &Search{Worlds: MediumWorlds, Label: "medium"}, nil
	case "search", "hard":
		return &Search{Label: strings.ToLower(name)}, nil
	case "expert":
		return &Expert{}, nil
	case "expert-raw":
		return &Expert{changes: []setting{{key: "raw"}}, Label: "expert-raw"}, nil
	case "expert-blind":
		return &Expert{changes: []setting{{key: "blind"}}, Label: "expert-blind"}, nil
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(name), "expert:"); ok {
		return expertVariant(name, rest)
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(name), "heuristic:bidshift="); ok {
		if x, err := strconv.ParseFloat(rest, 64); err == nil {
			return Heuristic{BidShift: x, Label: strings.ToLower(name)}, nil
		}
		return nil, fmt.Errorf("bot %q: the bid shift must be a number of points", name)
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(name), "search:worlds="); ok {
		if n, err := strconv.Atoi(rest); err == nil && n > 0 {
			return &Search{Worlds: n, Label: strings.ToLower(name)}, nil
		}
		return nil, fmt.Errorf("bot %q: the worlds must be a whole number above 0", name)
	}
	return nil, fmt.Errorf("unknown bot %q: the bots are %s", name, strings.Join(Names, ", "))
}

// expertVariant builds an expert with some of its game's settings
// changed (ExpertSettings), for measuring them with pitch sim:
// "expert:minmake=0.5,endgame=20000,endworlds=100,nodes=500000,worlds=100,bidworlds=1000,playouts=300,
// bidshift=0.5,look=0,fit=0,readfit,readcall=0,readplay,match,mooncal,span=0.5,raw,blind,sides,nobonus".
func expertVariant(name, settings string) (Bot, error) {
	b := &Expert{Label: strings.ToLower(name)}
	const known = "raw, blind, sides, nobonus, look (or look=0), fit (or fit=0), readfit (or readfit=0), readcall (or readcall=0), readplay (or readplay=0), match (or match=0), mooncal (or mooncal=0), bonus=F, span=F, minmake=P, endgame=N, endworlds=N, nodes=N, worlds=N, bidworlds=N, playouts=N, bidshift=X"
	for _, kv := range strings.Split(settings, ",") {
		k, v, hasValue := strings.Cut(kv, "=")
		c := setting{key: k, x: 1}
		switch k {
		case "raw", "blind", "sides", "nobonus":
			if hasValue {
				return nil, fmt.Errorf("bot %q: the expert setting %q takes no value", name, k)
			}
		case "look", "fit", "readfit", "readcall", "readplay", "match", "mooncal":
			if hasValue && v != "0" && v != "1" {
				return nil, fmt.Errorf("bot %q: the expert setting %s is on (%s or %s=1) or off (%s=0), not %q", name, k, k, k, k, v)
			}
			if v == "0" {
				c.x = 0
			}
		case "minmake", "bidshift", "bonus", "span":
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("bot %q: setting %q: %q is not a number", name, k, v)
			}
			if k == "span" && !(x > 0) {
				return nil, fmt.Errorf("bot %q: setting span: %q is not a share of the target above 0", name, v)
			}
			if k == "bonus" && !(x > 0) {
				return nil, fmt.Errorf("bot %q: setting bonus: %q is not a share of the target above 0 (nobonus leaves the bonus out)", name, v)
			}
			c.x = x
		case "endgame", "endworlds", "nodes", "worlds", "bidworlds", "playouts":
			x, err := strconv.Atoi(v)
			if err != nil || x <= 0 {
				return nil, fmt.Errorf("bot %q: setting %q: %q is not a whole number above 0", name, k, v)
			}
			c.x = float64(x)
		default:
			return nil, fmt.Errorf("bot %q: unknown expert setting %q: the settings are %s", name, k, known)
		}
		b.changes = append(b.changes, c)
	}
	return b, nil
}

// Decide builds the request for the seat to act in s, as that seat sees
// it, and asks b. It is how a game loop drives a bot.
func Decide(b Bot, s *pitch.State, rng *rand.Rand) pitch.Action {
	v := s.View(s.Turn())
	legal := s.Legal(nil)
	if len(legal) == 1 {
		return legal[0]
	}
	return b.Act(Request{View: &v, Legal: legal, Rand: rng})
}

// Random plays uniformly at random among the legal actions.
type Random struct{}

// Name returns "random".
func (Random) Name() string { return "random" }

// Act picks one legal action uniformly.
func (Random) Act(req Request) pitch.Action { return req.Legal[req.Rand.IntN(len(req.Legal))] }
