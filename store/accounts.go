package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"pitch/account"
)

// Account is a person's account (docs/accounts.md). Its ID never changes;
// its name may.
type Account struct {
	ID       string // random, URL-safe; stable across renames
	Name     string // as chosen (NFC)
	NameKey  string // what makes two names the same (account.Key); unique
	Password string // argon2id PHC string; "" when the account has none (passkeys only)
	Created  time.Time
	Disabled bool // `pitch user disable`: no sign-in, no session
}

// Session is a signed-in browser: only the SHA-256 of its cookie's token is
// kept.
type Session struct {
	Hash    []byte
	Account string
	Created time.Time
	Expires time.Time
}

// Passkey is a WebAuthn credential of an account: its ID and the
// credential as the server's JSON (the store does not read it).
type Passkey struct {
	ID      []byte
	Account string
	Data    json.RawMessage
	Created time.Time
}

// AccountSeat is a seat an account holds, with its table.
type AccountSeat struct {
	Table    string
	Seat     int
	Name     string // the seat's display name
	Variant  string
	Created  time.Time
	Finished bool
	Closed   bool
}

// Accounts is the part of Store that keeps accounts. Every method that
// ends sessions ends all of the account's sessions in the same
// transaction.
type Accounts interface {
	// CreateAccount stores a new account; ErrConflict when its NameKey (or
	// ID) is taken. A zero Created is set to now.
	CreateAccount(ctx context.Context, a *Account) error
	// Account returns an account by ID, or ErrNotFound.
	Account(ctx context.Context, id string) (*Account, error)
	// AccountByName returns the account whose NameKey is key, or ErrNotFound.
	AccountByName(ctx context.Context, key string) (*Account, error)
	// NameTaken reports whether an account's name is name or looks like
	// it: the same key (account.Key) or the same confusable skeleton
	// (account.Skeleton), as CreateAccount refuses.
	NameTaken(ctx context.Context, name string) (bool, error)
	// ListAccounts returns every account, by name key.
	ListAccounts(ctx context.Context) ([]*Account, error)
	// SetPassword sets an account's password hash ("" removes it) and,
	// when endSessions is true, ends every session of the account.
	SetPassword(ctx context.Context, id, phc string, endSessions bool) error
	// SetDisabled disables or enables an account; disabling ends every
	// session and every reset link.
	SetDisabled(ctx context.Context, id string, disabled bool) error
	// DeleteAccount removes an account and everything kept about the
	// person, in one transaction: sessions, passkeys, reset links,
	// ratings, the events it joined (tournament_players). Its name goes
	// from every record: each seat it held (its own, and its seats at
	// the tables of its events and daily deals) keeps its place in the
	// games but is named anon instead (a name the caller picks, the same
	// everywhere), and so are those seats' fair-deal contributions in
	// hand records, deals and pending commitments, and its event entries;
	// its daily ownership is cleared. The hands stay replayable and
	// verifiable, and other players' records are untouched. ErrNotFound
	// for no such account.
	DeleteAccount(ctx context.Context, id, anon string) error

	// AccountStates tells, of the accounts ids, which exist and whether
	// each is disabled (true); an ID of no account (deleted) is not in
	// the map. A running server asks it of the accounts at its tables
	// (`pitch user` may have changed them).
	AccountStates(ctx context.Context, ids []string) (map[string]bool, error)

	// CreateSession stores a session.
	CreateSession(ctx context.Context, s Session) error
	// SessionAccount returns the account of the session whose hash is
	// given, if the session has not expired by now and the account is not
	// disabled; else ErrNotFound.
	SessionAccount(ctx context.Context, hash []byte, now time.Time) (*Account, error)
	// Sessions returns an account's sessions (their hashes, times).
	Sessions(ctx context.Context, account string) ([]Session, error)
	// EndSession removes one session (nothing if there is none).
	EndSession(ctx context.Context, hash []byte) error
	// EndSessions removes every session of an account.
	EndSessions(ctx context.Context, account string) error
	// DeleteExpired removes the sessions and reset links expired by now.
	DeleteExpired(ctx context.Context, now time.Time) error

	// AddPasskey stores a passkey; ErrConflict if its ID is stored already.
	AddPasskey(ctx context.Context, p Passkey) error
	// Passkeys returns an account's passkeys, oldest first.
	Passkeys(ctx context.Context, account string) ([]Passkey, error)
	// UpdatePasskey replaces a passkey's data (its sign count after a
	// sign-in); ErrNotFound if the account has no such passkey.
	UpdatePasskey(ctx context.Context, p Passkey) error
	// DeletePasskey removes passkey id of an account, unless it is the
	// account's last way to sign in (no password, no other passkey):
	// then ErrConflict, checked in the same transaction. ErrNotFound if
	// the account has no such passkey.
	DeletePasskey(ctx context.Context, account string, id []byte) error
	// DeletePasskeys removes every passkey of an account (a password
	// reset that revokes them) and answers how many there were.
	DeletePasskeys(ctx context.Context, account string) (int, error)

	// CreateReset stores a one-time password-reset link's token hash.
	CreateReset(ctx context.Context, hash []byte, account string, expires time.Time) error
	// UseReset removes the reset link whose token hash is given and
	// returns its account, or ErrNotFound if there is none or it has
	// expired by now.
	UseReset(ctx context.Context, hash []byte, now time.Time) (string, error)
	// ResetAccount returns the account of the reset link whose token hash
	// is given without using it up, or ErrNotFound if there is none or it
	// has expired by now.
	ResetAccount(ctx context.Context, hash []byte, now time.Time) (string, error)

	// SetSeatAccount gives a seat claimed as a guest to an account (a
	// guest who signs up mid-match keeps the seat) and names it name.
	// ErrNotFound for no such seat; ErrConflict when another account
	// holds it.
	SetSeatAccount(ctx context.Context, table string, seat int, account, name string) error
	// AccountSeats returns the seats an account holds, newest table first
	// (only unfinished, unclosed tables when open is true).
	AccountSeats(ctx context.Context, account string, open bool) ([]AccountSeat, error)
}

