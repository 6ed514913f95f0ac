package event

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"pitch"
)

// Bot is the entry number of a seat held by a bot that fills a gap.
const Bot = -1

// Entry is one person in an event.
type Entry struct {
	Name string `json:"name"`
	// Joined is the first round the entry plays (0 for the first):
	// someone who joins while a round is played enters at the next one.
	Joined int `json:"joined"`
	// Left is -1 while the entry plays. Once they leave it is the first
	// round whose results no longer count for them: from it on a bot holds
	// their place in the movement. The round in progress when they left is
	// finished by a stand-in and counts. Left <= Joined: removed before
	// playing, seated nowhere.
	Left int `json:"left"`
	// Unranked: the entry plays the deals but is not ranked (a guest at
	// a daily deal): its results are compared with nobody's, and it has
	// no place in the standings.
	Unranked bool `json:"unranked,omitempty"`
	// Withdrawn: the host withdrew them (a no-show; Withdraw). Left is
	// set as for a leaver.
	Withdrawn bool `json:"withdrawn,omitempty"`
	// MergedInto: the host merged this entry into another (the same
	// person joined twice; Merge): its seats are the other's, and it is
	// seated nowhere and in no standings.
	MergedInto *int `json:"merged_into,omitempty"`
}

// Result is how one table's round came out.
type Result struct {
	Scores []int   `json:"scores"`           // each seat's match score at the end of the round
	Hands  [][]int `json:"hands,omitempty"`  // each finished hand's change of score, per seat, in order
	Winner []int   `json:"winner,omitempty"` // the seats that won the match, when it ended
}

// Table is one table of a round.
type Table struct {
	Seats  []int   `json:"seats"`            // the entry at each seat, or Bot
	Result *Result `json:"result,omitempty"` // nil until the table's round is over
	// Adjusted: the host corrected the table's result (Adjust); Result
	// holds the corrected scores.
	Adjusted *Adjustment `json:"adjusted,omitempty"`
}

// Adjustment is the host's correction of a table's result.
type Adjustment struct {
	Was    []int  `json:"was"`    // the scores the table had before its first correction
	Reason string `json:"reason"` // the latest correction's reason, shown on the standings
}

// Round is one round: its tables, head table first, and who sat it out.
type Round struct {
	Tables []Table `json:"tables"`
	// Byes are the entries who sat out the round (Settings.Fill
	// FillByes), in the order they were chosen.
	Byes []int `json:"byes,omitempty"`
}

// Done reports whether every table of the round has its result.
func (r *Round) Done() bool {
	for _, t := range r.Tables {
		if t.Result == nil {
			return false
		}
	}
	return true
}

// Event is an event's settings, its people and its rounds so far. Its
// methods are deterministic: the seed decides every random choice.
type Event struct {
	Settings Settings `json:"settings"`
	Seed     uint64   `json:"seed"`
	Entries  []Entry  `json:"entries"`
	Rounds   []Round  `json:"rounds"`
	// Closed: a solo event takes no more players (Close); it is over once
	// every table that began has finished.
	Closed bool `json:"closed,omitempty"`
	// Ended: the host ended the event early (End). The round in progress
	// is finished and counts; no other round is seated.
	Ended bool `json:"ended,omitempty"`
	// Log is the host's desk actions, in order (desk.go).
	Log []LogEntry `json:"log,omitempty"`
}

// Errors of the event's steps.
var (
	ErrOver       = errors.New("the event is over")
	ErrRoundOpen  = errors.New("the round in progress is not over: every table must finish first")
	ErrNoPlayers  = errors.New("nobody has joined the event yet")
	ErrFull       = fmt.Errorf("the event is full: at most %d people", MaxPlayers)
	ErrNoSuchSeat = errors.New("no such table or seat in this round")
	ErrNotSolo    = errors.New("this is not a solo event: the host seats every round")
	ErrPlayed     = errors.New("you have played this event already: one try each")
	ErrClosed     = errors.New("the event is closed: it takes no more players")
	ErrEnded      = errors.New("the host has ended the event: no other round is played")
	// ErrTooFew: with byes, too few people for even one table (the
	// error that wraps it says how many are needed).
	ErrTooFew = errors.New("too few people for one table")
)

// New starts an event with checked settings s.
func New(s Settings, seed uint64) (*Event, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	return &Event{Settings: s, Seed: seed, Entries: []Entry{}, Rounds: []Round{}}, nil
}

// Over reports whether every round has been played, or the host ended
// the event and the round in progress has finished.
func (e *Event) Over() bool {
	n := len(e.Rounds)
	if n > 0 && !e.Rounds[n-1].Done() {
		return false
	}
	if e.Settings.Solo && !e.Closed {
		return false // a solo event takes players until it is closed
	}
	return e.Ended || n == e.Settings.Rounds
}

