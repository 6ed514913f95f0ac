package accountapi

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pitch/account"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/server/ratings"
	"pitch/store"
)

// Account is who a request belongs to: the account of its session cookie.
// ID is the account's stable ID (store.Account.ID, also store.Seat.Account),
// which a rename does not change; Name is its name now.
type Account struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Session is the SHA-256 of the request's session token (as a
	// string of its bytes, never shown nor logged): what the request's
	// WebSockets end with (Tables.CloseSockets). "" for an Account not
	// made by Who.
	Session string `json:"-"`
}

// The names of the session cookie, a random token whose SHA-256 is the
// key of its row in the store's sessions: over HTTPS it carries the
// __Host- prefix, which a browser takes only from a secure origin, with
// Secure, Path=/ and no Domain, so that neither a subdomain nor a plain
// HTTP page of the site can set it (a fixed session); over plain HTTP
// (local use) the prefix cannot be had, and the name is the bare one.
const (
	sessionCookie       = "pitch_session"
	secureSessionCookie = "__Host-pitch_session"
)

// SessionCookieName is the name of the session cookie for request r:
// secureSessionCookie over HTTPS (Secure), sessionCookie otherwise. A
// request over HTTPS with only the bare name is a guest's: that cookie
// may have been set by anyone who can answer for the site over plain
// HTTP.
func (s *API) SessionCookieName(r *http.Request) string {
	if s.Secure(r) {
		return secureSessionCookie
	}
	return sessionCookie
}

// The close reasons (with close code 1008) of the WebSockets of sessions
// that end here (Tables.CloseSockets).
const (
	// SignedOutReason: the session that opened the connection signed out.
	SignedOutReason = "signed out: sign in again to play your seat"
	// PasswordChangedReason: the account's password was changed or reset,
	// which ends every session of it.
	PasswordChangedReason = "the account's password was changed: sign in again to play your seat"
	// AccountDeletedReason: the account was deleted.
	AccountDeletedReason = "the account was deleted"
)

// DefaultSessionTTL is how long a session lasts after sign-in (Config.SessionTTL).
const DefaultSessionTTL = 30 * 24 * time.Hour

// Reset-link tries per client address: resetBurst in a row, then one
// each resetEvery. (Sign-ins are throttled in throttle.go.)
const (
	resetBurst = 20
	resetEvery = 15 * time.Second
)

// Who returns the account that request r belongs to, and whether
// there is one: the request carries a session cookie of a session that
// has not ended nor expired, of an account that is not disabled. A
// handler that needs the person behind a request calls this; guests get
// false.
func (s *API) Who(r *http.Request) (Account, bool) {
	hash, ok := s.sessionHash(r)
	if !ok {
		return Account{}, false
	}
	a, err := s.store.SessionAccount(r.Context(), hash, time.Now())
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("cannot read a session", "err", err.Error())
		}
		return Account{}, false
	}
	return Account{ID: a.ID, Name: a.Name, Session: string(hash)}, true
}

// SessionLive tells whether the session whose hash is session (as in
// Account.Session) still stands: not ended nor expired, its account not
// disabled (play.SessionLive).
func (s *API) SessionLive(ctx context.Context, session string) (bool, error) {
	_, err := s.store.SessionAccount(ctx, []byte(session), time.Now())
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// sessionHash is the SHA-256 of the request's session token, if it has a
// well-formed one.
func (s *API) sessionHash(r *http.Request) ([]byte, bool) {
	c, err := r.Cookie(s.SessionCookieName(r))
	if err != nil || len(c.Value) != 43 { // 32 random bytes, base64url
		return nil, false
	}
	if _, err := base64.RawURLEncoding.DecodeString(c.Value); err != nil {
		return nil, false
	}
	h := sha256.Sum256([]byte(c.Value))
	return h[:], true
}

// Secure reports whether the request came over HTTPS: directly, or
// through a proxy that ends TLS (Config.HTTPS, or a Config.Origin of
// https://). The session cookie is then Secure and __Host- prefixed,
// and the server sends HSTS.
func (s *API) Secure(r *http.Request) bool {
	return r.TLS != nil || s.cfg.HTTPS || strings.HasPrefix(s.cfg.Origin, "https://")
}

// startSession signs the response's browser in to account id: a new
// session and its cookie.
func (s *API) startSession(ctx context.Context, w http.ResponseWriter, r *http.Request, id string) error {
	token := httpx.RandomString(32)
	h := sha256.Sum256([]byte(token))
	now := time.Now()
	ttl := s.cfg.SessionTTL
	if err := s.store.CreateSession(ctx, store.Session{Hash: h[:], Account: id, Created: now, Expires: now.Add(ttl)}); err != nil {
		return httpx.StoreDown("start session", err)
	}
	s.reauth.mark(string(h[:]), now) // just signed in: a confirmation for ReauthWindow
	every := int64(max(min(time.Hour, ttl).Seconds(), 1))
	if last := s.purged.Load(); now.Unix()-last >= every && s.purged.CompareAndSwap(last, now.Unix()) {
		// At most once an hour (or a session's life, if shorter), the
		// sessions and reset links that expired go.
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			defer cancel()
			if err := s.store.DeleteExpired(ctx, time.Now()); err != nil {
				s.log.Warn("cannot delete expired sessions", "err", err.Error())
			}
		}()
	}
	http.SetCookie(w, &http.Cookie{Name: s.SessionCookieName(r), Value: token, Path: "/", MaxAge: int(ttl.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.Secure(r)})
	return nil
}

// clearSession tells the browser to forget its session cookie.
func (s *API) clearSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: s.SessionCookieName(r), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.Secure(r)})
}

