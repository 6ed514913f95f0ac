package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Cluster is what a store shared by several server processes offers
// besides Store: PostgreSQL's (docs/deploy.md). The event log's numbering
// orders the actions of every process (Append's ErrConflict); notes tell
// every process that a table changed; leases give each table one process
// that drives it (its bots, stand-ins and timers); presence tells the
// driver who is connected at the other processes. Times of leases and
// heartbeats are the database's clock, so processes on machines whose
// clocks differ agree on them.
type Cluster interface {
	// Listen calls fn with every note any process on this database sends
	// (its own included), in the order they were committed, until ctx
	// ends. Each time it (re)connects to the database it calls fn with a
	// NoteResync note first: notes sent before may have been missed.
	// It returns ctx's error.
	Listen(ctx context.Context, fn func(Note)) error
	// Notify sends n to every process listening.
	Notify(ctx context.Context, n Note) error
	// EventsFrom returns the events of a table's log from number from on.
	EventsFrom(ctx context.Context, id string, from int) ([]Event, error)
	// Heartbeat records that process is alive for ttl more.
	Heartbeat(ctx context.Context, process string, ttl time.Duration) error
	// Processes returns the live processes: those whose heartbeat has
	// not run out. A process that drained (ReleaseLeases with nil) is no
	// longer one.
	Processes(ctx context.Context) ([]string, error)
	// RenewLeases extends every lease process holds by ttl and returns
	// their tables.
	RenewLeases(ctx context.Context, process string, ttl time.Duration) ([]string, error)
	// AcquireLeases takes, for ttl, the leases of the tables ids that no
	// live process holds (none, or expired) and returns those it took or
	// held already.
	AcquireLeases(ctx context.Context, process string, ids []string, ttl time.Duration) ([]string, error)
	// ReleaseLeases gives up process's leases of ids (all, with its
	// presence and heartbeat, when ids is nil), and sends a NoteReleased
	// for each table so another process takes it at once.
	ReleaseLeases(ctx context.Context, process string, ids []string) error
	// Sweep deletes what dead processes leave behind: every lease that
	// has expired (a table nobody took over, a finished one say, would
	// otherwise stay leased to a process that is gone), and the
	// heartbeats and presence of processes whose heartbeat ran out more
	// than gone ago.
	Sweep(ctx context.Context, gone time.Duration) error
	// SetPresence records, in one commit, each change's count of the
	// connections process holds to a seat of a table (0 removes the
	// record), and sends every listening process a NotePresence from
	// process for each table changed as it commits. One commit for many
	// changes: thousands of people connecting at once cost a few syncs
	// to disk, not one each.
	SetPresence(ctx context.Context, process string, changes []PresenceChange) error
	// Presence returns, for each of the tables ids, the connections per
	// seat (-1: spectators) that live processes other than process hold.
	Presence(ctx context.Context, process string, ids []string) (map[string]map[int]int, error)
}

// The kinds of Note.
const (
	NoteEvents   = 'e' // a table's log grew to Seq events
	NoteDeal     = 'd' // hand Seq of a table was dealt (a fair deal stored)
	NoteInfo     = 'i' // a table's seats, next table or closed flag changed
	NoteNew      = 'n' // a table was created
	NotePresence = 'p' // who is connected to a table changed (From's connections)
	NoteReleased = 'l' // a table's lease was given up
	NoteResync   = 'r' // notes may have been missed: check every table (Listen's, never sent)
	NoteServer   = 's' // a server's own message (Text), passed on as it is
	// NoteTournament: an event (Tournament) was created or changed; its
	// ID is in Table, its new version in Seq.
	NoteTournament = 't'
)

// Note is a message to every process sharing the database.
type Note struct {
	Kind  byte
	Table string // the table it is about (NoteTournament: the event)
	Seq   int    // NoteEvents: the log's length; NoteDeal: the hand; NoteTournament: the event's version
	From  string // the process that sent it ("" for the store's own notes)
	Text  string // the rest (a server's own message)
}

// maxNote is PostgreSQL's bound on a notification's payload (8,000 bytes),
// with room to spare.
const maxNote = 7900

func (n Note) encode() (string, error) {
	if strings.ContainsAny(n.Table, " ") || strings.ContainsAny(n.From, " ") {
		return "", fmt.Errorf("a note's table and sender may not hold spaces")
	}
	from := n.From
	if from == "" {
		from = "-"
	}
	tbl := n.Table
	if tbl == "" {
		tbl = "-"
	}
	p := string(n.Kind) + " " + tbl + " " + strconv.Itoa(n.Seq) + " " + from + " " + n.Text
	if len(p) > maxNote {
		return "", fmt.Errorf("a note of %d bytes is over the %d a notification may hold", len(p), maxNote)
	}
	return p, nil
}

