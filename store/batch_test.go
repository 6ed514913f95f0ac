package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pitch/store/storetest"
)

// TestBatchDeadlockTriedAgain: PostgreSQL gives up on one side of a
// deadlock (40P01). When that side is a batch of appends, the writes it
// gave up on are tried again once the other side is done, and every
// append is stored: the caller never hears of the deadlock. The other
// side here is a plain transaction that locks the second table's row, then
// (once the batch waits for it) the first's.
func TestBatchDeadlockTriedAgain(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	dsn := storetest.FreshPostgres(t, base)
	st := open(t, dsn).(*sqlStore)
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// The deadlock detector of the side that waited first runs first
	// (deadlock_timeout after it began to wait) and gives up on its own
	// transaction, so the batch is the side given up on unless the
	// machine is very slow: try a few times for that case.
	for attempt := range 3 {
		x, y := "x"+string(rune('a'+attempt)), "y"+string(rune('a'+attempt))
		for _, id := range []string{x, y} {
			if err := st.CreateTable(ctx, newTable(id, time.Now())); err != nil {
				t.Fatal(err)
			}
		}
		other, err := raw.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		lock := func(id string) error {
			_, err := other.ExecContext(ctx, `SELECT 1 FROM tables WHERE id = $1 FOR NO KEY UPDATE`, id)
			return err
		}
		if err := lock(y); err != nil {
			t.Fatal(err)
		}
		// One batch: the append to x, then the one to y (which waits).
		reqs := make([]*writeReq, 2)
		for i, id := range []string{x, y} {
			a := Append{Event: Event{Seq: 0, Action: []byte(`{"seat":0,"bid":2}`), At: time.Now()}}
			reqs[i] = &writeReq{ctx: ctx, table: id, done: make(chan error, 1),
				f: func(ctx context.Context, tx *sql.Tx) error { return st.appendTx(ctx, tx, id, a, a.Event.At) }}
		}
		done := make(chan struct{})
		go func() { defer close(done); st.batch.commit(reqs) }()
		waitForLockWait(t, raw)
		time.Sleep(300 * time.Millisecond) // the batch's detector first
		otherErr := lock(x)
		if otherErr == nil {
			otherErr = other.Commit()
		} else {
			other.Rollback() //nolint:errcheck
		}
		<-done
		errs := []error{<-reqs[0].done, <-reqs[1].done}
		if retryable(otherErr) {
			t.Logf("attempt %d: the other side was given up on (%v); again", attempt, otherErr)
			continue
		}
		if otherErr != nil {
			t.Fatalf("the other side: %v", otherErr)
		}
		for i, id := range []string{x, y} {
			if errs[i] != nil {
				t.Errorf("append to %s: %v, want it stored after the deadlock", id, errs[i])
			}
			if ev, err := st.Events(ctx, id); err != nil || len(ev) != 1 {
				t.Errorf("table %s holds %d events (%v), want 1", id, len(ev), err)
			}
		}
		if reqs[1].tries < 2 && reqs[0].tries < 2 {
			t.Errorf("no write was tried again (tries %d, %d): was there a deadlock?", reqs[0].tries, reqs[1].tries)
		}
		return
	}
	t.Fatal("the batch was never the side given up on")
}

