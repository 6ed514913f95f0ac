package store

// Play now (README.md "Play now"): the tables it seats people at, a
// person's pending takeover of a bot's seat (one owner a seat), the
// takeover made at a hand boundary, a person leaving (the seat back to a
// bot), and the seat each person holds through it.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrHeld is returned when the person asking holds a play-now seat
// already (their row in play_now_people): PlayNowHeld says which.
var ErrHeld = errors.New("the person holds a play-now seat already")

// Claim is a pending takeover of a bot's seat: the person who takes the
// seat over at the table's next hand boundary.
type Claim struct {
	Name      string
	TokenHash []byte // SHA-256 of the token the person will play the seat with
	Account   string // "" for a guest
	At        time.Time
}

// TookOver says that the person holding a seat took it over from a bot.
type TookOver struct {
	Bot   int // the bot's number at the table ("Bot 2")
	Hand  int // the first hand the person played in the seat
	Score int // the seat's match score when they took it over
}

// Holder is who held a seat of a play-now table from hand Hand on, until
// the next Holder of the seat: a bot (Kind "bot", no name) or a person.
type Holder struct {
	Hand    int
	Kind    string // "human" or "bot"
	Name    string // a person's name; "" for a bot
	Account string // a person's account; "" for a guest or a bot
}

// PlaySeat is a seat asked for through play now.
type PlaySeat struct {
	Table     string
	Seat      int
	Name      string
	TokenHash []byte
	Account   string // "" for a guest
	// Owner is who asks: "a:" and an account's ID, or "g:" and the
	// SHA-256 of a guest browser's identity.
	Owner string
}

// Held is the seat (or pending takeover) a person holds through play now.
type Held struct {
	Table string
	Seat  int
}

// PlayNow is the store's part of play now. A claim, a takeover and a
// leave each lock the table's row: two at one table never interleave,
// whatever process makes them.
type PlayNow interface {
	// PlayNowTables returns the play-now tables neither finished nor
	// closed that play variant with options (as stored, byte for byte)
	// and turnTimer, rated or casual as rated says, oldest first, with
	// their seats and claims.
	PlayNowTables(ctx context.Context, variant string, options json.RawMessage, turnTimer int, rated bool) ([]*Table, error)
	// PlayNowHeld returns the seat owner holds through play now at a
	// table neither finished nor closed, or ErrNotFound.
	PlayNowHeld(ctx context.Context, owner string) (Held, error)
	// ClaimPlayNow gives p the seat p.Seat of play-now table p.Table: a
	// free human seat at once (pending false), a bot's seat as a claim
	// taken over at the next hand boundary (pending true). ErrConflict
	// when the seat is a person's or claimed already, or the table is not
	// a play-now table in play; ErrHeld when p.Owner holds a seat already
	// (nothing is written); ErrNotFound for no such table or seat.
	ClaimPlayNow(ctx context.Context, p PlaySeat) (pending bool, err error)
	// CreatePlayNow stores play-now table t (t.PlayNow is set), its seats'
	// holders from hand 1 and, in the same transaction, owner's hold of
	// seat, which t must give a token hash; ErrHeld when owner holds a
	// seat already (nothing is stored).
	CreatePlayNow(ctx context.Context, t *Table, owner string, seat int) error
	// TakeOverSeats makes the claims of table id, at the boundary before
	// hand, the seats' holders, in one transaction: each seat turns human
	// with the claim's name, token hash and account, its takeover is
	// recorded with marks[seat]'s bot and score, the person is the seat's
	// holder from hand on (Holder), and the claim is gone.
	// It returns the seats taken over, in order (none without claims).
	TakeOverSeats(ctx context.Context, id string, hand int, marks []TookOver) ([]int, error)
	// LeaveSeat gives seat of play-now table id back to a bot of level
	// when the person holding it with tokenHash leaves, the bot the
	// seat's holder from hand botHand on (a pending claim with tokenHash
	// is withdrawn instead), and forgets their hold. ErrConflict when
	// tokenHash holds neither, ErrNotFound for no such table.
	LeaveSeat(ctx context.Context, id string, seat int, tokenHash []byte, level string, botHand int) error
	// PopularRules counts the tables created since since that are
	// finished or still in play (not closed unfinished) by game and house
	// rules (options as stored): each game's rules, most tables first,
	// ties to the rules whose latest table is newest.
	PopularRules(ctx context.Context, since time.Time) ([]Popular, error)
}

