package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/server"
	"pitch/server/accountapi"
)

// raw sends a request with the given Cookie header ("" for none) and
// Host ("" for the server's), without a cookie jar.
func (ts *testServer) raw(method, path, body, cookie, host string) (*http.Response, []byte) {
	ts.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.hs.URL+path, rd)
	if err != nil {
		ts.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := ts.hs.Client().Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	checkSecurityHeaders(ts.t, method+" "+path, resp)
	return resp, data
}

// sessionSetCookie is the response's session cookie, as set.
func sessionSetCookie(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if strings.HasSuffix(c.Name, "pitch_session") {
			return c
		}
	}
	t.Fatalf("no session cookie set: %q", resp.Header.Values("Set-Cookie"))
	return nil
}

// TestSessionCookieAndHSTS: over plain HTTP the session cookie is
// pitch_session and no HSTS is sent (local use works); with --https, or
// an https:// --origin, the cookie is __Host-pitch_session (Secure,
// Path=/, no Domain), the bare name signs no one in, and every answer
// carries HSTS.
func TestSessionCookieAndHSTS(t *testing.T) {
	for _, mode := range []struct {
		name   string
		opts   func(*server.Options)
		secure bool
	}{
		{"plain", func(*server.Options) {}, false},
		{"https", func(o *server.Options) { o.HTTPS = true }, true},
		{"origin", func(o *server.Options) { o.Origin = "https://pitch.example" }, true},
	} {
		t.Run(mode.name, func(t *testing.T) {
			opts := fastOptions()
			mode.opts(&opts)
			ts := startServer(t, t.TempDir()+"/pitch.db", opts)
			resp, body := ts.raw("POST", "/api/account/signup", creds("Hedy", goodPassword), "", "")
			if resp.StatusCode != 201 {
				t.Fatalf("sign up: %d %s", resp.StatusCode, body)
			}
			c := sessionSetCookie(t, resp)
			wantName := "pitch_session"
			if mode.secure {
				wantName = "__Host-pitch_session"
			}
			if c.Name != wantName || c.Secure != mode.secure || c.Path != "/" || c.Domain != "" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("session cookie %q: name %q secure %v path %q domain %q httponly %v samesite %v; want %q, secure %v, Path=/, no Domain, HttpOnly, Lax",
					resp.Header.Get("Set-Cookie"), c.Name, c.Secure, c.Path, c.Domain, c.HttpOnly, c.SameSite, wantName, mode.secure)
			}
			for _, path := range []string{"/api/account", "/api/tables", "/api/health"} {
				resp, _ := ts.raw("GET", path, "", "", "")
				got := resp.Header.Get("Strict-Transport-Security")
				if mode.secure && got != "max-age=63072000; includeSubDomains" {
					t.Errorf("GET %s: Strict-Transport-Security %q, want max-age=63072000; includeSubDomains", path, got)
				}
				if !mode.secure && got != "" {
					t.Errorf("GET %s over plain HTTP: Strict-Transport-Security %q, want none", path, got)
				}
			}
			signedIn := func(cookie string) bool {
				_, body := ts.raw("GET", "/api/account", "", cookie, "")
				return !strings.Contains(string(body), `"account":null`)
			}
			if !signedIn(c.Name + "=" + c.Value) {
				t.Errorf("the cookie as set does not sign in")
			}
			other := "pitch_session"
			if !mode.secure {
				other = "__Host-pitch_session"
			}
			if signedIn(other + "=" + c.Value) {
				t.Errorf("the session under the name %s signs in; only %s may", other, c.Name)
			}
			resp, _ = ts.raw("POST", "/api/account/signout", "", c.Name+"="+c.Value, "")
			if out := sessionSetCookie(t, resp); out.Name != c.Name || out.MaxAge >= 0 || out.Secure != mode.secure {
				t.Errorf("sign-out clears %q (max-age %d, secure %v), want %s cleared", out.Name, out.MaxAge, out.Secure, c.Name)
			}
			if signedIn(c.Name + "=" + c.Value) {
				t.Errorf("signed in after sign-out")
			}
		})
	}
}

