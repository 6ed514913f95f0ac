package event

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The director's desk: what the host may change by hand (docs/events.md,
// The director's desk). Each action checks everything before it changes
// anything, so a refused one leaves the event as it was, and appends a
// LogEntry. The event package reads no clock: the server stamps each
// entry's time (LogEntry.At) as it stores the change.

// The desk's actions, as LogEntry.Action names them.
const (
	ActAdd      = "add"      // a late entry added by the host
	ActRename   = "rename"   // an entry renamed
	ActMerge    = "merge"    // a double entry merged into the other
	ActWithdraw = "withdraw" // a no-show withdrawn
	ActAdjust   = "adjust"   // a table's result corrected
)

// MaxReason is the longest reason for an adjustment, in characters.
const MaxReason = 200

// MaxAdjustedScore bounds an adjusted score (either sign).
const MaxAdjustedScore = 9999

// LogEntry is one desk action.
type LogEntry struct {
	At     time.Time `json:"at"`     // when the server stored it
	Action string    `json:"action"` // ActAdd, ActRename, ActMerge, ActWithdraw, ActAdjust
	Entry  int       `json:"entry"`  // whom (adjust: -1)
	Into   int       `json:"into"`   // merge: the entry merged into; else -1
	Name   string    `json:"name,omitempty"`
	Was    string    `json:"was,omitempty"`   // rename: the name before
	Round  int       `json:"round,omitempty"` // adjust: the round (1 for the first); withdraw: the round they no longer play from
	Table  int       `json:"table,omitempty"` // adjust: the table (1 for the head table)
	Scores []int     `json:"scores,omitempty"`
	Before []int     `json:"before,omitempty"` // adjust: the scores before
	Reason string    `json:"reason,omitempty"`
}

func (e *Event) log(l LogEntry) { e.Log = append(e.Log, l) }

// Refusal is a desk action (or a round, ErrTooFew) refused: Code names
// the reason, as the server's error code, Params its details, and the
// message says what was wrong and what is allowed.
type Refusal struct {
	Code   string
	Params map[string]any
	Msg    string
	Err    error // the sentinel it wraps, if any
}

// Error is the refusal's message: what was wrong and what is allowed.
func (r *Refusal) Error() string { return r.Msg }

// Unwrap is the sentinel the refusal wraps (ErrTooFew), or nil.
func (r *Refusal) Unwrap() error { return r.Err }

// refuse is a Refusal of code with params.
func refuse(code string, params map[string]any, format string, args ...any) error {
	return &Refusal{Code: code, Params: params, Msg: fmt.Sprintf(format, args...)}
}

// AddLate adds a person by the host's hand (a late entry): they play
// from the next round to be seated, as if they had joined.
func (e *Event) AddLate(name string) (int, error) {
	i, err := e.Join(name)
	if err != nil {
		return 0, err
	}
	e.log(LogEntry{Action: ActAdd, Entry: i, Into: -1, Name: name, Round: e.Entries[i].Joined + 1})
	return i, nil
}

// entry returns an error unless i is an entry that was not merged away.
func (e *Event) entry(i int) error {
	if i < 0 || i >= len(e.Entries) {
		if len(e.Entries) == 0 {
			return refuse("desk_no_entry", nil, "no entry %d: nobody has joined", i)
		}
		return refuse("desk_no_entry", nil, "no entry %d: entries are 0 to %d", i, len(e.Entries)-1)
	}
	if m := e.Entries[i].MergedInto; m != nil {
		return refuse("desk_merged", map[string]any{"Name": e.Entries[i].Name, "Into": e.Entries[*m].Name},
			"%s was merged into %s: act on that entry", e.Entries[i].Name, e.Entries[*m].Name)
	}
	return nil
}

// Rename gives entry i a new name (checked by the caller: the server
// allows what a join does).
func (e *Event) Rename(i int, name string) error {
	if err := e.entry(i); err != nil {
		return err
	}
	was := e.Entries[i].Name
	if was == name {
		return refuse("desk_same_name", nil, "entry %d is called %s already", i, name)
	}
	e.Entries[i].Name = name
	e.log(LogEntry{Action: ActRename, Entry: i, Into: -1, Name: name, Was: was})
	return nil
}