// accountJSON is what GET /api/account says of the signed-in account.
type accountJSON struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Created     time.Time `json:"created"`
	HasPassword bool      `json:"has_password"`
	Passkeys    int       `json:"passkeys"`
}

func (s *API) accountInfo(ctx context.Context, id string) (*accountJSON, error) {
	a, err := s.store.Account(ctx, id)
	if err != nil {
		return nil, err
	}
	keys, err := s.store.Passkeys(ctx, id)
	if err != nil {
		return nil, err
	}
	return &accountJSON{ID: a.ID, Name: a.Name, Created: a.Created, HasPassword: a.Password != "", Passkeys: len(keys)}, nil
}

// handleMe answers GET /api/account: {"account": …} for a signed-in
// browser, {"account": null} for a guest (200 either way, so that a guest's
// page logs no error).
func (s *API) handleMe(w http.ResponseWriter, r *http.Request) {
	me, ok := s.Who(r)
	if !ok {
		httpx.WriteJSON(w, 200, map[string]any{"account": nil})
		return
	}
	info, err := s.accountInfo(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown("account", err))
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"account": info})
}

// signed returns the request's account, or writes 401-like Forbidden and
// returns false.
func (s *API) signed(w http.ResponseWriter, r *http.Request, op string) (Account, bool) {
	me, ok := s.Who(r)
	if !ok {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "sign in first").With("not_signed_in", nil))
	}
	return me, ok
}

type credentialsReq struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// passwordError turns a password the account package refuses into a
// client error with its code.
func passwordError(op string, err error) *httpx.Error {
	var pe *account.PasswordError
	if errors.As(err, &pe) {
		return httpx.Errorf(httpx.Invalid, op, "%s", pe.Msg).With(pe.Code, map[string]any{"Min": account.MinPassword, "Max": account.MaxPassword})
	}
	return httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_password", nil)
}

// newAccount checks a name and stores a new account with the password hash
// phc ("" for none). ErrConflict-kind errors say the name is taken.
func (s *API) newAccount(ctx context.Context, op, name, phc string) (*store.Account, error) {
	display, key, err := account.CheckName(name)
	if err != nil {
		return nil, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_account_name", map[string]any{"Min": account.MinName, "Max": account.MaxName})
	}
	a := &store.Account{ID: httpx.RandomString(16), Name: display, NameKey: key, Password: phc, Created: time.Now()}
	if err := s.store.CreateAccount(ctx, a); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return nil, httpx.Errorf(httpx.Conflict, op, "the name %s is taken: choose another", display).With("name_taken", map[string]any{"Name": display})
		}
		return nil, httpx.StoreDown(op, err)
	}
	return a, nil
}

// handleSignUp answers POST /api/account/signup {name, password}: a new
// account, signed in.
func (s *API) handleSignUp(w http.ResponseWriter, r *http.Request) {
	const op = "sign up"
	var req credentialsReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, _, err := account.CheckName(req.Name); err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_account_name", map[string]any{"Min": account.MinName, "Max": account.MaxName}))
		return
	}
	if err := account.CheckPassword(req.Password, req.Name); err != nil {
		s.writeError(w, r, passwordError(op, err))
		return
	}
	if !s.allowLookup(w, r, op) {
		return
	}
	addr := httpx.ClientAddr(r)
	if !s.allowSignUp(w, r, op) {
		s.cfg.NameLookups.Give(addr) // the name was not looked up
		return
	}
	phc, ok := s.hashOnce(w, r, op, req.Password)
	if !ok { // no account was made, no name looked up
		s.signups.Give(addr)
		s.cfg.NameLookups.Give(addr)
		return
	}
	a, err := s.newAccount(r.Context(), op, req.Name, phc)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.startSession(r.Context(), w, r, a.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.Info("account created", "account", a.ID)
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"account": Account{ID: a.ID, Name: a.Name}})
}