// TestPasskeyRelyingPartyFromOrigin: with --origin the relying party is
// its host whatever Host header a request names; without it, the Host.
func TestPasskeyRelyingPartyFromOrigin(t *testing.T) {
	rpOf := func(ts *testServer, host string) string {
		resp, body := ts.raw("POST", "/api/account/passkey/signup/begin", `{"name":"Radia"}`, "", host)
		if resp.StatusCode != 200 {
			t.Fatalf("begin: %d %s", resp.StatusCode, body)
		}
		var got struct {
			Options struct {
				PublicKey struct {
					RP struct{ ID string } `json:"rp"`
				} `json:"publicKey"`
			}
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		return got.Options.PublicKey.RP.ID
	}
	opts := fastOptions()
	opts.Origin = "https://Pitch.Example/"
	fixed := startServer(t, t.TempDir()+"/pitch.db", opts)
	for _, host := range []string{"", "evil.example", "localhost:8080"} {
		if id := rpOf(fixed, host); id != "pitch.example" {
			t.Errorf("--origin https://pitch.example, Host %q: relying party %q, want pitch.example", host, id)
		}
	}
	free := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	if id := rpOf(free, "localhost:8080"); id != "localhost" {
		t.Errorf("no --origin, Host localhost:8080: relying party %q, want localhost", id)
	}
}

func TestPasskeyParseOrigin(t *testing.T) {
	for _, c := range []struct{ in, out, err string }{
		{"https://pitch.example", "https://pitch.example", ""},
		{"https://Pitch.Example:8443/", "https://pitch.example:8443", ""},
		{"http://localhost:8080", "http://localhost:8080", ""},
		{"http://pitch.example", "", "plain http://"},
		{"pitch.example", "", "https://"},
		{"ftp://pitch.example", "", "https://"},
		{"https://", "", "no host"},
		{"https://pitch.example/play", "", "no path"},
		{"https://pitch.example?x=1", "", "no path"},
		{"https://user@pitch.example", "", "no path"},
		{"https://192.0.2.1", "", "IP address"},
		{"https://[2001:db8::1]", "", "IP address"},
	} {
		got, err := accountapi.ParseOrigin(c.in)
		if c.err == "" && (err != nil || got != c.out) {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", c.in, got, err, c.out)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "https://pitch.example")) {
			t.Errorf("ParseOrigin(%q) = %q, %v; want an error saying %q and what is allowed", c.in, got, err, c.err)
		}
	}
	if _, err := server.New(bg, nil, server.Options{Origin: "pitch.example"}); err == nil {
		t.Errorf("server.New with a bad Origin: no error")
	}
}

// openSeat opens a WebSocket to table id as browser b with token ("":
// none), and returns it once its first state has come.
func (b *browser) openSeat(id, token string) *websocket.Conn {
	return b.openWS(b.ts.wsURL(id), token, "state")
}

// openEvent opens a WebSocket following event id as browser b, and
// returns it once the event has come.
func (b *browser) openEvent(id string) *websocket.Conn {
	return b.openWS("ws"+strings.TrimPrefix(b.ts.hs.URL, "http")+"/api/events/"+id+"/ws", "", "event")
}

// openWS opens a WebSocket at u as browser b, says hello with token, and
// returns it once a message of type typ has come.
func (b *browser) openWS(u, token, typ string) *websocket.Conn {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: b.c})
	if err != nil {
		b.t.Fatalf("dial: %v", err)
	}
	b.t.Cleanup(func() { ws.CloseNow() })
	msg, _ := json.Marshal(map[string]string{"type": "hello", "token": token})
	if err := ws.Write(ctx, websocket.MessageText, msg); err != nil {
		b.t.Fatal(err)
	}
	if !untilType(ctx, ws, typ) {
		b.t.Fatalf("no %s on the new connection", typ)
	}
	return ws
}

// untilType reads ws until a message of type typ (true) or an error (false).
func untilType(ctx context.Context, ws *websocket.Conn, typ string) bool {
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return false
		}
		var m struct{ Type string }
		_ = json.Unmarshal(data, &m)
		if m.Type == typ {
			return true
		}
	}
}

// sessionClosed reads ws until it is closed, and returns its close code and
// reason ("" when it is still open and answers a hello).
func sessionClosed(t *testing.T, ws *websocket.Conn) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	for {
		_, _, err := ws.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatalf("the connection was neither closed nor answered in 10 s")
			}
			return websocket.CloseStatus(err).String() + " " + closeReason(err)
		}
	}
}