// rounds returns the rounds entry i was seated at a table in.
func (e *Event) seatedRounds(i int) map[int]bool {
	in := map[int]bool{}
	for r, round := range e.Rounds {
		for _, t := range round.Tables {
			if slices.Contains(t.Seats, i) {
				in[r] = true
			}
		}
	}
	return in
}

// Merge merges entry a into entry b: the same person joined twice. They
// must never have been seated in the same round. a's seats and results
// become b's (a bye of one in a round the other played is dropped; two
// byes in one round are one), b's first round is the earlier of the two,
// and b plays on if either did; a is seated nowhere again, is in no
// standings, and its token is b's from now on (Resolve). An entry at a
// table still playing cannot be merged away: its seat's token is its
// own until the table finishes.
func (e *Event) Merge(a, b int) error {
	if err := e.entry(a); err != nil {
		return err
	}
	if err := e.entry(b); err != nil {
		return err
	}
	A, B := e.Entries[a], e.Entries[b]
	if a == b {
		return refuse("desk_merge_self", nil, "an entry cannot be merged into itself: choose two entries of the same person")
	}
	if A.Unranked != B.Unranked {
		return refuse("desk_merge_kind", nil, "%s and %s are not both ranked: only entries of the same kind merge", A.Name, B.Name)
	}
	ra, rb := e.seatedRounds(a), e.seatedRounds(b)
	for r := range len(e.Rounds) {
		if ra[r] && rb[r] {
			return refuse("desk_merge_same_round", map[string]any{"A": A.Name, "B": B.Name, "Round": r + 1},
				"%s and %s were both seated in round %d: they are two people, not one who joined twice", A.Name, B.Name, r+1)
		}
		for _, x := range []struct {
			i  int
			in bool
		}{{a, ra[r]}, {b, rb[r]}} {
			if x.in && !e.Counts(x.i, r) {
				return refuse("desk_merge_bot", map[string]any{"Name": e.Entries[x.i].Name, "Round": r + 1},
					"a bot played %s's seat in round %d, after they left: that result is nobody's, so they cannot be merged", e.Entries[x.i].Name, r+1)
			}
		}
	}
	if n := len(e.Rounds); n > 0 {
		for ti, t := range e.Rounds[n-1].Tables {
			if t.Result == nil && slices.Contains(t.Seats, a) {
				return refuse("desk_merge_playing", map[string]any{"Name": A.Name, "Table": ti + 1, "Round": n},
					"%s is playing table %d of round %d: merge them once it finishes", A.Name, ti+1, n)
			}
		}
	}
	for r := range e.Rounds {
		round := &e.Rounds[r]
		for ti := range round.Tables {
			for s, id := range round.Tables[ti].Seats {
				if id == a {
					round.Tables[ti].Seats[s] = b
				}
			}
		}
		var byes []int
		for _, id := range round.Byes {
			switch {
			case id == a && (rb[r] || slices.Contains(round.Byes, b)):
				continue // b played the round, or sat it out already
			case id == a:
				id = b
			case id == b && ra[r]:
				continue // b's bye, where a played: a's seat is b's now
			}
			byes = append(byes, id)
		}
		round.Byes = byes
	}
	nb := &e.Entries[b]
	nb.Joined = min(A.Joined, B.Joined)
	switch {
	case A.Left < 0 || B.Left < 0:
		nb.Left = -1
		nb.Withdrawn = false
	default:
		nb.Left = max(A.Left, B.Left)
	}
	into := b
	e.Entries[a].MergedInto = &into
	e.log(LogEntry{Action: ActMerge, Entry: a, Into: b, Name: A.Name})
	return nil
}

// Withdraw takes out entry i, a no-show, marked as withdrawn. Between
// rounds, and when their table of the round in play has finished, they
// are not seated from the next round (as a leaver: under FillByes their
// place is nobody's, under FillBots a bot fills the gap at the bottom).
// At a table still playing, the round in play no longer counts for them
// either: a bot plays their seat (the server's stand-in) and its result
// is not theirs.
func (e *Event) Withdraw(i int) (int, error) {
	if err := e.entry(i); err != nil {
		return 0, err
	}
	if e.Entries[i].Left >= 0 {
		return 0, refuse("desk_left", map[string]any{"Name": e.Entries[i].Name}, "%s has left the event already", e.Entries[i].Name)
	}
	from := len(e.Rounds)
	if n := len(e.Rounds); n > 0 && n-1 >= e.Entries[i].Joined {
		for _, t := range e.Rounds[n-1].Tables {
			if t.Result == nil && slices.Contains(t.Seats, i) {
				from = n - 1
			}
		}
	}
	e.Entries[i].Left, e.Entries[i].Withdrawn = from, true
	e.log(LogEntry{Action: ActWithdraw, Entry: i, Into: -1, Name: e.Entries[i].Name, Round: from + 1})
	return from, nil
}