// allowSignUp takes one sign-up from the client's address, or answers 429.
func (s *API) allowSignUp(w http.ResponseWriter, r *http.Request, op string) bool {
	ok, wait := s.signups.Take(httpx.ClientAddr(r))
	if !ok {
		s.tooMany(w, r, op, wait, "too many accounts created from your address: try again later", "too_many_signups")
	}
	return ok
}

// allowLookup takes one check of whether a name is taken from the
// client's address (Config.NameLookups), or answers 429 too_many_lookups.
func (s *API) allowLookup(w http.ResponseWriter, r *http.Request, op string) bool {
	ok, wait := s.cfg.NameLookups.Take(httpx.ClientAddr(r))
	if !ok {
		s.tooMany(w, r, op, wait, "too many names looked up from your address: try again later", "too_many_lookups")
	}
	return ok
}

// tooMany answers 429 with Retry-After.
func (s *API) tooMany(w http.ResponseWriter, r *http.Request, op string, wait time.Duration, msg, code string) {
	secs := int(wait.Seconds()) + 1
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	s.writeError(w, r, httpx.Errorf(httpx.TooMany, op, "%s (in %d s)", msg, secs).With(code, map[string]any{"Count": secs}))
}

// wrongCredentials is the one answer to a wrong name and a wrong password.
func wrongCredentials(op string) *httpx.Error {
	return httpx.Errorf(httpx.Forbidden, op, "wrong name or password").With("wrong_credentials", nil)
}

// handleSignIn answers POST /api/account/signin {name, password}. A name
// with no account and a wrong password get the same answer after the same
// work (an argon2id hash either way). The throttle's tokens are taken
// before the hash and given back on success (throttle.go); the hash
// waits for its turn (hashGate).
func (s *API) handleSignIn(w http.ResponseWriter, r *http.Request) {
	const op = "sign in"
	var req credentialsReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	key := account.Key(req.Name)
	at := s.beginCheck(w, r, op, key)
	if at == nil {
		return
	}
	a, err := s.store.AccountByName(r.Context(), key)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		at.canceled()
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	ok := false
	var rehashed string // the password hashed anew, when its hash's settings are below today's
	var verr error
	err = s.hashes.run(r.Context(), func() {
		if a == nil || a.Password == "" {
			s.hashes.verifyDummy(req.Password)
			return
		}
		var rehash bool
		ok, rehash, verr = s.hashes.verify(req.Password, a.Password)
		if ok && rehash {
			rehashed = s.hashes.hash(req.Password)
		}
	})
	if err != nil {
		at.canceled()
		s.busy(w, r, op)
		return
	}
	if verr != nil {
		s.log.Error("stored password hash unreadable", "account", a.ID, "err", verr.Error())
	}
	if !ok {
		at.failed()
		s.writeError(w, r, wrongCredentials(op))
		return
	}
	at.succeeded()
	if rehashed != "" {
		if err := s.store.SetPassword(r.Context(), a.ID, rehashed, false); err != nil {
			s.log.Warn("cannot rehash a password", "account", a.ID, "err", err.Error())
		}
	}
	if a.Disabled {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this account is disabled").With("account_disabled", nil))
		return
	}
	if err := s.startSession(r.Context(), w, r, a.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"account": Account{ID: a.ID, Name: a.Name}})
}

// handleSignOut answers POST /api/account/signout: the session ends.
func (s *API) handleSignOut(w http.ResponseWriter, r *http.Request) {
	if hash, ok := s.sessionHash(r); ok {
		me, signedIn := s.Who(r)
		if err := s.store.EndSession(r.Context(), hash); err != nil {
			s.writeError(w, r, httpx.StoreDown("sign out", err))
			return
		}
		if signedIn { // the sockets this session opened end with it
			s.tables.CloseSockets(me.ID, me.Session, SignedOutReason)
		}
	}
	s.clearSession(w, r)
	httpx.WriteJSON(w, 200, map[string]any{"account": nil})
}

