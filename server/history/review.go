package history

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"time"

	"pitch"
	"pitch/bot"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/store"
)

// Reviews of finished hands (docs/protocol.md): worked out on demand, a
// few at once server-wide, never under a table's lock, and kept in the
// store, since a review of the same record with the same seed is the same.

// reviewSeed is the seed of every review the server makes.
const reviewSeed = 1

// maxReviewQueue is how many reviews may wait or run at once; past it a
// request is refused with 503 review_busy.
const maxReviewQueue = 64

// reviewWorkers is how many reviews are worked out at once: a quarter of
// the cores, at least one, so that live tables keep the rest.
var reviewWorkers = max(1, runtime.NumCPU()/4)

// reviewRest is how long a review worker rests after weighing a decision,
// as a multiple of the time the weighing took: at 3 a worker uses at most
// a quarter of a core, so that on a small machine (where the one worker
// would otherwise take one core of two) live tables keep their latency.
// Reviews take that much longer; docs/reliability.md has the figures.
const reviewRest = 3

// restAfter is the review workers' bot.ReviewOptions.Pause.
func restAfter(took time.Duration) { time.Sleep(reviewRest * took) }

// reviewQueue is the server's queue of reviews. The zero value is ready.
type reviewQueue struct {
	once    sync.Once
	slots   chan struct{} // one per review being worked out
	mu      sync.Mutex
	pending map[reviewKey]bool   // queued or running
	failed  map[reviewKey]string // why a review could not be made, told once
	queued  int                  // pending plus reviews of posted records
}

type reviewKey struct {
	id      string
	n, seat int
}

func (q *reviewQueue) init() {
	q.once.Do(func() {
		q.slots = make(chan struct{}, reviewWorkers)
		q.pending = map[reviewKey]bool{}
		q.failed = map[reviewKey]string{}
	})
}

// reserve takes a place in the queue, or reports false when it is full.
func (q *reviewQueue) reserve() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.queued >= maxReviewQueue {
		return false
	}
	q.queued++
	return true
}

func (q *reviewQueue) release() {
	q.mu.Lock()
	q.queued--
	q.mu.Unlock()
}

