package server_test

import (
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pitch/server/httpx"
	"pitch/store"
)

// localServer is a test server reached as localhost (passkeys need a
// domain, not an IP address).
func localServer(t *testing.T, dsn string) *testServer {
	ts := startServer(t, dsn, fastOptions())
	ts.hs.URL = strings.Replace(ts.hs.URL, "//127.0.0.1:", "//localhost:", 1)
	return ts
}

// oldSession is a browser signed in to account id long ago (a session
// made straight in the store): it has shown no credential lately.
func (ts *testServer) oldSession(id string) *browser {
	ts.t.Helper()
	token := httpx.RandomString(32)
	h := sha256.Sum256([]byte(token))
	now := time.Now()
	if err := ts.st.CreateSession(bg, store.Session{Hash: h[:], Account: id, Created: now.Add(-time.Hour), Expires: now.Add(24 * time.Hour)}); err != nil {
		ts.t.Fatal(err)
	}
	return ts.withSession(token)
}

// accountID is the ID of the account named name.
func (ts *testServer) accountID(name string) string {
	ts.t.Helper()
	a, err := ts.st.AccountByName(bg, strings.ToLower(name))
	if err != nil {
		ts.t.Fatal(err)
	}
	return a.ID
}

// passkeysOf lists b's account's passkeys.
type listedPasskey struct {
	ID       string
	Name     string
	Created  time.Time
	LastUsed *time.Time `json:"last_used"`
}

func (b *browser) passkeys() []listedPasskey {
	b.t.Helper()
	var got struct{ Passkeys []listedPasskey }
	if err := json.Unmarshal(b.must(200, "GET", "/api/account/passkeys", ""), &got); err != nil {
		b.t.Fatal(err)
	}
	return got.Passkeys
}

// wantCode checks that a request answers status with error code code.
func (b *browser) wantCode(status int, code, method, path, body string) {
	b.t.Helper()
	resp, data := b.do(method, path, body)
	if resp.StatusCode != status || !strings.Contains(string(data), `"code":"`+code+`"`) {
		b.t.Errorf("%s %s %s: %d %s; want %d %s", method, path, body, resp.StatusCode, data, status, code)
	}
}

// TestAccountReauthRequired: adding a passkey, removing one, deleting the
// account and a first password need a credential shown within the last
// 5 minutes (signing in counts); a session signed in long ago confirms
// with the password or a passkey of the account's, and not another's.
func TestAccountReauthRequired(t *testing.T) {
	ts := localServer(t, t.TempDir()+"/pitch.db")
	auth := ts.authenticator()
	ts.browser().must(201, "POST", "/api/account/signup", creds("Ada", goodPassword))
	old := ts.oldSession(ts.accountID("Ada"))
	if old.me() != "Ada" {
		t.Fatalf("the old session is not signed in")
	}
	old.wantCode(403, "reauth_required", "POST", "/api/account/passkey/add/begin", `{}`)
	old.wantCode(403, "reauth_required", "POST", "/api/account/delete", `{"name":"Ada"}`)
	old.wantCode(403, "reauth_required", "POST", "/api/account/passkey/remove", `{"id":"AAAA"}`)
	old.wantCode(403, "wrong_password", "POST", "/api/account/reauth", `{"password":"not the password"}`)
	old.wantCode(403, "reauth_required", "POST", "/api/account/passkey/add/begin", `{}`)
	if ts.accountID("Ada") == "" || old.me() != "Ada" {
		t.Fatalf("the refusals changed the account")
	}

	var ok struct {
		ReauthUntil time.Time `json:"reauth_until"`
	}
	before := time.Now()
	_ = json.Unmarshal(old.must(200, "POST", "/api/account/reauth", `{"password":"`+goodPassword+`"}`), &ok)
	if ok.ReauthUntil.Before(before.Add(5*time.Minute-time.Second)) || ok.ReauthUntil.After(time.Now().Add(5*time.Minute)) {
		t.Errorf("reauth_until %v, want 5 minutes from now", ok.ReauthUntil)
	}
	body, adaKey := auth.create(old.must(200, "POST", "/api/account/passkey/add/begin", `{"name":"  Laptop "}`))
	old.must(200, "POST", "/api/account/passkey/add/finish", body)
	if got := old.passkeys(); len(got) != 1 || got[0].Name != "Laptop" || got[0].LastUsed != nil {
		t.Errorf("passkeys after adding one: %+v, want one named Laptop, never used", got)
	}

	// A passkey-only account sets a first password after confirming
	// with its passkey, not another account's.
	ts.browser().passkeySignUp(auth, "Alan")
	alan := ts.oldSession(ts.accountID("Alan"))
	alan.wantCode(403, "reauth_required", "POST", "/api/account/password", `{"old":"","new":"`+goodPassword+`"}`)
	alan.wantCode(400, "no_password", "POST", "/api/account/reauth", `{"password":"`+goodPassword+`"}`)
	begin := alan.must(200, "POST", "/api/account/passkey/reauth/begin", `{}`)
	alan.wantCode(403, "passkey_failed", "POST", "/api/account/passkey/reauth/finish", auth.get(begin, adaKey, 1))
	alan.wantCode(403, "reauth_required", "POST", "/api/account/password", `{"old":"","new":"`+goodPassword+`"}`)
	keys := alan.passkeys()
	if len(keys) != 1 {
		t.Fatalf("Alan's passkeys: %+v", keys)
	}
	alanKey := alan.keyOf(t, auth, keys[0].ID)
	begin = alan.must(200, "POST", "/api/account/passkey/reauth/begin", `{}`)
	alan.must(200, "POST", "/api/account/passkey/reauth/finish", auth.get(begin, alanKey, 1))
	alan.must(200, "POST", "/api/account/password", `{"old":"","new":"`+goodPassword+`"}`)
	if got := alan.passkeys(); len(got) != 1 || got[0].LastUsed == nil {
		t.Errorf("Alan's passkey after confirming with it: %+v, want its last use", got)
	}
}