type passwordReq struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// handlePassword answers POST /api/account/password {old, new}: sets the
// password (old is needed when the account has one) and ends every session
// of the account; this browser gets a new one.
func (s *API) handlePassword(w http.ResponseWriter, r *http.Request) {
	const op = "change password"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	var req passwordReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.store.Account(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if a.Password == "" && !s.reauthed(w, r, op, me) { // a first password: confirmed with a passkey
		return
	}
	if a.Password != "" { // the old password confirms it
		at := s.beginCheck(w, r, op, a.NameKey)
		if at == nil {
			return
		}
		ok := false
		if err := s.hashes.run(r.Context(), func() { ok, _, _ = s.hashes.verify(req.Old, a.Password) }); err != nil {
			at.canceled()
			s.busy(w, r, op)
			return
		}
		if !ok {
			at.failed()
			s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "the current password is wrong").With("wrong_password", nil))
			return
		}
		at.succeeded()
	}
	if err := account.CheckPassword(req.New, a.Name); err != nil {
		s.writeError(w, r, passwordError(op, err))
		return
	}
	phc, ok := s.hashOnce(w, r, op, req.New)
	if !ok {
		return
	}
	if err := s.store.SetPassword(r.Context(), a.ID, phc, true); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	s.tables.CloseSockets(a.ID, "", PasswordChangedReason) // every session ended
	if err := s.startSession(r.Context(), w, r, a.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"account": Account{ID: a.ID, Name: a.Name}})
}

// resetReq is a one-time reset link's token and the new password, and
// whether to revoke every passkey of the account (absent: yes).
type resetReq struct {
	Token          string `json:"token"`
	Password       string `json:"password"`
	RevokePasskeys *bool  `json:"revoke_passkeys"`
}

// handleReset answers POST /api/account/reset {token, password,
// revoke_passkeys}: the link made by `pitch user reset-password` sets a
// new password once, ends every session (closing their WebSockets),
// removes every passkey of the account unless revoke_passkeys is false
// (whoever took the account over may have added one), and signs this
// browser in.
func (s *API) handleReset(w http.ResponseWriter, r *http.Request) {
	const op = "reset password"
	var req resetReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	h := sha256.Sum256([]byte(req.Token))
	bad := httpx.Errorf(httpx.Forbidden, op, "this reset link is not valid: it was used already, has expired, or was mistyped; ask the operator for another").With("bad_reset", nil)
	if !s.allowReset.Allow(httpx.ClientAddr(r)) {
		s.tooMany(w, r, op, time.Minute, "too many tries", "too_many_signins")
		return
	}
	// Check the password before using up the link.
	id, err := s.resetAccount(r.Context(), h[:])
	if err != nil {
		s.writeError(w, r, bad)
		return
	}
	a, err := s.store.Account(r.Context(), id)
	if err != nil {
		s.writeError(w, r, bad)
		return
	}
	if err := account.CheckPassword(req.Password, a.Name); err != nil {
		// The link stays usable: make it again.
		s.writeError(w, r, passwordError(op, err))
		return
	}
	phc, ok := s.hashOnce(w, r, op, req.Password) // before the link is used up: busy leaves it usable
	if !ok {
		return
	}
	if _, err := s.store.UseReset(r.Context(), h[:], time.Now()); err != nil {
		s.writeError(w, r, bad)
		return
	}
	if err := s.store.SetPassword(r.Context(), a.ID, phc, true); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	s.tables.CloseSockets(a.ID, "", PasswordChangedReason) // every session ended
	revoked := 0
	if req.RevokePasskeys == nil || *req.RevokePasskeys {
		if revoked, err = s.store.DeletePasskeys(r.Context(), a.ID); err != nil {
			s.writeError(w, r, httpx.StoreDown(op, err))
			return
		}
	}
	s.log.Info("password reset", "account", a.ID, "passkeys_revoked", revoked)
	if err := s.startSession(r.Context(), w, r, a.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"account": Account{ID: a.ID, Name: a.Name}, "passkeys_revoked": revoked})
}

// resetAccount is the account of a reset link that has not expired,
// without using it up.
func (s *API) resetAccount(ctx context.Context, hash []byte) (string, error) {
	return s.store.ResetAccount(ctx, hash, time.Now())
}

// claimReq lists seats this browser took as a guest, by their tokens.
type claimReq struct {
	Seats []struct {
		Table string `json:"table"`
		Token string `json:"token"`
	} `json:"seats"`
}

