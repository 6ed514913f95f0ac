package accountapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"pitch/account"
	"pitch/server/httpx"
	"pitch/store"
)

// Passkeys (WebAuthn, github.com/go-webauthn/webauthn): sign up with a
// passkey instead of a password, add one to an account, sign in with one.
// Each ceremony is begun and finished by two requests; what the server must
// remember between them (the challenge) waits in API.ceremonies for
// ceremonyTTL, under a random ID the page sends back. (With several
// processes, both requests must reach the same one: docs/accounts.md.)

const (
	ceremonyTTL   = 5 * time.Minute
	maxCeremonies = 10000 // waiting at once; past it, the oldest go
)

// ceremony is one begun passkey ceremony.
type ceremony struct {
	kind    string // "signup", "add", "signin" or "reauth"
	data    webauthn.SessionData
	account string // signup: the new account's ID; add, reauth: the account's
	name    string // signup: the name chosen
	label   string // add: the passkey's name
	expires time.Time
}

// ceremonies holds the ceremonies begun and not yet finished.
type ceremonies struct {
	mu sync.Mutex
	m  map[string]*ceremony
}

func (cs *ceremonies) put(c *ceremony) string {
	id := httpx.RandomString(18)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.m == nil {
		cs.m = map[string]*ceremony{}
	}
	now := time.Now()
	if len(cs.m) >= maxCeremonies {
		var oldest string
		for k, v := range cs.m {
			if v.expires.Before(now) {
				delete(cs.m, k)
			} else if oldest == "" || v.expires.Before(cs.m[oldest].expires) {
				oldest = k
			}
		}
		if len(cs.m) >= maxCeremonies {
			delete(cs.m, oldest)
		}
	}
	cs.m[id] = c
	return id
}

// take removes and returns ceremony id of kind, if it is there and not
// expired: each is finished at most once.
func (cs *ceremonies) take(id, kind string) (*ceremony, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c, ok := cs.m[id]
	if !ok {
		return nil, false
	}
	delete(cs.m, id)
	return c, c.kind == kind && time.Now().Before(c.expires)
}

// passkeyUser is an account as go-webauthn sees it.
type passkeyUser struct {
	id, name string
	creds    []webauthn.Credential
	metas    map[string]passkeyMeta // by credential ID
}

// WebAuthnID and the three below make passkeyUser a webauthn.User.
func (u *passkeyUser) WebAuthnID() []byte                         { return []byte(u.id) }
func (u *passkeyUser) WebAuthnName() string                       { return u.name }
func (u *passkeyUser) WebAuthnDisplayName() string                { return u.name }
func (u *passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// relyingParty is the WebAuthn relying party for request r: this site,
// Config.Origin when set (`pitch serve --origin`), else as the request
// names it (its Host header, which a proxy in front must pass on as the
// browser sent it: docs/deploy.md). The browser checks the page's origin
// against it, and go-webauthn the response's.
func (s *API) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	origin := s.cfg.Origin
	if origin == "" {
		scheme := "http"
		if s.Secure(r) {
			scheme = "https"
		}
		origin = scheme + "://" + r.Host
	}
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("the site's address %q has no host name", httpx.Clip(origin, 100))
	}
	return webauthn.New(&webauthn.Config{RPID: u.Hostname(), RPDisplayName: "Pitch", RPOrigins: []string{origin},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Enforce: true, Timeout: ceremonyTTL},
			Registration: webauthn.TimeoutConfig{Enforce: true, Timeout: ceremonyTTL},
		}})
}

// ParseOrigin checks an origin for Config.Origin (`pitch serve
// --origin`) and returns it as browsers write it: https://HOST[:PORT]
// (http:// only for localhost, which browsers count as secure), with no
// path, query or user; a trailing "/" is dropped.
func ParseOrigin(s string) (string, error) {
	bad := func(why string) error {
		return fmt.Errorf("the origin %q %s: give the site's address as browsers see it, like https://pitch.example", httpx.Clip(s, 100), why)
	}
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	switch {
	case err != nil:
		return "", bad("is not a URL")
	case u.Scheme != "https" && u.Scheme != "http":
		return "", bad("must begin with https://")
	case u.Hostname() == "":
		return "", bad("has no host name")
	case u.Scheme == "http" && u.Hostname() != "localhost":
		return "", bad("is plain http://, which browsers allow passkeys on only for localhost")
	case u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return "", bad("may have no path, query or user")
	case net.ParseIP(strings.Trim(u.Hostname(), "[]")) != nil:
		return "", bad("is an IP address, which passkeys cannot be bound to")
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}

// userOf loads an account with its passkeys.
func (s *API) userOf(ctx context.Context, a *store.Account) (*passkeyUser, error) {
	keys, err := s.store.Passkeys(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	u := &passkeyUser{id: a.ID, name: a.Name, metas: map[string]passkeyMeta{}}
	for _, k := range keys {
		c, meta, err := readPasskey(k.Data)
		if err != nil {
			return nil, err
		}
		u.creds = append(u.creds, c)
		u.metas[string(c.ID)] = meta
	}
	return u, nil
}

// beginReq starts a ceremony: Name is the account's name at sign-up,
// the passkey's name (optional) when one is added.
type beginReq struct {
	Name string `json:"name"`
}

// finishReq finishes a ceremony: its ID, and what the browser's
// navigator.credentials call returned, as JSON (PublicKeyCredential.toJSON).
type finishReq struct {
	Ceremony   string          `json:"ceremony"`
	Credential json.RawMessage `json:"credential"`
}

// registrationOptions are the options of every passkey made here: a
// discoverable credential (a passkey), user verification preferred.
func registrationOptions(exclude []webauthn.Credential) []webauthn.RegistrationOption {
	opts := []webauthn.RegistrationOption{webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
		ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
		UserVerification: protocol.VerificationPreferred})}
	if len(exclude) > 0 {
		var ds []protocol.CredentialDescriptor
		for _, c := range exclude {
			ds = append(ds, c.Descriptor())
		}
		opts = append(opts, webauthn.WithExclusions(ds))
	}
	return opts
}