// keyOf is the software key whose ID is id (base64url), made by auth.
func (b *browser) keyOf(t *testing.T, auth *softAuthenticator, id string) *softKey {
	t.Helper()
	for _, k := range auth.made {
		if b64u.EncodeToString(k.id) == id {
			return k
		}
	}
	t.Fatalf("no key %s", id)
	return nil
}

// TestPasskeyListRemove: the account page's list (name, when added,
// when last used) and removal; the last way to sign in stays.
func TestPasskeyListRemove(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) { passkeyListRemove(t, localServer(t, fresh(t))) })
}

func passkeyListRemove(t *testing.T, ts *testServer) {
	auth := ts.authenticator()
	b := ts.browser()
	k1 := b.passkeySignUp(auth, "Lin")
	body, k2 := auth.create(b.must(200, "POST", "/api/account/passkey/add/begin", `{"name":"Phone"}`))
	b.must(200, "POST", "/api/account/passkey/add/finish", body)
	b.wantCode(400, "bad_passkey_name", "POST", "/api/account/passkey/add/begin", `{"name":"`+strings.Repeat("x", 41)+`"}`)
	b.wantCode(400, "bad_passkey_name", "POST", "/api/account/passkey/add/begin", `{"name":"a\u0007b"}`)
	list := b.passkeys()
	if len(list) != 2 || list[0].Name != "" || list[1].Name != "Phone" || list[0].LastUsed != nil || list[1].Created.IsZero() {
		t.Fatalf("passkeys: %+v, want an unnamed one and Phone, neither used", list)
	}
	if status, data := ts.browser().passkeySignIn(auth, k1, 1); status != 200 {
		t.Fatalf("sign in with the first passkey: %d %s", status, data)
	}
	if list = b.passkeys(); list[0].LastUsed == nil || time.Since(*list[0].LastUsed) > time.Minute || list[1].LastUsed != nil {
		t.Errorf("after signing in with the first: %+v, want its last use now, the other's none", list)
	}

	b.wantCode(400, "bad_passkey", "POST", "/api/account/passkey/remove", `{"id":"not base64!"}`)
	b.wantCode(404, "no_passkey", "POST", "/api/account/passkey/remove", `{"id":"AAAAAAAA"}`)
	var after struct{ Passkeys []listedPasskey }
	_ = json.Unmarshal(b.must(200, "POST", "/api/account/passkey/remove", `{"id":"`+list[0].ID+`"}`), &after)
	if len(after.Passkeys) != 1 || after.Passkeys[0].Name != "Phone" {
		t.Errorf("after removing the first: %+v, want Phone alone", after.Passkeys)
	}
	if status, _ := ts.browser().passkeySignIn(auth, k1, 2); status != 403 {
		t.Errorf("a removed passkey signs in: %d", status)
	}
	// The last way in: refused, and nothing changes.
	b.wantCode(409, "last_sign_in", "POST", "/api/account/passkey/remove", `{"id":"`+list[1].ID+`"}`)
	if status, data := ts.browser().passkeySignIn(auth, k2, 1); status != 200 {
		t.Errorf("the last passkey after the refused removal: %d %s", status, data)
	}
	// Another account cannot remove it.
	o := ts.browser()
	o.must(201, "POST", "/api/account/signup", creds("Mallory", goodPassword))
	o.wantCode(404, "no_passkey", "POST", "/api/account/passkey/remove", `{"id":"`+list[1].ID+`"}`)
	// With a password it is no longer the last way in.
	b.must(200, "POST", "/api/account/password", `{"old":"","new":"`+goodPassword+`"}`)
	b.must(200, "POST", "/api/account/passkey/remove", `{"id":"`+list[1].ID+`"}`)
	if got := b.passkeys(); len(got) != 0 {
		t.Errorf("passkeys after removing both: %+v", got)
	}
}

