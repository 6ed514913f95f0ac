package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// batcher groups writes into shared commits (SQLite and PostgreSQL). Every commit is
// synced to disk (synchronous=FULL), and a sync costs milliseconds, so one
// commit per action would cap a server at a few hundred actions a second.
// Writes that arrive while a commit is under way wait and go together in
// the next one. A write that fails (an append with a wrong event number,
// say) is rolled back alone, the others committed (see commit), and each
// caller is answered only once its write is on disk.
type batcher struct {
	s     *sqlStore
	reqs  chan *writeReq
	quit  chan struct{}
	wg    sync.WaitGroup
	close sync.Once

	// window is the least time between the starts of two commits while
	// other writers are about (see gather); 0 commits at once.
	window time.Duration
	// seen is when each table last had a write taken, within the last
	// horizon (loop's goroutine only). Writes of no table (accounts,
	// ratings) are not counted: they come one by one, not as a stream.
	seen map[string]time.Time
	// waiting, if set (tests), is called when gather begins to wait.
	waiting func()

	// tries counts the batches run, redos those run again with
	// savepoints because a write failed (see commit), pipelines the
	// pipelines sent (PostgreSQL: see run), writes the writes batched.
	tries, redos, pipelines, writes atomic.Int64
}

type writeReq struct {
	ctx   context.Context
	table string // the tables row f changes, if any: see dialect.lockTables
	f     func(context.Context, *sql.Tx) error
	done  chan error
	tries int // commits this write was in that PostgreSQL gave up on
	// pipe, if set (PostgreSQL only), queues f's statements on a pipeline
	// instead, each with a check that fails if the statement did not do
	// what f would have accepted: see run.
	pipe func(*pgx.Batch)
}

// errPiped fails a batch's pipeline when a piped statement changed
// nothing where it should have: the batch is then run again with f, which
// says why (see run). It never reaches a caller.
var errPiped = errors.New("store: a piped statement changed nothing")

// pipedOne is a check for a piped statement that must change exactly one
// row.
func pipedOne(ct pgconn.CommandTag) error {
	if ct.RowsAffected() != 1 {
		return errPiped
	}
	return nil
}

// pipedAny is a check for a piped statement whose result does not matter.
func pipedAny(pgconn.CommandTag) error { return nil }

// maxTries bounds the commits a write is tried in when PostgreSQL gives up
// on it for a deadlock or a serialization failure (retryable).
const maxTries = 3

// maxBatch bounds the writes in one commit.
const maxBatch = 256

func newBatcher(s *sqlStore, window time.Duration) *batcher {
	b := &batcher{s: s, reqs: make(chan *writeReq), quit: make(chan struct{}), window: window, seen: map[string]time.Time{}}
	b.wg.Add(1)
	go b.loop()
	return b
}

func (b *batcher) stop() {
	b.close.Do(func() { close(b.quit) })
	b.wg.Wait()
}

// do queues one write and waits for its commit. table, if not empty, is
// the id of the tables row f changes.
// pipe, if not nil, is f as statements to pipeline (see writeReq).
func (b *batcher) do(ctx context.Context, table string, f func(context.Context, *sql.Tx) error, pipe func(*pgx.Batch)) error {
	r := &writeReq{ctx: ctx, table: table, f: f, pipe: pipe, done: make(chan error, 1)}
	select {
	case b.reqs <- r:
	case <-b.quit:
		return fmt.Errorf("the store is closed")
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once queued, wait for the answer even if ctx ends: the write may be
	// committed, and the caller must not think otherwise.
	return <-r.done
}

func (b *batcher) loop() {
	defer b.wg.Done()
	var last time.Time // when the last commit began
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		var first *writeReq
		select {
		case first = <-b.reqs:
		case <-b.quit:
			return
		}
		batch := []*writeReq{first}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-b.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		if b.window > 0 {
			batch = b.gather(batch, last, timer)
		}
		last = time.Now()
		b.writes.Add(int64(len(batch)))
		b.commit(batch)
	}
}