// RoundOver reports whether round r is over: every table has its result
// (and, at a solo event, the event is closed, so no table will begin).
// Until then a duplicate round's cards and replays are not shown to
// anyone but the table that plays them.
func (e *Event) RoundOver(r int) bool {
	if r < 0 || r >= len(e.Rounds) {
		return false
	}
	return e.Rounds[r].Done() && (e.Closed || !e.Settings.Solo)
}

// Sit gives entry i of a solo event their table: the round's deals, alone
// with bots at the other seats (seat 0 theirs). It returns the table's
// index. One table each: a second is refused (ErrPlayed).
func (e *Event) Sit(i int) (int, error) {
	switch {
	case !e.Settings.Solo:
		return 0, ErrNotSolo
	case e.Closed:
		return 0, ErrClosed
	case len(e.Rounds) == 0:
		return 0, errors.New("the event has not opened yet: the host opens it")
	case i < 0 || i >= len(e.Entries):
		return 0, fmt.Errorf("no entry %d: entries are 0 to %d", i, len(e.Entries)-1)
	case e.Entries[i].Left >= 0:
		return 0, fmt.Errorf("%s has left the event", e.Entries[i].Name)
	case e.Entries[i].MergedInto != nil:
		return 0, e.active(i)
	}
	if _, _, ok := e.Seated(i); ok {
		return 0, ErrPlayed
	}
	seats := make([]int, e.Settings.SoloSize())
	for s := range seats {
		seats[s] = Bot
	}
	seats[0] = i
	r := &e.Rounds[0]
	r.Tables = append(r.Tables, Table{Seats: seats})
	return len(r.Tables) - 1, nil
}

// Close stops a solo event from taking more players: it is over once the
// tables that began have finished.
func (e *Event) Close() error {
	if !e.Settings.Solo {
		return ErrNotSolo
	}
	e.Closed = true
	return nil
}

// End ends the event early: the round in progress, if any, is finished
// and counts, and no other round is seated (a solo event is closed).
func (e *Event) End() error {
	if e.Over() {
		return ErrOver
	}
	if e.Ended {
		return ErrEnded
	}
	e.Ended = true
	e.Closed = e.Closed || e.Settings.Solo
	return nil
}

// Join adds a person, who plays from the next round to be seated, and
// returns their entry number.
func (e *Event) Join(name string) (int, error) {
	if e.Ended {
		return 0, ErrEnded
	}
	if e.Settings.Solo {
		// Everyone plays the one round, whenever they like.
		if e.Closed {
			return 0, ErrClosed
		}
		if len(e.Entries) >= MaxSolo {
			return 0, fmt.Errorf("the event is full: at most %d people", MaxSolo)
		}
		e.Entries = append(e.Entries, Entry{Name: name, Left: -1})
		return len(e.Entries) - 1, nil
	}
	if len(e.Rounds) == e.Settings.Rounds {
		return 0, fmt.Errorf("%w: every round has been seated", ErrOver)
	}
	if len(e.Entries) >= MaxPlayers {
		return 0, ErrFull
	}
	e.Entries = append(e.Entries, Entry{Name: name, Joined: len(e.Rounds), Left: -1})
	return len(e.Entries) - 1, nil
}

// Leave takes entry i out of the event: a bot holds their place from the
// next round on, and their results so far stay (Entry.Left).
func (e *Event) Leave(i int) error {
	if err := e.active(i); err != nil {
		return err
	}
	e.Entries[i].Left = len(e.Rounds)
	return nil
}

// active returns an error unless entry i exists, plays, and was not
// merged into another.
func (e *Event) active(i int) error {
	if i < 0 || i >= len(e.Entries) {
		return fmt.Errorf("no entry %d: entries are 0 to %d", i, len(e.Entries)-1)
	}
	en := e.Entries[i]
	switch {
	case en.MergedInto != nil:
		return fmt.Errorf("%s was merged into %s", en.Name, e.Entries[*en.MergedInto].Name)
	case en.Left >= 0:
		return fmt.Errorf("%s has left already", en.Name)
	}
	return nil
}

// removed reports whether entry i left before playing a round, or was
// merged into another entry.
func (e *Event) removed(i int) bool {
	en := e.Entries[i]
	return (en.Left >= 0 && en.Left <= en.Joined) || en.MergedInto != nil
}

// Resolve returns the entry that entry i is now: the one it was merged
// into (Merge), or i.
func (e *Event) Resolve(i int) int {
	for k := 0; i >= 0 && i < len(e.Entries) && e.Entries[i].MergedInto != nil && k < len(e.Entries); k++ {
		i = *e.Entries[i].MergedInto
	}
	return i
}