// handleClaim answers POST /api/account/seats {seats: [{table, token}]}:
// each seat whose token is right and that no account holds becomes the
// signed-in account's (a guest who signs up mid-match keeps the seat). It
// answers the seats it gave.
func (s *API) handleClaim(w http.ResponseWriter, r *http.Request) {
	const op = "claim seats"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	if !s.own(w, r, op, me) {
		return
	}
	var req claimReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.Seats) > 100 {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "at most 100 seats at once, not %d", len(req.Seats)))
		return
	}
	type given struct {
		Table string `json:"table"`
		Seat  int    `json:"seat"`
	}
	out := []given{}
	for _, c := range req.Seats {
		if !httpx.ValidID(c.Table) || c.Token == "" {
			continue
		}
		seat, err := s.tables.ClaimSeat(r.Context(), c.Table, c.Token, me)
		if err == nil && seat >= 0 {
			out = append(out, given{c.Table, seat})
		}
		if err != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
			s.writeError(w, r, httpx.StoreDown(op, err))
			return
		}
	}
	httpx.WriteJSON(w, 200, map[string]any{"seats": out})
}

// handleMySeats answers GET /api/account/seats: the seats the signed-in
// account holds at tables still in play, on any device.
func (s *API) handleMySeats(w http.ResponseWriter, r *http.Request) {
	const op = "my seats"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	if !s.own(w, r, op, me) {
		return
	}
	seats, err := s.store.AccountSeats(r.Context(), me.ID, true)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	type seatJSON struct {
		Table   string    `json:"table"`
		Seat    int       `json:"seat"`
		Variant string    `json:"variant"`
		Created time.Time `json:"created"`
		URL     string    `json:"url"`
	}
	out := []seatJSON{}
	for _, st := range seats {
		out = append(out, seatJSON{st.Table, st.Seat, st.Variant, st.Created, "/t/" + st.Table})
	}
	httpx.WriteJSON(w, 200, map[string]any{"seats": out})
}

// exportJSON is everything stored about an account (GET /api/account/export).
type exportJSON struct {
	Account  accountJSON `json:"account"`
	Sessions []struct {
		Created time.Time `json:"created"`
		Expires time.Time `json:"expires"`
	} `json:"sessions"`
	Passkeys []struct {
		ID      string          `json:"id"`
		Created time.Time       `json:"created"`
		Data    json.RawMessage `json:"credential"`
	} `json:"passkeys"`
	Seats []store.AccountSeat `json:"seats"`
	// The person's rating in each game, and every rated match of theirs
	// (docs/ratings.md), oldest first.
	Ratings      []exportRating     `json:"ratings"`
	RatedMatches []exportRatedMatch `json:"rated_matches"`
	// The events the person joined signed in (each with their place and
	// totals), and their daily results (Activity).
	Events any `json:"events"`
	Daily  any `json:"daily"`
}

// exportRating is an account's rating in one game, as stored.
type exportRating struct {
	Game string `json:"game"`
	ratings.Shown
	Mu         float64   `json:"mu"`
	Sigma      float64   `json:"sigma"`
	Matches    int       `json:"matches"`
	Wins       int       `json:"wins"`
	LastPlayed time.Time `json:"last_played"`
}

// exportRatedMatch is one rated match of an account, as stored.
type exportRatedMatch struct {
	Table       string    `json:"table"`
	Game        string    `json:"game"`
	At          time.Time `json:"at"`
	Seat        int       `json:"seat"`
	Place       int       `json:"place"`
	Won         bool      `json:"won"`
	MuBefore    float64   `json:"mu_before"`
	SigmaBefore float64   `json:"sigma_before"`
	Mu          float64   `json:"mu"`
	Sigma       float64   `json:"sigma"`
	Hands       int       `json:"hands"`
	Bids        int       `json:"bids"`
	Sets        int       `json:"sets"`
	Moons       int       `json:"moons"`
	Points      int       `json:"points"`
}

