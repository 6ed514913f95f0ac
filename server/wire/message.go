// Package wire is the WebSocket wire format (docs/protocol.md): the
// messages a client sends and is sent, their making from the engine's
// values (what each seat may see), a state message's encoding, written by
// hand and byte for byte as json.Marshal writes it, and a client
// message's reading, as encoding/json reads it (docs/performance.md).
// It knows nothing of tables or connections.
package wire

import (
	"encoding/json"

	"pitch"
)

// ClientMsg is what a client sends.
type ClientMsg struct {
	Type  string `json:"type"`            // "hello", "action", "resync", …
	Token string `json:"token,omitempty"` // hello: the seat token; absent for a spectator (an event's: the person's token)
	Host  string `json:"host,omitempty"`  // hello to an event: the host's token
	// hello to an event: send the whole event (every round's tables,
	// every person, every standing), as the board shows it, not a
	// phone's part of it
	Full   bool            `json:"full,omitempty"`
	Action json.RawMessage `json:"action,omitempty"` // action: a hand-record action
	Text   string          `json:"text,omitempty"`   // chat: what to say
	// hello: this client shows each hand's summary and sends "ready" when
	// its person has closed it (play's ready.go)
	Summary bool `json:"summary,omitempty"`
	// hello: this client sends its random value for each commitment it
	// is shown (docs/fairness.md): a due deal waits for it while it is
	// connected, rather than the deal wait alone
	Fair bool `json:"fair,omitempty"`
	// hello: the protocol the client speaks: 0 or 1, whole states; 2
	// (ProtocolDeltas), deltas (statedelta.go). Another is refused.
	Protocol int `json:"protocol,omitempty"`
	// hello: the delta ops beyond set, gone and add that this protocol-2
	// client applies (DeltaOps: "copy" and "push"); a delta that needs
	// one the client lacks is sent to it as the whole state
	Ops []string `json:"ops,omitempty"`
	// ready: the hand whose summary was closed
	Hand int `json:"hand,omitempty"`
	// contribute: the commitment the page saw and its random value (hex)
	Commitment string `json:"commitment,omitempty"`
	Value      string `json:"value,omitempty"`
	// contribute: the SHA-256 of the random value (hex), sent first; the
	// value follows once the contributors are frozen (docs/fairness.md)
	Hash string `json:"hash,omitempty"`
}

// State is sent to a connection after every change it may see.
type State struct {
	Type     string            `json:"type"`  // "state"
	Seat     int               `json:"seat"`  // -1 for a spectator
	Table    json.RawMessage   `json:"table"` // the table (play's tableInfo)
	Seq      int               `json:"seq"`   // events so far
	HandNo   int               `json:"hand_no"`
	View     View              `json:"view"`
	Log      LogJSON           `json:"log"`               // this hand's actions, as this seat may see them
	Legal    []json.RawMessage `json:"legal,omitempty"`   // this seat's legal actions when it is to act (not discards: see Discard)
	Discard  *Discard          `json:"discard,omitempty"` // what this seat must discard, burn or may pass
	Sheet    json.RawMessage   `json:"sheet"`             // a []SheetRow
	LastHand *HandSummary      `json:"last_hand,omitempty"`
	Over     bool              `json:"match_over"`
	Winner   []int             `json:"winner"`
	Away     []bool            `json:"away"`    // seats a bot is playing for just now
	Waiting  bool              `json:"waiting"` // play waits for human seats to be taken (or Invited)
	// Invited are the seats of a new match (a rematch) whose people have
	// not accepted it yet: play waits for them.
	Invited []int `json:"invited,omitempty"`
	// Timer is the turn timer of the seat to act, while one runs.
	Timer *Timer `json:"timer,omitempty"`
	// Refusals says, for the seat to act in play, why each card of its hand
	// it may not play is refused, in the engine's words (C-7): one entry
	// for the cards refused for one reason.
	Refusals []Refusal `json:"refusals,omitempty"`
	// SuitTrumps says, for the seat to name trump (ten-point) or call a
	// card (pawnee), how many trumps it would hold with each suit as
	// trump (C-4).
	SuitTrumps map[string]int `json:"suit_trumps,omitempty"`
	// NextTable is the table where the same seats play their next match.
	NextTable string `json:"next_table,omitempty"`
	// NextBy is the seat that started that next match, when this server
	// knows it, so that the others can be told who moved them.
	NextBy *int `json:"next_by,omitempty"`
	// Reading lists the seats whose people are reading the last hand's
	// summary: play waits for them (play's ready.go). Absent when it waits for
	// nobody.
	Reading []int `json:"reading,omitempty"`
	// ReadingLeftMS is how long, in milliseconds, the table still waits
	// for them before it goes on (the summary shows it, and closes itself
	// when it runs out). Absent with Reading.
	ReadingLeftMS int64 `json:"reading_left_ms,omitempty"`
	// Paused: the table's event is paused by its host; nobody may act
	// until it resumes (docs/events.md).
	Paused bool `json:"paused,omitempty"`
	// Fair is the table's fair deals: commitments, contributions, the last
	// hand's secret (docs/fairness.md); absent at tables from before.
	Fair *Fair `json:"fair,omitempty"`
	// Ratings says, once a rated match is over and rated, each signed-in
	// seat's new rating and its change (docs/ratings.md).
	Ratings []RatingChange `json:"ratings,omitempty"`
}