// Popular is how many tables played a game's house rules (PlayNow.PopularRules).
type Popular struct {
	Variant string
	Options json.RawMessage
	Tables  int
}

// setHolder records in tx that seat of table id is held by h from h.Hand
// on (a later row for the same hand replaces the earlier: a person who
// left before playing a hand held nothing).
func (s *sqlStore) setHolder(ctx context.Context, tx *sql.Tx, id string, seat int, h Holder) error {
	var acct any
	if h.Account != "" {
		acct = h.Account
	}
	_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO seat_holders (table_id, seat, hand, kind, name, account_id) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (table_id, seat, hand) DO UPDATE SET kind = excluded.kind, name = excluded.name, account_id = excluded.account_id`),
		id, seat, h.Hand, h.Kind, h.Name, acct)
	return s.explain(err)
}

// seatClaims reads the claims and takeovers of the tables selected by
// where (a condition on table_id) into their seats, read already.
func (s *sqlStore) seatClaims(ctx context.Context, tx *sql.Tx, tables map[string]*Table, where string, args ...any) error {
	seatOf := func(id string, seat int) *Seat {
		t := tables[id]
		if t == nil {
			return nil
		}
		for i := range t.Seats {
			if t.Seats[i].Seat == seat {
				return &t.Seats[i]
			}
		}
		return nil
	}
	rows, err := tx.QueryContext(ctx, s.d.q(`SELECT table_id, seat, name, token_hash, account_id, at FROM seat_claims `+where), args...)
	if err != nil {
		return s.explain(err)
	}
	for rows.Next() {
		var (
			id   string
			seat int
			c    Claim
			acct sql.NullString
			at   dbTime
		)
		if err := rows.Scan(&id, &seat, &c.Name, &c.TokenHash, &acct, &at); err != nil {
			rows.Close()
			return err
		}
		c.Account, c.At = acct.String, at.t
		if st := seatOf(id, seat); st != nil {
			st.Claim = &c
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s.explain(err)
	}
	rows, err = tx.QueryContext(ctx, s.d.q(`SELECT table_id, seat, hand, bot, score FROM takeovers `+where+` ORDER BY table_id, seat, hand`), args...)
	if err != nil {
		return s.explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id   string
			seat int
			to   TookOver
		)
		if err := rows.Scan(&id, &seat, &to.Hand, &to.Bot, &to.Score); err != nil {
			return err
		}
		if st := seatOf(id, seat); st != nil && st.Kind == "human" {
			st.TookOver = &to // the last takeover is the holder's
		}
	}
	if err := rows.Err(); err != nil {
		return s.explain(err)
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, s.d.q(`SELECT table_id, seat, hand, kind, name, account_id FROM seat_holders `+where+` ORDER BY table_id, seat, hand`), args...)
	if err != nil {
		return s.explain(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id   string
			seat int
			h    Holder
			acct sql.NullString
		)
		if err := rows.Scan(&id, &seat, &h.Hand, &h.Kind, &h.Name, &acct); err != nil {
			return err
		}
		h.Account = acct.String
		if st := seatOf(id, seat); st != nil {
			st.Holders = append(st.Holders, h)
		}
	}
	return s.explain(rows.Err())
}

// PlayNowTables implements PlayNow.
func (s *sqlStore) PlayNowTables(ctx context.Context, variant string, options json.RawMessage, turnTimer int, rated bool) ([]*Table, error) {
	var list []*Table
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT `+tableCols+` FROM tables WHERE play_now AND NOT finished AND NOT closed AND variant = ? AND turn_timer = ? AND rated = ? ORDER BY created, id`), variant, turnTimer, rated)
		if err != nil {
			return s.explain(err)
		}
		byID := map[string]*Table{}
		var ids []any
		for rows.Next() {
			t, err := scanTable(rows)
			if err != nil {
				rows.Close()
				return err
			}
			if !bytes.Equal(t.Options, options) {
				continue
			}
			list = append(list, t)
			byID[t.ID] = t
			ids = append(ids, t.ID)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.explain(err)
		}
		for len(ids) > 0 { // a few hundred at a time: a statement's arguments are bounded
			n := min(len(ids), 500)
			where := `WHERE table_id IN (?` + strings.Repeat(`, ?`, n-1) + `)`
			if err := s.seats(ctx, tx, byID, where, ids[:n]...); err != nil {
				return err
			}
			if err := s.seatClaims(ctx, tx, byID, where, ids[:n]...); err != nil {
				return err
			}
			ids = ids[n:]
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: play-now tables of %s: %w", variant, err)
	}
	return list, nil
}

