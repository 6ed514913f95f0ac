package accountapi

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"pitch/server/httpx"
	"pitch/store"
)

// Re-authentication (docs/accounts.md): adding a passkey, removing one,
// setting a password on an account without one, and deleting the account
// need the person to have shown a credential within ReauthWindow, in this
// session: signed in, or confirmed with the password or a passkey
// (POST /api/account/reauth, /api/account/passkey/reauth/…). A stolen
// session cookie alone cannot add the thief's passkey, nor lock the owner
// out. (Changing a password asks for the old one each time.) When each
// session last did so is kept in the process's memory, like the passkey
// ceremonies: with several processes, behind sticky sessions.

// ReauthWindow is how long a sign-in or a confirmation lets a session make
// the changes that need one.
const ReauthWindow = 5 * time.Minute

// maxReauths is how many sessions' confirmations are kept at once; past
// it, the oldest go (those sessions confirm again).
const maxReauths = 10000

// reauths holds when each session (by its hash) last showed a credential.
type reauths struct {
	mu sync.Mutex
	m  map[string]time.Time
}

// mark records that session showed a credential at now.
func (rs *reauths) mark(session string, now time.Time) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.m == nil {
		rs.m = map[string]time.Time{}
	}
	if len(rs.m) >= maxReauths {
		var oldest string
		for k, at := range rs.m {
			if now.Sub(at) > ReauthWindow {
				delete(rs.m, k)
			} else if oldest == "" || at.Before(rs.m[oldest]) {
				oldest = k
			}
		}
		if len(rs.m) >= maxReauths {
			delete(rs.m, oldest)
		}
	}
	rs.m[session] = now
}

// until is when session's last confirmation stops counting (zero: none
// that counts now).
func (rs *reauths) until(session string, now time.Time) time.Time {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	at, ok := rs.m[session]
	if !ok || session == "" || now.Sub(at) >= ReauthWindow {
		return time.Time{}
	}
	return at.Add(ReauthWindow)
}

// reauthed reports whether me's session showed a credential within
// ReauthWindow, or answers 403 reauth_required and returns false.
func (s *API) reauthed(w http.ResponseWriter, r *http.Request, op string, me Account) bool {
	if !s.reauth.until(me.Session, time.Now()).IsZero() {
		return true
	}
	s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "confirm it is you first, with your password or a passkey (it counts for %d minutes)", int(ReauthWindow.Minutes())).
		With("reauth_required", map[string]any{"Count": int(ReauthWindow.Minutes())}))
	return false
}

// reauthJSON answers a confirmation: until when it counts.
func reauthJSON(until time.Time) map[string]any {
	return map[string]any{"reauth_until": until}
}

