package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, to read the tables directly

	"pitch"
	"pitch/rating"
	"pitch/store"
)

// browser is one HTTP client with its own cookies: a browser, or a device.
type browser struct {
	t  *testing.T
	ts *testServer
	c  *http.Client
}

func (ts *testServer) browser() *browser {
	jar, _ := cookiejar.New(nil)
	c := *ts.hs.Client()
	c.Jar = jar
	return &browser{t: ts.t, ts: ts, c: &c}
}

// do sends a request with the browser's cookies and extra headers (pairs).
func (b *browser) do(method, path, body string, headers ...string) (*http.Response, []byte) {
	b.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, b.ts.hs.URL+path, rd)
	if err != nil {
		b.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	checkSecurityHeaders(b.t, method+" "+path, resp)
	return resp, data
}

// must sends a request that must answer want.
func (b *browser) must(want int, method, path, body string) []byte {
	b.t.Helper()
	resp, data := b.do(method, path, body)
	if resp.StatusCode != want {
		b.t.Fatalf("%s %s %s: status %d, want %d: %s", method, path, body, resp.StatusCode, want, data)
	}
	return data
}

// me is the account the browser is signed in to ("" for none).
func (b *browser) me() string {
	b.t.Helper()
	var got struct {
		Account *struct{ Name string } `json:"account"`
	}
	if err := json.Unmarshal(b.must(200, "GET", "/api/account", ""), &got); err != nil {
		b.t.Fatal(err)
	}
	if got.Account == nil {
		return ""
	}
	return got.Account.Name
}

// session is the browser's session cookie's value.
func (b *browser) session() string {
	for _, c := range b.c.Jar.Cookies(b.ts.u()) {
		if c.Name == "pitch_session" {
			return c.Value
		}
	}
	return ""
}

// withSession is a browser that sends only the session cookie value.
func (ts *testServer) withSession(value string) *browser {
	b := ts.browser()
	b.c.Jar.SetCookies(ts.u(), []*http.Cookie{{Name: "pitch_session", Value: value, Path: "/"}})
	return b
}

func creds(name, password string) string {
	b, _ := json.Marshal(map[string]string{"name": name, "password": password})
	return string(b)
}

func errCode(t *testing.T, body []byte) string {
	t.Helper()
	var e struct{ Code string }
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("not an error body: %s", body)
	}
	return e.Code
}

const goodPassword = "correct horse battery"