// RatingChange is what a rated match did to one seat's rating
// (docs/ratings.md): the new rating as people see it (rating.Shown),
// whether it is provisional, and its change. Its JSON is that of the
// rating with the seat and the change around it.
type RatingChange struct {
	Seat        int  `json:"seat"`
	Rating      int  `json:"rating"`
	Provisional bool `json:"provisional"`
	Change      int  `json:"change"` // the shown rating after less before
}

// Timer is a running turn timer: the seat it runs for, and the time
// left and in all, in milliseconds.
type Timer struct {
	Seat    int   `json:"seat"`
	LeftMS  int64 `json:"left_ms"`
	TotalMS int64 `json:"total_ms"`
}

// ErrorMsg tells a client why what it sent was refused.
type ErrorMsg struct {
	Type    string         `json:"type"` // "error"
	Message string         `json:"message"`
	Code    string         `json:"code,omitempty"`   // see docs/protocol.md
	Params  map[string]any `json:"params,omitempty"` // its seats, numbers and cards
}

// LogEntry is one action of a hand's log as a seat may see it
// (LogEntryFor).
type LogEntry struct {
	Seat int `json:"seat"`
	// Kind is the action's kind ("discard", "pass_trumps") when the
	// action is hidden from this seat; empty when Action is set (the
	// action says it).
	Kind string `json:"kind,omitempty"`
	// Text is what was done when the action is hidden from this seat
	// ("seat 3 discards 4 cards"); empty when Action is set.
	Text string `json:"text,omitempty"`
	// Action is the action itself when this seat may see all of it.
	Action json.RawMessage `json:"action,omitempty"`
	// By is who made it for the seat: "timer" (its time ran out) or
	// "stand-in" (it was away); absent for the seat itself.
	By string `json:"by,omitempty"`
}

// Discard is the discard or burn the seat to act must make (DiscardOf).
type Discard struct {
	Kind      string       `json:"kind"` // "discard" (pawnee) or "burn" (ten-point)
	Count     int          `json:"count"`
	Must      []pitch.Card `json:"must"`
	Pool      []pitch.Card `json:"pool"`
	Choose    int          `json:"choose"`
	PassLimit int          `json:"pass_limit"` // ten-point: up to this many trumps may first go to the partner
	Rule      string       `json:"rule"`
	// Keep says why each held card outside Must and Pool may not go:
	// "called", "point" or "trump" (pawnee), "burn_point" (ten-point).
	Keep map[pitch.Card]string `json:"keep"`
	// OverProtected is true when a pawnee seat holds more than 6
	// protected cards and point cards are in Pool (PW-DIS-3).
	OverProtected bool `json:"over_protected"`
}

// SheetRow is one finished hand on the score sheet.
type SheetRow struct {
	Hand   int   `json:"hand"`
	Bidder int   `json:"bidder"`
	Bid    int   `json:"bid"`
	Made   bool  `json:"made"`
	Delta  []int `json:"delta"`
	Scores []int `json:"scores"`
}

// Point is one point of a finished hand: its kind, the card that made
// it (when one did) and the seat that took it.
type Point struct {
	Kind string      `json:"kind"`
	Card *pitch.Card `json:"card,omitempty"`
	Seat int         `json:"seat"`
}

// HandSummary is a finished hand: its bid, trump, points and scores
// (Summarize).
type HandSummary struct {
	Hand    int          `json:"hand"`
	Bidder  int          `json:"bidder"`
	Bid     int          `json:"bid"`
	Trump   string       `json:"trump"`
	Trumps  []pitch.Card `json:"trumps"` // the trump cards, highest first
	Partner *int         `json:"partner"`
	Teams   [][]int      `json:"teams"`
	Points  []Point      `json:"points"`
	Taken   []int        `json:"taken"`
	Made    bool         `json:"made"`
	Delta   []int        `json:"delta"`
	Scores  []int        `json:"scores"`
	Winner  []int        `json:"winner"`
	// The hand's last trick and its winner (so that the last card played
	// can be shown), and how many tricks were played: fewer than 6 when
	// nobody held a trump any more (TP-PLAY-1, PW-PLAY-3).
	LastTrick  []TrickCard `json:"last_trick"`
	LastWinner int         `json:"last_winner"`
	Tricks     int         `json:"tricks"`
	// View and Log are the finished hand as the seat saw it at its end:
	// sent from the state that ends the hand until the next hand's first
	// move (and once the match is over), so that a client can show the
	// final trick as it was before it shows the next hand.
	View *View   `json:"view,omitempty"`
	Log  LogJSON `json:"log,omitzero"`
	// head is the encoded summary up to View, made once for every seat
	// (appendSummaryHead); nil when not made. headParts are its
	// members, as AppendStateParts records them (from head's start).
	head      []byte
	headParts []part
}

