// Package access is the one place that decides who may see what on the
// server. Like pitch.View for the cards of a hand, Decide answers, for
// every resource a route serves — a table's live state, each hand record
// and its replay and review, the match download, the history listing,
// an event and its tables and deals, the daily deals, profiles, an
// account's export — whether this viewer may see it now.
//
// Decide is pure: it does no I/O and reads no clock. A handler gathers
// the facts (the Viewer and the Subject: what the resource is part of
// and the moment it is at) and asks; it never decides on its own. Ask is
// Decide that also notes, in the request's context, that the policy was
// asked: the server's route walk (server/access_test.go) fails on any
// route that serves table, hand or event data without asking.
//
// To add a resource: add its Resource constant and String, its rule in
// Decide, its rows in the decision table of access_test.go, and have its
// handler Ask before it writes anything.
package access

import (
	"context"
	"fmt"
	"pitch/event"
	"slices"
	"sync/atomic"
)

// Resource is a kind of thing a route may serve.
type Resource int

// The resources. Each is named by what a client receives.
const (
	// TableInfo is a table's public description: game, seats and their
	// names, whether it is over (GET /api/tables/{id}, a join's answer, a
	// line of the lobby).
	TableInfo Resource = iota
	// TableLive is a table's play as it happens, over its WebSocket: a
	// seat's own view, or a spectator's (pitch.View decides the cards).
	TableLive
	// HandList lists a table's finished hands.
	HandList
	// HandRecord is one finished hand's record, with every card: the
	// record itself, its replay and its review.
	HandRecord
	// MatchRecords is every finished hand of a table in one file, and
	// the review of the whole match.
	MatchRecords
	// HistoryEntry is a table's line in a public list: the match
	// history, the lobby.
	HistoryEntry
	// EventInfo is an event's page and board: entries, rounds,
	// standings.
	EventInfo
	// EventTable is a table of an event's round as the event's page
	// names it: its ID, which leads to its hands and to watching it.
	EventTable
	// EventResults is a table's result and the matchpoints of a round as
	// the event's page shows them, and each deal's results page.
	EventResults
	// DailyInfo is the daily deals' page: the day's events and one's own
	// try.
	DailyInfo
	// Profile is an account's public profile: ratings, recent matches,
	// daily results and events.
	Profile
	// AccountData is everything kept about an account (its export, its
	// seats): the account holder's own.
	AccountData
	// Advice is the expert's help: a hint at the table, and the review
	// of a table's finished hands.
	Advice
	numResources
)

var resourceNames = [numResources]string{"table info", "live table", "hand list", "hand record", "match records",
	"history entry", "event info", "event table", "event results", "daily info", "profile", "account data", "advice"}

// String names the resource for logs and tests.
func (r Resource) String() string {
	if r < 0 || r >= numResources {
		return fmt.Sprintf("Resource(%d)", int(r))
	}
	return resourceNames[r]
}

// Resources lists every resource, for tests that walk them all.
func Resources() []Resource {
	out := make([]Resource, numResources)
	for i := range out {
		out[i] = Resource(i)
	}
	return out
}

// Kind is who is asking.
type Kind int

// The kinds of viewer, from the least known to the most trusted.
const (
	// Anonymous: no session and no token.
	Anonymous Kind = iota
	// Guest: a browser identity or a seat token, no account.
	Guest
	// Seated: the holder of a seat at the table asked about (by its
	// token or its account).
	Seated
	// Member: signed in to an account.
	Member
	// Host: the host of the event asked about (its host token).
	Host
	// Operator: the server's operator, at the command line (pitch user).
	Operator
	numKinds
)

var kindNames = [numKinds]string{"anonymous", "guest", "seated player", "account holder", "event host", "operator"}

// String names the kind.
func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// Kinds lists every kind of viewer, for tests.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// Viewer is who asks.
type Viewer struct {
	Kind Kind
	// Account is the viewer's account ID when signed in ("" otherwise).
	Account string
}

// Moment is where the resource's hand, round or day stands.
type Moment int

// The moments.
const (
	// Before: the hand (round, day) has not begun.
	Before Moment = iota
	// During: it is being played.
	During
	// After: it is over.
	After
	numMoments
)

var momentNames = [numMoments]string{"before", "during", "after"}

// String names the moment.
func (m Moment) String() string {
	if m < 0 || m >= numMoments {
		return fmt.Sprintf("Moment(%d)", int(m))
	}
	return momentNames[m]
}

// Moments lists every moment, for tests.
func Moments() []Moment { return []Moment{Before, During, After} }

// Subject is what the resource asked about is part of, and the moment it
// is at: the facts Decide needs, gathered by the handler.
type Subject struct {
	// Hand is where the hand asked about stands (HandRecord: After once
	// it is finished).
	Hand Moment
	// Event: the table or deal belongs to an event's round; Duplicate:
	// its deals are played at every table of the round; Solo: each entry
	// plays alone against bots (a daily event is one); Daily: the event
	// is a daily deal.
	Event, Duplicate, Solo, Daily bool
	// Round is where the event's round stands (Daily: where the day
	// stands).
	Round Moment
	// Owner is the account the resource belongs to (AccountData).
	Owner string
	// Players are the accounts that hold a seat at the table asked
	// about: each is a seated player there.
	Players []string
	// Rated: the table plays a rated match; Match is where that match
	// stands.
	Rated bool
	Match Moment
}