// handleExport answers GET /api/account/export: everything stored about
// the signed-in person, as a JSON download. The password is shown only as
// whether there is one (its hash is not theirs to need, and not to leak).
func (s *API) handleExport(w http.ResponseWriter, r *http.Request) {
	const op = "export"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	if !s.own(w, r, op, me) {
		return
	}
	ctx := r.Context()
	info, err := s.accountInfo(ctx, me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	out := exportJSON{Account: *info, Seats: []store.AccountSeat{}}
	sessions, err := s.store.Sessions(ctx, me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	for _, ss := range sessions {
		out.Sessions = append(out.Sessions, struct {
			Created time.Time `json:"created"`
			Expires time.Time `json:"expires"`
		}{ss.Created, ss.Expires})
	}
	keys, err := s.store.Passkeys(ctx, me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	for _, k := range keys {
		out.Passkeys = append(out.Passkeys, struct {
			ID      string          `json:"id"`
			Created time.Time       `json:"created"`
			Data    json.RawMessage `json:"credential"`
		}{base64.RawURLEncoding.EncodeToString(k.ID), k.Created, k.Data})
	}
	if out.Seats, err = s.store.AccountSeats(ctx, me.ID, false); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if out.Seats == nil {
		out.Seats = []store.AccountSeat{}
	}
	prs, err := s.store.PlayerRatings(ctx, me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	out.Ratings = []exportRating{}
	for _, p := range prs {
		out.Ratings = append(out.Ratings, exportRating{Game: p.Variant, Shown: ratings.ShownOf(p.Rating), Mu: p.Rating.Mu, Sigma: p.Rating.Sigma,
			Matches: p.Matches, Wins: p.Wins, LastPlayed: p.LastPlayed})
	}
	hist, err := s.store.RatingHistory(ctx, me.ID, "", math.MaxInt32)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	out.RatedMatches = []exportRatedMatch{}
	for _, h := range hist {
		out.RatedMatches = append(out.RatedMatches, exportRatedMatch{Table: h.Table, Game: h.Variant, At: h.At, Seat: h.Seat, Place: h.Place, Won: h.Won,
			MuBefore: h.Before.Mu, SigmaBefore: h.Before.Sigma, Mu: h.After.Mu, Sigma: h.After.Sigma,
			Hands: h.Hands, Bids: h.Bids, Sets: h.Sets, Moons: h.Moons, Points: h.Points})
	}
	for _, part := range []struct {
		get func(context.Context, string) (any, error)
		to  *any
	}{{s.activity.Events, &out.Events}, {s.activity.Daily, &out.Daily}} {
		*part.to = []any{}
		if part.get == nil {
			continue
		}
		v, err := part.get(ctx, me.ID)
		if err != nil {
			s.writeError(w, r, httpx.StoreDown(op, err))
			return
		}
		*part.to = v
	}
	w.Header().Set("Content-Disposition", `attachment; filename="pitch-account.json"`)
	httpx.WriteJSON(w, 200, out)
}

type deleteReq struct {
	Name string `json:"name"` // the account's name, typed again to confirm
}

// handleDelete answers POST /api/account/delete {name}: the account and
// everything kept about the person go; their seats stay in the games under
// an anonymous name (account.AnonName).
func (s *API) handleDelete(w http.ResponseWriter, r *http.Request) {
	const op = "delete account"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	var req deleteReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if account.Key(req.Name) != account.Key(me.Name) {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "type the account's name to confirm").With("confirm_name", nil))
		return
	}
	if !s.reauthed(w, r, op, me) {
		return
	}
	if err := s.DeleteAccount(r.Context(), me.ID); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	s.clearSession(w, r)
	httpx.WriteJSON(w, 200, map[string]any{"account": nil})
}

// DeleteAccount deletes account id (see store.Accounts.DeleteAccount:
// its name goes from every record, replaced by one anonymous name) and
// renames its seats at the tables this process holds
// (Tables.RenameAccount). `pitch user delete` calls the store the same
// way; a running server notices within Options.AccountCheck
// (docs/accounts.md).
func (s *API) DeleteAccount(ctx context.Context, id string) error {
	anon := account.AnonName()
	if err := s.store.DeleteAccount(ctx, id, anon); err != nil {
		return err
	}
	s.tables.CloseSockets(id, "", AccountDeletedReason) // before its seats are no longer its
	s.tables.RenameAccount(id, anon)
	s.log.Info("account deleted", "account", id)
	return nil
}

// own asks the access policy whether the signed-in me may see the
// account's data (its seats, its export): its own, always; the point is
// that the policy says so, in one place.
func (s *API) own(w http.ResponseWriter, r *http.Request, op string, me Account) bool {
	d := access.Ask(r.Context(), access.AccountData, access.Viewer{Kind: access.Member, Account: me.ID}, access.Subject{Owner: me.ID})
	if !d.Allowed {
		s.writeError(w, r, httpx.Refused(op, d))
	}
	return d.Allowed
}
