// Package tableinfo is the public description of a table (docs/protocol.md):
// what anyone may see of it, its seats and its game, as the lobby, the
// tables' states and the history show it.
package tableinfo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"pitch"
	"pitch/server/ratings"
	"pitch/store"
)

// Seat is one seat of a table as everyone may see it.
type Seat struct {
	Seat  int    `json:"seat"`
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
	Name  string `json:"name"`
	// Bot numbers the table's bots from 1 in seat order ("Bot 1" … "Bot
	// N", the name every page shows, in its language); 0 for a person.
	Bot   int  `json:"bot,omitempty"`
	Taken bool `json:"taken"`
	// Account: a signed-in person holds the seat, under their account's
	// name (docs/accounts.md); a guest's seat and a bot's lack it.
	Account bool `json:"account,omitempty"`
	// Rating is a bot's fixed rating in the table's game (rating.Bot).
	Rating *ratings.Shown `json:"rating,omitempty"`
	// TookOver: the person holding the seat took it over from a bot
	// (play now), nil otherwise.
	TookOver *TookOver `json:"took_over,omitempty"`
	// Pending is the name of the person who takes this bot's seat over
	// when the hand in play ends (play now); "" for none.
	Pending string `json:"pending,omitempty"`
	// Holders says who held a play-now seat from which hand on, oldest
	// first, once it has changed hands (absent before): the score sheet
	// and a hand's record name each hand's seat by it (HeldAt).
	Holders []Holder `json:"holders,omitempty"`
}

// Holder is who held a seat from hand Hand on: a bot (Bot its number,
// Name "Bot N") or a person.
type Holder struct {
	Hand int    `json:"hand"`
	Kind string `json:"kind"`
	Name string `json:"name"`
	Bot  int    `json:"bot,omitempty"`
}

// HeldAt is seats as they were held during hand n: a seat that changed
// hands names the holder of that hand (a bot, or the person then).
func HeldAt(seats []Seat, n int) []Seat {
	out := slices.Clone(seats)
	for i, s := range out {
		for _, h := range s.Holders {
			if h.Hand > n {
				break
			}
			if h.Kind != s.Kind || h.Name != s.Name {
				out[i] = Seat{Seat: s.Seat, Kind: h.Kind, Name: h.Name, Bot: h.Bot, Taken: true, Holders: s.Holders}
			} else {
				out[i] = s
			}
		}
	}
	return out
}

// TookOver says that a person took a seat over from a bot: "took over
// from Bot 2 at 14".
type TookOver struct {
	Bot   int `json:"bot"`   // the bot's number (Seat.Bot)
	Hand  int `json:"hand"`  // the first hand the person played
	Score int `json:"score"` // the seat's match score then
}

// Table is the public description of a table: what the lobby, the
// history and every state show of it.
type Table struct {
	ID        string          `json:"id"`
	Variant   string          `json:"variant"`
	Options   json.RawMessage `json:"options"`
	TurnTimer int             `json:"turn_timer"`
	Created   time.Time       `json:"created"`
	Finished  bool            `json:"finished"`
	Closed    bool            `json:"closed"`
	Hints     bool            `json:"hints"` // players may ask for a hint now
	// AdviceOff says why hints and reviews are off when the table's own
	// setting does not: "competition" (an event's round, a daily deal or
	// a rated match under way: access.Advice); "" otherwise.
	AdviceOff string `json:"advice_off,omitempty"`
	// RecordsHidden: the table's hands (records, replays, reviews) are
	// hidden from everyone but its players until its duplicate round (a
	// daily deal's day) is over (access.HandList).
	RecordsHidden bool   `json:"records_hidden,omitempty"`
	Next          string `json:"next,omitempty"`
	Seats         []Seat `json:"seats"`
	URL           string `json:"url"`
	// Moon is the bid that is the moon (10 in ten-point and pawnee), 0
	// in auction; Teams gives each seat's fixed partnership (0 or 1)
	// where partnerships are fixed, and is absent otherwise.
	Moon  int   `json:"moon"`
	Teams []int `json:"teams,omitempty"`
	// Rated: the match changes the players' ratings (docs/ratings.md).
	Rated bool `json:"rated,omitempty"`
	// Unrated says why a rated table's match is played unrated:
	// "pair_limit" (two of its accounts have played their rated matches
	// of the game together today, docs/ratings.md); "" otherwise.
	Unrated string `json:"unrated,omitempty"`
	// Event is the ID of the event whose round the table plays
	// (docs/events.md): it has no next match of its own.
	Event string `json:"event,omitempty"`
	// Deals is how many deals a duplicate round shares among its tables
	// (a daily deal's 8) when the table deals them: its hand N is the
	// round's deal N. 0 at any other table.
	Deals int `json:"deals,omitempty"`
	// PlayNow: a play-now table (README.md "Play now"): people pressing
	// Play take over its bots' seats between hands, and a seat a person
	// leaves goes back to a bot; Pace names its turn timer.
	PlayNow bool   `json:"play_now,omitempty"`
	Pace    string `json:"pace,omitempty"`
}