const accountCols = `id, name, name_key, password, created, disabled`

func scanAccount(sc interface{ Scan(...any) error }) (*Account, error) {
	var (
		a       Account
		created dbTime
	)
	if err := sc.Scan(&a.ID, &a.Name, &a.NameKey, &a.Password, &created, &a.Disabled); err != nil {
		return nil, err
	}
	a.Created = created.t
	return &a, nil
}

// CreateAccount implements Accounts.
func (s *sqlStore) CreateAccount(ctx context.Context, a *Account) error {
	if a.ID == "" || a.NameKey == "" || a.Name == "" {
		return fmt.Errorf("store: create account: empty ID, name or name key")
	}
	if a.Created.IsZero() {
		a.Created = timeNow()
	}
	a.Created = normTime(a.Created)
	skeleton := account.Skeleton(a.Name)
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// A name that looks like one taken is taken (docs/accounts.md).
		var n int
		if err := tx.QueryRowContext(ctx, s.d.q(`SELECT COUNT(*) FROM accounts WHERE name_skeleton = ?`), skeleton).Scan(&n); err != nil {
			return s.explain(err)
		}
		if n > 0 {
			return fmt.Errorf("%w: the name looks like one that is taken", ErrConflict)
		}
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO accounts (`+accountCols+`, name_skeleton) VALUES (?, ?, ?, ?, ?, ?, ?)`),
			a.ID, a.Name, a.NameKey, a.Password, s.d.timeArg(a.Created), a.Disabled, skeleton)
		if isUnique(err) {
			return fmt.Errorf("%w: the name is taken", ErrConflict)
		}
		return s.explain(err)
	})
	if err != nil {
		return fmt.Errorf("store: create account: %w", err)
	}
	return nil
}

func (s *sqlStore) accountWhere(ctx context.Context, where string, arg any) (*Account, error) {
	var a *Account
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = scanAccount(tx.QueryRowContext(ctx, s.d.q(`SELECT `+accountCols+` FROM accounts WHERE `+where), arg))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return s.explain(err)
	})
	if err != nil {
		return nil, fmt.Errorf("store: read account: %w", err)
	}
	return a, nil
}

// Account implements Accounts.
func (s *sqlStore) Account(ctx context.Context, id string) (*Account, error) {
	return s.accountWhere(ctx, `id = ?`, id)
}

// AccountByName implements Accounts.
func (s *sqlStore) AccountByName(ctx context.Context, key string) (*Account, error) {
	return s.accountWhere(ctx, `name_key = ?`, key)
}

// ListAccounts implements Accounts.
func (s *sqlStore) ListAccounts(ctx context.Context) ([]*Account, error) {
	var list []*Account
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+accountCols+` FROM accounts ORDER BY name_key`)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			a, err := scanAccount(rows)
			if err != nil {
				return err
			}
			list = append(list, a)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: list accounts: %w", err)
	}
	return list, nil
}

// execOne runs q, which must change one row of an account, else ErrNotFound.
func execOne(ctx context.Context, tx *sql.Tx, s *sqlStore, q string, args ...any) error {
	res, err := tx.ExecContext(ctx, s.d.q(q), args...)
	if err != nil {
		return s.explain(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: no such account", ErrNotFound)
	}
	return nil
}

// SetPassword implements Accounts.
func (s *sqlStore) SetPassword(ctx context.Context, id, phc string, endSessions bool) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := execOne(ctx, tx, s, `UPDATE accounts SET password = ? WHERE id = ?`, phc, id); err != nil {
			return err
		}
		if !endSessions {
			return nil
		}
		_, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM sessions WHERE account_id = ?`), id)
		return s.explain(err)
	})
	if err != nil {
		return fmt.Errorf("store: set password: %w", err)
	}
	return nil
}

