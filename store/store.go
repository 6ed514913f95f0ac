// Package store keeps tables and their event logs: SQLite by default,
// PostgreSQL when given a URL. Every accepted action is appended to its
// table's log in a transaction before anyone is told of it, so a table can
// always be rebuilt by replaying its log.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Errors a Store returns; test with errors.Is.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict") // a seat already taken, or an event number already used
	// ErrInUse: Open found the SQLite database held by another process
	// (a running `pitch serve`); OpenShared opens it beside that one.
	ErrInUse = errors.New("the database is in use")
)

// Table is a table as stored: its game and its seats. Its play is its events.
type Table struct {
	ID        string          // unguessable, URL-safe
	Variant   string          // auction, ten-point or pawnee
	Options   json.RawMessage // the game's options by hand-record name, e.g. {"target":52}
	Seed      uint64          // the match seed (C-6)
	TurnTimer int             // seconds a human may take before a bot plays for them; 0 for none
	Created   time.Time
	Finished  bool // the match is over
	Seats     []Seat
	// Active is when someone last joined or was connected, as last
	// recorded by Touch; zero if never. (Actions have their own times.)
	Active time.Time
	// Closed is set by CloseTable: the table was idle too long. Its record
	// is kept; Tables(ctx, true) leaves it out.
	Closed bool
	// NoHints turns off the hint players may ask for at the table.
	NoHints bool
	// Next is the table where the same seats play their next match ("" for
	// none yet), set once by SetNext.
	Next string
	// FairDeals: each hand is dealt from a commitment and the players'
	// contributions, kept in Deals (docs/fairness.md). Tables made before
	// fair deals have it false and deal every hand from Seed.
	FairDeals bool
	// Rated: the match is rated (docs/ratings.md); every human seat is
	// held by a signed-in account.
	Rated bool
	// PlayNow: the table was started by play now (playnow.go): anyone
	// pressing Play may take over its bots' seats between hands, and a
	// seat a person leaves goes back to a bot.
	PlayNow bool
}

// Seat is one seat of a table.
type Seat struct {
	Seat      int
	Kind      string // "human" or "bot"
	Level     string // for bots: easy, medium or hard
	Name      string // display name; empty while a human seat is free
	TokenHash []byte // SHA-256 of the seat's token; nil while free. The token itself is never stored.
	// Account is the ID of the account that holds the seat (Account.ID);
	// "" for a guest's seat, a free seat or a bot.
	Account string
	// Claim is the person who takes this bot's seat over at the next hand
	// boundary (play now), nil for none.
	Claim *Claim
	// TookOver says how the person holding this seat came by it: they
	// took it over from a bot (play now); nil otherwise.
	TookOver *TookOver
	// Holders says who held the seat of a play-now table from which hand
	// on, oldest first (PlayNow); nil at other tables.
	Holders []Holder
}

// Event is one accepted action in a table's log.
type Event struct {
	Seq    int             // 0, 1, 2, … with no gaps
	Action json.RawMessage // a hand-record action, e.g. {"seat":1,"bid":5}
	At     time.Time
	// By says who made the action when not the seat's own player: "timer"
	// (the player's time ran out) or "stand-in" (the player was away);
	// empty for the seat itself (a person, or a bot seat's bot).
	By string
}

// Hand is the hand record of a finished hand.
type Hand struct {
	N      int             // 1 for the first hand of the match
	Record json.RawMessage // the hand record (HAND-RECORD format)
}

// Deal is how one hand of a table with FairDeals was dealt: the server's
// secret, its commitment and the contributions, as the server's JSON.
// It holds the secret: it must not be shown before the hand is over.
type Deal struct {
	N    int             // 1 for the first hand of the match
	Data json.RawMessage // the deal (the server's JSON; the store does not read it)
}

// Commitment is a commitment a table with FairDeals published for hand N,
// stored before anyone saw it: the server's pending deal (its secret and
// the contributions received so far) as the server's JSON. It holds the
// secret: it must not be shown before the hand is over.
type Commitment struct {
	N          int             // the hand it deals, 1 for the first
	Commitment string          // the commitment, 64 hex digits
	At         string          // when it was published, as text that sorts by time
	Pending    json.RawMessage // the pending deal (the server's JSON; the store does not read it)
}

// Append is one accepted action to write: the event, and with it, when the
// action ended a hand, that hand's record, and whether the match is over.
type Append struct {
	Event    Event
	Hand     *Hand
	Finished bool
}