// work reviews seat of a record in a slot.
func (q *reviewQueue) work(ctx context.Context, raw []byte, seat int) ([]byte, error) {
	select {
	case q.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-q.slots }()
	rec, err := pitch.ReadRecord(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	r, err := bot.Review(rec, seat, bot.ReviewOptions{Seed: reviewSeed, Pause: restAfter})
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// reviewStatus is the answer to a review request.
type reviewStatus struct {
	Status string          `json:"status"` // "done" or "pending"
	Hand   int             `json:"hand,omitempty"`
	Seat   int             `json:"seat"`
	Review json.RawMessage `json:"review,omitempty"` // a bot.HandReview, once done
}

func seatParam(r *http.Request, seats int, op string) (int, error) {
	v := r.URL.Query().Get("seat")
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n >= seats {
		return 0, httpx.Errorf(httpx.Invalid, op, "seat must be a seat 0 to %d, not %q", seats-1, v).With("bad_seat", map[string]any{"Max": seats - 1})
	}
	return n, nil
}

// handleReview serves GET /api/tables/{id}/hands/{n}/review?seat=S: the
// review when it is made (200), else 202 while it is queued or worked out.
func (s *API) handleReview(w http.ResponseWriter, r *http.Request) {
	const op = "review"
	info, seats, n, raw, err := s.finishedHand(r, op)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, op, access.Advice, info.ID, access.After) {
		return
	}
	seat, err := seatParam(r, seats, op)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rv, err := s.store.Review(r.Context(), info.ID, n, seat)
	switch {
	case err == nil:
		httpx.WriteJSON(w, 200, reviewStatus{Status: "done", Hand: n, Seat: seat, Review: rv.Data})
		return
	case !errors.Is(err, store.ErrNotFound):
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	q := &s.reviews
	q.init()
	k := reviewKey{info.ID, n, seat}
	q.mu.Lock()
	if msg, ok := q.failed[k]; ok {
		delete(q.failed, k)
		q.mu.Unlock()
		s.writeError(w, r, httpx.Unexpected(op, errors.New(msg)))
		return
	}
	if !q.pending[k] {
		if q.queued >= maxReviewQueue {
			q.mu.Unlock()
			s.writeError(w, r, httpx.Errorf(httpx.Unavailable, op, "the server is busy with other reviews: try again in a minute").With("review_busy", nil))
			return
		}
		s.enqueueLocked(k, raw)
	}
	q.mu.Unlock()
	w.Header().Set("Retry-After", "1")
	httpx.WriteJSON(w, 202, reviewStatus{Status: "pending", Hand: n, Seat: seat})
}

// enqueueLocked queues the review k of the record raw; q.mu is held and
// the queue has room.
func (s *API) enqueueLocked(k reviewKey, raw []byte) {
	q := &s.reviews
	q.queued++
	q.pending[k] = true
	go s.makeReview(k, raw)
}

// makeReview works out and stores one queued review. A request may queue
// a review again just as it is stored (it read the store before the
// review was put there, and the queue after it left it), so one already
// stored is not made twice. A review finished once the server is closing
// is dropped: the store may be closed, and the review is made again when
// asked for.
func (s *API) makeReview(k reviewKey, raw []byte) {
	q := &s.reviews
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := s.store.Review(ctx, k.id, k.n, k.seat)
	switch {
	case err == nil: // made meanwhile
	case !errors.Is(err, store.ErrNotFound):
	default:
		var data []byte
		data, err = q.work(ctx, raw, k.seat)
		if err == nil && !s.closing() {
			err = s.store.PutReview(ctx, k.id, store.Review{N: k.n, Seat: k.seat, Data: data})
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.pending, k)
	q.queued--
	if err != nil && !s.closing() {
		s.log.Error("review failed", "table", k.id, "hand", k.n, "seat", k.seat, "err", err.Error())
		q.failed[k] = err.Error()
	}
}

// reviewCount is one stored review, counted.
type reviewCount struct {
	Hand     int     `json:"hand"`
	Seat     int     `json:"seat"`
	Mistakes int     `json:"mistakes"`
	Blunders int     `json:"blunders"`
	Loss     float64 `json:"loss"`
}

// countReviews counts the mistakes and blunders of stored reviews.
func countReviews(stored []store.Review) []reviewCount {
	out := []reviewCount{}
	for _, rv := range stored {
		var hr bot.HandReview
		if json.Unmarshal(rv.Data, &hr) != nil {
			continue
		}
		out = append(out, reviewCount{rv.N, rv.Seat, hr.Mistakes, hr.Blunders, hr.Loss})
	}
	return out
}

// handsAndReviews reads a table's finished hands and the reviews made of
// them.
func (s *API) handsAndReviews(ctx context.Context, id, op string) ([]store.Hand, []store.Review, error) {
	hands, err := s.store.Hands(ctx, id)
	if err != nil {
		return nil, nil, httpx.StoreDown(op, err)
	}
	stored, err := s.store.Reviews(ctx, id)
	if err != nil {
		return nil, nil, httpx.StoreDown(op, err)
	}
	return hands, stored, nil
}

// handleReviews serves GET /api/tables/{id}/reviews: the match's reviews
// made so far, counted by hand and seat, and how many hands are finished.
func (s *API) handleReviews(w http.ResponseWriter, r *http.Request) {
	const op = "reviews"
	info, _, err := s.tables.PublicTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, op, access.Advice, info.ID, access.After) {
		return
	}
	hands, stored, err := s.handsAndReviews(r.Context(), info.ID, op)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"hands": len(hands), "reviews": countReviews(stored)})
}

// A match review asks for the reviews of every finished hand of a table
// for some seats. It goes through the same queue as a hand's review, a
// few at a time: it never has more than matchReviewBatch of a table's
// reviews queued at once, and never takes the last matchReviewRoom places
// of the queue, which are kept for single hands' reviews.
const (
	matchReviewBatch = 4
	matchReviewRoom  = maxReviewQueue / 4
)

