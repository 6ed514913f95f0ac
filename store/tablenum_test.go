package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"pitch"
	"pitch/store/storetest"
)

// TestTableNumbersMigration: a database of the schema before migration
// 0017 (events keyed by the table's ID), with played tables in it, is
// migrated when opened; every table's events, commitments and hands read
// back as they were written, the matches replay to the same hands (C-6:
// the seed and the decisions replay a match), appends go on from where
// each log stopped, and on PostgreSQL the version before's statements
// still work beside this one's (a rolling restart).
func TestTableNumbersMigration(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.db")
		db, err := sql.Open("sqlite", path+"?"+sqliteWriter)
		if err != nil {
			t.Fatal(err)
		}
		// The page size of databases made before 1 KiB pages.
		for _, p := range []string{"PRAGMA page_size = 4096", "PRAGMA journal_mode = WAL"} {
			if _, err := db.ExecContext(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		testTableNumbersMigration(t, db, sqliteDialect, path)
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PITCH_TEST_POSTGRES")
		if base == "" {
			t.Skip("PITCH_TEST_POSTGRES is not set")
		}
		dsn := storetest.FreshPostgres(t, base)
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		testTableNumbersMigration(t, db, postgresDialect, dsn)
	})
}

// oldTable is a table as written to the old schema, and its match.
type oldTable struct {
	id          string
	seed        uint64
	match       *pitch.Match
	events      []Event
	commitments []Commitment
	hands       []Hand
}

// playOld plays an auction match from seed with random legal actions
// for up to hands hands, as the events a server would have logged.
func playOld(t *testing.T, id string, seed uint64, hands int, start time.Time) *oldTable {
	t.Helper()
	g := pitch.MustNewGame(pitch.Auction)
	o := &oldTable{id: id, seed: seed, match: pitch.NewMatch(g, seed)}
	rng := pitch.NewRand(seed + 1)
	for len(o.match.Records()) < hands && !o.match.Over() {
		a := o.match.State().RandomAction(rng)
		if err := o.match.Apply(a); err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		by := ""
		if len(o.events)%7 == 3 {
			by = "table" // played for a seat out of time
		}
		o.events = append(o.events, Event{Seq: len(o.events), Action: data, By: by,
			At: normTime(start.Add(time.Duration(len(o.events)) * 1500 * time.Microsecond))})
	}
	for i, r := range o.match.Records() {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		o.hands = append(o.hands, Hand{N: i + 1, Record: data})
		o.commitments = append(o.commitments, Commitment{N: i + 1, Commitment: fmt.Sprintf("%064x", seed*100+uint64(i)),
			At: start.Format(timeLayout), Pending: json.RawMessage(fmt.Sprintf(`{"contributions":[{"seat":%d}]}`, i%4))})
	}
	return o
}