// handlePasskeySignUpBegin answers POST /api/account/passkey/signup/begin
// {name}: the options for navigator.credentials.create, for a new account
// of that name (checked now, taken at finish).
func (s *API) handlePasskeySignUpBegin(w http.ResponseWriter, r *http.Request) {
	const op = "passkey sign up"
	var req beginReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	display, key, err := account.CheckName(req.Name)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_account_name", map[string]any{"Min": account.MinName, "Max": account.MaxName}))
		return
	}
	if !s.allowLookup(w, r, op) {
		return
	}
	if _, err := s.store.AccountByName(r.Context(), key); err == nil {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "the name %s is taken: choose another", display).With("name_taken", map[string]any{"Name": display}))
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	s.beginRegistration(w, r, op, &passkeyUser{id: httpx.RandomString(16), name: display}, "signup", "")
}

// handlePasskeyAddBegin answers POST /api/account/passkey/add/begin
// {name}: the options to add a passkey (named name, or nothing) to the
// signed-in account. It needs a confirmation within ReauthWindow.
func (s *API) handlePasskeyAddBegin(w http.ResponseWriter, r *http.Request) {
	const op = "add passkey"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	var req beginReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	label, err := checkPasskeyName(op, req.Name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.reauthed(w, r, op, me) {
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
	s.beginRegistration(w, r, op, u, "add", label)
}

// beginRegistration answers the options to make a passkey for u, and
// keeps the ceremony (kind, and the passkey's name label).
func (s *API) beginRegistration(w http.ResponseWriter, r *http.Request, op string, u *passkeyUser, kind, label string) {
	rp, err := s.relyingParty(r)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "passkeys cannot be used at this address: %v", err).With("passkey_unavailable", nil))
		return
	}
	creation, data, err := rp.BeginRegistration(u, registrationOptions(u.creds)...)
	if err != nil {
		s.writeError(w, r, httpx.Unexpected(op, err))
		return
	}
	id := s.ceremonies.put(&ceremony{kind: kind, data: *data, account: u.id, name: u.name, label: label, expires: time.Now().Add(ceremonyTTL)})
	httpx.WriteJSON(w, 200, map[string]any{"ceremony": id, "options": creation})
}

// finishRegistration checks a finished registration and returns its
// ceremony and the new credential, or writes the error.
func (s *API) finishRegistration(w http.ResponseWriter, r *http.Request, op, kind string) (*ceremony, *webauthn.Credential, bool) {
	var req finishReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return nil, nil, false
	}
	c, ok := s.ceremonies.take(req.Ceremony, kind)
	if !ok {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "this passkey request has expired or was used: start again").With("passkey_expired", nil))
		return nil, nil, false
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(req.Credential)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "the passkey response is not one this server can read: %v", err).With("passkey_failed", nil))
		return nil, nil, false
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "passkeys cannot be used at this address: %v", err).With("passkey_unavailable", nil))
		return nil, nil, false
	}
	cred, err := rp.CreateCredential(&passkeyUser{id: c.account, name: c.name}, c.data, parsed)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "the passkey was not accepted: %v", err).With("passkey_failed", nil))
		return nil, nil, false
	}
	return c, cred, true
}

// storePasskey stores a new credential of account id, named label.
func (s *API) storePasskey(ctx context.Context, id string, cred *webauthn.Credential, label string) error {
	data, err := passkeyData(cred, passkeyMeta{Name: label})
	if err != nil {
		return err
	}
	return s.store.AddPasskey(ctx, store.Passkey{ID: cred.ID, Account: id, Data: data, Created: time.Now()})
}