// PlayNowHeld implements PlayNow.
func (s *sqlStore) PlayNowHeld(ctx context.Context, owner string) (Held, error) {
	var h Held
	err := s.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT p.table_id, p.seat FROM play_now_people p JOIN tables t ON t.id = p.table_id WHERE p.owner = ? AND NOT t.finished AND NOT t.closed`), owner).Scan(&h.Table, &h.Seat)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return s.explain(err)
	})
	if err != nil {
		return Held{}, fmt.Errorf("store: play-now seat held: %w", err)
	}
	return h, nil
}

// hold records owner's hold of seat at table id in tx, after forgetting
// a hold at a table that has ended; ErrHeld if owner holds another.
func (s *sqlStore) hold(ctx context.Context, tx *sql.Tx, owner, id string, seat int) error {
	if owner == "" {
		return errors.New("no owner")
	}
	if _, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM play_now_people WHERE owner = ? AND table_id IN (SELECT id FROM tables WHERE finished OR closed)`), owner); err != nil {
		return s.explain(err)
	}
	var one int
	err := tx.QueryRowContext(ctx, s.d.q(`SELECT 1 FROM play_now_people WHERE owner = ?`), owner).Scan(&one)
	if err == nil {
		return ErrHeld
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return s.explain(err)
	}
	_, err = tx.ExecContext(ctx, s.d.q(`INSERT INTO play_now_people (owner, table_id, seat) VALUES (?, ?, ?)`), owner, id, seat)
	if isUnique(err) { // a second tab's Play, committed a moment ago
		return ErrHeld
	}
	return s.explain(err)
}

// lockPlayNow locks the row of play-now table id in tx, says whether it
// is in play, and whether it is rated.
func (s *sqlStore) lockPlayNow(ctx context.Context, tx *sql.Tx, id string) (rated bool, err error) {
	var playNow, finished, closed bool
	err = tx.QueryRowContext(ctx, s.d.q(`SELECT play_now, finished, closed, rated FROM tables WHERE id = ?`+s.d.forUpdate), id).Scan(&playNow, &finished, &closed, &rated)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, fmt.Errorf("%w: no such table", ErrNotFound)
	case err != nil:
		return false, s.explain(err)
	case !playNow:
		return false, fmt.Errorf("%w: not a play-now table", ErrConflict)
	case finished || closed:
		return false, fmt.Errorf("%w: the table's match has ended", ErrConflict)
	}
	return rated, nil
}