func TestAccountSignUpSignInSignOut(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		a := ts.browser()
		if got := a.me(); got != "" {
			t.Fatalf("a new browser is signed in as %q", got)
		}
		a.must(201, "POST", "/api/account/signup", creds("Ada", goodPassword))
		if got := a.me(); got != "Ada" {
			t.Fatalf("after sign-up: signed in as %q, want Ada", got)
		}
		// The cookie: HttpOnly, SameSite=Lax, a session that expires.
		resp, _ := ts.browser().do("POST", "/api/account/signin", creds("ada", goodPassword))
		var cookie string
		for _, v := range resp.Header.Values("Set-Cookie") {
			if strings.HasPrefix(v, "pitch_session=") {
				cookie = v
			}
		}
		for _, want := range []string{"HttpOnly", "SameSite=Lax", "Max-Age=", "Path=/"} {
			if !strings.Contains(cookie, want) {
				t.Errorf("session cookie %q lacks %s", cookie, want)
			}
		}
		if strings.Contains(cookie, "Secure") {
			t.Errorf("session cookie %q is Secure over plain HTTP", cookie)
		}
		// The same name in another case or width is taken.
		for _, name := range []string{"ADA", "ＡＤＡ", "ada"} {
			if body := ts.browser().must(409, "POST", "/api/account/signup", creds(name, goodPassword)); errCode(t, body) != "name_taken" {
				t.Errorf("sign up as %s: %s, want name_taken", name, body)
			}
		}
		// Bad names and passwords are refused, saying why.
		for _, c := range []struct{ name, password, code string }{
			{"A", goodPassword, "bad_account_name"},
			{"Ada Lovelace", goodPassword, "bad_account_name"},
			{"Bob", "short", "password_short"},
			{"Bob", "1qaz2wsx3edc", "password_common"},
			{"Bobby-Tables", "bobby-tables", "password_name"},
		} {
			if body := ts.browser().must(400, "POST", "/api/account/signup", creds(c.name, c.password)); errCode(t, body) != c.code {
				t.Errorf("sign up %q/%q: %s, want %s", c.name, c.password, body, c.code)
			}
		}
		// Sign-out ends the session: its cookie no longer signs anyone in.
		old := a.session()
		a.must(200, "POST", "/api/account/signout", "")
		if got := a.me(); got != "" {
			t.Errorf("after sign-out: signed in as %q", got)
		}
		if got := ts.withSession(old).me(); got != "" {
			t.Errorf("the session cookie from before sign-out still signs in %q", got)
		}
		// A wrong password and a name nobody has get the same answer.
		_, wrong := a.do("POST", "/api/account/signin", creds("Ada", "not the password"))
		_, nobody := a.do("POST", "/api/account/signin", creds("Nobody", "not the password"))
		if string(wrong) != string(nobody) || errCode(t, wrong) != "wrong_credentials" {
			t.Errorf("wrong password: %s; unknown name: %s; want the same wrong_credentials", wrong, nobody)
		}
		a.must(200, "POST", "/api/account/signin", creds("ＡＤＡ", goodPassword))
		if got := a.me(); got != "Ada" {
			t.Errorf("after sign-in: %q, want Ada", got)
		}
		if strings.Contains(ts.all.String(), goodPassword) {
			t.Errorf("the server logged a password")
		}
	})
}

func TestPasswordChangeEndsEverySession(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		a, other := ts.browser(), ts.browser()
		a.must(201, "POST", "/api/account/signup", creds("Grace", goodPassword))
		other.must(200, "POST", "/api/account/signin", creds("grace", goodPassword))
		oldA, oldOther := a.session(), other.session()
		if body := a.must(403, "POST", "/api/account/password", `{"old":"wrong one!","new":"another good one"}`); errCode(t, body) != "wrong_password" {
			t.Errorf("change with a wrong old password: %s", body)
		}
		a.must(200, "POST", "/api/account/password", `{"old":"`+goodPassword+`","new":"another good one"}`)
		for what, v := range map[string]string{"this browser's old session": oldA, "the other browser's session": oldOther} {
			if got := ts.withSession(v).me(); got != "" {
				t.Errorf("after a password change, %s still signs in %q", what, got)
			}
		}
		if got := a.me(); got != "Grace" {
			t.Errorf("the browser that changed the password is signed in as %q, want Grace (a new session)", got)
		}
		ts.browser().must(403, "POST", "/api/account/signin", creds("Grace", goodPassword))
		ts.browser().must(200, "POST", "/api/account/signin", creds("Grace", "another good one"))
	})
}