// unranked reports whether a person at table t plays unranked: its
// results are left out of every comparison.
func (e *Event) unranked(t *Table) bool {
	for _, i := range t.Seats {
		if i >= 0 && i < len(e.Entries) && e.Entries[i].Unranked {
			return true
		}
	}
	return false
}

// Counts reports whether entry i's result in round r counts for them:
// they had joined and not yet left.
func (e *Event) Counts(i, r int) bool {
	en := e.Entries[i]
	return r >= en.Joined && (en.Left < 0 || r < en.Left)
}

// BotPlays reports whether a bot holds entry i's seat in round r (they
// have left).
func (e *Event) BotPlays(i, r int) bool {
	en := e.Entries[i]
	return en.Left >= 0 && r >= en.Left
}

// entrants returns the entries seated in round r, in entry order: those
// who joined by then and did not leave before playing.
func (e *Event) entrants(r int) []int {
	var ids []int
	for i, en := range e.Entries {
		if en.Joined <= r && !e.removed(i) {
			ids = append(ids, i)
		}
	}
	return ids
}

// SitsOut reports whether entry i sits out round r (a bye).
func (e *Event) SitsOut(i, r int) bool {
	return r >= 0 && r < len(e.Rounds) && slices.Contains(e.Rounds[r].Byes, i)
}

// Seated reports which round and table entry i is at in the latest round
// and at which seat; ok is false when they are not seated in it.
func (e *Event) Seated(i int) (table, seat int, ok bool) {
	if len(e.Rounds) == 0 {
		return 0, 0, false
	}
	for ti, t := range e.Rounds[len(e.Rounds)-1].Tables {
		for si, id := range t.Seats {
			if id == i {
				return ti, si, true
			}
		}
	}
	return 0, 0, false
}

// NextRound seats the next round by the event's movement and appends it.
func (e *Event) NextRound() (*Round, error) {
	r := len(e.Rounds)
	if e.Ended {
		return nil, ErrEnded
	}
	if r > 0 && !e.Rounds[r-1].Done() { // first: the last round too is open until done
		return nil, ErrRoundOpen
	}
	if r == e.Settings.Rounds {
		return nil, ErrOver
	}
	ids := e.entrants(r)
	if len(ids) == 0 && !e.Settings.Solo {
		return nil, ErrNoPlayers
	}
	var tables []Table
	var byes []int
	switch {
	case e.Settings.Solo:
		tables = []Table{} // each person's table begins when they sit (Sit)
	case e.Settings.Fill != FillLegacy:
		var err error
		if tables, byes, err = e.seatRound(r); err != nil {
			return nil, err
		}
	case e.Settings.Movement == Progressive && r > 0:
		tables = e.progress(r, ids)
	case e.Settings.Movement == Progressive:
		tables = spread(shuffled(ids, e.rng(r)), e.Settings.TableSizes(len(ids)))
	default:
		tables = e.mix(r, ids)
	}
	e.Rounds = append(e.Rounds, Round{Tables: tables, Byes: byes})
	return &e.Rounds[r], nil
}

// Record sets the result of table t of round r.
func (e *Event) Record(r, t int, res Result) error {
	if r < 0 || r >= len(e.Rounds) || t < 0 || t >= len(e.Rounds[r].Tables) {
		return ErrNoSuchSeat
	}
	tab := &e.Rounds[r].Tables[t]
	n := len(tab.Seats)
	if len(res.Scores) != n {
		return fmt.Errorf("table %d of round %d has %d seats: a result needs %d scores, not %d", t+1, r+1, n, n, len(res.Scores))
	}
	for i, h := range res.Hands {
		if len(h) != n {
			return fmt.Errorf("hand %d of table %d has %d changes of score, not %d", i+1, t+1, len(h), n)
		}
	}
	for _, w := range res.Winner {
		if w < 0 || w >= n {
			return fmt.Errorf("winner seat %d is not a seat of table %d", w, t+1)
		}
	}
	tab.Result = &res
	return nil
}

// DealSeed is the seed that deals every table of size seats in round r
// of a duplicate event: the same seed, so the same deals in the same
// order, at each of them.
func (e *Event) DealSeed(r, seats int) uint64 {
	return pitch.Mix(pitch.Mix(e.Seed, uint64(r)+1), uint64(seats))
}

// rng is the generator of round r's random choices.
func (e *Event) rng(r int) *rand.Rand {
	return pitch.NewRand(pitch.Mix(e.Seed^0x6576656e74, uint64(r)))
}