// ClaimPlayNow implements PlayNow.
func (s *sqlStore) ClaimPlayNow(ctx context.Context, p PlaySeat) (pending bool, err error) {
	if len(p.TokenHash) == 0 {
		return false, fmt.Errorf("store: play-now claim of table %s: empty token hash", p.Table)
	}
	var acct any // NULL for a guest
	if p.Account != "" {
		acct = p.Account
	}
	err = s.writeTable(ctx, p.Table, func(ctx context.Context, tx *sql.Tx) error {
		pending = false
		rated, err := s.lockPlayNow(ctx, tx, p.Table)
		if err != nil {
			return err
		}
		if rated && p.Account == "" {
			return fmt.Errorf("%w: a rated table seats signed-in people only", ErrConflict)
		}
		var (
			kind string
			hash []byte
		)
		err = tx.QueryRowContext(ctx, s.d.q(`SELECT kind, token_hash FROM seats WHERE table_id = ? AND seat = ?`), p.Table, p.Seat).Scan(&kind, &hash)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: no such seat", ErrNotFound)
		case err != nil:
			return s.explain(err)
		case kind == "human" && len(hash) > 0:
			return fmt.Errorf("%w: the seat is taken", ErrConflict)
		case kind == "human":
			if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE seats SET name = ?, token_hash = ?, account_id = ? WHERE table_id = ? AND seat = ?`),
				p.Name, p.TokenHash, acct, p.Table, p.Seat); err != nil {
				return s.explain(err)
			}
		default:
			_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO seat_claims (table_id, seat, name, token_hash, account_id, at) VALUES (?, ?, ?, ?, ?, ?)`),
				p.Table, p.Seat, p.Name, p.TokenHash, acct, s.d.timeArg(normTime(timeNow())))
			if isUnique(err) {
				return fmt.Errorf("%w: someone is taking this bot's seat over already", ErrConflict)
			}
			if err != nil {
				return s.explain(err)
			}
			pending = true
		}
		if err := s.hold(ctx, tx, p.Owner, p.Table, p.Seat); err != nil {
			return err
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: p.Table})
	})
	if err != nil {
		return false, fmt.Errorf("store: play-now claim of seat %d of table %s: %w", p.Seat, p.Table, err)
	}
	return pending, nil
}

// CreatePlayNow implements PlayNow.
func (s *sqlStore) CreatePlayNow(ctx context.Context, t *Table, owner string, seat int) error {
	t.PlayNow = true
	if seat < 0 || seat >= len(t.Seats) || len(t.Seats[seat].TokenHash) == 0 {
		return fmt.Errorf("store: create play-now table %s: seat %d is not held", t.ID, seat)
	}
	for i, st := range t.Seats {
		t.Seats[i].Holders = []Holder{{Hand: 1, Kind: st.Kind, Name: st.Name, Account: st.Account}}
	}
	return s.createTable(ctx, t, func(ctx context.Context, tx *sql.Tx) error {
		for _, st := range t.Seats {
			if err := s.setHolder(ctx, tx, t.ID, st.Seat, Holder{Hand: 1, Kind: st.Kind, Name: st.Name, Account: st.Account}); err != nil {
				return err
			}
		}
		return s.hold(ctx, tx, owner, t.ID, seat)
	})
}