func TestSignInThrottled(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	ts.browser().must(201, "POST", "/api/account/signup", creds("Alan", goodPassword))
	b := ts.browser()
	for i := range 5 {
		if body := b.must(403, "POST", "/api/account/signin", creds("Alan", fmt.Sprintf("guess number %d", i))); errCode(t, body) != "wrong_credentials" {
			t.Fatalf("guess %d: %s", i, body)
		}
	}
	// The name's failures are used up: even the right password waits.
	resp, body := b.do("POST", "/api/account/signin", creds("alan", goodPassword))
	if resp.StatusCode != 429 || errCode(t, body) != "too_many_signins" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("sixth try: %d %s (Retry-After %q), want 429 too_many_signins with Retry-After", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	// Per address: guessing at many names from one address stops too.
	limited := false
	for i := range 30 {
		resp, _ := b.do("POST", "/api/account/signin", creds(fmt.Sprintf("name%d", i), "some guess here"))
		if resp.StatusCode == 429 {
			limited = i >= 15 && resp.Header.Get("Retry-After") != ""
			break
		}
	}
	if !limited {
		t.Errorf("one address guessing at 30 names was not throttled after about 20 failures")
	}
}

func TestCrossOriginRefused(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	b := ts.browser()
	resp, body := b.do("POST", "/api/account/signup", creds("Mallory", goodPassword), "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != 403 || errCode(t, body) != "cross_origin" {
		t.Fatalf("cross-site sign-up: %d %s, want 403 cross_origin", resp.StatusCode, body)
	}
	resp, body = b.do("POST", "/api/tables", `{"variant":"auction"}`, "Origin", "https://evil.example")
	if resp.StatusCode != 403 || errCode(t, body) != "cross_origin" {
		t.Fatalf("cross-origin create (Origin only): %d %s, want 403 cross_origin", resp.StatusCode, body)
	}
	if got := b.me(); got != "" {
		t.Fatalf("the refused sign-up signed in %q", got)
	}
	// The same requests from the site itself pass.
	b.must(201, "POST", "/api/account/signup", creds("Mallory", goodPassword))
	tb := ts.create(`{"variant":"auction"}`)
	// A WebSocket opened by a page of another site is refused; one from
	// the site's own page is not.
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, ts.wsURL(tb.ID), &websocket.DialOptions{HTTPClient: b.c,
		HTTPHeader: http.Header{"Origin": {"https://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("cross-origin WebSocket: err %v, response %v; want refused with 403", err, resp)
	}
	ws, _, err := websocket.Dial(ctx, ts.wsURL(tb.ID), &websocket.DialOptions{HTTPClient: b.c,
		HTTPHeader: http.Header{"Origin": {ts.hs.URL}}})
	if err != nil {
		t.Fatalf("same-origin WebSocket: %v", err)
	}
	ws.CloseNow()
}

// hello opens a WebSocket to table id as browser b with token, and returns
// the seat of its first state, or the close reason.
func (b *browser) hello(id, token string) (seat int, closed string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, b.ts.wsURL(id), &websocket.DialOptions{HTTPClient: b.c})
	if err != nil {
		b.t.Fatalf("dial: %v", err)
	}
	defer ws.CloseNow()
	msg, _ := json.Marshal(map[string]string{"type": "hello", "token": token})
	if err := ws.Write(ctx, websocket.MessageText, msg); err != nil {
		b.t.Fatal(err)
	}
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return -2, websocket.CloseStatus(err).String() + " " + closeReason(err)
		}
		var m struct {
			Type string
			Seat int
		}
		_ = json.Unmarshal(data, &m)
		if m.Type == "state" {
			return m.Seat, ""
		}
	}
}

func closeReason(err error) string {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return err.Error()
}

// u is the server's URL, for the cookie jar.
func (ts *testServer) u() *url.URL {
	u, _ := url.Parse(ts.hs.URL)
	return u
}

// table reads a table's public description.
func (ts *testServer) table(id string) tableJSON {
	ts.t.Helper()
	resp, body := ts.do("GET", "/api/tables/"+id, "")
	if resp.StatusCode != 200 {
		ts.t.Fatalf("GET table %s: %d %s", id, resp.StatusCode, body)
	}
	var tb tableJSON
	if err := json.Unmarshal(body, &tb); err != nil {
		ts.t.Fatal(err)
	}
	return tb
}