func testTableNumbersMigration(t *testing.T, db *sql.DB, d *dialect, dsn string) {
	const before = 16 // the last migration of the old schema
	if err := migrateTo(ctx, db, d, before); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, d.q(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	start := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	tables := []*oldTable{
		playOld(t, "hXq3v9Lk2mNpR7sT", 11, 3, start),
		playOld(t, "AAAAAAAAAAAAAAAA", 12, 2, start.Add(time.Minute)),
		playOld(t, "zz-last-table_01", 13, 1, start.Add(2*time.Minute)),
		{id: "Mm0quiet00000000", seed: 14, match: pitch.NewMatch(pitch.MustNewGame(pitch.Auction), 14)}, // no events
	}
	for i, o := range tables {
		exec(`INSERT INTO tables (id, variant, seed, turn_timer, created) VALUES (?, ?, ?, ?, ?)`,
			o.id, "auction", fmt.Sprint(o.seed), 30, d.timeArg(start.Add(time.Duration(i)*time.Minute)))
		for seat := range 4 {
			exec(`INSERT INTO seats (table_id, seat, kind, level, name) VALUES (?, ?, ?, ?, ?)`, o.id, seat, "bot", "easy", fmt.Sprintf("Bot %d", seat))
		}
	}
	// The events interleaved, as tables playing at once log them.
	for k := 0; ; k++ {
		any := false
		for _, o := range tables {
			if k < len(o.events) {
				e := o.events[k]
				exec(`INSERT INTO events (table_id, seq, action, at, by_whom) VALUES (?, ?, ?, ?, ?)`, o.id, e.Seq, string(e.Action), d.timeArg(e.At), e.By)
				any = true
			}
		}
		if !any {
			break
		}
	}
	for _, o := range tables {
		for _, h := range o.hands {
			exec(`INSERT INTO hands (table_id, n, record) VALUES (?, ?, ?)`, o.id, h.N, string(h.Record))
		}
		for _, c := range o.commitments {
			exec(`INSERT INTO commitments (table_id, n, commitment, at, pending) VALUES (?, ?, ?, ?, ?)`, o.id, c.N, c.Commitment, c.At, string(c.Pending))
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s := open(t, dsn) // migrates
	cl, ok := s.(Cluster)
	if !ok {
		t.Fatal("the store does not implement Cluster")
	}
	g := pitch.MustNewGame(pitch.Auction)
	for _, o := range tables {
		got, err := s.Events(ctx, o.id)
		if err != nil {
			t.Fatal(err)
		}
		want := o.events
		if want == nil {
			want = []Event{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("table %s: %d events after the migration, want the %d written before:\n%+v\nwant\n%+v", o.id, len(got), len(want), got, want)
		}
		if n := len(want); n > 0 {
			from, err := cl.EventsFrom(ctx, o.id, n/2)
			if err != nil || !reflect.DeepEqual(from, want[n/2:]) {
				t.Errorf("table %s: events from %d: %v (%v), want the last %d", o.id, n/2, from, err, n-n/2)
			}
		}
		actions := make([]pitch.Action, len(got))
		for i, e := range got {
			if err := json.Unmarshal(e.Action, &actions[i]); err != nil {
				t.Fatalf("table %s event %d: %v", o.id, e.Seq, err)
			}
		}
		m, err := pitch.Replay(g, o.seed, actions)
		if err != nil {
			t.Fatalf("table %s: replay: %v", o.id, err)
		}
		if !reflect.DeepEqual(m.Records(), o.match.Records()) || !reflect.DeepEqual(m.History(), o.match.History()) {
			t.Errorf("table %s replays to %d hands, %d actions; want %d, %d", o.id, len(m.Records()), len(m.History()), len(o.match.Records()), len(o.match.History()))
		}
		hands, err := s.Hands(ctx, o.id)
		if err != nil || len(hands) != len(o.hands) {
			t.Fatalf("table %s: hands %d (%v), want %d", o.id, len(hands), err, len(o.hands))
		}
		for i := range hands {
			if hands[i].N != o.hands[i].N || !jsonEqual(hands[i].Record, o.hands[i].Record) {
				t.Errorf("table %s: hand %d read back differs", o.id, i+1)
			}
		}
		cs, err := s.Commitments(ctx, o.id)
		if err != nil || len(cs) != len(o.commitments) {
			t.Fatalf("table %s: commitments %v (%v), want %v", o.id, cs, err, o.commitments)
		}
		for i, c := range cs {
			w := o.commitments[i]
			if c.N != w.N || c.Commitment != w.Commitment || c.At != w.At || !jsonEqual(c.Pending, w.Pending) {
				t.Errorf("table %s: commitment %+v, want %+v", o.id, c, w)
			}
		}
		info, err := s.Table(ctx, o.id)
		if err != nil || info.Seed != o.seed || len(info.Seats) != 4 {
			t.Errorf("table %s: %+v (%v), want seed %d and 4 seats", o.id, info, err, o.seed)
		}
	}

	// Play goes on: each log from its next number, a wrong number refused
	// with the next one named, and a commitment stored again replaced.
	first := tables[0]
	next := len(first.events)
	if err := s.Append(ctx, first.id, Append{Event: Event{Seq: next + 1, Action: action(1)}}); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), fmt.Sprintf("next event number is %d", next)) {
		t.Errorf("append of event %d to a log of %d: %v, want ErrConflict naming %d", next+1, next, err, next)
	}
	mustAppend(t, s, first.id, Append{Event: Event{Seq: next, Action: action(next)}})
	mustAppend(t, s, tables[3].id, Append{Event: Event{Seq: 0, Action: action(0)}})
	if evs, err := s.Events(ctx, first.id); err != nil || len(evs) != next+1 || string(evs[next].Action) != string(action(next)) {
		t.Errorf("table %s after an append: %d events (%v), want %d", first.id, len(evs), err, next+1)
	}
	c := first.commitments[0]
	c.Pending = json.RawMessage(`{"contributions":[{"seat":0},{"seat":1}]}`)
	if err := s.SaveCommitment(ctx, first.id, c); err != nil {
		t.Fatal(err)
	}
	if cs, err := s.Commitments(ctx, first.id); err != nil || len(cs) != len(first.commitments) || !jsonEqual(cs[0].Pending, c.Pending) {
		t.Errorf("commitments after one was stored again: %+v (%v), want %d with the first's pending deal replaced", cs, err, len(first.commitments))
	}

	if d == postgresDialect {
		testOldBeside(t, s.(*sqlStore), first.id, next+1)
	}

	// A table made now has a number of its own, above every other.
	mustCreate(t, s, newTable("newAfterMigrate1", time.Time{}))
	mustAppend(t, s, "newAfterMigrate1", Append{Event: Event{Seq: 0, Action: action(0)}})
	st := s.(*sqlStore)
	var nulls, dups, newest, top int
	q := `SELECT (SELECT COUNT(*) FROM tables WHERE num IS NULL), (SELECT COUNT(*) - COUNT(DISTINCT num) FROM tables),
		(SELECT num FROM tables WHERE id = ?), (SELECT MAX(num) FROM tables)`
	if err := st.r.QueryRowContext(ctx, st.d.q(q), "newAfterMigrate1").Scan(&nulls, &dups, &newest, &top); err != nil {
		t.Fatal(err)
	}
	if nulls != 0 || dups != 0 || newest != top || newest <= len(tables)-1 {
		t.Errorf("table numbers: %d without, %d shared, the new table's %d, the highest %d; want none, none, the highest", nulls, dups, newest, top)
	}
	if evs, err := s.Events(ctx, "newAfterMigrate1"); err != nil || len(evs) != 1 {
		t.Errorf("the new table's events: %v (%v), want its one", evs, err)
	}
}

// jsonEqual reports whether a and b are the same JSON value (PostgreSQL
// keeps JSON as written, but a test need not rely on it).
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// The version before's statements on events (store/events.go and
// store/cluster.go before migration 0017), which its processes run
// during a rolling restart.
const (
	oldAppendPostgres = `WITH ins AS (INSERT INTO events (table_id, seq, action, at, by_whom) SELECT $1, $2, $3, $4, $5
		FROM tables WHERE id = $1 AND $2 = (SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE table_id = $1) RETURNING seq)
		SELECT count(*) FROM (SELECT pg_notify($6, $7) FROM ins) AS noted`
	oldEventsFrom = `SELECT seq, action, at, by_whom FROM events WHERE table_id = $1 AND seq >= $2 ORDER BY seq`
)

// testOldBeside: on a migrated PostgreSQL database the version before
// appends to table id's log (of next events) through the view events,
// in turn with this version, and reads what both wrote; it is refused a
// number taken and a table that is not there, as before.
func testOldBeside(t *testing.T, s *sqlStore, id string, next int) {
	t.Helper()
	oldAppend := func(id string, seq int) int {
		t.Helper()
		var n int
		err := s.w.QueryRowContext(ctx, oldAppendPostgres, id, seq, string(action(seq)), time.Now(), "", s.channel, "{}").Scan(&n)
		if err != nil {
			t.Fatalf("the version before's append of event %d to table %s: %v", seq, id, err)
		}
		return n
	}
	if n := oldAppend(id, next); n != 1 {
		t.Fatalf("the version before's append of event %d: %d rows, want 1", next, n)
	}
	mustAppend(t, s, id, Append{Event: Event{Seq: next + 1, Action: action(next + 1)}})
	if n := oldAppend(id, next+1); n != 0 {
		t.Errorf("the version before's append of a number taken: %d rows, want 0", n)
	}
	if n := oldAppend("no-such-table", 0); n != 0 {
		t.Errorf("the version before's append to no table: %d rows, want 0", n)
	}
	want, err := s.Events(ctx, id)
	if err != nil || len(want) != next+2 {
		t.Fatalf("events after appends of both versions: %d (%v), want %d", len(want), err, next+2)
	}
	rows, err := s.r.QueryContext(ctx, oldEventsFrom, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []Event
	for rows.Next() {
		var (
			e      Event
			action string
			at     dbTime
		)
		if err := rows.Scan(&e.Seq, &action, &at, &e.By); err != nil {
			t.Fatal(err)
		}
		e.Action, e.At = json.RawMessage(action), at.t
		got = append(got, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the version before reads %d events, this one %d, or they differ", len(got), len(want))
	}
}