// TestPasskeyCloneRefused: a sign-in whose authenticator's counter does
// not go forward (go-webauthn's CloneWarning) is refused, logged without
// secrets, and does not move the stored counter.
func TestPasskeyCloneRefused(t *testing.T) {
	ts := localServer(t, t.TempDir()+"/pitch.db")
	auth := ts.authenticator()
	k := ts.browser().passkeySignUp(auth, "Clone")
	if status, data := ts.browser().passkeySignIn(auth, k, 5); status != 200 {
		t.Fatalf("sign in at 5: %d %s", status, data)
	}
	for _, count := range []uint32{5, 3} {
		b := ts.browser()
		status, data := b.passkeySignIn(auth, k, count)
		if status != 403 || errCode(t, data) != "passkey_cloned" || !strings.Contains(string(data), "copied") {
			t.Errorf("sign in at %d after 5: %d %s, want 403 passkey_cloned", count, status, data)
		}
		if b.me() != "" || b.session() != "" {
			t.Errorf("the refused sign-in at %d signed in", count)
		}
	}
	logged := ts.logs.take()
	if strings.Count(logged, "sign count went backwards") != 2 || !strings.Contains(logged, "account=") {
		t.Errorf("the refusals' log: %q, want two warnings naming the account", logged)
	}
	for _, secret := range []string{"challenge", "signature", "clientDataJSON", "pitch_session"} {
		if strings.Contains(logged, secret) {
			t.Errorf("the log holds %q: %s", secret, logged)
		}
	}
	if status, data := ts.browser().passkeySignIn(auth, k, 6); status != 200 {
		t.Errorf("sign in at 6 (the stored counter is still 5): %d %s", status, data)
	}
}

// TestResetRevokesPasskeys: a reset link's new password revokes every
// passkey unless asked not to.
func TestResetRevokesPasskeys(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) { resetRevokesPasskeys(t, localServer(t, fresh(t))) })
}

func resetRevokesPasskeys(t *testing.T, ts *testServer) {
	auth := ts.authenticator()
	reset := func(id string) string {
		token := httpx.RandomString(24)
		h := sha256.Sum256([]byte(token))
		if err := ts.st.CreateReset(bg, h[:], id, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		return token
	}
	for _, c := range []struct {
		name, field string
		revoked     bool
	}{{"Mary", "", true}, {"Marie", `,"revoke_passkeys":true`, true}, {"Maria", `,"revoke_passkeys":false`, false}} {
		k := ts.browser().passkeySignUp(auth, c.name)
		b := ts.browser()
		b.wantCode(400, "invalid", "POST", "/api/account/reset", `{"token":"x","password":"`+goodPassword+`","revoke_passkeys":"yes"}`)
		var got struct {
			Revoked int `json:"passkeys_revoked"`
		}
		_ = json.Unmarshal(b.must(200, "POST", "/api/account/reset", `{"token":"`+reset(ts.accountID(c.name))+`","password":"`+goodPassword+`"`+c.field+`}`), &got)
		status, _ := ts.browser().passkeySignIn(auth, k, 1)
		if n := len(b.passkeys()); c.revoked && (got.Revoked != 1 || n != 0 || status != 403) || !c.revoked && (got.Revoked != 0 || n != 1 || status != 200) {
			t.Errorf("reset %s%s: revoked %d, %d passkeys left, passkey sign-in %d; want revoked %v", c.name, c.field, got.Revoked, n, status, c.revoked)
		}
	}
}
