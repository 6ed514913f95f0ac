package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

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

// TestUserCommandsWhileServing runs `pitch user` in another process
// while a server runs on the SQLite file (this process holds its lock):
// disable, and the account can no longer sign in, its session is
// refused and its open WebSocket closes; delete, and nothing in the
// database names it any more, and the running server shows its seat
// under the anonymous name.
func TestUserCommandsWhileServing(t *testing.T) {
	if args := os.Getenv("PITCH_USER_CHILD"); args != "" {
		os.Exit(run(strings.Split(args, "\x1f"), strings.NewReader(""), os.Stdout, os.Stderr))
	}
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "pitch.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{AccountCheck: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	// child runs pitch user in a process of its own, which finds the
	// file held by this one.
	child := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^TestUserCommandsWhileServing$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PITCH_USER_CHILD="+strings.Join(append([]string{"user"}, args...), "\x1f"))
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := child("list", "--db", db); code != 0 || !strings.Contains(out, "0 accounts") {
		t.Fatalf("user list beside the server: exit %d %q", code, out)
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
	browser := func() *http.Client {
		jar, _ := cookiejar.New(nil)
		return &http.Client{Jar: jar}
	}
	const name, pass = "Ada-Qx7", `{"name":"Ada-Qx7","password":"first pass phrase"}`
	ada := browser()
	if code, body := call(ada, "POST", "/api/account/signup", pass); code != 201 {
		t.Fatalf("sign up: %d %s", code, body)
	}
	var me struct{ Account struct{ ID string } }
	_, body := call(ada, "GET", "/api/account", "")
	_ = json.Unmarshal([]byte(body), &me)
	signedIn := func(c *http.Client) bool {
		_, body := call(c, "GET", "/api/account", "")
		return strings.Contains(body, name)
	}
	// Ada's seat at a table, and her page's WebSocket to it.
	var tb struct{ ID string }
	_, body = call(ada, "POST", "/api/tables", `{"variant":"auction","options":{"players":3},"seats":[{"kind":"human"},{"kind":"bot"},{"kind":"bot"}]}`)
	_ = json.Unmarshal([]byte(body), &tb)
	if code, body := call(ada, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0,"name":"x"}`); code != 200 {
		t.Fatalf("join: %d %s", code, body)
	}
	seatName := func() string {
		_, body := call(browser(), "GET", "/api/tables/"+tb.ID, "")
		var info struct{ Seats []struct{ Name string } }
		_ = json.Unmarshal([]byte(body), &info)
		if len(info.Seats) == 0 {
			t.Fatalf("table info: %s", body)
		}
		return info.Seats[0].Name
	}
	open := func() *websocket.Conn {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(wctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+tb.ID+"/ws", &websocket.DialOptions{HTTPClient: ada})
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(wctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatal(err)
		}
		for {
			_, data, err := ws.Read(wctx)
			if err != nil {
				t.Fatalf("before the state: %v", err)
			}
			var m struct{ Type string }
			if json.Unmarshal(data, &m) == nil && m.Type == "state" {
				return ws
			}
		}
	}
	// closed waits for the server to close ws and returns its code and reason.
	closed := func(ws *websocket.Conn) (websocket.StatusCode, string) {
		t.Helper()
		rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		for {
			if _, _, err := ws.Read(rctx); err != nil {
				var ce websocket.CloseError
				if errors.As(err, &ce) {
					return ce.Code, ce.Reason
				}
				return -1, err.Error()
			}
		}
	}
	ws := open()
	// An event Ada joined signed in, started: her table's seat carries
	// her name, not her account.
	var ev struct{ ID, Token string }
	_, body = call(browser(), "POST", "/api/events", `{"variant":"ten-point","rounds":1,"end":"hands","hands":1,"movement":"progressive"}`)
	_ = json.Unmarshal([]byte(body), &ev)
	if code, body := call(ada, "POST", "/api/events/"+ev.ID+"/join", `{"name":"`+name+`"}`); code != 200 {
		t.Fatalf("join the event: %d %s", code, body)
	}
	// Bea-Qx7 is in the event only: no seat of hers carries her account.
	const bea = "Bea-Qx7"
	beaB := browser()
	if code, body := call(beaB, "POST", "/api/account/signup", `{"name":"`+bea+`","password":"first pass phrase"}`); code != 201 {
		t.Fatalf("sign up: %d %s", code, body)
	}
	if code, body := call(beaB, "POST", "/api/events/"+ev.ID+"/join", `{"name":"`+bea+`"}`); code != 200 {
		t.Fatalf("join the event: %d %s", code, body)
	}
	for i := range 2 {
		if code, body := call(browser(), "POST", "/api/events/"+ev.ID+"/join", fmt.Sprintf(`{"name":"Player-%d"}`, i)); code != 200 {
			t.Fatalf("join the event: %d %s", code, body)
		}
	}
	if code, body := call(browser(), "POST", "/api/events/"+ev.ID+"/start", `{"token":"`+ev.Token+`"}`); code != 200 {
		t.Fatalf("start the event: %d %s", code, body)
	}
	// shown is everything the running server shows of the table and the
	// event.
	shown := func() string {
		_, e := call(browser(), "GET", "/api/events/"+ev.ID, "")
		var view struct {
			Rounds [][]struct{ Table string }
		}
		_ = json.Unmarshal([]byte(e), &view)
		all := e
		for _, round := range view.Rounds {
			for _, tab := range round {
				_, info := call(browser(), "GET", "/api/tables/"+tab.Table, "")
				all += info
			}
		}
		_, info := call(browser(), "GET", "/api/tables/"+tb.ID, "")
		return all + info
	}
	if s := shown(); !strings.Contains(s, name) || !strings.Contains(s, bea) || !strings.Contains(s, `"table":"`) {
		t.Fatalf("before: the server does not show Ada's entry and seats: %s", s)
	}

	if code, out := child("disable", name, "--db", db); code != 0 || !strings.Contains(out, "is disabled") || !strings.Contains(out, "running server") {
		t.Fatalf("user disable beside the server: exit %d %q", code, out)
	}
	if signedIn(ada) {
		t.Errorf("a disabled account's session is still taken")
	}
	if code, body := call(browser(), "POST", "/api/account/signin", pass); code != 403 || !strings.Contains(body, "account_disabled") {
		t.Errorf("sign in when disabled: %d %s, want 403 account_disabled", code, body)
	}
	if code, reason := closed(ws); code != websocket.StatusPolicyViolation || !strings.Contains(reason, "disabled") {
		t.Errorf("the disabled account's WebSocket: closed with %v %q, want 1008, disabled", code, reason)
	}

	if code, out := child("enable", name, "--db", db); code != 0 {
		t.Fatalf("user enable: exit %d %q", code, out)
	}
	if code, body := call(ada, "POST", "/api/account/signin", pass); code != 200 {
		t.Fatalf("sign in when enabled again: %d %s", code, body)
	}
	ws = open()
	if code, out := child("delete", name, "--db", db); code != 0 || !strings.Contains(out, "is deleted") {
		t.Fatalf("user delete beside the server: exit %d %q", code, out)
	}
	if signedIn(ada) {
		t.Errorf("a deleted account's session is still taken")
	}
	if code, reason := closed(ws); code != websocket.StatusPolicyViolation || !strings.Contains(reason, "deleted") {
		t.Errorf("the deleted account's WebSocket: closed with %v %q, want 1008, deleted", code, reason)
	}
	// The running server shows the seats and the entry under the new
	// name once it has noticed (its next look at the accounts).
	deadline := time.Now().Add(20 * time.Second)
	for s := shown(); strings.Contains(s, name) || !strings.HasPrefix(seatName(), "anon-"); s = shown() {
		if time.Now().After(deadline) {
			t.Fatalf("the running server still names the deleted account (seat %q): %s", seatName(), s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Bea, deleted too, is renamed wherever the running server shows her:
	// it reads again the event the store changed.
	if code, out := child("delete", bea, "--db", db); code != 0 || !strings.Contains(out, "is deleted") {
		t.Fatalf("user delete beside the server: exit %d %q", code, out)
	}
	deadline = time.Now().Add(20 * time.Second)
	for s := shown(); strings.Contains(s, bea); s = shown() {
		if time.Now().After(deadline) {
			t.Fatalf("the running server still shows the deleted %s: %s", bea, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, s := range []string{name, strings.ToLower(name), me.Account.ID, bea} {
		if tn := sqliteHolds(t, db, s); tn != "" {
			t.Errorf("after pitch user delete, table %s still holds %q", tn, s)
		}
	}
}

// sqliteHolds returns a table of the SQLite database at path (any of
// those its schema lists) that holds s in any column, or "".
func sqliteHolds(t *testing.T, path, s string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("the schema lists %d tables", len(tables))
	}
	for _, tn := range tables {
		rows, err := db.Query(`SELECT * FROM "` + tn + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				var text string
				switch x := v.(type) {
				case []byte:
					text = string(x)
				case nil:
				default:
					text = fmt.Sprint(x)
				}
				if strings.Contains(text, s) {
					rows.Close()
					return tn
				}
			}
		}
		rows.Close()
	}
	return ""
}
