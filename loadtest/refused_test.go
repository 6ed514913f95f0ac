package loadtest

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitch/server"
	"pitch/store"
)

// TestRefused: a server that refuses the load (a table per address limit,
// the per-address request rate, a connection cap, overload) ends the run
// at once with a RefusedError that counts the refusals by kind and names
// the `pitch serve` flag that lifts the limit, instead of retrying the
// refused step for ever or reconnecting without end. (The load test's
// connections are players', each showing its seat's token, which the
// server counts per seat, not per address: --addr-conns holds only
// anonymous ones, tested in the server's TestConnectionCapPerAddress.)
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		opts server.Options
		kind string
		flag string
	}{
		{"tables per hour", server.Options{TablesPerHour: 3}, "too_many_tables", "--tables-per-hour 0"},
		{"request rate", server.Options{AddrRate: 2}, "rate_addr", "--addr-rate 0"},
		{"tables in all", server.Options{MaxTables: 2}, "server_full", "--max-tables 0"},
		{"connections in all", server.Options{MaxConns: 7}, "conns_full", "--max-conns 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pitch.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			opts := c.opts
			opts.BotDelay, opts.AwayDelay, opts.DealWait = time.Millisecond, time.Minute, 10*time.Millisecond
			srv, err := server.New(ctx, st, opts)
			if err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(srv.Handler())
			defer hs.Close()
			defer srv.Close()
			// A minute of play asked for: the refusal must end it long before.
			start := time.Now()
			rep, err := Run(ctx, Config{URL: hs.URL, Tables: 4, Duration: time.Minute, Variant: "auction", Think: 20 * time.Millisecond, Reconnect: true})
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("the refused run took %s", took)
			}
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("Run: %v, want a RefusedError", err)
			}
			if re.Refused[c.kind] == 0 || rep == nil || rep.Refused[c.kind] == 0 {
				t.Errorf("refusals %v (report %v), want some of kind %s", re.Refused, rep, c.kind)
			}
			if msg := err.Error(); !strings.Contains(msg, c.flag) || !strings.Contains(msg, c.kind) {
				t.Errorf("the error says %q, want the kind %s and the flag %s", msg, c.kind, c.flag)
			}
		})
	}
}