// SetDisabled implements Accounts.
func (s *sqlStore) SetDisabled(ctx context.Context, id string, disabled bool) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := execOne(ctx, tx, s, `UPDATE accounts SET disabled = ? WHERE id = ?`, disabled, id); err != nil {
			return err
		}
		// The leaderboard's copy (migration 0012).
		if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE ratings SET disabled = ? WHERE account_id = ?`), disabled, id); err != nil {
			return s.explain(err)
		}
		if !disabled {
			return nil
		}
		for _, q := range []string{`DELETE FROM sessions WHERE account_id = ?`, `DELETE FROM resets WHERE account_id = ?`} {
			if _, err := tx.ExecContext(ctx, s.d.q(q), id); err != nil {
				return s.explain(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: disable account: %w", err)
	}
	return nil
}

// DeleteAccount implements Accounts: everything in one transaction
// (scrubAccount, scrub.go).
func (s *sqlStore) DeleteAccount(ctx context.Context, id, anon string) error {
	if anon == "" {
		return fmt.Errorf("store: delete account: empty anonymous name")
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT 1 FROM accounts WHERE id = ?`), id).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no such account", ErrNotFound)
		}
		if err != nil {
			return s.explain(err)
		}
		tables, err := s.scrubAccount(ctx, tx, id, anon)
		if err != nil {
			return err
		}
		for _, q := range []string{`DELETE FROM sessions WHERE account_id = ?`, `DELETE FROM passkeys WHERE account_id = ?`,
			`DELETE FROM resets WHERE account_id = ?`, `DELETE FROM play_now_people WHERE owner = 'a:' || ?`} {
			if _, err := tx.ExecContext(ctx, s.d.q(q), id); err != nil {
				return s.explain(err)
			}
		}
		if err := execOne(ctx, tx, s, `DELETE FROM accounts WHERE id = ?`, id); err != nil {
			return err
		}
		for _, t := range tables { // the seats' names changed: other processes reload them
			if err := s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: t}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: delete account: %w", err)
	}
	return nil
}