// stillOpen checks that ws, a table's, answers a hello with a state.
func stillOpen(t *testing.T, what string, ws *websocket.Conn) { stillOpenAs(t, what, ws, "state") }

// stillOpenAs checks that ws answers a hello with a message of type typ.
func stillOpenAs(t *testing.T, what string, ws *websocket.Conn, typ string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil || !untilType(ctx, ws, typ) {
		t.Errorf("%s: the connection is closed (%v), want it open", what, err)
	}
}

// TestSocketsClosedWhenSessionsEnd: an account's WebSockets end with its
// sessions: sign-out closes the ones that session opened (a table's and
// an event's), a password
// change every one of the account's, and the old seat token without the
// session no longer plays the seat; a disabled account's are found by
// the sweep; another account's are untouched.
func TestSocketsClosedWhenSessionsEnd(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		a, phone, b := ts.browser(), ts.browser(), ts.browser()
		a.must(201, "POST", "/api/account/signup", creds("Grace", goodPassword))
		phone.must(200, "POST", "/api/account/signin", creds("Grace", goodPassword))
		b.must(201, "POST", "/api/account/signup", creds("Barbara", goodPassword))
		tb := ts.create(`{"variant":"auction","options":{"players":3},"seats":[{"kind":"human"},{"kind":"human"},{"kind":"bot"}]}`)
		var ja, jb struct{ Token string }
		_ = json.Unmarshal(a.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0,"name":"x"}`), &ja)
		_ = json.Unmarshal(b.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":1,"name":"x"}`), &jb)
		wsA, wsPhone, wsB := a.openSeat(tb.ID, ja.Token), phone.openSeat(tb.ID, ""), b.openSeat(tb.ID, jb.Token)
		wsWatch := a.openSeat(tb.ID, "") // a's session, its seat by the session alone
		var ev struct{ ID string }
		ts.post("/api/events", `{"variant":"ten-point","rounds":1,"end":"hands","hands":1,"movement":"progressive"}`, 201, &ev)
		evA, evB := a.openEvent(ev.ID), b.openEvent(ev.ID)

		a.must(200, "POST", "/api/account/signout", "")
		for _, ws := range []*websocket.Conn{wsA, wsWatch, evA} {
			if got := sessionClosed(t, ws); !strings.Contains(got, "StatusPolicyViolation") || !strings.Contains(got, "signed out") {
				t.Errorf("sign-out: the session's socket closed with %q, want 1008 saying signed out", got)
			}
		}
		stillOpen(t, "sign-out, the account's other session", wsPhone)
		stillOpen(t, "sign-out, another account", wsB)
		stillOpenAs(t, "sign-out, another account's event socket", evB, "event")

		phone.must(200, "POST", "/api/account/password", `{"old":"`+goodPassword+`","new":"another horse battery"}`)
		if got := sessionClosed(t, wsPhone); !strings.Contains(got, "StatusPolicyViolation") || !strings.Contains(got, "password was changed") {
			t.Errorf("password change: the account's socket closed with %q, want 1008 saying the password was changed", got)
		}
		stillOpen(t, "password change, another account", wsB)
		if seat, closed := ts.browser().hello(tb.ID, ja.Token); seat != -2 || !strings.Contains(closed, "sign in") {
			t.Errorf("the old seat token without a session after the password change: seat %d (%s), want refused", seat, closed)
		}
		if seat, closed := a.hello(tb.ID, ja.Token); seat != -2 {
			t.Errorf("the signed-out browser with the seat token: seat %d (%s), want refused", seat, closed)
		}
		// The new session (the phone's, made by the change) plays it.
		wsNew := phone.openSeat(tb.ID, "")

		// Disabled by the operator (`pitch user disable`, another
		// process): the sweep finds it.
		grace, err := ts.st.AccountByName(bg, "grace")
		if err != nil {
			t.Fatal(err)
		}
		if err := ts.st.SetDisabled(bg, grace.ID, true); err != nil {
			t.Fatal(err)
		}
		server.CheckSessions(ts.srv)
		if got := sessionClosed(t, wsNew); !strings.Contains(got, "StatusPolicyViolation") || !strings.Contains(got, "session has ended") {
			t.Errorf("disabled: the account's socket closed with %q, want 1008 saying the session has ended", got)
		}
		stillOpen(t, "disable, another account", wsB)
		stillOpenAs(t, "disable, another account's event socket", evB, "event")
	})
}