// gather holds a batch open for more writes until window has passed since
// the last commit began, so that under load a commit (and its fsync, and
// its pages) is shared by the writes of many tables instead of one or
// two: at 500 actions a second, a commit took 1.3 writes, and the commits
// were two fifths of the server's CPU (docs/performance.md, "Commits
// shared by time").
//
// It waits only for writers that can still come. A table has one write
// under way at a time (its next action waits for this one's answer), so
// once every table that wrote within the last horizon is in the batch,
// nothing is gained by waiting: a lone writer, or a few writing as fast
// as they are answered, commit at once as before. It does not wait past
// the window either when the writes come further apart than that.
func (b *batcher) gather(batch []*writeReq, last time.Time, timer *time.Timer) []*writeReq {
	now := time.Now()
	horizon := 4 * b.window
	for src, t := range b.seen {
		if now.Sub(t) > horizon {
			delete(b.seen, src)
		}
	}
	in := make(map[string]bool, len(batch))
	add := func(r *writeReq) {
		if r.table != "" {
			in[r.table] = true
			b.seen[r.table] = now
		}
	}
	for _, r := range batch {
		add(r)
	}
	wait := last.Add(b.window).Sub(now)
	if wait <= 0 || len(in) >= len(b.seen) || len(batch) >= maxBatch {
		return batch
	}
	if b.waiting != nil {
		b.waiting()
	}
	timer.Reset(wait)
	defer timer.Stop()
	for len(batch) < maxBatch && len(in) < len(b.seen) {
		select {
		case r := <-b.reqs:
			now = time.Now()
			batch = append(batch, r)
			add(r)
		case <-timer.C:
			return batch
		case <-b.quit:
			return batch
		}
	}
	return batch
}

// commit runs a batch in one transaction. The writes PostgreSQL gives up
// on for a deadlock or a serialization failure are tried again in a
// transaction of their own once this one is done (the locks the other
// transaction waited for then gone), up to maxTries.
//
// A batch runs first without savepoints (two statements more for each
// write, about a third of an append's): as nearly every write succeeds,
// the batch then commits as it is. Should one of its writes fail, the
// transaction is rolled back and the batch run again with a savepoint
// around each write, so that the failing write is rolled back alone and
// the others commit. A write's function may therefore run twice (as it
// may already when PostgreSQL gives up on it): it must leave nothing
// behind but what it sets afresh at each run. A batch of one write needs
// no savepoint: its transaction is its own.
func (b *batcher) commit(batch []*writeReq) {
	for len(batch) > 0 {
		batch = b.try(batch)
	}
}

// try runs a batch in one transaction and answers its writes, except those
// to try again, which it returns.
func (b *batcher) try(batch []*writeReq) (again []*writeReq) {
	b.tries.Add(1)
	again, ok := b.run(batch, false)
	if !ok {
		b.redos.Add(1)
		again, _ = b.run(batch, true)
	}
	return again
}

