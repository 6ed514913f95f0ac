// Package eventview holds what an event of many tables shows (docs/events.md,
// docs/protocol.md, Events): the JSON its runtime (server/play) builds, for
// the followers of an event's WebSocket, and its HTTP side
// (server/eventapi, server/daily) answers with.
package eventview

import (
	"time"

	"pitch/event"
)

// Event is what anyone may see of an event.
type Event struct {
	ID       string         `json:"id"`
	Settings event.Settings `json:"settings"`
	State    string         `json:"state"` // waiting (for the first round), playing, between (rounds), over
	Round    int            `json:"round"` // rounds started
	Started  *time.Time     `json:"started,omitempty"`
	EndsAt   *time.Time     `json:"ends_at,omitempty"` // the round in progress's clock
	// LeftMS is how long the round in progress has left on its clock when
	// this was sent (absent without a clock); while Paused it stands still.
	LeftMS *int64 `json:"left_ms,omitempty"`
	Paused bool   `json:"paused,omitempty"` // the host paused the round in progress
	Ended  bool   `json:"ended,omitempty"`  // the host ended the event: no round after the one in progress
	// Teams: the game has fixed partnerships, seated alternately (seats
	// 0 and 2 against 1 and 3: event.Settings.Teams); pawnee's partners
	// change every hand.
	Teams bool `json:"teams"`
	// Tables is how many tables the latest round has, or before the
	// first round how many the people who have joined would fill.
	Tables  int       `json:"tables"`
	Entries []Entry   `json:"entries"`
	People  int       `json:"people"` // how many have joined (entries, even where they are left out)
	Rounds  [][]Table `json:"rounds"` // per round, its tables, head table first
	// Byes holds, per round, the entries who sat it out (Settings.Fill
	// "byes"), in the order they were chosen; an empty list for a round
	// nobody sat out.
	Byes [][]int `json:"byes"`
	// ByeNames are their names, as Byes (a phone has no list of people).
	ByeNames [][]string `json:"bye_names"`
	// Stand is the standings after the rounds every table of which has
	// finished (StandAfter of them): while a round is played the
	// standings are those after the round before, and the tables show
	// the results as they come (a solo event's one round counts each
	// table as it finishes). StandCount is how many people they rank,
	// even where Stand is cut short.
	Stand      []event.Standing `json:"standings"`
	StandAfter int              `json:"standings_after"`
	StandCount int              `json:"standings_count"`
	// MP, at a duplicate event, holds each round's results compared on
	// the same cards (event.Matchpoints).
	MP [][]event.MP `json:"matchpoints,omitempty"`
	// Commitments, at a duplicate event, holds each round's commitments
	// to its deals, in order, published when the round began: every
	// table of the round is dealt hand k from the k-th.
	Commitments [][]string `json:"commitments,omitempty"`
	// Closed: a solo event takes no more players (play/duplicate.go).
	Closed bool `json:"closed,omitempty"`
}

// Entry is one person in an event.
type Entry struct {
	Entry  int    `json:"entry"`
	Name   string `json:"name"`
	Joined int    `json:"joined"` // the first round they play (0 for the first)
	Left   int    `json:"left"`   // -1, or the first round they are not seated in (at an event of settings without "fill", a bot plays for them)
	// Withdrawn: the host withdrew them (a no-show; the director's desk).
	Withdrawn bool `json:"withdrawn,omitempty"`
	// MergedInto: the host merged this entry into that one (the same
	// person joined twice); it is seated nowhere and in no standings.
	MergedInto *int `json:"merged_into,omitempty"`
}

// Table is one table of an event's round.
type Table struct {
	Table  string        `json:"table"` // the table's ID: /t/ID watches it
	Seats  []Seat        `json:"seats"`
	Result *event.Result `json:"result,omitempty"`
	Winner []int         `json:"winners,omitempty"` // the seats that won the table (its side, or the first half)
	// Adjusted: the host corrected the result (Result holds the corrected
	// scores), with the scores before and the reason.
	Adjusted *event.Adjustment `json:"adjusted,omitempty"`
}

