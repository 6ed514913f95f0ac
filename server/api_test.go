package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// errorBody reads an API error response: {"error": "..."}.
func errorBody(t *testing.T, b []byte) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
		t.Errorf("not an error body: %s", b)
	}
	return e.Error
}

// TestCreateValidation: a create request that is not right is refused
// with 400 and a message that says what is wrong; nothing is created.
func TestCreateValidation(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		cases := []struct {
			name, body, want string
		}{
			{"unknown variant", `{"variant":"bridge"}`, `unknown variant "bridge": the variants are auction, ten-point and pawnee`},
			{"no variant", `{}`, `unknown variant ""`},
			{"option of another game", `{"variant":"ten-point","options":{"players":5}}`, `option "players" does not apply to ten-point`},
			{"unknown option", `{"variant":"pawnee","options":{"colour":"red"}}`, `option "colour" does not apply to pawnee`},
			{"option of the wrong type", `{"variant":"auction","options":{"target":"seven"}}`, `option "target" must be a whole number`},
			{"target out of range (C-8)", `{"variant":"auction","options":{"target":0}}`, `option target 0 is out of range`},
			{"players out of range (AP-1)", `{"variant":"auction","options":{"players":8}}`, `auction is for 2 to 7 players, not 8`},
			{"options not an object", `{"variant":"auction","options":[1]}`, `options must be an object`},
			{"too few seats", `{"variant":"auction","seats":` + seatsBody("h", "easy", "easy") + `}`, `auction with these options has 4 seats; seats lists 3`},
			{"too many seats", `{"variant":"ten-point","seats":` + seatsBody("h", "h", "h", "h", "h") + `}`, `has 4 seats; seats lists 5`},
			{"bad level", `{"variant":"auction","seats":` + seatsBody("h", "godlike", "easy", "easy") + `}`, `seat 1: unknown bot level "godlike": the levels are easy, medium, hard, expert`},
			{"human with a level", `{"variant":"auction","seats":[{"kind":"human","level":"hard"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]}`, `seat 0 is human: it takes no level`},
			{"bad kind", `{"variant":"auction","seats":[{"kind":"alien"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]}`, `seat 0: kind must be "human" or "bot", not "alien"`},
			{"turn timer", `{"variant":"auction","turn_timer":-1}`, `turn_timer must be 0 (none) to 3600 seconds, not -1`},
			{"unknown field", `{"variant":"auction","colour":"red"}`, `unknown field "colour"`},
			{"unknown seat field", `{"variant":"auction","seats":[{"kind":"human","name":"Ann"}]}`, `unknown field "name"`},
			{"not JSON", `variant=auction`, `the request body is not the JSON expected`},
			{"two values", `{"variant":"auction"} {"variant":"pawnee"}`, `more than one JSON value`},
			{"oversized body", `{"variant":"auction","options":{"target":7},"seats":[` + strings.Repeat(`{"kind":"bot","level":"easy"},`, 600) + `{"kind":"human"}]}`, `the request body is over 16384 bytes`},
		}
		for _, tc := range cases {
			resp, b := ts.do("POST", "/api/tables", tc.body)
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("%s: status %d (%s), want 400", tc.name, resp.StatusCode, b)
				continue
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("%s: Content-Type %q", tc.name, ct)
			}
			if got := errorBody(t, b); !strings.Contains(got, tc.want) {
				t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
			}
		}
		if tables, err := ts.st.Tables(bg, false); err != nil || len(tables) != 0 {
			t.Errorf("refused requests stored %d tables (%v)", len(tables), err)
		}

		// A good request with no seats: one human against bots of the default level.
		tab := ts.create(`{"variant":"pawnee","options":{"target":30},"turn_timer":60}`)
		if len(tab.Seats) != 5 || tab.Seats[0].Kind != "human" || tab.Seats[0].Taken || tab.TurnTimer != 60 ||
			tab.URL != "/t/"+tab.ID || tab.Options["target"] != 30.0 || tab.Options["call_own_card"] != true {
			t.Errorf("created %+v", tab)
		}
		for _, s := range tab.Seats[1:] {
			if s.Kind != "bot" || s.Level != "medium" || !s.Taken || s.Name == "" {
				t.Errorf("seat %+v, want a medium bot", s)
			}
		}
	})
}

