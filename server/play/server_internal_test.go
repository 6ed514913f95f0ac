package play

import (
	"context"
	"testing"

	"pitch"
	"pitch/server/wire"
	"pitch/store"
)

// internalServer returns a server with opts on the store at dsn, both
// closed when the test ends.
func internalServer(t testing.TB, dsn string, opts Options) (store.Store, *Server) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := New(ctx, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return st, srv
}

// TestCloseActsOnNothing: once Close has returned, a message a client
// sent (read after the close, or handled on a worker meanwhile) is not
// acted on: nothing is stored, so the store can be closed after it. An
// action that reached a closed store was what a loaded
// TestRematchInvite logged ("the store is closed").
func TestCloseActsOnNothing(t *testing.T) {
	srv := benchServer(t)
	tb := playTable(t, srv, &store.Table{ID: "closing", Variant: "pawnee", Seed: 1})
	tb.mu.Lock()
	s := tb.match.State()
	turn, seq := s.Turn(), tb.seq
	var c *conn
	for o := range tb.conns {
		if o.seat == turn {
			c = o
		}
	}
	a := s.RandomAction(pitch.NewRand(1))
	tb.mu.Unlock()
	if _, reason, _ := srv.conns.admit(c, 0, 0); reason != "" {
		t.Fatal(reason)
	}
	raw, err := wire.AppendAction(nil, a)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte(`{"type":"action","action":` + string(raw) + `}`)
	srv.Close()
	for _, m := range []string{string(msg), `{"type":"ready","hand":1}`, `{"type":"chat","text":"hello"}`} {
		c.handle(context.Background(), tb, []byte(m))
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.seq != seq {
		t.Errorf("an action was acted on after Close: seq %d, was %d", tb.seq, seq)
	}
	if events, err := srv.store.Events(context.Background(), tb.id); err != nil || len(events) != seq {
		t.Errorf("the store holds %d events (%v) after Close, want %d", len(events), err, seq)
	}
	if len(tb.chat) != 0 {
		t.Errorf("table talk after Close: %v", tb.chat)
	}
}