// AccountStates implements Accounts.
func (s *sqlStore) AccountStates(ctx context.Context, ids []string) (map[string]bool, error) {
	out, err := valuesByID[bool](ctx, s, `SELECT id, disabled FROM accounts WHERE id IN `, ids)
	if err != nil {
		return nil, fmt.Errorf("store: read accounts' states: %w", err)
	}
	return out, nil
}

// valuesByID runs query, a SELECT of an ID and one value ending in
// "IN ", for ids, 500 at a time, and returns each ID's value (IDs not
// found are absent).
func valuesByID[V any](ctx context.Context, s *sqlStore, query string, ids []string) (map[string]V, error) {
	out := map[string]V{}
	const chunk = 500
	err := s.read(ctx, func(tx *sql.Tx) error {
		for len(ids) > 0 {
			part := ids[:min(chunk, len(ids))]
			ids = ids[len(part):]
			args := make([]any, len(part))
			for i, id := range part {
				args[i] = id
			}
			rows, err := tx.QueryContext(ctx, s.d.q(query+`(?`+strings.Repeat(`, ?`, len(part)-1)+`)`), args...)
			if err != nil {
				return s.explain(err)
			}
			for rows.Next() {
				var (
					id string
					v  V
				)
				if err := rows.Scan(&id, &v); err != nil {
					rows.Close()
					return err
				}
				out[id] = v
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return s.explain(err)
			}
		}
		return nil
	})
	return out, err
}

// CreateSession implements Accounts.
func (s *sqlStore) CreateSession(ctx context.Context, ss Session) error {
	if len(ss.Hash) == 0 || ss.Account == "" {
		return fmt.Errorf("store: create session: empty hash or account")
	}
	if ss.Created.IsZero() {
		ss.Created = timeNow()
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO sessions (hash, account_id, created, expires) VALUES (?, ?, ?, ?)`),
			ss.Hash, ss.Account, s.d.timeArg(ss.Created), s.d.timeArg(ss.Expires))
		return s.explain(err)
	})
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// SessionAccount implements Accounts.
func (s *sqlStore) SessionAccount(ctx context.Context, hash []byte, now time.Time) (*Account, error) {
	var a *Account
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = scanAccount(tx.QueryRowContext(ctx, s.d.q(`SELECT a.id, a.name, a.name_key, a.password, a.created, a.disabled
			FROM sessions s JOIN accounts a ON a.id = s.account_id
			WHERE s.hash = ? AND s.expires > ? AND NOT a.disabled`), hash, s.d.timeArg(now)))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return s.explain(err)
	})
	if err != nil {
		return nil, fmt.Errorf("store: session: %w", err)
	}
	return a, nil
}

// Sessions implements Accounts.
func (s *sqlStore) Sessions(ctx context.Context, account string) ([]Session, error) {
	var list []Session
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT hash, account_id, created, expires FROM sessions WHERE account_id = ? ORDER BY created`), account)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				ss               Session
				created, expires dbTime
			)
			if err := rows.Scan(&ss.Hash, &ss.Account, &created, &expires); err != nil {
				return err
			}
			ss.Created, ss.Expires = created.t, expires.t
			list = append(list, ss)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: sessions: %w", err)
	}
	return list, nil
}

// exec runs one statement in a write transaction.
func (s *sqlStore) exec(ctx context.Context, what, q string, args ...any) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q(q), args...)
		return s.explain(err)
	})
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

// EndSession implements Accounts.
func (s *sqlStore) EndSession(ctx context.Context, hash []byte) error {
	return s.exec(ctx, "end session", `DELETE FROM sessions WHERE hash = ?`, hash)
}

// EndSessions implements Accounts.
func (s *sqlStore) EndSessions(ctx context.Context, account string) error {
	return s.exec(ctx, "end sessions", `DELETE FROM sessions WHERE account_id = ?`, account)
}