// matchReviewStatus is the answer to a match review request.
type matchReviewStatus struct {
	Status  string        `json:"status"` // "done" or "pending"
	Hands   int           `json:"hands"`  // finished hands
	Seats   []int         `json:"seats"`  // the seats asked for
	Wanted  int           `json:"wanted"` // hands × seats
	Done    int           `json:"done"`
	Pending int           `json:"pending"` // queued or being worked out
	Waiting int           `json:"waiting"` // not queued yet: ask again
	Failed  int           `json:"failed"`
	Busy    bool          `json:"busy"` // the queue is full: ask again later
	Reviews []reviewCount `json:"reviews"`
}

// handleMatchReview serves POST /api/tables/{id}/reviews?seat=S: the
// reviews of every finished hand for seat S (every seat without it),
// queued a few at a time. The answer says how far they are, 200 when all
// are made (or failed), else 202: ask again after Retry-After seconds.
func (s *API) handleMatchReview(w http.ResponseWriter, r *http.Request) {
	const op = "match review"
	info, n, err := s.tables.PublicTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, op, access.Advice, info.ID, access.After) {
		return
	}
	var seats []int
	for k := range r.URL.Query() {
		if k != "seat" {
			s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "unknown parameter %q: a match review takes only seat", k).With("bad_query", map[string]any{"Name": k}))
			return
		}
	}
	if v := r.URL.Query().Get("seat"); v == "" || v == "all" {
		for i := range n {
			seats = append(seats, i)
		}
	} else {
		seat, err := seatParam(r, n, op)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		seats = []int{seat}
	}
	hands, stored, err := s.handsAndReviews(r.Context(), info.ID, op)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	made := map[[2]int]bool{}
	for _, rv := range stored {
		made[[2]int{rv.N, rv.Seat}] = true
	}
	out := matchReviewStatus{Hands: len(hands), Seats: seats, Wanted: len(hands) * len(seats), Reviews: countReviews(stored)}
	q := &s.reviews
	q.init()
	q.mu.Lock()
	mine := 0 // this table's reviews in the queue
	for k := range q.pending {
		if k.id == info.ID {
			mine++
		}
	}
	for _, h := range hands {
		for _, seat := range seats {
			k := reviewKey{info.ID, h.N, seat}
			_, failed := q.failed[k]
			switch {
			case made[[2]int{h.N, seat}]:
				out.Done++
			case failed:
				out.Failed++
			case q.pending[k]:
				out.Pending++
			case q.queued >= maxReviewQueue-matchReviewRoom:
				out.Waiting++
				out.Busy = true
			case mine >= matchReviewBatch:
				out.Waiting++
			default:
				s.enqueueLocked(k, h.Record)
				mine++
				out.Pending++
			}
		}
	}
	q.mu.Unlock()
	if out.Done+out.Failed == out.Wanted {
		out.Status = "done"
		httpx.WriteJSON(w, 200, out)
		return
	}
	out.Status = "pending"
	w.Header().Set("Retry-After", "1")
	if out.Busy {
		w.Header().Set("Retry-After", "5")
	}
	httpx.WriteJSON(w, 202, out)
}

// handlePostReview serves POST /api/review?seat=S: the review of a hand
// record sent as the body (a file from elsewhere), worked out at once in
// a slot of the same queue, and not kept.
func (s *API) handlePostReview(w http.ResponseWriter, r *http.Request) {
	const op = "review"
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxReplayBody))
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "the hand record is over %d bytes", maxReplayBody).With("record_large", map[string]any{"Max": maxReplayBody}))
		return
	}
	rec, err := pitch.ReadRecord(bytes.NewReader(raw))
	if err == nil {
		_, err = rec.State()
	}
	if err != nil {
		s.writeError(w, r, recordError(op, err))
		return
	}
	seat, err := seatParam(r, rec.Game.Seats(), op)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := &s.reviews
	q.init()
	if !q.reserve() {
		s.writeError(w, r, httpx.Errorf(httpx.Unavailable, op, "the server is busy with other reviews: try again in a minute").With("review_busy", nil))
		return
	}
	defer q.release()
	data, err := q.work(r.Context(), raw, seat)
	if err != nil {
		s.writeError(w, r, recordError(op, err))
		return
	}
	httpx.WriteJSON(w, 200, reviewStatus{Status: "done", Seat: seat, Review: data})
}