// TakeOverSeats implements PlayNow.
func (s *sqlStore) TakeOverSeats(ctx context.Context, id string, hand int, marks []TookOver) ([]int, error) {
	var taken []int
	err := s.writeTable(ctx, id, func(ctx context.Context, tx *sql.Tx) error {
		taken = nil
		if _, err := s.lockPlayNow(ctx, tx, id); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT seat, name, token_hash, account_id FROM seat_claims WHERE table_id = ? ORDER BY seat`), id)
		if err != nil {
			return s.explain(err)
		}
		type claim struct {
			seat int
			name string
			hash []byte
			acct sql.NullString
		}
		var claims []claim
		for rows.Next() {
			var c claim
			if err := rows.Scan(&c.seat, &c.name, &c.hash, &c.acct); err != nil {
				rows.Close()
				return err
			}
			claims = append(claims, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.explain(err)
		}
		for _, c := range claims {
			if _, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM seat_claims WHERE table_id = ? AND seat = ?`), id, c.seat); err != nil {
				return s.explain(err)
			}
			var acct any
			if c.acct.Valid {
				acct = c.acct.String
			}
			res, err := tx.ExecContext(ctx, s.d.q(`UPDATE seats SET kind = 'human', level = '', name = ?, token_hash = ?, account_id = ? WHERE table_id = ? AND seat = ? AND kind = 'bot'`),
				c.name, c.hash, acct, id, c.seat)
			if err != nil {
				return s.explain(err)
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				if err != nil {
					return err
				}
				continue // not a bot's seat: nothing to take over
			}
			var m TookOver
			if c.seat < len(marks) {
				m = marks[c.seat]
			}
			if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO takeovers (table_id, seat, hand, bot, score) VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, seat, hand) DO UPDATE SET bot = excluded.bot, score = excluded.score`),
				id, c.seat, hand, m.Bot, m.Score); err != nil {
				return s.explain(err)
			}
			if err := s.setHolder(ctx, tx, id, c.seat, Holder{Hand: hand, Kind: "human", Name: c.name, Account: c.acct.String}); err != nil {
				return err
			}
			taken = append(taken, c.seat)
		}
		if len(claims) == 0 {
			return nil
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: id})
	})
	if err != nil {
		return nil, fmt.Errorf("store: take over seats of table %s: %w", id, err)
	}
	return taken, nil
}

// LeaveSeat implements PlayNow.
func (s *sqlStore) LeaveSeat(ctx context.Context, id string, seat int, tokenHash []byte, level string, botHand int) error {
	if len(tokenHash) == 0 {
		return fmt.Errorf("store: leave seat %d of table %s: empty token hash", seat, id)
	}
	err := s.writeTable(ctx, id, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := s.lockPlayNow(ctx, tx, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM seat_claims WHERE table_id = ? AND seat = ? AND token_hash = ?`), id, seat, tokenHash)
		if err != nil {
			return s.explain(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 { // no claim of theirs: the seat itself
			res, err = tx.ExecContext(ctx, s.d.q(`UPDATE seats SET kind = 'bot', level = ?, name = '', token_hash = NULL, account_id = NULL WHERE table_id = ? AND seat = ? AND kind = 'human' AND token_hash = ?`),
				level, id, seat, tokenHash)
			if err != nil {
				return s.explain(err)
			}
			if n, err = res.RowsAffected(); err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("%w: that token holds neither the seat nor a claim on it", ErrConflict)
			}
			if err := s.setHolder(ctx, tx, id, seat, Holder{Hand: botHand, Kind: "bot"}); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM play_now_people WHERE table_id = ? AND seat = ?`), id, seat); err != nil {
			return s.explain(err)
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: id})
	})
	if err != nil {
		return fmt.Errorf("store: leave seat %d of table %s: %w", seat, id, err)
	}
	return nil
}

// PopularRules implements PlayNow.
func (s *sqlStore) PopularRules(ctx context.Context, since time.Time) ([]Popular, error) {
	var out []Popular
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT variant, COALESCE(CAST(options AS TEXT), ''), COUNT(*), MAX(created) FROM tables
			WHERE created >= ? AND (finished OR NOT closed) GROUP BY variant, CAST(options AS TEXT) ORDER BY variant, COUNT(*) DESC, MAX(created) DESC`), s.d.timeArg(normTime(since)))
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				p    Popular
				opts string
				last dbTime
			)
			if err := rows.Scan(&p.Variant, &opts, &p.Tables, &last); err != nil {
				return err
			}
			p.Options = json.RawMessage(opts)
			out = append(out, p)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: the most played house rules: %w", err)
	}
	return out, nil
}