// Seat is one seat of an event's table.
type Seat struct {
	Entry int    `json:"entry"` // -1 for a bot
	Name  string `json:"name"`
	Bot   bool   `json:"bot,omitempty"` // a bot holds the seat (filling a gap, or for someone who left)
	// BotNo numbers the table's bot seats from 1 in seat order, as the
	// table itself names them ("Bot 1" … "Bot N": tableinfo); 0 for a
	// person. A bot filling a gap has no name: the pages call it by this.
	BotNo int `json:"bot_no,omitempty"`
	// From is the table (1 for the head table) where this person sat in
	// the round before; absent in the first round, for bots and for
	// people who did not play it: who has moved where.
	From int `json:"from,omitempty"`
	// Withdrawn: the host withdrew this person (a bot plays their seat).
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// MySeat tells a person where they sit now.
type MySeat struct {
	Entry     int    `json:"entry"`
	Name      string `json:"name"`
	Round     int    `json:"round"`           // the round they are seated in (1 for the first); 0 for none yet
	Table     string `json:"table,omitempty"` // the table's ID
	TableNo   int    `json:"table_no,omitempty"`
	Seat      int    `json:"seat"`
	SeatToken string `json:"seat_token,omitempty"` // the token to say hello with at the table
	Left      bool   `json:"left,omitempty"`
	Done      bool   `json:"done,omitempty"` // their table of the round has finished
	// Bye: they sit out round Round (no table); the page says so.
	Bye bool `json:"bye,omitempty"`
	// Standing is their line of the standings (Event.Stand), once they
	// have one.
	Standing *event.Standing `json:"standing,omitempty"`
}

// Refusal is a connection to one of an event's tables, or to its page,
// that a limit of the server refused: its host is told (never a silent
// stand-in).
type Refusal struct {
	At     time.Time `json:"at"`
	Round  int       `json:"round,omitempty"` // the round (1 for the first); 0 for the event's page
	Table  int       `json:"table,omitempty"` // the table (1 for the head table); 0 for the event's page
	Seat   int       `json:"seat"`            // the seat, -1 when not known (refused before it said whose)
	Name   string    `json:"name,omitempty"`  // who sits there, when known
	Reason string    `json:"reason"`          // the reason the connection was given
}

// PhoneTop is how many standings a phone is sent (Phone).
const PhoneTop = 10

// Phone returns the part of v a person's page on a phone is sent as
// the event goes (docs/events.md, "Live updates"): the latest round's
// tables (earlier rounds' lists empty; results without each hand's
// changes), the first PhoneTop standings
// (their own line comes in MySeat), no list of people (People counts
// them) and no matchpoints. The board and the host are sent v whole.
func Phone(v Event) Event {
	p := v
	p.Entries = []Entry{}
	p.Rounds = make([][]Table, len(v.Rounds))
	for r := range p.Rounds {
		p.Rounds[r] = []Table{}
	}
	if n := len(v.Rounds); n > 0 {
		// The tables' scores and winners, not each hand's changes.
		p.Rounds[n-1] = make([]Table, len(v.Rounds[n-1]))
		for i, t := range v.Rounds[n-1] {
			if t.Result != nil {
				res := *t.Result
				res.Hands = nil
				t.Result = &res
			}
			p.Rounds[n-1][i] = t
		}
	}
	p.Stand = v.Stand[:min(len(v.Stand), PhoneTop)]
	p.MP = nil
	return p
}

// BotNumbers numbers the bot seats of a table from 1 in seat order (the
// numbers the table gives its bots, tableinfo.Public), 0 for a person:
// bots[i] says whether a bot holds seat i.
func BotNumbers(bots []bool) []int {
	out := make([]int, len(bots))
	n := 0
	for i, b := range bots {
		if b {
			n++
			out[i] = n
		}
	}
	return out
}