// TestJoin: names are checked, a taken seat is 409, an unknown table 404;
// with no seat named the first free one is given, and none free is 409.
func TestJoin(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "easy", "h", "h") + `}`)
		path := "/api/tables/" + tab.ID + "/join"
		cases := []struct {
			name, body string
			status     int
			want       string
		}{
			{"empty name", `{"seat":0,"name":""}`, 400, "a name must be 1 to 24 characters, not 0"},
			{"blank name", `{"seat":0,"name":"   "}`, 400, "a name must be 1 to 24 characters, not 0"},
			{"long name", `{"seat":0,"name":"` + strings.Repeat("x", 25) + `"}`, 400, "a name must be 1 to 24 characters, not 25"},
			{"control character", `{"seat":0,"name":"Ann\u0007"}`, 400, "a name may hold only printable characters"},
			{"newline", `{"seat":0,"name":"A\nB"}`, 400, "printable"},
			{"invalid UTF-8", "{\"seat\":0,\"name\":\"Ann\xff\xfe\"}", 400, "the request body is not valid UTF-8 (byte 21)"},
			{"overlong UTF-8", "{\"seat\":0,\"name\":\"A\xc0\xafB\"}", 400, "not valid UTF-8"},
			{"lone surrogate", `{"seat":0,"name":"Ann\ud800"}`, 400, "a name may not hold U+FFFD"},
			{"replacement character", `{"seat":0,"name":"Ann\ufffd\ufffd"}`, 400, "a name may not hold U+FFFD"},
			{"right-to-left override", `{"seat":0,"name":"Ann\u202e"}`, 400, "not U+202E"},
			{"long in bytes", `{"seat":0,"name":"` + strings.Repeat("😀", 25) + `"}`, 400, "a name must be 1 to 24 characters, not 25"},
			{"no such seat", `{"seat":9,"name":"Ann"}`, 400, "seat 9 is not a seat: seats are 0 to 3"},
			{"negative seat", `{"seat":-1,"name":"Ann"}`, 400, "seat -1 is not a seat"},
			{"a bot's seat", `{"seat":1,"name":"Ann"}`, 409, "seat 1 is taken"},
			{"unknown field", `{"seat":0,"name":"Ann","admin":true}`, 400, `unknown field "admin"`},
			{"not JSON", `seat=0`, 400, "not the JSON expected"},
		}
		for _, tc := range cases {
			resp, b := ts.do("POST", path, tc.body)
			if resp.StatusCode != tc.status {
				t.Errorf("%s: status %d (%s), want %d", tc.name, resp.StatusCode, b, tc.status)
			} else if got := errorBody(t, b); !strings.Contains(got, tc.want) {
				t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
			}
		}

		// A name is trimmed; 24 characters (not bytes) are allowed.
		resp, b := ts.do("POST", path, `{"seat":2,"name":"  Ann  "}`)
		var joined struct {
			Seat  int       `json:"seat"`
			Token string    `json:"token"`
			Table tableJSON `json:"table"`
		}
		if resp.StatusCode != 200 || json.Unmarshal(b, &joined) != nil || joined.Seat != 2 || len(joined.Token) < 32 ||
			joined.Table.Seats[2].Name != "Ann" || !joined.Table.Seats[2].Taken {
			t.Errorf("join seat 2: %d %s", resp.StatusCode, b)
		}
		long := strings.Repeat("é", 24)
		if resp, b := ts.do("POST", path, fmt.Sprintf(`{"seat":3,"name":%q}`, long)); resp.StatusCode != 200 {
			t.Errorf("a 24-character name: %d %s", resp.StatusCode, b)
		}
		// The seat is taken now.
		resp, b = ts.do("POST", path, `{"seat":2,"name":"Bea"}`)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(errorBody(t, b), "seat 2 is taken") {
			t.Errorf("a taken seat: %d %s, want 409", resp.StatusCode, b)
		}
		// No seat named: the first free one, then none.
		resp, b = ts.do("POST", path, `{"name":"Cy"}`)
		if resp.StatusCode != 200 || json.Unmarshal(b, &joined) != nil || joined.Seat != 0 {
			t.Errorf("join any seat: %d %s, want seat 0", resp.StatusCode, b)
		}
		resp, b = ts.do("POST", path, `{"name":"Di"}`)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(errorBody(t, b), "the table has no free seat") {
			t.Errorf("join a full table: %d %s, want 409", resp.StatusCode, b)
		}
		// The store has the names, and never a token.
		info, err := ts.st.Table(bg, tab.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range info.Seats {
			if s.Kind == "human" && (s.Name == "" || len(s.TokenHash) != 32) {
				t.Errorf("stored seat %+v", s)
			}
			if s.Kind == "human" && string(s.TokenHash) == joined.Token {
				t.Errorf("seat %d's token is stored as it is", s.Seat)
			}
		}

		for _, id := range []string{"nosuchtable", "bad$id", strings.Repeat("a", 65)} {
			resp, b := ts.do("POST", "/api/tables/"+id+"/join", `{"name":"Ann"}`)
			if resp.StatusCode != http.StatusNotFound || !strings.Contains(errorBody(t, b), "no table") {
				t.Errorf("join table %q: %d %s, want 404", id, resp.StatusCode, b)
			}
			if resp, _ := ts.do("GET", "/api/tables/"+id, ""); resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET table %q: %d, want 404", id, resp.StatusCode)
			}
		}
	})
}

