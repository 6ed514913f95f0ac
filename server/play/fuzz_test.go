package play

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"pitch"
	"pitch/server/wire"
	"pitch/store"
)

// fuzzTable sets up a ten-point table with every seat taken and returns
// it with a connection for seat 1.
func fuzzTable(tb testing.TB) (*Server, *table, *conn) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(tb.TempDir(), "fuzz.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	srv, err := New(ctx, st, Options{BotDelay: 1 << 40}) // bots never move on their own
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	h := srv.Handler()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/api/tables",
		strings.NewReader(`{"variant":"ten-point","seats":[{"kind":"human"},{"kind":"human"},{"kind":"human"},{"kind":"human"}]}`)))
	var info tableInfo
	if err := json.Unmarshal(w.Body.Bytes(), &info); err != nil || w.Code != 201 {
		tb.Fatalf("create: %d %s", w.Code, w.Body)
	}
	for seat := range 4 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/api/tables/"+info.ID+"/join",
			strings.NewReader(`{"name":"p","seat":`+string(rune('0'+seat))+`}`)))
		if w.Code != 200 {
			tb.Fatalf("join: %d %s", w.Code, w.Body)
		}
	}
	t, err := srv.table(ctx, info.ID)
	if err != nil {
		tb.Fatal(err)
	}
	// Nobody is connected, so the first hand waits for its deal: deal it.
	t.mu.Lock()
	err = t.deal()
	t.mu.Unlock()
	if err != nil {
		tb.Fatal(err)
	}
	c := newConn(nil, nil, nil, "fuzz")
	c.seat = 1
	return srv, t, c
}

// FuzzClientMessage sends anything as a WebSocket message from seat 1: the
// server never panics; a message that is not a legal action for seat 1 gets
// an error and changes nothing; every reply is JSON and names no card
// another seat holds.
func FuzzClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello"}`, `{"type":"action","action":{"seat":1,"pass":true}}`,
		`{"type":"action","action":{"seat":1,"bid":4}}`, `{"type":"action","action":{"seat":2,"bid":5}}`,
		`{"type":"action","action":{"seat":1,"play":"AH"}}`, `{"type":"action","action":{"seat":1,"discard":["AH","KH"]}}`,
		`{"type":"action","action":{"seat":1,"bid":4,"pass":true}}`, `{"type":"action","extra":1}`,
		`{"type":"nope"}`, `{`, `null`, `[]`, `{"type":"action","action":"x"}`, strings.Repeat("[", 5000),
		`{"type":"action","action":{"seat":1,"trump":"X"}}`, `{"type":"action","action":{"seat":99,"bid":4}}`,
	} {
		f.Add([]byte(s))
	}
	_, t, c := fuzzTable(f)
	f.Fuzz(func(tt *testing.T, data []byte) {
		t.mu.Lock()
		before, seq := *t.match.State(), t.seq
		t.mu.Unlock()
		c.handle(context.Background(), t, data)
		t.mu.Lock()
		after, newSeq := *t.match.State(), t.seq
		hands := [4]pitch.CardSet{}
		for s := range 4 {
			hands[s] = after.Hand(s) | before.Hand(s)
		}
		t.mu.Unlock()
		for _, m := range c.take() {
			msg := m.data
			var v map[string]any
			if err := json.Unmarshal(msg, &v); err != nil {
				tt.Fatalf("reply is not JSON: %s", msg)
			}
			if v["type"] == "error" {
				if newSeq != seq {
					tt.Errorf("an error was sent but the table moved from %d to %d events", seq, newSeq)
				}
				text, _ := v["message"].(string)
				words := map[string]bool{}
				for _, w := range strings.FieldsFunc(text, func(r rune) bool {
					return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
				}) {
					words[w] = true
				}
				for s := range 4 {
					if s == 1 {
						continue
					}
					for _, card := range hands[s].Cards() {
						if hands[1].Has(card) {
							continue
						}
						if words[card.String()] && !strings.Contains(string(data), card.String()) {
							tt.Errorf("the error to seat 1 names %s, held by seat %d: %s", card, s, text)
						}
					}
				}
			}
		}
		if newSeq != seq {
			var m wire.ClientMsg
			var a pitch.Action
			if json.Unmarshal(data, &m) != nil || json.Unmarshal(m.Action, &a) != nil {
				tt.Fatalf("the table moved on a message that is not an action: %q", data)
			}
			if err := before.Apply(a); err != nil || a.Seat != 1 {
				tt.Fatalf("the table accepted %q, which the rules refuse for seat 1 (%v)", data, err)
			}
		}
	})
}

// FuzzHTTP sends any method, path and body to the API: never a panic and
// never a 500 — bad input is the client's error, answered with a reason.
func FuzzHTTP(f *testing.F) {
	f.Add("POST", "/api/tables", []byte(`{"variant":"pawnee"}`))
	f.Add("POST", "/api/tables", []byte(`{"variant":"auction","options":{"players":9}}`))
	f.Add("POST", "/api/tables", []byte(`{"variant":"ten-point","seats":[{"kind":"bot","level":"x"}]}`))
	f.Add("POST", "/api/tables/x/join", []byte(`{"name":""}`))
	f.Add("GET", "/api/tables/x/hands/1", []byte(nil))
	f.Add("GET", "/api/tables/%00/hands/-1", []byte(nil))
	f.Add("PUT", "/api/tables", []byte(`{}`))
	f.Add("POST", "/api/tables", []byte(strings.Repeat("a", 20000)))
	srv, t, _ := fuzzTable(f)
	h := srv.Handler()
	f.Fuzz(func(tt *testing.T, method, path string, body []byte) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		path = strings.ReplaceAll(path, "{id}", t.id)
		req, err := http.NewRequest(method, "http://localhost"+path, strings.NewReader(string(body)))
		if err != nil {
			return // not a request a client could send
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 && w.Code != http.StatusServiceUnavailable {
			tt.Fatalf("%s %s %q: %d %s", method, path, body, w.Code, w.Body)
		}
		if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") && !json.Valid(w.Body.Bytes()) {
			tt.Fatalf("%s %s: the answer is not JSON: %s", method, path, w.Body)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" {
			tt.Fatalf("%s %s: no security headers", method, path)
		}
	})
}

// take returns the messages queued for a connection without a socket
// and empties its queue.
func (c *conn) take() []outMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue
	c.queue = nil
	return q
}

// isEnding reports whether the connection has been told to end.
func (c *conn) isEnding() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ending
}