// DeleteExpired implements Accounts.
func (s *sqlStore) DeleteExpired(ctx context.Context, now time.Time) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM sessions WHERE expires <= ?`, `DELETE FROM resets WHERE expires <= ?`} {
			if _, err := tx.ExecContext(ctx, s.d.q(q), s.d.timeArg(now)); err != nil {
				return s.explain(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: delete expired sessions: %w", err)
	}
	return nil
}

// AddPasskey implements Accounts.
func (s *sqlStore) AddPasskey(ctx context.Context, p Passkey) error {
	if len(p.ID) == 0 || p.Account == "" {
		return fmt.Errorf("store: add passkey: empty ID or account")
	}
	if err := validJSON("passkey", p.Data, false); err != nil {
		return fmt.Errorf("store: add passkey: %w", err)
	}
	if p.Created.IsZero() {
		p.Created = timeNow()
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO passkeys (id, account_id, data, created) VALUES (?, ?, ?, ?)`),
			p.ID, p.Account, string(p.Data), s.d.timeArg(p.Created))
		if isUnique(err) {
			return fmt.Errorf("%w: the passkey is stored already", ErrConflict)
		}
		return s.explain(err)
	})
	if err != nil {
		return fmt.Errorf("store: add passkey: %w", err)
	}
	return nil
}

// Passkeys implements Accounts.
func (s *sqlStore) Passkeys(ctx context.Context, account string) ([]Passkey, error) {
	var list []Passkey
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT id, account_id, data, created FROM passkeys WHERE account_id = ? ORDER BY created, id`), account)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				p       Passkey
				data    string
				created dbTime
			)
			if err := rows.Scan(&p.ID, &p.Account, &data, &created); err != nil {
				return err
			}
			p.Data, p.Created = json.RawMessage(data), created.t
			list = append(list, p)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: passkeys: %w", err)
	}
	return list, nil
}

// UpdatePasskey implements Accounts.
func (s *sqlStore) UpdatePasskey(ctx context.Context, p Passkey) error {
	if err := validJSON("passkey", p.Data, false); err != nil {
		return fmt.Errorf("store: update passkey: %w", err)
	}
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		return execOne(ctx, tx, s, `UPDATE passkeys SET data = ? WHERE id = ? AND account_id = ?`, string(p.Data), p.ID, p.Account)
	})
	if err != nil {
		return fmt.Errorf("store: update passkey: %w", err)
	}
	return nil
}

// DeletePasskey implements Accounts.
func (s *sqlStore) DeletePasskey(ctx context.Context, account string, id []byte) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// The account's row locked first: two removals at once of its
		// last two passkeys are checked one after the other.
		if err := execOne(ctx, tx, s, `UPDATE accounts SET password = password WHERE id = ?`, account); err != nil {
			return err
		}
		var password string
		var others int
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT a.password, (SELECT COUNT(*) FROM passkeys p WHERE p.account_id = a.id AND p.id <> ?)
			FROM accounts a WHERE a.id = ?`), id, account).Scan(&password, &others)
		if err != nil {
			return s.explain(err)
		}
		res, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM passkeys WHERE id = ? AND account_id = ?`), id, account)
		if err != nil {
			return s.explain(err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("%w: no such passkey", ErrNotFound)
		}
		if password == "" && others == 0 {
			return fmt.Errorf("%w: the account's last way to sign in", ErrConflict) // rolled back
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: delete passkey: %w", err)
	}
	return nil
}

// DeletePasskeys implements Accounts.
func (s *sqlStore) DeletePasskeys(ctx context.Context, account string) (int, error) {
	var n int64
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM passkeys WHERE account_id = ?`), account)
		if err != nil {
			return s.explain(err)
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: delete passkeys: %w", err)
	}
	return int(n), nil
}