// TrickCard is a card played to a trick, and the seat that played it.
type TrickCard struct {
	Seat int        `json:"seat"`
	Card pitch.Card `json:"card"`
}

// View is a pitch.View for the wire: only what the seat may see.
type View struct {
	Phase        string       `json:"phase"`
	Dealer       int          `json:"dealer"`
	Turn         int          `json:"turn"`
	Scores       []int        `json:"scores"`
	Hand         []pitch.Card `json:"hand"` // sorted as a player sorts it (pitch.SortHand)
	Counts       []int        `json:"counts"`
	Bid          int          `json:"bid"`
	Bidder       int          `json:"bidder"`
	Passed       []int        `json:"passed"`
	Trump        *string      `json:"trump"`
	Trumps       []pitch.Card `json:"trumps"` // the trump cards, highest first (C-5); empty before trump is known
	Called       *pitch.Card  `json:"called"`
	Partner      *int         `json:"partner"`
	PartnerKnown bool         `json:"partner_known"`
	Widow        []pitch.Card `json:"widow"`
	Shown        []pitch.Card `json:"shown"`
	Out          []pitch.Card `json:"out"`
	Trick        []TrickCard  `json:"trick"`
	LastTrick    []TrickCard  `json:"last_trick"`
	LastWinner   int          `json:"last_winner"`
	Tricks       int          `json:"tricks"`
	TrickWins    []int        `json:"trick_wins"`
	StockLeft    int          `json:"stock_left"`
	FillGot      []int        `json:"fill_got,omitempty"` // ten-point: cards each seat drew from the stock (TP-TR-3, TP-TR-4)
}

// Fair is what a state tells of the table's fair deals.
type Fair struct {
	// raw is the JSON appendFair writes for it, when made already by
	// Encode (once per broadcast, for every seat); parts are its
	// members, as AppendStateParts records them (from raw's start), made
	// with it by Encode and Clone (nil: scanned at each encoding).
	raw   []byte
	parts []part
	// Dealing: the hand awaits its deal; nobody acts until it is dealt.
	Dealing bool `json:"dealing"`
	// Next is the commitment of the next deal (the awaited one while
	// dealing), and the seats whose values are in.
	Next *FairNext `json:"next,omitempty"`
	// Hand is the commitment of the hand in play.
	Hand *FairHand `json:"hand,omitempty"`
	// Last is the last finished hand's commitment and revealed secret.
	Last *FairLast `json:"last,omitempty"`
}

// FairNext is the commitment of a fair deal to come.
type FairNext struct {
	Hand        int    `json:"hand"`
	Commitment  string `json:"commitment"`
	CommittedAt string `json:"committed_at"`
	Dealer      int    `json:"dealer"` // the seat that deals it, bound to the commitment; NoDealer (only a cheating test server) leaves it out
	Contributed []int  `json:"contributed"`
	// Hashes are the contributors and the SHA-256 of each one's value,
	// committed before any value is revealed, in seat order.
	Hashes []FairHash `json:"hashes"`
	// Frozen: no more contributors; those in Hashes reveal their values.
	Frozen bool `json:"frozen,omitempty"`
	// Shared: the deal of a duplicate round, the same commitment at
	// every table of the round; the pages send no values.
	Shared bool `json:"shared,omitempty"`
}

// FairHash is one contributor to a deal and the SHA-256 of its value.
type FairHash struct {
	Seat int    `json:"seat"`
	Hash string `json:"hash"`
}

// NoDealer as FairNext.Dealer leaves the dealer out of the state: only a
// server that cheats on purpose for the tests does (play.Misbehave).
const NoDealer = -1

// FairHand is the commitment of the hand in play.
type FairHand struct {
	Hand       int    `json:"hand"`
	Commitment string `json:"commitment"`
}

// FairLast is the last finished hand's commitment and its revealed
// secret.
type FairLast struct {
	Hand       int    `json:"hand"`
	Commitment string `json:"commitment"`
	Secret     string `json:"secret"`
}

// Refusal is why cards may not be played: the engine's words, and its
// code and parameters for a client in another language. The reason is
// the same for each of Cards; Params leave out "Card", which a client
// sets to the card it explains (the engine's message does not name it).
type Refusal struct {
	Cards   []pitch.Card   `json:"cards"`
	Message string         `json:"message"`
	Code    string         `json:"code"`
	Params  map[string]any `json:"params"`
}