func TestStolenSeatToken(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		a := ts.browser()
		a.must(201, "POST", "/api/account/signup", creds("Edsger", goodPassword))
		tb := ts.create(`{"variant":"auction","options":{"players":3},"seats":[{"kind":"human"},{"kind":"human"},{"kind":"bot"}]}`)
		var j struct {
			Seat  int
			Token string
		}
		if err := json.Unmarshal(a.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"name":"ignored"}`), &j); err != nil {
			t.Fatal(err)
		}
		// The token alone, in another browser, does not play the seat.
		if seat, closed := ts.browser().hello(tb.ID, j.Token); seat != -2 || !strings.Contains(closed, "sign in") {
			t.Errorf("stolen token: seat %d, closed %q; want the connection closed, saying to sign in", seat, closed)
		}
		// The account's session plays it, with the token or without.
		if seat, closed := a.hello(tb.ID, j.Token); seat != j.Seat {
			t.Errorf("owner with token: seat %d (%s), want %d", seat, closed, j.Seat)
		}
		other := ts.browser() // another device of the same person
		other.must(200, "POST", "/api/account/signin", creds("Edsger", goodPassword))
		if seat, closed := other.hello(tb.ID, ""); seat != j.Seat {
			t.Errorf("owner on another device, no token: seat %d (%s), want %d", seat, closed, j.Seat)
		}
		var mine struct{ Seats []struct{ Table string } }
		_ = json.Unmarshal(other.must(200, "GET", "/api/account/seats", ""), &mine)
		if len(mine.Seats) != 1 || mine.Seats[0].Table != tb.ID {
			t.Errorf("the account's seats on another device: %+v, want table %s", mine.Seats, tb.ID)
		}
		// Another account's session with the stolen token does not either.
		m := ts.browser()
		m.must(201, "POST", "/api/account/signup", creds("Mallory", goodPassword))
		if seat, _ := m.hello(tb.ID, j.Token); seat != -2 {
			t.Errorf("another account with the stolen token got seat %d", seat)
		}
		// A guest's seat still plays by its token alone, as before.
		gt := ts.join(tb.ID, 1, "Guest")
		if seat, closed := ts.browser().hello(tb.ID, gt); seat != 1 {
			t.Errorf("guest token: seat %d (%s), want 1", seat, closed)
		}
	})
}

func TestGuestSignsUpMidMatch(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tb := ts.create(`{"variant":"auction","options":{"players":3},"seats":[{"kind":"human"},{"kind":"human"},{"kind":"bot"}]}`)
		token := ts.join(tb.ID, 1, "Barbara")
		g := ts.browser()
		g.must(201, "POST", "/api/account/signup", creds("Barbara", goodPassword))
		var got struct {
			Seats []struct {
				Table string
				Seat  int
			}
		}
		_ = json.Unmarshal(g.must(200, "POST", "/api/account/seats", `{"seats":[{"table":"`+tb.ID+`","token":"`+token+`"},{"table":"nosuch","token":"x"}]}`), &got)
		if len(got.Seats) != 1 || got.Seats[0].Table != tb.ID || got.Seats[0].Seat != 1 {
			t.Fatalf("claimed %+v, want seat 1 of %s", got.Seats, tb.ID)
		}
		phone := ts.browser()
		phone.must(200, "POST", "/api/account/signin", creds("barbara", goodPassword))
		if seat, closed := phone.hello(tb.ID, ""); seat != 1 {
			t.Errorf("signed in on another device: seat %d (%s), want 1", seat, closed)
		}
		// The old token alone no longer plays the seat: it is the account's.
		if seat, _ := ts.browser().hello(tb.ID, token); seat != -2 {
			t.Errorf("the guest token without the session: seat %d, want refused", seat)
		}
	})
}

// rows returns every value of every table of the database at dsn, as
// text, with the table's name.
func allValues(t *testing.T, dsn string) map[string][]string {
	t.Helper()
	driver, tablesQ := "sqlite", `SELECT name FROM sqlite_master WHERE type = 'table'`
	if strings.HasPrefix(dsn, "postgres") {
		driver, tablesQ = "pgx", `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(tablesQ)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	out := map[string][]string{}
	for _, tn := range tables {
		rows, err := db.Query(`SELECT * FROM ` + tn)
		if err != nil {
			t.Fatalf("%s: %v", tn, err)
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
				switch x := v.(type) {
				case []byte:
					out[tn] = append(out[tn], string(x))
				case nil:
				default:
					out[tn] = append(out[tn], fmt.Sprint(x))
				}
			}
		}
		rows.Close()
	}
	if len(out["accounts"]) == 0 && len(tables) < 5 {
		t.Fatalf("read no tables from %s", dsn)
	}
	return out
}