// hidden reports whether s's deals are still being played by others who
// may not learn them: a duplicate round (a daily deal's is its day) not
// yet over.
func (s Subject) hidden() bool { return s.Duplicate && s.Round != After }

// competing reports whether s is a competition still under way: an
// event's round, or a rated match, not yet over.
func (s Subject) competing() bool {
	return s.Event && s.Round != After || s.Rated && s.Match != After
}

// seatedAt reports whether v holds a seat at the table of s.
func (v Viewer) seatedAt(s Subject) bool {
	return v.Kind == Seated || v.Account != "" && slices.Contains(s.Players, v.Account)
}

// Reason says why something is refused; "" when it is allowed.
type Reason string

// The reasons for a refusal.
const (
	// NotFinished: the hand is still being played (or not dealt).
	NotFinished Reason = "not_finished"
	// RoundNotOver: a duplicate round's deals are still being played by
	// others, so its tables and their hands stay hidden.
	RoundNotOver Reason = "round_not_over"
	// NotYours: the resource is another account's.
	NotYours Reason = "not_yours"
	// Competing: no expert help while a competition is under way.
	Competing Reason = "competing"
)

// Decision is the policy's answer.
type Decision struct {
	Allowed bool
	Reason  Reason // why not, when not allowed
}

func allow() Decision        { return Decision{Allowed: true} }
func deny(r Reason) Decision { return Decision{Reason: r} }
func allowIf(ok bool, r Reason) Decision {
	if ok {
		return allow()
	}
	return deny(r)
}

// Decide answers whether viewer v may see resource r of subject s now.
//
// A duplicate round's deals, and every daily deal, are played at many
// tables, one after another or at once: until the round (the daily
// deal's day) is over, everything that shows them — a table's line in
// the lobby and the history, watching it,
// its hands' records, replays and reviews, the match download, the
// round's tables and results on the event's pages — is hidden from
// everyone but the players seated at that very table (who have seen
// what they played). The expert's help (hints, reviews) is off at every
// competition — an event's round, a daily deal, a rated match — until
// it is over, for everyone.
func Decide(r Resource, v Viewer, s Subject) Decision {
	secret := s.hidden() && !v.seatedAt(s)
	switch r {
	case TableLive, HandList, MatchRecords, HistoryEntry:
		return allowIf(!secret, RoundNotOver)
	case HandRecord:
		// A record has every card: only once the hand is over.
		if s.Hand != After {
			return deny(NotFinished)
		}
		return allowIf(!secret, RoundNotOver)
	case TableInfo, EventInfo, DailyInfo, Profile:
		// A table's description shows no card: it is what its own
		// players' page loads first. The lobby and the history list a
		// table as a HistoryEntry.
		return allow()
	case EventTable, EventResults:
		// A duplicate round's tables (their IDs lead to their hands) and
		// results by table and deal tell how its deals play.
		return allowIf(!s.hidden(), RoundNotOver)
	case AccountData:
		return allowIf(v.Account != "" && v.Account == s.Owner || v.Kind == Operator, NotYours)
	case Advice:
		if secret {
			return deny(RoundNotOver)
		}
		return allowIf(!s.competing(), Competing)
	}
	return deny(NotYours)
}

// asked is what a request's context carries: whether the policy was asked
// while it was served.
type asked struct{ n atomic.Int32 }

type askedKey struct{}

// Track returns ctx carrying a note of whether the policy is asked while
// serving it, and a function reporting it.
func Track(ctx context.Context) (context.Context, func() bool) {
	a := &asked{}
	return context.WithValue(ctx, askedKey{}, a), func() bool { return a.n.Load() > 0 }
}

// Ask is Decide for a request: it notes in ctx (see Track) that the
// policy was asked.
func Ask(ctx context.Context, r Resource, v Viewer, s Subject) Decision {
	if a, ok := ctx.Value(askedKey{}).(*asked); ok {
		a.n.Add(1)
	}
	return Decide(r, v, s)
}

// OfEvent is the Subject of round r (from 0; -1: the event as a whole,
// its last round started) of event ev; daily marks a daily deal's
// event.
func OfEvent(ev *event.Event, daily bool, r int) Subject {
	s := Subject{Event: true, Duplicate: ev.Settings.Movement == event.Duplicate, Solo: ev.Settings.Solo, Daily: daily, Round: During}
	if r < 0 {
		r = len(ev.Rounds) - 1
	}
	switch {
	case r < 0:
		s.Round = Before
	case ev.RoundOver(r):
		s.Round = After
	}
	return s
}

// Signed is the viewer of a request signed in to account id (ok), or an
// anonymous one.
func Signed(id string, ok bool) Viewer {
	if ok {
		return Viewer{Kind: Member, Account: id}
	}
	return Viewer{Kind: Anonymous}
}