// handleReauth answers POST /api/account/reauth {password}: the signed-in
// person confirms it is them with the account's password. Wrong
// passwords count as failed sign-ins.
func (s *API) handleReauth(w http.ResponseWriter, r *http.Request) {
	const op = "confirm"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	var req struct {
		Password string `json:"password"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.store.Account(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if a.Password == "" {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "this account has no password: confirm with one of its passkeys").With("no_password", nil))
		return
	}
	at := s.beginCheck(w, r, op, a.NameKey) // a token before the hash, as at sign-in
	if at == nil {
		return
	}
	ok = false
	if err := s.hashes.run(r.Context(), func() { ok, _, _ = s.hashes.verify(req.Password, a.Password) }); err != nil {
		at.canceled()
		s.busy(w, r, op)
		return
	}
	if !ok {
		at.failed()
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "the password is wrong").With("wrong_password", nil))
		return
	}
	at.succeeded()
	now := time.Now()
	s.reauth.mark(me.Session, now)
	httpx.WriteJSON(w, 200, reauthJSON(now.Add(ReauthWindow)))
}

// handlePasskeyReauthBegin answers POST /api/account/passkey/reauth/begin:
// the options for navigator.credentials.get, for a passkey of the
// signed-in account.
func (s *API) handlePasskeyReauthBegin(w http.ResponseWriter, r *http.Request) {
	const op = "confirm with a passkey"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	a, err := s.store.Account(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	u, err := s.userOf(r.Context(), a)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if len(u.creds) == 0 {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "this account has no passkey: confirm with its password").With("no_passkey", nil))
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "passkeys cannot be used at this address: %v", err).With("passkey_unavailable", nil))
		return
	}
	assertion, data, err := rp.BeginLogin(u, webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		s.writeError(w, r, httpx.Unexpected(op, err))
		return
	}
	id := s.ceremonies.put(&ceremony{kind: "reauth", data: *data, account: me.ID, expires: time.Now().Add(ceremonyTTL)})
	httpx.WriteJSON(w, 200, map[string]any{"ceremony": id, "options": assertion})
}

// handlePasskeyReauthFinish answers POST /api/account/passkey/reauth/finish
// {ceremony, credential}: confirmed with a passkey of the account.
// Failures count against the address, as failed sign-ins do.
func (s *API) handlePasskeyReauthFinish(w http.ResponseWriter, r *http.Request) {
	const op = "confirm with a passkey"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	if wait := s.signInByAddr.Wait(httpx.ClientAddr(r)); wait > 0 {
		s.tooMany(w, r, op, wait, "too many failed sign-ins: wait before trying again", "too_many_signins")
		return
	}
	var req finishReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	c, ok := s.ceremonies.take(req.Ceremony, "reauth")
	if !ok || c.account != me.ID {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "this passkey request has expired or was used: start again").With("passkey_expired", nil))
		return
	}
	fail := func(err error) {
		s.signInByAddr.Take(httpx.ClientAddr(r))
		e := httpx.Errorf(httpx.Forbidden, op, "this passkey was not accepted: use another, or the password").With("passkey_failed", nil)
		e.Err = err
		s.writeError(w, r, e)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(req.Credential)
	if err != nil {
		fail(err)
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		fail(err)
		return
	}
	a, err := s.store.Account(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	u, err := s.userOf(r.Context(), a)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	cred, err := rp.ValidateLogin(u, c.data, parsed)
	if err != nil {
		fail(err)
		return
	}
	if !s.passkeyUsed(w, r, op, u, cred) {
		return
	}
	now := time.Now()
	s.reauth.mark(me.Session, now)
	httpx.WriteJSON(w, 200, reauthJSON(now.Add(ReauthWindow)))
}

// passkeyUsed checks a credential just asserted by account u: one whose
// authenticator's sign count went backwards (go-webauthn's CloneWarning:
// perhaps a copy of the key) is refused with 403 passkey_cloned and
// logged; otherwise its new sign count and when it was used are stored.
func (s *API) passkeyUsed(w http.ResponseWriter, r *http.Request, op string, u *passkeyUser, cred *webauthn.Credential) bool {
	id := base64.RawURLEncoding.EncodeToString(cred.ID)
	if cred.Authenticator.CloneWarning {
		s.signInByAddr.Take(httpx.ClientAddr(r))
		s.log.Warn("passkey refused: its sign count went backwards, so it may have been copied", "account", u.id, "passkey", id,
			"sign_count", cred.Authenticator.SignCount)
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this passkey's counter went backwards, a sign that it may have been copied: it was refused; sign in another way and remove it from the account").
			With("passkey_cloned", nil))
		return false
	}
	meta := u.metas[string(cred.ID)]
	now := time.Now().UTC().Truncate(time.Second)
	meta.LastUsed = &now
	if data, err := passkeyData(cred, meta); err == nil {
		if err := s.store.UpdatePasskey(r.Context(), store.Passkey{ID: cred.ID, Account: u.id, Data: data}); err != nil {
			s.log.Warn("cannot update a passkey", "account", u.id, "err", err.Error())
		}
	}
	return true
}

// passkeyMeta is what the server keeps of a passkey beside go-webauthn's
// credential, in the same JSON object (store.Passkey.Data): its name,
// and when it was last used to sign in or confirm.
type passkeyMeta struct {
	Name     string     `json:"pitch_name,omitempty"`
	LastUsed *time.Time `json:"pitch_last_used,omitempty"`
}

// passkeyData is cred's JSON with meta's fields beside its own.
func passkeyData(cred *webauthn.Credential, meta passkeyMeta) (json.RawMessage, error) {
	b, err := json.Marshal(cred)
	if err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	m, _ := json.Marshal(meta)
	var extra map[string]json.RawMessage
	_ = json.Unmarshal(m, &extra)
	for k, v := range extra {
		obj[k] = v
	}
	return json.Marshal(obj)
}

// readPasskey is the credential and the meta of a stored passkey's JSON.
func readPasskey(data json.RawMessage) (webauthn.Credential, passkeyMeta, error) {
	var c webauthn.Credential
	var meta passkeyMeta
	if err := json.Unmarshal(data, &c); err != nil {
		return c, meta, err
	}
	err := json.Unmarshal(data, &meta)
	return c, meta, err
}

// MaxPasskeyName is the most characters a passkey's name may have.
const MaxPasskeyName = 40

// checkPasskeyName is a passkey's name as kept (trimmed), or the error
// that says what is wrong with it: at most MaxPasskeyName characters of
// text, no control characters. "" is allowed: the page numbers it.
func checkPasskeyName(op, name string) (string, error) {
	name = strings.TrimSpace(name)
	bad := func(why string) error {
		return httpx.Errorf(httpx.Invalid, op, "a passkey's name %s: use at most %d characters of text, or none", why, MaxPasskeyName).
			With("bad_passkey_name", map[string]any{"Max": MaxPasskeyName})
	}
	if !utf8.ValidString(name) {
		return "", bad("is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(name); n > MaxPasskeyName {
		return "", bad("is too long")
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "", bad("has control characters")
		}
	}
	return name, nil
}

// passkeyJSON is a passkey as GET /api/account/passkeys lists it.
type passkeyJSON struct {
	ID       string     `json:"id"` // base64url, as in the remove request
	Name     string     `json:"name"`
	Created  time.Time  `json:"created"`
	LastUsed *time.Time `json:"last_used"` // null: never used since it was added
}

// passkeyList is account id's passkeys, oldest first.
func (s *API) passkeyList(ctx context.Context, id string) ([]passkeyJSON, error) {
	keys, err := s.store.Passkeys(ctx, id)
	if err != nil {
		return nil, err
	}
	out := []passkeyJSON{}
	for _, k := range keys {
		_, meta, _ := readPasskey(k.Data)
		out = append(out, passkeyJSON{ID: base64.RawURLEncoding.EncodeToString(k.ID), Name: meta.Name, Created: k.Created, LastUsed: meta.LastUsed})
	}
	return out, nil
}

// handlePasskeys answers GET /api/account/passkeys: the signed-in
// account's passkeys (their names, when added, when last used).
func (s *API) handlePasskeys(w http.ResponseWriter, r *http.Request) {
	const op = "passkeys"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	list, err := s.passkeyList(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"passkeys": list, "reauth_until": zeroNil(s.reauth.until(me.Session, time.Now()))})
}

// zeroNil is t, or nil for the zero time (JSON null).
func zeroNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// handlePasskeyRemove answers POST /api/account/passkey/remove {id}: the
// passkey no longer signs in. It needs a confirmation (ReauthWindow), and
// the account's last way to sign in (no password, no other passkey) is
// not removed.
func (s *API) handlePasskeyRemove(w http.ResponseWriter, r *http.Request) {
	const op = "remove passkey"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	var req struct {
		ID string `json:"id"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	id, err := base64.RawURLEncoding.DecodeString(req.ID)
	if err != nil || len(id) == 0 || len(id) > 1023 {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%q is not a passkey's ID: give the id of one listed by GET /api/account/passkeys", httpx.Clip(req.ID, 100)).With("bad_passkey", nil))
		return
	}
	if !s.reauthed(w, r, op, me) {
		return
	}
	if err := s.store.DeletePasskey(r.Context(), me.ID, id); err != nil {
		switch {
		case errors.Is(err, store.ErrConflict):
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "this passkey is the account's only way to sign in: set a password or add another passkey first").With("last_sign_in", nil))
		case errors.Is(err, store.ErrNotFound):
			s.writeError(w, r, httpx.Errorf(httpx.NotFound, op, "the account has no such passkey: it may have been removed already").With("no_passkey", nil))
		default:
			s.writeError(w, r, httpx.StoreDown(op, err))
		}
		return
	}
	s.log.Info("passkey removed", "account", me.ID)
	list, err := s.passkeyList(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"passkeys": list})
}