// handlePasskeySignUpFinish answers POST /api/account/passkey/signup/finish
// {ceremony, credential}: the new account with its passkey, signed in.
func (s *API) handlePasskeySignUpFinish(w http.ResponseWriter, r *http.Request) {
	const op = "passkey sign up"
	c, cred, ok := s.finishRegistration(w, r, op, "signup")
	if !ok {
		return
	}
	if !s.allowSignUp(w, r, op) {
		return
	}
	_, key, _ := account.CheckName(c.name)
	a := &store.Account{ID: c.account, Name: c.name, NameKey: key, Created: time.Now()}
	if err := s.store.CreateAccount(r.Context(), a); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "the name %s is taken: choose another", c.name).With("name_taken", map[string]any{"Name": c.name}))
		} else {
			s.writeError(w, r, httpx.StoreDown(op, err))
		}
		return
	}
	if err := s.storePasskey(r.Context(), a.ID, cred, ""); err != nil {
		_ = s.store.DeleteAccount(r.Context(), a.ID, account.AnonName()) // no account without a way in
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if err := s.startSession(r.Context(), w, r, a.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.Info("account created", "account", a.ID, "with", "passkey")
	httpx.WriteJSON(w, http.StatusCreated, map[string]any{"account": Account{ID: a.ID, Name: a.Name}})
}

// handlePasskeyAddFinish answers POST /api/account/passkey/add/finish.
func (s *API) handlePasskeyAddFinish(w http.ResponseWriter, r *http.Request) {
	const op = "add passkey"
	me, ok := s.signed(w, r, op)
	if !ok {
		return
	}
	c, cred, ok := s.finishRegistration(w, r, op, "add")
	if !ok {
		return
	}
	if c.account != me.ID {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this passkey request was begun by another account").With("passkey_failed", nil))
		return
	}
	if err := s.storePasskey(r.Context(), me.ID, cred, c.label); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "this passkey is registered already").With("passkey_exists", nil))
		} else {
			s.writeError(w, r, httpx.StoreDown(op, err))
		}
		return
	}
	info, err := s.accountInfo(r.Context(), me.ID)
	if err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"account": info})
}

// handlePasskeySignInBegin answers POST /api/account/passkey/signin/begin:
// the options for navigator.credentials.get, for any passkey of this site
// (the browser offers the person's).
func (s *API) handlePasskeySignInBegin(w http.ResponseWriter, r *http.Request) {
	const op = "passkey sign in"
	rp, err := s.relyingParty(r)
	if err != nil {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "passkeys cannot be used at this address: %v", err).With("passkey_unavailable", nil))
		return
	}
	assertion, data, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		s.writeError(w, r, httpx.Unexpected(op, err))
		return
	}
	id := s.ceremonies.put(&ceremony{kind: "signin", data: *data, expires: time.Now().Add(ceremonyTTL)})
	httpx.WriteJSON(w, 200, map[string]any{"ceremony": id, "options": assertion})
}

// handlePasskeySignInFinish answers POST /api/account/passkey/signin/finish
// {ceremony, credential}: signed in to the passkey's account. Failures
// count against the address, as failed password sign-ins do: its token
// is taken first.
func (s *API) handlePasskeySignInFinish(w http.ResponseWriter, r *http.Request) {
	const op = "passkey sign in"
	// The address's token is taken before the passkey is checked, so
	// that attempts sent at once cannot all be checked; it is given back
	// unless the passkey failed.
	addr := httpx.ClientAddr(r)
	if ok, wait := s.signInByAddr.Take(addr); !ok {
		s.tooMany(w, r, op, wait, "too many failed sign-ins: wait before trying again", "too_many_signins")
		return
	}
	failed := false
	defer func() {
		if !failed {
			s.signInByAddr.Give(addr)
		}
	}()
	var req finishReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	fail := func(err error) {
		failed = true
		e := httpx.Errorf(httpx.Forbidden, op, "this passkey was not accepted: use another way to sign in").With("passkey_failed", nil)
		e.Err = err
		s.writeError(w, r, e)
	}
	c, ok := s.ceremonies.take(req.Ceremony, "signin")
	if !ok {
		s.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "this passkey request has expired or was used: start again").With("passkey_expired", nil))
		return
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
	var (
		acct *store.Account
		user *passkeyUser
	)
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		a, err := s.store.Account(r.Context(), string(userHandle))
		if err != nil {
			return nil, err
		}
		u, err := s.userOf(r.Context(), a)
		if err != nil {
			return nil, err
		}
		acct, user = a, u
		return u, nil
	}
	_, cred, err := rp.ValidatePasskeyLogin(handler, c.data, parsed)
	if err != nil || acct == nil || user == nil {
		fail(err)
		return
	}
	if acct.Disabled {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "this account is disabled").With("account_disabled", nil))
		return
	}
	if !s.passkeyUsed(w, r, op, user, cred) { // the new sign count, unless it went backwards
		return
	}
	if err := s.startSession(r.Context(), w, r, acct.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, 200, map[string]any{"account": Account{ID: acct.ID, Name: acct.Name}})
}
