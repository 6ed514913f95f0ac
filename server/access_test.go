package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch"
	"pitch/server"

	"github.com/coder/websocket"
)

// dataRoute reports whether a route, by its address alone, serves a
// table's, a hand's or an event's data (or the lobby's, the daily deals',
// a profile's or an account's, which list them): every such route must
// ask the access policy. It is written apart from the routes' own
// declaration (each part's Routes), so that the two must agree.
func dataRoute(pattern string) bool {
	method, path, _ := strings.Cut(pattern, " ")
	if pattern == "GET /api/tables" {
		return true
	}
	if pattern == "GET /api/play" {
		return false // the most played house rules: counts over all tables, none named
	}
	_ = method
	for _, p := range []string{"/api/tables/{id}", "/api/events/{id}", "/api/daily", "/api/history", "/api/users/{name}", "/api/account/seats", "/api/account/export", "/api/play"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// TestEveryRouteAsksThePolicy walks every route the server registers,
// with the IDs of a real table (with a finished hand), a real duplicate
// event and a real account, and fails if a route that serves table, hand
// or event data answers without asking the access policy
// (access.Ask), or if a route's own declaration disagrees with dataRoute.
func TestEveryRouteAsksThePolicy(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", fastOptions())
	var mu sync.Mutex
	asked := map[string]bool{} // by pattern: asked on its last request
	server.OnServed(ts.srv, func(pattern string, a bool) {
		mu.Lock()
		asked[pattern] = a
		mu.Unlock()
	})
	routes := server.RouteList(ts.srv)
	if len(routes) < 40 {
		t.Fatalf("%d routes listed; the server has more", len(routes))
	}

	// A table with a finished hand, a duplicate event under way, and an
	// account with a session.
	playedTable(t, ts.st, "walked", pitch.TenPoint, 7, 1, false, time.Now().UTC())
	event, _ := startDuplicate(ts, 4, "W")
	b := ts.browser()
	b.must(201, "POST", "/api/account/signup", creds("Walker", goodPassword))

	fill := strings.NewReplacer("{n}", "1", "{name}", "Walker", "{round}", "1", "{deal}", "1", "{variant}", "ten-point", "{game}", "ten-point", "{$}", "")
	for _, rt := range routes {
		method, path, _ := strings.Cut(rt.Pattern, " ")
		if !strings.HasPrefix(path, "/api/") {
			continue // the page and its files
		}
		if got, want := rt.Data, dataRoute(rt.Pattern); got != want {
			t.Errorf("%s is declared data %v; by its address it serves table, hand or event data: %v", rt.Pattern, got, want)
		}
		id := "walked"
		if strings.HasPrefix(path, "/api/events/") {
			id = event
		}
		url := fill.Replace(strings.ReplaceAll(path, "{id}", id))
		body := ""
		if method == "POST" {
			body = "{}"
		}
		mu.Lock()
		delete(asked, rt.Pattern)
		mu.Unlock()
		status, raw := 0, []byte(nil)
		if strings.HasSuffix(path, "/ws") {
			// A WebSocket: a real one, opened and closed at once.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			c, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.hs.URL, "http")+url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {ts.hs.URL}}})
			cancel()
			if err != nil {
				t.Errorf("%s: %v", url, err)
				continue
			}
			c.CloseNow()
			status = resp.StatusCode
		} else {
			resp, b := b.do(method, url, body)
			status, raw = resp.StatusCode, b
		}
		// The guard tells of a request once its handler returns (a
		// WebSocket's returns once its connection is handed over).
		var a, served bool
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			a, served = asked[rt.Pattern]
			mu.Unlock()
			if served || !rt.Data || time.Now().After(deadline) {
				break
			}
		}
		if rt.Data && status < 400 && !a {
			t.Errorf("%s %s answered %d without asking the access policy: %.200s", method, url, status, raw)
		}
		if rt.Data && !served {
			t.Errorf("%s %s (%d) was not seen by the route's guard", method, url, status)
		}
		if status == http.StatusInternalServerError {
			t.Errorf("%s %s: 500 %s", method, url, raw)
		}
	}
}
