// Package history serves what is kept of finished hands (docs/protocol.md):
// their records one by one and a whole match's in one file, their
// replays, their reviews (worked out a few at once server-wide, and
// stored), and the history of matches. Nothing in a finished hand is
// secret any more; what a table shows of itself is its public
// description (package tableinfo), which the live tables give
// (Tables).
package history

import (
	"context"
	"log/slog"
	"net/http"

	"pitch"
	"pitch/server/httpx"
	"pitch/server/tableinfo"
	"pitch/store"
)

// Store is what the history reads and writes of the store (store.Store).
type Store interface {
	Hands(ctx context.Context, id string) ([]store.Hand, error)
	History(ctx context.Context, q store.HistoryQuery) ([]store.Summary, int, error)
	PutReview(ctx context.Context, id string, r store.Review) error
	Reviews(ctx context.Context, id string) ([]store.Review, error)
	Review(ctx context.Context, id string, n, seat int) (store.Review, error)
}

// Tables are the live tables, as the history needs them (play.Server).
type Tables interface {
	// PublicTable returns the public description of table id and how
	// many seats its game has, loading the table if it is not in
	// memory. The error is the one to answer with (*httpx.Error: 404
	// no_table for no such table).
	PublicTable(ctx context.Context, id string) (tableinfo.Table, int, error)
}

// Wire makes the wire forms of the engine's states that a replay shows:
// the same as the live tables send (play.Wire).
type Wire interface {
	// View is the table in s as a spectator sees it.
	View(s *pitch.State) any
	// Summary is the summary of hand n (0: not known), which ended in s.
	Summary(n int, s *pitch.State) any
}

// Config is what an API needs.
type Config struct {
	Store  Store
	Tables Tables
	Wire   Wire
	// Closing reports whether the server is closing: a review finished
	// then is dropped, not stored (the store may be closed) nor reported.
	// nil: never.
	Closing func() bool
	// Log gets the errors answered with 5xx and the reviews that fail;
	// nil discards them.
	Log *slog.Logger
}

// API serves the hands' records, replays and reviews and the history of
// matches.
type API struct {
	store   Store
	tables  Tables
	wire    Wire
	closing func() bool
	log     *slog.Logger

	reviews reviewQueue // reviews of finished hands (review.go)
}

// New returns the history's API.
func New(c Config) *API {
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Closing == nil {
		c.Closing = func() bool { return false }
	}
	return &API{store: c.Store, tables: c.Tables, wire: c.Wire, closing: c.Closing, log: c.Log}
}

// Routes mounts the API's routes on mux.
func (s *API) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/tables/{id}/hands", s.handleHands)
	mux.HandleFunc("GET /api/tables/{id}/hands/{n}", s.handleHand)
	mux.HandleFunc("GET /api/tables/{id}/hands/{n}/replay", s.handleReplay)
	mux.HandleFunc("GET /api/tables/{id}/hands/{n}/review", s.handleReview)
	mux.HandleFunc("GET /api/tables/{id}/reviews", s.handleReviews)
	mux.HandleFunc("POST /api/tables/{id}/reviews", s.handleMatchReview)
	mux.HandleFunc("GET /api/tables/{id}/match", s.handleMatch)
	mux.HandleFunc("POST /api/replay", s.handlePostReplay)
	mux.HandleFunc("POST /api/review", s.handlePostReview)
	mux.HandleFunc("GET /api/history", s.handleHistory)
}

// writeError logs err (server side detail) and answers with the client's part.
func (s *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.log, w, r, err)
}