// TestHandRecords: a hand in progress has no record (404, saying so); bad
// hand numbers are 400; unknown tables 404.
func TestHandRecords(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		tab := ts.create(`{"variant":"ten-point","seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		ts.join(tab.ID, 0, "Ann")
		base := "/api/tables/" + tab.ID + "/hands"
		resp, b := ts.do("GET", base, "")
		if resp.StatusCode != 200 || strings.TrimSpace(string(b)) != "[]" {
			t.Errorf("GET hands of a new table: %d %s, want []", resp.StatusCode, b)
		}
		cases := []struct {
			path   string
			status int
			want   string
		}{
			{base + "/1", 404, "hand 1 is not finished (finished hands: 0)"},
			{base + "/2", 404, "hand 2 is not finished"},
			{base + "/0", 400, `hand numbers start at 1, not "0"`},
			{base + "/-1", 400, "hand numbers start at 1"},
			{base + "/one", 400, `hand numbers start at 1, not "one"`},
			{"/api/tables/nosuchtable/hands/1", 404, `no table "nosuchtable"`},
			{"/api/tables/nosuchtable/hands", 404, `no table "nosuchtable"`},
		}
		for _, tc := range cases {
			resp, b := ts.do("GET", tc.path, "")
			if resp.StatusCode != tc.status {
				t.Errorf("GET %s: %d %s, want %d", tc.path, resp.StatusCode, b, tc.status)
			} else if got := errorBody(t, b); !strings.Contains(got, tc.want) {
				t.Errorf("GET %s: %q, want %q", tc.path, got, tc.want)
			}
		}
	})
}

// TestListAndHeaders: the list shows only tables with a free seat that are
// not finished, newest first; every response carries the security headers
// (checked in ts.do for every request of every test, and here for the
// odd ones: unknown paths, wrong methods).
func TestListAndHeaders(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		open1 := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "h", "easy", "easy") + `}`)
		bots := ts.create(`{"variant":"auction","options":{"target":1000},"seats":` + seatsBody("easy", "easy", "easy", "easy") + `}`)
		open2 := ts.create(`{"variant":"pawnee"}`)
		full := ts.create(`{"variant":"ten-point","seats":` + seatsBody("h", "easy", "easy", "easy") + `}`)
		ts.join(full.ID, 0, "Ann")
		ts.join(open1.ID, 0, "Bea") // one of two seats: still open

		list := func() []string {
			t.Helper()
			resp, b := ts.do("GET", "/api/tables", "")
			var page struct {
				Tables []tableJSON `json:"tables"`
				Total  int         `json:"total"`
			}
			if resp.StatusCode != 200 || json.Unmarshal(b, &page) != nil || page.Total != len(page.Tables) {
				t.Fatalf("GET /api/tables: %d %s", resp.StatusCode, b)
			}
			var ids []string
			for _, tab := range page.Tables {
				ids = append(ids, tab.ID)
				if strings.Contains(strings.ToLower(string(b)), "seed") || strings.Contains(strings.ToLower(string(b)), "token") {
					t.Errorf("the list gives away a seed or token: %s", b)
				}
			}
			return ids
		}
		if got, want := list(), []string{open2.ID, open1.ID}; !slices.Equal(got, want) {
			t.Errorf("listed %v, want the open tables newest first %v (not the bots' %s nor the full %s)", got, want, bots.ID, full.ID)
		}
		ts.join(open1.ID, 1, "Cy")
		if got, want := list(), []string{open2.ID}; !slices.Equal(got, want) {
			t.Errorf("listed %v after the last seat was taken, want %v", got, want)
		}

		for _, r := range []struct {
			method, path string
			status       int
		}{
			{"GET", "/api/health", 200},
			{"GET", "/api/tables/" + open2.ID, 200},
			{"GET", "/api/nothing", 404},
			{"GET", "/", 404},
			{"DELETE", "/api/tables/" + open2.ID, 405},
			{"PUT", "/api/tables", 405},
		} {
			resp, b := ts.do(r.method, r.path, "") // checks the headers
			if resp.StatusCode != r.status {
				t.Errorf("%s %s: %d %s, want %d", r.method, r.path, resp.StatusCode, b, r.status)
			}
		}
		resp, b := ts.do("GET", "/api/tables/"+open2.ID, "")
		for _, bad := range []string{"seed", "token", "hash"} {
			if strings.Contains(strings.ToLower(string(b)), bad) {
				t.Errorf("GET table gives away %q: %s", bad, b)
			}
		}
		if resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("Cache-Control %q", resp.Header.Get("Cache-Control"))
		}
	})
}

// listPage is one page of GET /api/tables.
type listPage struct {
	Tables []tableJSON `json:"tables"`
	Total  int         `json:"total"`
	Offset int         `json:"offset"`
	Limit  int         `json:"limit"`
}

// TestListPages: the list comes in pages (limit, offset), newest first,
// filtered by game; bad paging is refused with what is allowed.
func TestListPages(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), fastOptions())
	var pawnee, auction []string // newest first
	for i := range 7 {
		if i%3 == 0 {
			auction = append([]string{ts.create(`{"variant":"auction"}`).ID}, auction...)
		} else {
			pawnee = append([]string{ts.create(`{"variant":"pawnee"}`).ID}, pawnee...)
		}
	}
	get := func(q string) listPage {
		t.Helper()
		resp, b := ts.do("GET", "/api/tables"+q, "")
		var p listPage
		if resp.StatusCode != 200 || json.Unmarshal(b, &p) != nil {
			t.Fatalf("GET /api/tables%s: %d %s", q, resp.StatusCode, b)
		}
		return p
	}
	ids := func(p listPage) []string {
		var out []string
		for _, tab := range p.Tables {
			out = append(out, tab.ID)
		}
		return out
	}
	var walked []string
	for off := 0; off < 7; off += 3 {
		p := get(fmt.Sprintf("?limit=3&offset=%d", off))
		if p.Total != 7 || p.Offset != off || p.Limit != 3 || len(p.Tables) != min(3, 7-off) {
			t.Fatalf("page at %d: total %d offset %d limit %d, %d tables", off, p.Total, p.Offset, p.Limit, len(p.Tables))
		}
		walked = append(walked, ids(p)...)
	}
	for i := 1; i < len(walked); i++ {
		if slices.Contains(walked[:i], walked[i]) {
			t.Errorf("table %s is on two pages", walked[i])
		}
	}
	if p := get("?game=pawnee&limit=2"); p.Total != len(pawnee) || !slices.Equal(ids(p), pawnee[:2]) {
		t.Errorf("pawnee, first 2: total %d %v, want %d %v", p.Total, ids(p), len(pawnee), pawnee[:2])
	}
	if p := get("?game=auction"); p.Total != len(auction) || !slices.Equal(ids(p), auction) {
		t.Errorf("auction: %v, want %v", ids(p), auction)
	}
	if p := get("?game=ten-point"); p.Total != 0 || p.Tables == nil {
		t.Errorf("no ten-point table: %+v, want an empty list", p)
	}
	if p := get("?offset=100"); p.Total != 7 || len(p.Tables) != 0 {
		t.Errorf("past the end: %+v", p)
	}
	if p := get(""); p.Limit != 20 || len(p.Tables) != 7 {
		t.Errorf("the default page: limit %d, %d tables", p.Limit, len(p.Tables))
	}
	for _, c := range []struct{ q, want string }{
		{"?limit=0", "limit must be a whole number from 1 to 100, not \"0\""},
		{"?limit=101", "limit must be a whole number from 1 to 100"},
		{"?offset=-1", "offset must be a whole number from 0"},
		{"?offset=x", "offset must be a whole number"},
		{"?game=poker", "game \"poker\""},
		{"?page=2", "unknown query parameter \"page\": the list takes game, offset and limit"},
	} {
		resp, b := ts.do("GET", "/api/tables"+c.q, "")
		if resp.StatusCode != 400 || !strings.Contains(errorBody(t, b), c.want) {
			t.Errorf("GET /api/tables%s: %d %s, want 400 %q", c.q, resp.StatusCode, b, c.want)
		}
	}
}

// TestAPIWrongMethodOrAddress: with the page served too (its catch-all
// takes every GET), an API address asked with a method it does not take
// answers 405 in JSON with Allow, and an address no API route serves
// answers 404 in JSON; neither reaches the page's files.
func TestAPIWrongMethodOrAddress(t *testing.T) {
	opts := fastOptions()
	opts.Static = fstest.MapFS{"index.html": {Data: []byte(`<html lang="en"><body>page</body></html>`)}}
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	tests := []struct {
		method, path string
		status       int
		allow, code  string
	}{
		{"GET", "/api/account/signin", 405, "POST", "method_not_allowed"},
		{"DELETE", "/api/tables", 405, "GET, HEAD, POST", "method_not_allowed"},
		{"PUT", "/api/history", 405, "GET, HEAD", "method_not_allowed"},
		{"POST", "/api/tables/abc/hands", 405, "GET, HEAD", "method_not_allowed"},
		{"GET", "/api/nothing-here", 404, "", "no_route"},
		{"POST", "/api/nothing-here", 404, "", "no_route"},
	}
	for _, tt := range tests {
		resp, b := ts.do(tt.method, tt.path, "")
		var got struct{ Code string }
		err := json.Unmarshal(b, &got)
		if resp.StatusCode != tt.status || resp.Header.Get("Allow") != tt.allow || err != nil || got.Code != tt.code {
			t.Errorf("%s %s: %d Allow %q %s; want %d Allow %q code %s", tt.method, tt.path, resp.StatusCode, resp.Header.Get("Allow"), b, tt.status, tt.allow, tt.code)
		}
	}
	// The page's own addresses still serve the page.
	if resp, b := ts.do("GET", "/t/abc", ""); resp.StatusCode != 200 || !strings.Contains(string(b), "page") {
		t.Errorf("GET /t/abc: %d %s, want the page", resp.StatusCode, b)
	}
}