// CreateReset implements Accounts.
func (s *sqlStore) CreateReset(ctx context.Context, hash []byte, account string, expires time.Time) error {
	return s.exec(ctx, "create reset link", `INSERT INTO resets (hash, account_id, expires) VALUES (?, ?, ?)`, hash, account, s.d.timeArg(expires))
}

// UseReset implements Accounts.
func (s *sqlStore) UseReset(ctx context.Context, hash []byte, now time.Time) (string, error) {
	var account string
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var expires dbTime
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT account_id, expires FROM resets WHERE hash = ?`), hash).Scan(&account, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no such reset link", ErrNotFound)
		}
		if err != nil {
			return s.explain(err)
		}
		if _, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM resets WHERE hash = ?`), hash); err != nil {
			return s.explain(err)
		}
		if !expires.t.After(now) {
			return fmt.Errorf("%w: the reset link has expired", ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("store: use reset link: %w", err)
	}
	return account, nil
}

// ResetAccount implements Accounts.
func (s *sqlStore) ResetAccount(ctx context.Context, hash []byte, now time.Time) (string, error) {
	var account string
	err := s.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT account_id FROM resets WHERE hash = ? AND expires > ?`), hash, s.d.timeArg(now)).Scan(&account)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no such reset link", ErrNotFound)
		}
		return s.explain(err)
	})
	if err != nil {
		return "", fmt.Errorf("store: read reset link: %w", err)
	}
	return account, nil
}

// SetSeatAccount implements Accounts.
func (s *sqlStore) SetSeatAccount(ctx context.Context, table string, seat int, account, name string) error {
	err := s.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var cur sql.NullString
		err := tx.QueryRowContext(ctx, s.d.q(`SELECT account_id FROM seats WHERE table_id = ? AND seat = ? AND kind = 'human' AND token_hash IS NOT NULL`), table, seat).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no such seat taken", ErrNotFound)
		}
		if err != nil {
			return s.explain(err)
		}
		if cur.Valid && cur.String != account {
			return fmt.Errorf("%w: another account holds the seat", ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, s.d.q(`UPDATE seats SET account_id = ?, name = ? WHERE table_id = ? AND seat = ?`), account, name, table, seat); err != nil {
			return s.explain(err)
		}
		return s.notifyTx(ctx, tx, Note{Kind: NoteInfo, Table: table})
	})
	if err != nil {
		return fmt.Errorf("store: give seat %d of table %s to an account: %w", seat, table, err)
	}
	return nil
}

// AccountSeats implements Accounts.
func (s *sqlStore) AccountSeats(ctx context.Context, account string, open bool) ([]AccountSeat, error) {
	where := ``
	if open {
		where = ` AND NOT t.finished AND NOT t.closed`
	}
	var list []AccountSeat
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.q(`SELECT s.table_id, s.seat, s.name, t.variant, t.created, t.finished, t.closed
			FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.account_id = ?`+where+` ORDER BY t.created DESC, t.id, s.seat`), account)
		if err != nil {
			return s.explain(err)
		}
		defer rows.Close()
		for rows.Next() {
			var (
				as      AccountSeat
				created dbTime
			)
			if err := rows.Scan(&as.Table, &as.Seat, &as.Name, &as.Variant, &created, &as.Finished, &as.Closed); err != nil {
				return err
			}
			as.Created = created.t
			list = append(list, as)
		}
		return s.explain(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("store: seats of an account: %w", err)
	}
	return list, nil
}

// NameTaken implements Accounts.
func (s *sqlStore) NameTaken(ctx context.Context, name string) (bool, error) {
	var n int
	err := s.read(ctx, func(tx *sql.Tx) error {
		return s.explain(tx.QueryRowContext(ctx, s.d.q(`SELECT COUNT(*) FROM accounts WHERE name_key = ? OR name_skeleton = ?`),
			account.Key(name), account.Skeleton(name)).Scan(&n))
	})
	if err != nil {
		return false, fmt.Errorf("store: is a name taken: %w", err)
	}
	return n > 0, nil
}