// waitForLockWait waits until some session of the database waits for a
// row lock.
func waitForLockWait(t *testing.T, db *sql.DB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var n int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`).Scan(&n)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
	}
	t.Fatal("the batch never waited for the row lock")
}

// TestBatchFailingWriteAlone: in a batch, a write that fails is rolled
// back alone, even what it wrote before it failed, and the others commit,
// on both databases. A batch runs first without savepoints and again with
// them only when a write fails: a write's function then runs twice, and
// what it sets is its last run's. A batch where every write succeeds,
// or of one write, is not run again.
func TestBatchFailingWriteAlone(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testBatchFailingWriteAlone(t, filepath.Join(t.TempDir(), "pitch.db")) })
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PITCH_TEST_POSTGRES")
		if base == "" {
			t.Skip("PITCH_TEST_POSTGRES is not set")
		}
		testBatchFailingWriteAlone(t, storetest.FreshPostgres(t, base))
	})
}

func testBatchFailingWriteAlone(t *testing.T, dsn string) {
	st := open(t, dsn).(*sqlStore)
	for _, id := range []string{"a", "b", "c"} {
		mustCreate(t, st, newTable(id, time.Time{}))
	}
	appendTo := func(id string, seq int) func(context.Context, *sql.Tx) error {
		return func(ctx context.Context, tx *sql.Tx) error {
			return st.appendTx(ctx, tx, id, Append{Event: Event{Seq: seq, Action: action(seq)}}, time.Now())
		}
	}
	boom := errors.New("boom")
	var runs, seen int
	failing := func(seq int) func(context.Context, *sql.Tx) error {
		return func(ctx context.Context, tx *sql.Tx) error { // writes, then fails
			if err := appendTo("c", seq)(ctx, tx); err != nil {
				return err
			}
			return boom
		}
	}
	fs := []func(context.Context, *sql.Tx) error{
		appendTo("a", 0),
		func(ctx context.Context, tx *sql.Tx) error { // what the caller reads back
			runs++
			return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM table_events`).Scan(&seen)
		},
		failing(0),
		appendTo("b", 5), // a gap: a conflict
		appendTo("b", 0),
	}
	batch := func(fs ...func(context.Context, *sql.Tx) error) []error {
		reqs := make([]*writeReq, len(fs))
		for i, f := range fs {
			reqs[i] = &writeReq{ctx: ctx, f: f, done: make(chan error, 1)}
		}
		st.batch.commit(reqs)
		errs := make([]error, len(reqs))
		for i, r := range reqs {
			errs[i] = <-r.done
		}
		return errs
	}
	redos := st.batch.redos.Load()
	errs := batch(fs...)
	for i, want := range []error{nil, nil, boom, ErrConflict, nil} {
		if !errors.Is(errs[i], want) || (want == nil) != (errs[i] == nil) {
			t.Errorf("write %d: %v, want %v", i, errs[i], want)
		}
	}
	for id, want := range map[string][]int{"a": upTo(1), "b": upTo(1), "c": {}} {
		if got := seqs(t, st, id); !equalInts(got, want) {
			t.Errorf("table %s: events %v, want %v", id, got, want)
		}
	}
	if got := st.batch.redos.Load() - redos; got != 1 {
		t.Errorf("the batch was run again %d times, want once", got)
	}
	if runs != 2 || seen != 1 {
		t.Errorf("the reading write ran %d times and read %d events, want 2 and 1", runs, seen)
	}

	redos = st.batch.redos.Load()
	for i, err := range batch(appendTo("a", 1), appendTo("b", 1), appendTo("c", 0)) {
		if err != nil {
			t.Errorf("write %d of a good batch: %v", i, err)
		}
	}
	if errs := batch(failing(1)); !errors.Is(errs[0], boom) {
		t.Errorf("a batch of one failing write: %v, want %v", errs[0], boom)
	}
	if got := st.batch.redos.Load() - redos; got != 0 {
		t.Errorf("a good batch and a batch of one were run again %d times, want never", got)
	}
	for id, want := range map[string][]int{"a": upTo(2), "b": upTo(2), "c": upTo(1)} {
		if got := seqs(t, st, id); !equalInts(got, want) {
			t.Errorf("table %s: events %v, want %v", id, got, want)
		}
	}
}