// CheckReason cleans the reason of an adjustment: 1 to MaxReason
// printable characters once trimmed.
func CheckReason(reason string) (string, error) {
	if !utf8.ValidString(reason) {
		return "", refuse("bad_reason", map[string]any{"Max": MaxReason}, "a reason must be valid UTF-8 text")
	}
	reason = strings.TrimSpace(reason)
	if n := utf8.RuneCountInString(reason); n < 1 || n > MaxReason {
		return "", refuse("bad_reason", map[string]any{"Max": MaxReason}, "an adjustment needs a reason of 1 to %d characters, shown on the standings; not %d", MaxReason, n)
	}
	for _, r := range reason {
		if !unicode.IsPrint(r) || r == utf8.RuneError {
			return "", refuse("bad_reason", map[string]any{"Max": MaxReason}, "a reason may hold only printable characters, not %U", r)
		}
	}
	return reason, nil
}

// Adjust corrects the result of table t (from 0) of round r (from 0),
// finished, to the final scores given, for reason (CheckReason). The
// table is then ranked by the corrected scores (the match's winners are
// set aside), for the standings and for the movement of any round not
// yet seated. At a game of fixed partnerships partners share a score. A
// duplicate table is compared deal by deal, so it is not adjusted.
func (e *Event) Adjust(r, t int, scores []int, reason string) error {
	reason, err := CheckReason(reason)
	if err != nil {
		return err
	}
	if e.Settings.Movement == Duplicate {
		return refuse("desk_duplicate", nil, "a duplicate table's results are compared deal by deal with the other tables': only a progressive or mixed table's result can be adjusted")
	}
	if r < 0 || r >= len(e.Rounds) {
		return refuse("desk_no_table", nil, "no round %d: the rounds seated are 1 to %d", r+1, len(e.Rounds))
	}
	if t < 0 || t >= len(e.Rounds[r].Tables) {
		return refuse("desk_no_table", nil, "no table %d in round %d: its tables are 1 to %d", t+1, r+1, len(e.Rounds[r].Tables))
	}
	tab := &e.Rounds[r].Tables[t]
	n := len(tab.Seats)
	if tab.Result == nil {
		return refuse("desk_not_finished", map[string]any{"Table": t + 1, "Round": r + 1},
			"table %d of round %d has not finished: only a finished table's result can be adjusted", t+1, r+1)
	}
	if len(scores) != n {
		return refuse("desk_scores", nil, "table %d of round %d has %d seats: give %d scores, one a seat, not %d", t+1, r+1, n, n, len(scores))
	}
	for s, x := range scores {
		if x < -MaxAdjustedScore || x > MaxAdjustedScore {
			return refuse("desk_scores", nil, "seat %d's score %d is out of range: scores are %d to %d", s+1, x, -MaxAdjustedScore, MaxAdjustedScore)
		}
	}
	if e.Settings.Teams() && n%2 == 0 {
		for s := range n {
			if scores[s] != scores[s%2] {
				return refuse("desk_scores", nil, "partners share their side's score: seats %d and %d have %d and %d", s%2+1, s+1, scores[s%2], scores[s])
			}
		}
	}
	if slices.Equal(scores, tab.Result.Scores) {
		return refuse("desk_scores", nil, "table %d of round %d has these scores already: nothing to adjust", t+1, r+1)
	}
	before := slices.Clone(tab.Result.Scores)
	res := *tab.Result
	res.Scores, res.Winner = slices.Clone(scores), nil
	tab.Result = &res
	if tab.Adjusted == nil {
		tab.Adjusted = &Adjustment{Was: before}
	}
	tab.Adjusted.Reason = reason
	e.log(LogEntry{Action: ActAdjust, Entry: -1, Into: -1, Round: r + 1, Table: t + 1, Scores: slices.Clone(scores), Before: before, Reason: reason})
	return nil
}