// TestDeleteAccountLeavesNoPersonalData: a person with two sessions, a
// seat at a table, hands played at a table with fair deals (their
// contributions in the records, the deals and a pending commitment), a
// rated match, an event and a daily deal exports all of it, then deletes
// the account: no table of the database (every one the schema has, every
// column, JSON included) holds their name or account ID, nor does any
// public route (history, hand records, tables, events, the daily
// standings, profiles); their seats keep their places under one
// anonymous name, the records still verify, and their connection closes.
func TestDeleteAccountLeavesNoPersonalData(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		dsn := fresh(t)
		opts := fastOptions()
		opts.DailyDeals, opts.DailyBots = 1, "easy"
		opts.DealWait = time.Minute // every fair deal waits for the people's values
		ts := startServer(t, dsn, opts)
		const name = "Hopper-Zq9"
		a := ts.browser()
		a.must(201, "POST", "/api/account/signup", creds(name, goodPassword))
		var me struct{ Account struct{ ID string } }
		_ = json.Unmarshal(a.must(200, "GET", "/api/account", ""), &me)
		ts.browser().must(200, "POST", "/api/account/signin", creds(name, goodPassword)) // a second session
		other := ts.browser()
		other.must(201, "POST", "/api/account/signup", creds("Other-Person", goodPassword))
		tb := ts.create(`{"variant":"auction","options":{"players":3},"seats":[{"kind":"human"},{"kind":"human"},{"kind":"bot"}]}`)
		a.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0,"name":"x"}`)
		other.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":1,"name":"x"}`)
		// A rated match of the two, stored as the server stores one: the
		// person's rating and its history are theirs too.
		var otherMe struct{ Account struct{ ID string } }
		_ = json.Unmarshal(other.must(200, "GET", "/api/account", ""), &otherMe)
		if _, err := ts.st.RateMatch(bg, store.RatedMatch{Table: "rated-" + tb.ID, Variant: "auction",
			Standing: rating.Standing{Sides: [][]int{{0}, {1}, {2}}, Ranks: []float64{1, 2, 3}},
			Seats: []store.RatedSeat{{Seat: 0, Account: me.Account.ID, Hands: 7, Bids: 2, Sets: 1, Points: 11},
				{Seat: 1, Account: otherMe.Account.ID, Hands: 7, Points: 6}, {Seat: 2, Bot: rating.Default().New(), Hands: 7}}}); err != nil {
			t.Fatal(err)
		}

		// Hands at a table with fair deals: the person's page contributes
		// to each deal, under their name, and to the next one pending.
		fair := ts.create(`{"variant":"auction","options":{"players":3},"seats":[{"kind":"human"},{"kind":"human"},{"kind":"bot"}]}`)
		var joined struct{ Token string }
		_ = json.Unmarshal(a.must(200, "POST", "/api/tables/"+fair.ID+"/join", `{"seat":0,"name":"x"}`), &joined)
		gilToken := ts.join(fair.ID, 1, "Gil")
		h := newHub(t, ts, fair.ID, 5)
		spec := h.connect("spectator", -1, "", false)
		h.httpClient = a.c // the person's connection carries their session
		mine := h.connect(name, 0, joined.Token, true)
		h.httpClient = nil
		h.connect("Gil", 1, gilToken, true)
		h.run(60*time.Second, "two hands and the third's commitment with the person's value", func() bool {
			if spec.last == nil || len(spec.last.Sheet) < 2 {
				return false
			}
			cs, _ := ts.st.Commitments(bg, fair.ID)
			for _, c := range cs {
				if c.N > len(spec.last.Sheet) && strings.Contains(string(c.Pending), name) {
					return true
				}
			}
			return false
		})
		hands := len(spec.last.Sheet)
		if r := handRecord(t, ts, fair.ID, 1); !strings.Contains(string(r.Fairness), name) {
			t.Fatalf("hand 1's fair deal does not name the person: %s", r.Fairness)
		}

		// An event, joined signed in, played to its end.
		var created struct{ ID, Token string }
		ts.post("/api/events", `{"variant":"ten-point","rounds":1,"end":"hands","hands":1,"movement":"progressive"}`, 201, &created)
		tokens := map[int]string{}
		var j struct {
			Entry int
			Token string
		}
		_ = json.Unmarshal(a.must(200, "POST", "/api/events/"+created.ID+"/join", `{"name":"`+name+`"}`), &j)
		tokens[j.Entry] = j.Token
		for i := range 3 {
			ts.post("/api/events/"+created.ID+"/join", fmt.Sprintf(`{"name":"Player-%d"}`, i), 200, &j)
			tokens[j.Entry] = j.Token
		}
		ts.post("/api/events/"+created.ID+"/start", fmt.Sprintf(`{"token":%q}`, created.Token), 200, nil)
		playRound(t, ts, created.ID, tokens, nil, 9)
		ts.waitEvent(created.ID, "the event's result", func(e evWire) bool { return e.State == "over" })

		// Today's daily deal, played by the person and the other player.
		var dailyID, dailyTable string
		for k, b := range []*browser{a, other} {
			var dm dailyMeWire
			_ = json.Unmarshal(b.must(200, "POST", "/api/daily/ten-point/play", `{}`), &dm)
			if dm.Seat == nil {
				t.Fatalf("no daily seat: %+v", dm)
			}
			if k == 0 {
				dailyTable = dm.Seat.Table
			}
			hd := newHub(t, ts, dm.Seat.Table, uint64(60+k))
			hd.httpClient = b.c
			c := hd.connect("daily", 0, dm.Seat.SeatToken, true)
			hd.run(60*time.Second, "the daily deal", func() bool { return c.last != nil && c.last.Over })
			c.close()
			waitUntil(t, 20*time.Second, "the daily result", func() bool {
				var dm dailyMeWire
				return json.Unmarshal(b.must(200, "POST", "/api/daily/ten-point/me", `{}`), &dm) == nil && dm.Done
			})
		}
		var day struct {
			Games []struct{ Variant, Event string }
		}
		_ = json.Unmarshal(a.must(200, "GET", "/api/daily", ""), &day)
		for _, g := range day.Games {
			if g.Variant == "ten-point" {
				dailyID = g.Event
			}
		}

		var export struct {
			Account  struct{ Name string }
			Sessions []any
			Seats    []struct{ Table string }
			Ratings  []struct {
				Game          string
				Matches, Wins int
				Mu            float64
			}
			RatedMatches []struct {
				Table                            string
				Place, Hands, Bids, Sets, Points int
			} `json:"rated_matches"`
			Events []struct {
				Event, Variant, State string
				Place, Of, Rounds     int
			}
			Daily []struct {
				Day, Variant, Event string
				Place, Of, Deals    int
			}
		}
		_ = json.Unmarshal(a.must(200, "GET", "/api/account/export", ""), &export)
		if export.Account.Name != name || len(export.Sessions) != 2 || len(export.Seats) != 2 {
			t.Errorf("export: %+v, want the account, 2 sessions, 2 seats", export)
		}
		if r := export.Ratings; len(r) != 1 || r[0].Game != "auction" || r[0].Matches != 1 || r[0].Wins != 1 || r[0].Mu <= 25 {
			t.Errorf("export's ratings: %+v, want auction's after one match won", r)
		}
		if m := export.RatedMatches; len(m) != 1 || m[0].Table != "rated-"+tb.ID || m[0].Place != 1 || m[0].Hands != 7 || m[0].Bids != 2 || m[0].Sets != 1 || m[0].Points != 11 {
			t.Errorf("export's rated matches: %+v, want the one match as stored", m)
		}
		if e := export.Events; len(e) != 1 || e[0].Event != created.ID || e[0].Variant != "ten-point" || e[0].State != "over" || e[0].Place < 1 || e[0].Of != 4 || e[0].Rounds != 1 {
			t.Errorf("export's events: %+v, want the event played, with a place of 4", e)
		}
		if d := export.Daily; len(d) != 1 || d[0].Event != dailyID || d[0].Variant != "ten-point" || d[0].Place < 1 || d[0].Of != 2 || d[0].Deals != 1 {
			t.Errorf("export's daily results: %+v, want today's ten-point of %s, of 2, 1 deal", d, dailyID)
		}

		before := allValues(t, dsn)
		for _, tn := range []string{"seats", "hands", "deals", "commitments", "tournaments", "tournament_players", "ratings", "accounts"} {
			if !slices.ContainsFunc(before[tn], func(v string) bool { return strings.Contains(v, name) || strings.Contains(v, me.Account.ID) }) {
				t.Errorf("before the deletion, %s does not hold the person: the test does not test it", tn)
			}
		}
		if body := a.must(400, "POST", "/api/account/delete", `{"name":"someone else"}`); errCode(t, body) != "confirm_name" {
			t.Errorf("delete without the name: %s", body)
		}
		a.must(200, "POST", "/api/account/delete", `{"name":"`+strings.ToLower(name)+`"}`)
		after := allValues(t, dsn)
		for _, s := range []string{name, strings.ToLower(name), me.Account.ID} {
			if tn := findIn(after, s); tn != "" {
				t.Errorf("after deleting the account, table %s still holds %q", tn, s)
			}
		}
		if !containsIn(after, "Other-Person") || !containsIn(after, "Gil") || !containsIn(after, "Player-0") {
			t.Errorf("the other players' accounts, seats or entries are gone")
		}
		for _, tn := range []string{"ratings", "rating_history"} {
			if !slices.Contains(before[tn], me.Account.ID) || !slices.Contains(after[tn], otherMe.Account.ID) {
				t.Errorf("%s: before the deletion %v, after %v; want the person's rows, then only the other player's", tn, before[tn], after[tn])
			}
		}
		if got := a.me(); got != "" {
			t.Errorf("after deleting, still signed in as %q", got)
		}
		// The person's connection at the fair table closes.
		// (Read as it comes, nothing sent: the clients do not play on.)
		for timeout := time.After(20 * time.Second); !mine.gone; {
			select {
			case dv := <-h.in:
				if dv.c == mine && dv.err != nil {
					mine.gone, mine.goneErr = true, dv.err
				}
			case <-timeout:
				t.Fatal("the deleted account's connection is still open")
			}
		}
		if st := websocket.CloseStatus(mine.goneErr); st != websocket.StatusPolicyViolation || !strings.Contains(closeReason(mine.goneErr), "deleted") {
			t.Errorf("the deleted account's connection ended with %v %q, want 1008, deleted", st, closeReason(mine.goneErr))
		}

		// The seats stay, under one anonymous name.
		info := ts.table(tb.ID)
		anon := info.Seats[0].Name
		if !strings.HasPrefix(anon, "anon-") {
			t.Errorf("the deleted account's seat is named %q, want anon-…", anon)
		}
		if n := info.Seats[1].Name; n != "Other-Person" {
			t.Errorf("the other seat is named %q", n)
		}
		if n := ts.table(fair.ID).Seats[0].Name; n != anon {
			t.Errorf("the person's seat at the fair table is named %q, want %q as at the other", n, anon)
		}
		// The records keep the person's seat and their values, under the
		// same name, and still verify.
		for n := 1; n <= hands; n++ {
			r := handRecord(t, ts, fair.ID, n)
			if rep := pitch.VerifyFairness(r); !rep.OK() {
				t.Errorf("hand %d no longer verifies: %q", n, rep.Problems)
			}
			f, _ := pitch.ParseFairness(r.Fairness)
			for _, c := range f.Contributions {
				if want := map[int]string{0: anon, 1: "Gil"}[c.Seat]; c.Name != want {
					t.Errorf("hand %d: seat %d's contribution is named %q, want %q", n, c.Seat, c.Name, want)
				}
			}
		}
		// No public route names the person.
		paths := []string{"/api/history", "/api/tables", "/api/tables/" + tb.ID, "/api/tables/" + fair.ID, "/api/events/" + created.ID,
			"/api/events/" + dailyID, "/api/daily", "/api/users/Other-Person", "/api/users/Other-Person/events", "/api/users/Other-Person/daily",
			"/api/leaderboard?game=auction", "/api/tables/" + dailyTable}
		for n := 1; n <= hands; n++ {
			paths = append(paths, fmt.Sprintf("/api/tables/%s/hands/%d", fair.ID, n))
		}
		ev := ts.event(created.ID)
		for _, round := range ev.Rounds {
			for _, tab := range round {
				paths = append(paths, "/api/tables/"+tab.Table, "/api/tables/"+tab.Table+"/hands/1")
			}
		}
		if ev.Entries[0].Name != anon {
			t.Errorf("the event's entry is named %q, want %q", ev.Entries[0].Name, anon)
		}
		for _, p := range paths {
			resp, body := ts.browser().do("GET", p, "")
			if resp.StatusCode != 200 {
				t.Errorf("GET %s: %d %s", p, resp.StatusCode, body)
			}
			for _, s := range []string{name, strings.ToLower(name), me.Account.ID} {
				if strings.Contains(string(body), s) {
					t.Errorf("GET %s still names the person (%q): %s", p, s, body)
				}
			}
		}
		ts.browser().must(404, "GET", "/api/users/"+name, "")
		ts.browser().must(403, "POST", "/api/account/signin", creds(name, goodPassword))
	})
}

