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

	"pitch/server/access"
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
	// Subject is what the access policy needs to know of table id now
	// (its event round, if any, and where the round stands).
	Subject(id string) access.Subject
	// SeatOf is the seat at table id whose token is token, or -1.
	SeatOf(id, token string) int
}

// Config is what an API needs.
type Config struct {
	Store  Store
	Tables Tables
	// Closing reports whether the server is closing: a review finished
	// then is dropped, not stored (the store may be closed) nor reported.
	// nil: never.
	Closing func() bool
	// Log gets the errors answered with 5xx and the reviews that fail;
	// nil discards them.
	Log *slog.Logger
	// Viewer says who asks, for the access policy; nil: anonymous.
	Viewer func(*http.Request) access.Viewer
}

// API serves the hands' records, replays and reviews and the history of
// matches.
type API struct {
	store   Store
	tables  Tables
	closing func() bool
	log     *slog.Logger
	viewer  func(*http.Request) access.Viewer

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
	if c.Viewer == nil {
		c.Viewer = func(*http.Request) access.Viewer { return access.Viewer{} }
	}
	return &API{store: c.Store, tables: c.Tables, closing: c.Closing, log: c.Log, viewer: c.Viewer}
}

// allowed asks the access policy whether r's viewer may see res of table
// id with its hand at moment hand; when not, it answers r with the
// refusal and returns false.
func (s *API) allowed(w http.ResponseWriter, r *http.Request, op string, res access.Resource, id string, hand access.Moment) bool {
	sub := s.tables.Subject(id)
	sub.Hand = hand
	d := access.Ask(r.Context(), res, s.viewerAt(r, id), sub)
	if !d.Allowed {
		s.writeError(w, r, httpx.Refused(op, d))
	}
	return d.Allowed
}

// SeatHeader carries a seat's token on a request for its own table's
// hands (the page's fair-deal check): its holder is a seated player
// there, to the access policy. It is never logged.
const SeatHeader = "Pitch-Seat"

// viewerAt is who asks r about table id: seated there when r carries a
// seat's token of it (SeatHeader), else as Config.Viewer says.
func (s *API) viewerAt(r *http.Request, id string) access.Viewer {
	v := s.viewer(r)
	if tok := r.Header.Get(SeatHeader); tok != "" && s.tables.SeatOf(id, tok) >= 0 {
		v.Kind = access.Seated
	}
	return v
}

// Routes lists the routes this part serves, each marked with whether
// it serves table, hand or event data (then its handler asks the
// access policy).
func (s *API) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.GetData("/api/tables/{id}/hands", s.handleHands),
		httpx.GetData("/api/tables/{id}/hands/{n}", s.handleHand),
		httpx.GetData("/api/tables/{id}/hands/{n}/replay", s.handleReplay),
		httpx.GetData("/api/tables/{id}/hands/{n}/review", s.handleReview),
		httpx.GetData("/api/tables/{id}/reviews", s.handleReviews),
		httpx.PostData("/api/tables/{id}/reviews", s.handleMatchReview),
		httpx.GetData("/api/tables/{id}/match", s.handleMatch),
		httpx.Post("/api/replay", s.handlePostReplay),
		httpx.Post("/api/review", s.handlePostReview),
		httpx.GetData("/api/history", s.handleHistory),
	}
}

// writeError logs err (server side detail) and answers with the client's part.
func (s *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.log, w, r, err)
}