func parseNote(p string) (Note, bool) {
	f := strings.SplitN(p, " ", 5)
	if len(f) != 5 || len(f[0]) != 1 {
		return Note{}, false
	}
	seq, err := strconv.Atoi(f[2])
	if err != nil {
		return Note{}, false
	}
	n := Note{Kind: f[0][0], Table: f[1], Seq: seq, From: f[3], Text: f[4]}
	if n.Table == "-" {
		n.Table = ""
	}
	if n.From == "-" {
		n.From = ""
	}
	return n, true
}

// notifyTx sends n when tx commits (PostgreSQL; nothing for SQLite, whose
// database one process holds).
func (s *sqlStore) notifyTx(ctx context.Context, tx *sql.Tx, n Note) error {
	if s.d != postgresDialect {
		return nil
	}
	p, err := n.encode()
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, s.channel, p)
	return err
}

func (s *sqlStore) cluster() error {
	if s.d != postgresDialect {
		return errors.New("store: several processes need PostgreSQL; a SQLite file is one process's")
	}
	return nil
}

// Listen implements Cluster.
func (s *sqlStore) Listen(ctx context.Context, fn func(Note)) error {
	if err := s.cluster(); err != nil {
		return err
	}
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, s.dsn)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.channel}.Sanitize())
			if err == nil {
				fn(Note{Kind: NoteResync}) // what was sent before this connection listened is unknown to it
				backoff = 100 * time.Millisecond
				for {
					var n *pgconn.Notification
					n, err = conn.WaitForNotification(ctx)
					if err != nil {
						break
					}
					if note, ok := parseNote(n.Payload); ok {
						fn(note)
					}
				}
			}
			_ = conn.Close(context.WithoutCancel(ctx))
		}
		if ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
	return ctx.Err()
}

// Notify implements Cluster.
func (s *sqlStore) Notify(ctx context.Context, n Note) error {
	if err := s.cluster(); err != nil {
		return err
	}
	p, err := n.encode()
	if err != nil {
		return fmt.Errorf("store: notify: %w", err)
	}
	if _, err := s.w.ExecContext(ctx, `SELECT pg_notify($1, $2)`, s.channel, p); err != nil {
		return fmt.Errorf("store: notify: %w", err)
	}
	return nil
}

// EventsFrom implements Cluster (and works on SQLite too).
func (s *sqlStore) EventsFrom(ctx context.Context, id string, from int) ([]Event, error) {
	list := []Event{}
	rows, err := s.r.QueryContext(ctx, s.d.q(`SELECT seq, action, at, by_whom FROM table_events WHERE num = (SELECT num FROM tables WHERE id = ?) AND seq >= ? ORDER BY seq`), id, from)
	if err != nil {
		return nil, fmt.Errorf("store: read events of table %s from %d: %w", id, from, s.explain(err))
	}
	defer rows.Close()
	for rows.Next() {
		var (
			e      Event
			action string
			at     dbTime
		)
		if err := rows.Scan(&e.Seq, &action, &at, &e.By); err != nil {
			return nil, fmt.Errorf("store: read events of table %s: %w", id, err)
		}
		e.Action = []byte(action)
		e.At = at.t
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read events of table %s: %w", id, s.explain(err))
	}
	return list, nil
}

func ms(d time.Duration) int64 { return max(d.Milliseconds(), 1) }