// run runs a batch in one transaction, with a savepoint around each write
// if savepoints is set, and answers its writes, except those to try
// again, which it returns. Without savepoints, if a write of a batch of
// more than one fails, run rolls the transaction back, answers none and
// returns !ok: the batch is to be run again with savepoints.
//
// On PostgreSQL, a run without savepoints sends the statements of the
// writes that have a pipe together, with the tables' lock, in one round
// trip (a pgx pipeline on the transaction's connection) where f would
// wait for each statement's answer in turn. Under load a round trip is
// not the network's but the writer's wait for a core each time an
// answer comes, behind thousands of connections' goroutines, so one a
// statement capped a process's writes at about a thousand a second. A
// piped statement's check fails the run as a write's error would; the
// run with savepoints then uses f, which says why.
func (b *batcher) run(batch []*writeReq, savepoints bool) (again []*writeReq, ok bool) {
	ctx := context.Background() // one caller giving up must not undo the others
	errs := make([]error, len(batch))
	answer := func(r *writeReq, err error) {
		if r.tries++; retryable(err) && r.tries < maxTries {
			again = append(again, r)
			return
		}
		r.done <- err
	}
	piping := !savepoints && b.s.d.lockTables != "" && slices.ContainsFunc(batch, func(r *writeReq) bool { return r.pipe != nil })
	var (
		conn *sql.Conn
		tx   *sql.Tx
		err  error
	)
	if piping {
		if conn, err = b.s.bw.Conn(ctx); err == nil {
			defer conn.Close() //nolint:errcheck // back to the pool
			tx, err = conn.BeginTx(ctx, nil)
		}
	} else {
		tx, err = b.s.bw.BeginTx(ctx, nil)
	}
	if err != nil {
		for _, r := range batch {
			r.done <- b.s.explain(err)
		}
		return nil, true
	}
	var pipeline *pgx.Batch
	if piping {
		pipeline = &pgx.Batch{}
		if ids := lockIDs(batch); len(ids) > 0 {
			pipeline.Queue(b.s.d.lockTables, ids).Exec(pipedAny)
		}
	} else if err := b.lockTables(ctx, tx, batch); err != nil {
		tx.Rollback() //nolint:errcheck
		for _, r := range batch {
			answer(r, err)
		}
		return again, true
	}
	// send sends what is queued on the pipeline and runs its checks.
	send := func() error {
		if pipeline == nil || pipeline.Len() == 0 {
			return nil
		}
		b.pipelines.Add(1)
		err := conn.Raw(func(dc any) error {
			c, ok := dc.(*stdlib.Conn)
			if !ok {
				return fmt.Errorf("store: the writer's connection is a %T, not pgx's", dc)
			}
			return c.Conn().SendBatch(ctx, pipeline).Close()
		})
		pipeline = &pgx.Batch{}
		return err
	}
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if !savepoints {
			if piping && r.pipe != nil {
				r.pipe(pipeline)
				continue
			}
			// Not the caller's ctx: cancelling it mid-statement would
			// interrupt SQLite, which rolls back the whole shared
			// transaction.
			err := send()
			if err == nil {
				err = r.f(ctx, tx)
			}
			if err != nil {
				tx.Rollback() //nolint:errcheck
				if len(batch) > 1 || piping {
					return nil, false
				}
				answer(r, err)
				return again, true
			}
			continue
		}
		if _, err := b.s.execTx(ctx, tx, "SAVEPOINT a"); err != nil {
			errs[i] = b.s.explain(err)
			continue
		}
		if err := r.f(ctx, tx); err != nil {
			errs[i] = err
			if _, rerr := b.s.execTx(ctx, tx, "ROLLBACK TO a"); rerr != nil {
				// The transaction is in an unknown state: fail the batch.
				tx.Rollback() //nolint:errcheck
				for _, r := range batch {
					r.done <- b.s.explain(rerr)
				}
				return nil, true
			}
		}
		if _, err := b.s.execTx(ctx, tx, "RELEASE a"); err != nil && errs[i] == nil {
			errs[i] = b.s.explain(err)
		}
	}
	if err := send(); err != nil {
		tx.Rollback() //nolint:errcheck
		return nil, false
	}
	cerr := b.s.explain(tx.Commit())
	for i, r := range batch {
		if errs[i] == nil {
			errs[i] = cerr
		}
		answer(r, errs[i])
	}
	return again, true
}

// lockTables locks the tables rows the batch's writes change, in one
// order (PostgreSQL; see dialect.lockTables).
func (b *batcher) lockTables(ctx context.Context, tx *sql.Tx, batch []*writeReq) error {
	if b.s.d.lockTables == "" {
		return nil
	}
	ids := lockIDs(batch)
	if len(ids) == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, b.s.d.lockTables, ids)
	if err != nil {
		return err
	}
	return errors.Join(rows.Close(), rows.Err())
}

// lockIDs is the ids of the tables rows the batch's writes change, each
// once.
func lockIDs(batch []*writeReq) []string {
	var ids []string
	for _, r := range batch {
		if r.table != "" && !slices.Contains(ids, r.table) {
			ids = append(ids, r.table)
		}
	}
	return ids
}