// Store is where tables live. Implementations are safe for concurrent use.
type Store interface {
	// CreateTable stores a new table with its seats.
	CreateTable(ctx context.Context, t *Table) error
	// Table returns one table with its seats, or ErrNotFound.
	Table(ctx context.Context, id string) (*Table, error)
	// Tables returns every table (only those neither finished nor closed
	// when unfinished is true), oldest first, with their seats.
	Tables(ctx context.Context, unfinished bool) ([]*Table, error)
	// Touch records that the tables ids saw someone at time at (a table
	// whose Active is later already is left as it is; unknown ids are
	// skipped).
	Touch(ctx context.Context, at time.Time, ids ...string) error
	// CloseTable marks a table closed (ErrNotFound for no such table).
	CloseTable(ctx context.Context, id string) error
	// SetNext records next as the table of id's next match. It is set
	// once: ErrConflict if another is set already (ErrNotFound for no such
	// table).
	SetNext(ctx context.Context, id, next string) error
	// ClaimSeat gives a free human seat a name and a token hash, or
	// returns ErrConflict if it is taken (ErrNotFound for no such seat).
	ClaimSeat(ctx context.Context, id string, seat int, name string, tokenHash []byte) error
	// ClaimSeatFor is ClaimSeat for a signed-in person: the seat also
	// belongs to the account ("" for a guest, as ClaimSeat).
	ClaimSeatFor(ctx context.Context, id string, seat int, name string, tokenHash []byte, account string) error
	// Append writes an accepted action in one transaction. Its Seq must be
	// the next number of the table's log, else ErrConflict and nothing is
	// written.
	Append(ctx context.Context, id string, a Append) error
	// Events returns a table's log in order.
	Events(ctx context.Context, id string) ([]Event, error)
	// AddDeal stores how hand d.N was dealt, or returns ErrConflict if
	// that hand has a deal already (ErrNotFound for no such table).
	AddDeal(ctx context.Context, id string, d Deal) error
	// Deals returns a table's deals, in order of hand.
	Deals(ctx context.Context, id string) ([]Deal, error)
	// SaveCommitment stores a commitment of a table, or replaces the
	// stored pending deal of the same commitment (new contributions);
	// ErrNotFound for no such table.
	SaveCommitment(ctx context.Context, id string, c Commitment) error
	// Commitments returns a table's commitments, by hand and then by the
	// time they were published.
	Commitments(ctx context.Context, id string) ([]Commitment, error)
	// Hands returns the records of a table's finished hands, in order.
	Hands(ctx context.Context, id string) ([]Hand, error)
	// History returns one page of tables, newest first, with how many
	// hands each has finished and its last hand's record, and how many
	// tables match in all.
	History(ctx context.Context, q HistoryQuery) ([]Summary, int, error)
	// PutReview stores the review of one seat in one finished hand; a
	// review stored already is kept (reviews are deterministic).
	// ErrNotFound for no such table.
	PutReview(ctx context.Context, id string, r Review) error
	// Reviews returns a table's stored reviews, by hand and seat.
	Reviews(ctx context.Context, id string) ([]Review, error)
	// Review returns the stored review of seat in hand n, or ErrNotFound
	// when there is none (or no such table).
	Review(ctx context.Context, id string, n, seat int) (Review, error)
	// Accounts: people's accounts, sessions and passkeys (accounts.go).
	Accounts
	// CreateTournament stores a new event (package event) at version 1.
	// It and UpdateTournament send a NoteTournament with the new version
	// (PostgreSQL) when they commit.
	CreateTournament(ctx context.Context, t *Tournament) error
	// Tournament returns one event, or ErrNotFound.
	Tournament(ctx context.Context, id string) (*Tournament, error)
	// Tournaments returns every event (only those not finished when
	// unfinished is true), oldest first.
	Tournaments(ctx context.Context, unfinished bool) ([]*Tournament, error)
	// UpdateTournament replaces an event's data and finished flag if it is
	// still at t.Version, and then adds one to t.Version; ErrConflict if it
	// has moved on (nothing is written), ErrNotFound for no such event.
	UpdateTournament(ctx context.Context, t *Tournament) error
	// AddTournamentPlayer records that account joined event tournament
	// as its entry (for the account's profile); once per account and
	// event, a second time changes nothing.
	AddTournamentPlayer(ctx context.Context, account, tournament string, entry int) error
	// TournamentsOf returns the events account joined, newest first, at
	// most limit.
	TournamentsOf(ctx context.Context, account string, limit int) ([]TournamentPlayer, error)
	// TournamentsHolding returns the IDs of the events whose data holds
	// text as a JSON string (a daily entry's owner, "a:" and an account's
	// ID), oldest first.
	TournamentsHolding(ctx context.Context, text string) ([]string, error)
	// TournamentVersions returns the stored version of each of the
	// events ids (an ID of no event is not in the map).
	TournamentVersions(ctx context.Context, ids []string) (map[string]int, error)
	// Ratings: accounts' ratings, their history and the leaderboard (ratings.go).
	Ratings
	// PlayNow: play now's tables, pending takeovers and seats (playnow.go).
	PlayNow
	// Close releases the store.
	Close() error
}

// HistoryQuery selects a page of History.
type HistoryQuery struct {
	Variant string   // only this game; "" for every game
	IDs     []string // only these tables, when not nil
	Offset  int
	Limit   int
}

// Summary is one table of History: the table, how many hands it finished
// and the record of its last finished hand (nil before the first).
type Summary struct {
	Table *Table
	Hands int
	Last  json.RawMessage
}

// Review is the stored review of one seat's decisions in one finished
// hand (the server's JSON; the store does not read it).
type Review struct {
	N    int // the hand, 1 for the first
	Seat int
	Data json.RawMessage
}