// Heartbeat implements Cluster.
func (s *sqlStore) Heartbeat(ctx context.Context, process string, ttl time.Duration) error {
	if err := s.cluster(); err != nil {
		return err
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO processes (id, expires) VALUES ($1, now() + $2 * interval '1 millisecond')
		ON CONFLICT (id) DO UPDATE SET expires = EXCLUDED.expires`, process, ms(ttl))
	if err != nil {
		return fmt.Errorf("store: heartbeat: %w", err)
	}
	return nil
}

func (s *sqlStore) ids(ctx context.Context, what, q string, args ...any) ([]string, error) {
	rows, err := s.w.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}

// Processes implements Cluster.
func (s *sqlStore) Processes(ctx context.Context) ([]string, error) {
	if err := s.cluster(); err != nil {
		return nil, err
	}
	return s.ids(ctx, "live processes", `SELECT id FROM processes WHERE expires > now() ORDER BY id`)
}

// RenewLeases implements Cluster.
func (s *sqlStore) RenewLeases(ctx context.Context, process string, ttl time.Duration) ([]string, error) {
	if err := s.cluster(); err != nil {
		return nil, err
	}
	return s.ids(ctx, "renew leases", `UPDATE leases SET expires = now() + $2 * interval '1 millisecond'
		WHERE owner = $1 AND expires > now() RETURNING table_id`, process, ms(ttl))
}

// AcquireLeases implements Cluster.
func (s *sqlStore) AcquireLeases(ctx context.Context, process string, ids []string, ttl time.Duration) ([]string, error) {
	if err := s.cluster(); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.ids(ctx, "acquire leases", `INSERT INTO leases (table_id, owner, expires)
		SELECT t.id, $1, now() + $2 * interval '1 millisecond' FROM tables t WHERE t.id = ANY($3::text[])
		ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires
		WHERE leases.owner = EXCLUDED.owner OR leases.expires <= now()
		RETURNING table_id`, process, ms(ttl), ids)
}

// ReleaseLeases implements Cluster.
func (s *sqlStore) ReleaseLeases(ctx context.Context, process string, ids []string) error {
	if err := s.cluster(); err != nil {
		return err
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		q, args := `DELETE FROM leases WHERE owner = $1 RETURNING table_id`, []any{process}
		if ids != nil {
			q, args = `DELETE FROM leases WHERE owner = $1 AND table_id = ANY($2::text[]) RETURNING table_id`, []any{process, ids}
		}
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		var freed []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			freed = append(freed, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range freed {
			if err := s.notifyTx(ctx, tx, Note{Kind: NoteReleased, Table: id, From: process}); err != nil {
				return err
			}
		}
		if ids == nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM presence WHERE owner = $1`, process); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM processes WHERE id = $1`, process); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: release leases: %w", err)
	}
	return nil
}

// Sweep implements Cluster.
func (s *sqlStore) Sweep(ctx context.Context, gone time.Duration) error {
	if err := s.cluster(); err != nil {
		return err
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM leases WHERE expires <= now()`); err != nil {
		return fmt.Errorf("store: sweep leases: %w", err)
	}
	// The presence first: a process whose heartbeat is deleted in between
	// is swept again next time.
	dead := `SELECT id FROM processes WHERE expires <= now() - $1 * interval '1 millisecond'`
	if _, err := s.w.ExecContext(ctx, `DELETE FROM presence WHERE owner IN (`+dead+`)`, ms(gone)); err != nil {
		return fmt.Errorf("store: sweep presence: %w", err)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM processes WHERE id IN (`+dead+`)`, ms(gone)); err != nil {
		return fmt.Errorf("store: sweep processes: %w", err)
	}
	return nil
}

// PresenceChange is one seat's count of a process's connections to a
// table, for SetPresence.
type PresenceChange struct {
	Table string
	Seat  int // -1: the spectators
	Conns int // 0 removes the record
}

// SetPresence implements Cluster.
func (s *sqlStore) SetPresence(ctx context.Context, process string, changes []PresenceChange) error {
	if err := s.cluster(); err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: presence: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	noted := map[string]bool{}
	for _, c := range changes {
		if c.Conns <= 0 {
			_, err = tx.ExecContext(ctx, `DELETE FROM presence WHERE owner = $1 AND table_id = $2 AND seat = $3`, process, c.Table, c.Seat)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO presence (owner, table_id, seat, conns) VALUES ($1, $2, $3, $4)
			ON CONFLICT (owner, table_id, seat) DO UPDATE SET conns = EXCLUDED.conns`, process, c.Table, c.Seat, c.Conns)
		}
		if err != nil {
			return fmt.Errorf("store: presence at table %s: %w", c.Table, err)
		}
		if noted[c.Table] {
			continue
		}
		noted[c.Table] = true
		p, err := Note{Kind: NotePresence, Table: c.Table, From: process}.encode()
		if err != nil {
			return fmt.Errorf("store: presence at table %s: %w", c.Table, err)
		}
		if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, s.channel, p); err != nil {
			return fmt.Errorf("store: presence at table %s: %w", c.Table, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: presence: %w", err)
	}
	return nil
}

// Presence implements Cluster.
func (s *sqlStore) Presence(ctx context.Context, process string, ids []string) (map[string]map[int]int, error) {
	if err := s.cluster(); err != nil {
		return nil, err
	}
	out := map[string]map[int]int{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT p.table_id, p.seat, SUM(p.conns) FROM presence p JOIN processes r ON r.id = p.owner
		WHERE r.expires > now() AND p.owner <> $1 AND p.table_id = ANY($2::text[]) GROUP BY p.table_id, p.seat`, process, ids)
	if err != nil {
		return nil, fmt.Errorf("store: presence: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id      string
			seat, n int
		)
		if err := rows.Scan(&id, &seat, &n); err != nil {
			return nil, fmt.Errorf("store: presence: %w", err)
		}
		if out[id] == nil {
			out[id] = map[int]int{}
		}
		out[id][seat] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: presence: %w", err)
	}
	return out, nil
}
