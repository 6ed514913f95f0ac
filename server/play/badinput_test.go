package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch"
	"pitch/bot"
	"pitch/server/httpx"
	"pitch/server/wire"
)

// TestReplayedAction: sending an accepted action again (a client retrying,
// or replaying a captured message) is refused and changes nothing.
func TestReplayedAction(t *testing.T) {
	_, tb, c := fuzzTable(t)
	tb.mu.Lock()
	turn := tb.match.State().Turn()
	legal := tb.match.State().Legal(nil)[0]
	tb.mu.Unlock()
	c.seat = turn
	raw, _ := json.Marshal(legal)
	msg := []byte(`{"type":"action","action":` + string(raw) + `}`)
	c.handle(context.Background(), tb, msg)
	tb.mu.Lock()
	seq := tb.seq
	tb.mu.Unlock()
	if seq != 1 {
		t.Fatalf("the first send was not accepted (seq %d)", seq)
	}
	c.take() // the state after the first send
	c.handle(context.Background(), tb, msg)
	tb.mu.Lock()
	again := tb.seq
	tb.mu.Unlock()
	if again != seq {
		t.Errorf("the replayed action was accepted: seq %d → %d", seq, again)
	}
	var m wire.ErrorMsg
	if q := c.take(); len(q) == 0 || json.Unmarshal(q[0].data, &m) != nil || m.Type != "error" || !strings.Contains(m.Message, "turn") {
		t.Errorf("the replay got %+v, want an error saying whose turn it is", m)
	}
}

// TestOversizedMessage: a WebSocket message over the limit closes that
// connection with "message too big"; the table and other clients are
// unaffected and a new connection is served.
func TestOversizedMessage(t *testing.T) {
	srv, tb, _ := fuzzTable(t)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/api/tables/" + tb.id + "/ws"
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.Read(ctx); err != nil { // the state
		t.Fatal(err)
	}
	big := []byte(`{"type":"hello","token":"` + strings.Repeat("x", maxMessage) + `"}`)
	_ = ws.Write(ctx, websocket.MessageText, big)
	var err2 error
	for err2 == nil {
		_, _, err2 = ws.Read(ctx)
	}
	if got := websocket.CloseStatus(err2); got != websocket.StatusMessageTooBig {
		t.Errorf("after %d bytes the connection ended with %v (%v), want 1009 message too big", len(big), got, err2)
	}
	ws2, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws2.CloseNow()
	if err := ws2.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	_, data, err := ws2.Read(ctx)
	if err != nil || !strings.Contains(string(data), `"type":"state"`) {
		t.Errorf("a new connection after the oversized one: %v %.80s", err, data)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Error("timed out")
	}
}

// TestAddressRateLimit: one address over its rate gets 429 with a reason
// and a Retry-After, changes nothing, and is served again a moment later.
func TestAddressRateLimit(t *testing.T) {
	srv, _, _ := fuzzTable(t)
	srv.limiter = httpx.NewLimiter(5, 10)
	h := srv.Handler()
	limited := 0
	for range 40 {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/api/tables", nil))
		if w.Code == 429 {
			limited++
			if w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "too many requests") {
				t.Fatalf("429 without a reason or Retry-After: %v %s", w.Header(), w.Body)
			}
		}
	}
	if limited < 25 {
		t.Errorf("40 requests at once: %d limited, want at least 25 (burst 10)", limited)
	}
	time.Sleep(400 * time.Millisecond) // 2 tokens back
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/api/tables", nil))
	if w.Code != 200 {
		t.Errorf("after a pause: %d, want 200", w.Code)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/api/health", nil))
	if w.Code != 200 {
		t.Errorf("health check while limited: %d, want 200 (it is not limited)", w.Code)
	}
}

// panicky is a bot with a bug.
type panicky struct{}

func (panicky) Name() string                 { return "panicky" }
func (panicky) Act(bot.Request) pitch.Action { panic("a bug") }

// TestBotPanicDoesNotStopTheServer: a bot that panics is replaced, for that
// decision, by a random legal action; the table goes on.
func TestBotPanicDoesNotStopTheServer(t *testing.T) {
	_, tb, _ := fuzzTable(t)
	tb.mu.Lock()
	s := tb.match.State()
	rng := pitch.NewRand(1)
	_, err := decideSafely(panicky{}, s, rng)
	tb.mu.Unlock()
	if err == nil || !strings.Contains(err.Error(), "a bug") {
		t.Fatalf("err = %v, want the panic as an error", err)
	}
	tb.mu.Lock()
	turn, seq, gen := tb.match.State().Turn(), tb.seq, tb.gen
	tb.bots[turn] = panicky{}
	tb.mu.Unlock()
	tb.botMove(gen) // as the timer would
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.seq != seq+1 {
		t.Errorf("after the bot panicked the table is at %d events, want %d", tb.seq, seq+1)
	}
}

// TestSlowClientSkipsToNewestState: states pile up for a client that reads
// slowly; it is kept and gets only the newest (each state is the whole
// view), with every other message in order. Other messages are bounded:
// a client that lets too many pile up is dropped.
func TestSlowClientSkipsToNewestState(t *testing.T) {
	c := newConn(nil, nil, nil, "test")
	for i := range 100 {
		c.sendState(wire.State{Type: "state", Seq: i})
		if i == 40 || i == 60 {
			c.sendJSON(wire.ErrorMsg{Type: "error", Message: fmt.Sprint("refused at ", i)})
		}
	}
	if c.isEnding() {
		t.Fatal("a client behind on states was dropped")
	}
	var got []string
	for _, m := range c.take() {
		var w struct {
			Type    string
			Seq     int
			Message string
		}
		if err := json.Unmarshal(m.data, &w); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(w.Type, " ", w.Seq, w.Message))
	}
	want := []string{"error 0refused at 40", "error 0refused at 60", "state 99"}
	if !slices.Equal(got, want) {
		t.Errorf("queued %q, want %q", got, want)
	}
	if len(c.take()) != 0 {
		t.Errorf("take left messages behind")
	}

	for range sendBuffer {
		c.sendJSON(wire.ErrorMsg{Type: "error", Message: "no"})
	}
	if c.isEnding() {
		t.Fatalf("dropped at %d queued errors, the limit is %d", sendBuffer, sendBuffer)
	}
	c.sendJSON(wire.ErrorMsg{Type: "error", Message: "one too many"})
	if !c.isEnding() {
		t.Errorf("a client with %d errors waiting was kept", sendBuffer+1)
	}
}
