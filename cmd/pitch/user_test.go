package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"pitch/server"
	"pitch/store"
)

// TestUserCommands runs `pitch user` against the database of a running
// server: list, a reset link that works once and ends the sessions,
// disable (every session ends, no sign-in), enable, delete.
func TestUserCommands(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "pitch.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	newBrowser := func() *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{Jar: jar}
	}
	call := func(c *http.Client, method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	signedIn := func(c *http.Client) bool {
		_, body := call(c, "GET", "/api/account", "")
		return !strings.Contains(body, `"account":null`)
	}
	ada := newBrowser()
	if code, body := call(ada, "POST", "/api/account/signup", `{"name":"Ada","password":"first pass phrase"}`); code != 201 {
		t.Fatalf("sign up: %d %s", code, body)
	}

	code, out, errs := runCmd(t, "", "user", "list", "--db", db)
	if code != 0 || !strings.Contains(out, "Ada") || !strings.Contains(out, "password") || !strings.Contains(errs, "1 accounts") {
		t.Errorf("user list: exit %d\n%s%s", code, out, errs)
	}

	code, out, errs = runCmd(t, "", "user", "reset-password", "ada", "--db", db, "--url", "https://pitch.example/")
	link, ok := strings.CutPrefix(strings.TrimSpace(out), "https://pitch.example/reset#")
	if code != 0 || !ok || len(link) < 40 {
		t.Fatalf("user reset-password: exit %d %q %s", code, out, errs)
	}
	reset, _ := json.Marshal(map[string]string{"token": link, "password": "second pass phrase"})
	other := newBrowser()
	if code, body := call(other, "POST", "/api/account/reset", string(reset)); code != 200 {
		t.Fatalf("reset: %d %s", code, body)
	}
	if signedIn(ada) {
		t.Errorf("after a reset, the old session still signs in")
	}
	if !signedIn(other) {
		t.Errorf("the reset did not sign its browser in")
	}
	if code, body := call(newBrowser(), "POST", "/api/account/reset", string(reset)); code != 403 || !strings.Contains(body, "bad_reset") {
		t.Errorf("the link used again: %d %s, want 403 bad_reset", code, body)
	}

	if code, out, _ := runCmd(t, "", "user", "disable", "Ada", "--db", db); code != 0 || !strings.Contains(out, "disabled") {
		t.Errorf("user disable: exit %d %q", code, out)
	}
	if signedIn(other) {
		t.Errorf("a disabled account's session still signs in")
	}
	if code, body := call(newBrowser(), "POST", "/api/account/signin", `{"name":"Ada","password":"second pass phrase"}`); code != 403 || !strings.Contains(body, "account_disabled") {
		t.Errorf("sign in when disabled: %d %s", code, body)
	}
	runCmd(t, "", "user", "enable", "Ada", "--db", db)
	if code, body := call(newBrowser(), "POST", "/api/account/signin", `{"name":"Ada","password":"second pass phrase"}`); code != 200 {
		t.Errorf("sign in when enabled again: %d %s", code, body)
	}

	if code, out, _ := runCmd(t, "", "user", "delete", "Ada", "--db", db); code != 0 || !strings.Contains(out, "deleted") {
		t.Errorf("user delete: exit %d %q", code, out)
	}
	if _, out, _ := runCmd(t, "", "user", "list", "--db", db); strings.Contains(out, "Ada") {
		t.Errorf("after delete, list shows:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"user", "disable", "Nobody", "--db", db}, 1, `no account is named "Nobody"`},
		{[]string{"user", "disable", "--db", db}, 2, "needs the account's NAME"},
		{[]string{"user", "rename", "x", "--db", db}, 2, `unknown action "rename"`},
		{[]string{"user"}, 2, "usage: pitch user"},
	} {
		code, _, errs := runCmd(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d %q, want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}