func containsIn(vals map[string][]string, s string) bool { return findIn(vals, s) != "" }

func findIn(vals map[string][]string, s string) string {
	for tn, vs := range vals {
		for _, v := range vs {
			if strings.Contains(v, s) {
				return tn
			}
		}
	}
	return ""
}

func TestSessionExpires(t *testing.T) {
	dsn := t.TempDir() + "/pitch.db"
	opts := fastOptions()
	opts.SessionTTL = time.Second
	ts := startServer(t, dsn, opts)
	a := ts.browser()
	a.must(201, "POST", "/api/account/signup", creds("Ephemeral", goodPassword))
	old := a.session()
	if got := a.me(); got != "Ephemeral" {
		t.Fatalf("just signed up: %q", got)
	}
	time.Sleep(1500 * time.Millisecond)
	if got := ts.withSession(old).me(); got != "" {
		t.Errorf("a session past its time still signs in %q", got)
	}
	// The next sign-in deletes the expired session's row.
	ts.browser().must(200, "POST", "/api/account/signin", creds("Ephemeral", goodPassword))
	waitUntil := time.Now().Add(5 * time.Second)
	for {
		if n := len(allValues(t, dsn)["sessions"]); n == 4 { // one session row left: hash, account, created, expires
			break
		}
		if time.Now().After(waitUntil) {
			t.Fatalf("the sessions table holds %d values, want the one live session's 4", len(allValues(t, dsn)["sessions"]))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
