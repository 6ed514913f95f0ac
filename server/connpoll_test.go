package server_test

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestConnsWaitWithoutGoroutines: on Linux a connection past its hello
// has no goroutine waiting for its client (the poller watches its
// socket, server/play/wspoll_linux.go), also once its client has
// answered pings (a pong read by the WebSocket would leave the read
// waiting for the next message) and sent messages; and those
// connections are still served: each gets the state again when it asks.
func TestConnsWaitWithoutGoroutines(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the poller is Linux's: elsewhere a connection has a reader goroutine")
	}
	const n = 20
	opts := fastOptions()
	opts.PingInterval = time.Second
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee"}`)
	ctx, cancel := context.WithTimeout(bg, 60*time.Second)
	defer cancel()
	var pings [n]atomic.Int32
	var states [n]atomic.Int32
	conns := make([]*websocket.Conn, n)
	for i := range n {
		ws, _, err := websocket.Dial(ctx, ts.wsURL(tab.ID), &websocket.DialOptions{
			OnPingReceived: func(context.Context, []byte) bool { pings[i].Add(1); return true }})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		conns[i] = ws
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatal(err)
		}
		go func() { // reads, so answers pings
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					return
				}
				if bytes.Contains(data, []byte(`"type":"state"`)) {
					states[i].Add(1)
				}
			}
		}()
	}
	// waiting counts the goroutines inside a WebSocket's read: a reader
	// waiting for its client. Pings, handling and the clients' own reads
	// aside (theirs are the clients' dial's, not the server's accept).
	waiting := func() int {
		buf := make([]byte, 1<<22)
		buf = buf[:runtime.Stack(buf, true)]
		k := 0
		for _, g := range bytes.Split(buf, []byte("\n\n")) {
			if bytes.Contains(g, []byte("pitch/server/play.")) && bytes.Contains(g, []byte("github.com/coder/websocket.(*Conn).Read(")) {
				k++
			}
		}
		return k
	}
	got := func(what string, seen func() bool) {
		t.Helper()
		for !seen() {
			select {
			case <-ctx.Done():
				var c []int32
				for i := range n {
					c = append(c, pings[i].Load())
				}
				t.Fatalf("after 60 s: %s (pings %v, waiting %d)", what, c, waiting())
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	every := func(what string, v *[n]atomic.Int32, least int32) {
		t.Helper()
		got(what, func() bool {
			for i := range n {
				if v[i].Load() < least {
					return false
				}
			}
			return true
		})
	}
	every("every client's first state", &states, 1)
	for round := range 2 {
		every("every client pinged twice more", &pings, int32(2*(round+1)))
		got("no goroutine left waiting in a WebSocket's read", func() bool { return waiting() == 0 })
		// A message from each, read through the poller: the state again.
		var before [n]int32
		for i, ws := range conns {
			before[i] = states[i].Load()
			if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"resync"}`)); err != nil {
				t.Fatal(err)
			}
		}
		got("every client's state after its resync", func() bool {
			for i := range n {
				if states[i].Load() <= before[i] {
					return false
				}
			}
			return true
		})
	}
}