// TestBatchPiped checks the pipelined run of a batch on PostgreSQL (see
// batcher.run): a batch whose writes all have a pipe goes in one
// pipeline, however many writes; a write without one sees what the
// piped writes before it wrote; and a piped write that fails (an event
// number with a gap, a deal for no table) makes the batch run again with
// f, which answers it with why while the others commit.
func TestBatchPiped(t *testing.T) {
	base := os.Getenv("PITCH_TEST_POSTGRES")
	if base == "" {
		t.Skip("PITCH_TEST_POSTGRES is not set")
	}
	st := open(t, storetest.FreshPostgres(t, base)).(*sqlStore)
	for _, id := range []string{"a", "b", "c"} {
		mustCreate(t, st, newTable(id, time.Time{}))
	}
	appendTo := func(id string, seq int) *writeReq {
		a, at := Append{Event: Event{Seq: seq, Action: action(seq)}}, time.Now()
		return &writeReq{ctx: ctx, table: id, done: make(chan error, 1), pipe: st.appendPipe(id, a, at),
			f: func(ctx context.Context, tx *sql.Tx) error { return st.appendTx(ctx, tx, id, a, at) }}
	}
	var seen []int
	reading := &writeReq{ctx: ctx, done: make(chan error, 1), f: func(ctx context.Context, tx *sql.Tx) error {
		var n int
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM table_events`).Scan(&n)
		seen = append(seen, n)
		return err
	}}
	commit := func(reqs ...*writeReq) []error {
		st.batch.commit(reqs)
		errs := make([]error, len(reqs))
		for i, r := range reqs {
			errs[i] = <-r.done
		}
		return errs
	}
	counts := func() (pipelines, redos int64) { return st.batch.pipelines.Load(), st.batch.redos.Load() }

	p0, r0 := counts()
	for i, err := range commit(appendTo("a", 0), appendTo("b", 0), appendTo("c", 0), appendTo("a", 1)) {
		if err != nil {
			t.Errorf("write %d of a good batch: %v", i, err)
		}
	}
	if p, r := counts(); p-p0 != 1 || r != r0 {
		t.Errorf("a batch of 4 piped writes: %d pipelines and %d runs again, want 1 and 0", p-p0, r-r0)
	}

	p0, r0 = counts()
	errs := commit(appendTo("a", 2), reading, appendTo("b", 5), appendTo("b", 1), appendTo("nowhere", 0))
	for i, want := range []error{nil, nil, ErrConflict, nil, ErrNotFound} {
		if !errors.Is(errs[i], want) || (want == nil) != (errs[i] == nil) {
			t.Errorf("write %d: %v, want %v", i, errs[i], want)
		}
	}
	if p, r := counts(); p-p0 < 1 || r-r0 != 1 {
		t.Errorf("a batch with a failing piped write: %d pipelines and %d runs again, want at least 1 and 1", p-p0, r-r0)
	}
	// The reading write ran in the pipelined run and again with f: both
	// times after a's third event, 5 events in all before b's second.
	if len(seen) != 2 || seen[0] != 5 || seen[1] != 5 {
		t.Errorf("the write between piped ones read %v events, want [5 5]", seen)
	}
	for id, want := range map[string][]int{"a": upTo(3), "b": upTo(2), "c": upTo(1)} {
		if got := seqs(t, st, id); !equalInts(got, want) {
			t.Errorf("table %s: events %v, want %v", id, got, want)
		}
	}
	// The fair deal's writes are piped too, and say why when refused.
	if err := st.SaveCommitment(ctx, "a", Commitment{N: 1, Commitment: "c1", At: "t", Pending: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := st.AddDeal(ctx, "nowhere", Deal{N: 1, Data: json.RawMessage(`{}`)}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a deal for no table: %v, want %v", err, ErrNotFound)
	}
	if err := st.AddDeal(ctx, "a", Deal{N: 1, Data: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := st.AddDeal(ctx, "a", Deal{N: 1, Data: json.RawMessage(`{}`)}); !errors.Is(err, ErrConflict) {
		t.Errorf("a deal made twice: %v, want %v", err, ErrConflict)
	}
	if deals, err := st.Deals(ctx, "a"); err != nil || len(deals) != 1 {
		t.Errorf("deals of a: %v, %v; want one", deals, err)
	}
}
