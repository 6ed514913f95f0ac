package play

// Hints: the options a strong player weighs, for the seat to act, at
// tables whose hints are on.

import (
	"encoding/json"
	"sort"

	"pitch"
	"pitch/bot"
)

// hintWorlds is how many worlds a hint weighs: enough to rank the options
// well, little enough to answer in a fraction of a second.
const hintWorlds = 200

// hintMsg answers a hint request: the search bot's view of the options for
// the seat to act, best first, from that seat's knowledge only.
type hintMsg struct {
	Type    string       `json:"type"` // "hint"
	Seq     int          `json:"seq"`  // the state it is for
	Worlds  int          `json:"worlds"`
	Options []hintOption `json:"options"`
}

type hintOption struct {
	Action json.RawMessage `json:"action"`
	Text   string          `json:"text"`
	Value  float64         `json:"value"`          // expected points for the seat's side this hand
	Make   *float64        `json:"make,omitempty"` // bids: the chance to make it, when won
}

// maxHintOptions is how many options a hint lists.
const maxHintOptions = 6

// hint answers a seated player's request for a hint on its own decision.
// The analysis runs outside the table's lock, a few at once server-wide, so
// that hints never slow play.
func (c *conn) hint(t *table) {
	fail := func(code, msg string) { c.sendJSON(errorCode(code, msg, nil)) }
	if c.seat < 0 {
		fail("hint_spectator", "spectators may not ask for hints")
		return
	}
	t.mu.Lock()
	s := t.match.State()
	switch {
	case t.info.NoHints:
		t.mu.Unlock()
		fail("hints_off", "hints are turned off at this table")
		return
	case !t.advice():
		t.mu.Unlock()
		fail("hints_competition", "no hints at a competition (an event, a daily deal, a rated match) until it is over")
		return
	case t.over() || !t.full() || s.Turn() != c.seat:
		t.mu.Unlock()
		fail("hint_turn", "a hint is for your own decision: it is not your turn")
		return
	}
	v := s.View(c.seat) // the seat's knowledge, nothing more
	legal := s.Legal(nil)
	seq, seed := t.seq, t.info.Seed
	t.mu.Unlock()

	select {
	case t.srv.hints <- struct{}{}:
		defer func() { <-t.srv.hints }()
	default:
		fail("hint_busy", "the server is busy with other hints: try again in a moment")
		return
	}
	b := &bot.Search{Worlds: hintWorlds}
	opts := b.Analyze(bot.Request{View: &v, Legal: legal, Rand: pitch.NewRand(seed ^ uint64(seq+1)*0x85ebca77c2b2ae63)})
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].Value > opts[j].Value })
	m := hintMsg{Type: "hint", Seq: seq, Worlds: hintWorlds, Options: []hintOption{}}
	for i, o := range opts {
		if i == maxHintOptions {
			break
		}
		raw, _ := json.Marshal(o.Action)
		h := hintOption{Action: raw, Text: o.Action.String(), Value: o.Value}
		if o.Action.Kind == pitch.ActBid && o.Won > 0 {
			mk := o.Made
			h.Make = &mk
		}
		m.Options = append(m.Options, h)
	}
	c.sendJSON(m)
}

// maxHints is how many hints the server works out at once; more are
// refused with "busy" rather than queued behind play.
const maxHints = 2