// Paces are play now's turn timers by name: how long a person may take
// over a move before a bot plays it for them, in seconds.
var Paces = map[string]int{"relaxed": 60, "normal": 30, "fast": 15}

// BotNumber is the number of the bot in seat of t ("Bot 2"), counted
// from 1 in seat order among the bots. At a play-now table it stays with
// the seat whoever holds it (seat N is Bot N, seat 0 the last), so that
// people taking over and leaving do not renumber the other bots.
func BotNumber(t *store.Table, seat int) int {
	if t.PlayNow {
		if seat == 0 {
			return len(t.Seats)
		}
		return seat
	}
	n := 0
	for _, s := range t.Seats {
		if s.Kind == "bot" {
			n++
		}
		if s.Seat == seat {
			break
		}
	}
	return n
}

// Public is the public description of stored table t, which plays
// game g (nil when its options no longer parse: no moon, no teams).
func Public(t *store.Table, g *pitch.Game) Table {
	info := Table{ID: t.ID, Variant: t.Variant, Options: t.Options, TurnTimer: t.TurnTimer, Created: t.Created,
		Finished: t.Finished, Closed: t.Closed, Hints: !t.NoHints && !t.Rated, Next: t.Next, URL: "/t/" + t.ID, Rated: t.Rated}
	for _, s := range t.Seats {
		name, n := s.Name, 0
		if s.Kind == "bot" {
			n = BotNumber(t, s.Seat)
			if name == "" {
				name = "Bot " + strconv.Itoa(n)
			}
		}
		si := Seat{Seat: s.Seat, Kind: s.Kind, Level: s.Level, Name: name, Bot: n, Taken: s.Kind == "bot" || s.TokenHash != nil,
			Account: s.Account != ""}
		if s.Kind == "bot" {
			si.Rating = ratings.Bot(t.Variant, s.Level)
		}
		if s.Claim != nil {
			si.Pending = s.Claim.Name
		}
		if to := s.TookOver; to != nil && s.Kind == "human" {
			si.TookOver = &TookOver{Bot: to.Bot, Hand: to.Hand, Score: to.Score}
		}
		if len(s.Holders) > 1 {
			for _, h := range s.Holders {
				hi := Holder{Hand: h.Hand, Kind: h.Kind, Name: h.Name}
				if h.Kind == "bot" {
					hi.Bot = BotNumber(t, s.Seat)
					hi.Name = "Bot " + strconv.Itoa(hi.Bot)
				}
				si.Holders = append(si.Holders, hi)
			}
		}
		info.Seats = append(info.Seats, si)
	}
	if t.PlayNow {
		info.PlayNow = true
		for name, secs := range Paces {
			if secs == t.TurnTimer {
				info.Pace = name
			}
		}
	}
	if g != nil {
		info.Moon = g.MoonBid()
		for seat := range g.Seats() {
			if team := g.Team(seat); team >= 0 {
				info.Teams = append(info.Teams, team)
			}
		}
	}
	return info
}

// Game is the game a stored table plays: its variant and options. Tables
// with the same variant and options share one *pitch.Game (a game is
// never changed once made: rules as data), so that thousands of tables
// do not hold thousands of copies of its deal tables.
func Game(info *store.Table) (*pitch.Game, error) {
	g, err := parseGame(info)
	if err != nil {
		return nil, err
	}
	k := gameKey{g.Variant, g.Options}
	games.mu.Lock()
	defer games.mu.Unlock()
	if shared, ok := games.m[k]; ok {
		return shared, nil
	}
	if len(games.m) < maxSharedGames { // past that (options made to fill it), a game of its own
		if games.m == nil {
			games.m = map[gameKey]*pitch.Game{}
		}
		games.m[k] = g
	}
	return g, nil
}

// gameKey is what makes two games the same.
type gameKey struct {
	v pitch.Variant
	o pitch.Options
}

// maxSharedGames bounds games: targets and options are the creator's
// choice, and a map of every choice ever made would grow without end.
const maxSharedGames = 256

// games holds one *pitch.Game for each variant and options met, up to
// maxSharedGames.
var games struct {
	mu sync.Mutex
	m  map[gameKey]*pitch.Game
}

// parseGame is the game info plays, made anew.
func parseGame(info *store.Table) (*pitch.Game, error) {
	var opts map[string]json.RawMessage
	if len(info.Options) > 0 {
		if err := json.Unmarshal(info.Options, &opts); err != nil {
			return nil, fmt.Errorf("table %s: options: %w", info.ID, err)
		}
	}
	v, err := pitch.ParseVariant(info.Variant)
	if err != nil {
		return nil, err
	}
	return pitch.ParseOptions(v, opts)
}
