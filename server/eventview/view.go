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
	LeftMS  *int64    `json:"left_ms,omitempty"`
	Paused  bool      `json:"paused,omitempty"` // the host paused the round in progress
	Ended   bool      `json:"ended,omitempty"`  // the host ended the event: no round after the one in progress
	Entries []Entry   `json:"entries"`
	Rounds  [][]Table `json:"rounds"` // per round, its tables, head table first
	// Byes holds, per round, the entries who sat it out (Settings.Fill
	// "byes"), in the order they were chosen; an empty list for a round
	// nobody sat out.
	Byes  [][]int          `json:"byes"`
	Stand []event.Standing `json:"standings"`
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
	Bot   bool   `json:"bot"` // a bot holds the seat (filling a gap, or for someone who left)
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
}
