package server_test

import (
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTableLimits: an address may create TablesPerHour tables; the next
// is 429 with a reason and a Retry-After, and creates nothing. Refused
// requests (bad input) do not count. Past MaxTables unfinished tables in
// all, creating is 503 with the reason.
func TestTableLimits(t *testing.T) {
	t.Run("per address", func(t *testing.T) {
		opts := fastOptions()
		opts.TablesPerHour = 3
		ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
		if resp, b := ts.do("POST", "/api/tables", `{"variant":"poker"}`); resp.StatusCode != 400 {
			t.Fatalf("a bad request: %d %s", resp.StatusCode, b)
		}
		for range 3 {
			ts.create(`{"variant":"pawnee"}`)
		}
		resp, b := ts.do("POST", "/api/tables", `{"variant":"pawnee"}`)
		if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(errorBody(t, b), "too many tables created from your address (3 an hour at most)") {
			t.Fatalf("the 4th table in an hour: %d %s, want 429 and the limit", resp.StatusCode, b)
		}
		if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra < 60 || ra > 3600 {
			t.Errorf("Retry-After %q, want the seconds until one more may be created (about 20 minutes)", resp.Header.Get("Retry-After"))
		}
		if all, err := ts.st.Tables(bg, false); err != nil || len(all) != 3 {
			t.Errorf("%d tables stored (%v), want the 3 allowed", len(all), err)
		}
		// Other requests from the address are not limited by it.
		if resp, b := ts.do("GET", "/api/tables", ""); resp.StatusCode != 200 {
			t.Errorf("the list after the limit: %d %s", resp.StatusCode, b)
		}
	})
	t.Run("in all", func(t *testing.T) {
		opts := fastOptions()
		opts.MaxTables = 2
		ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
		ts.create(`{"variant":"pawnee"}`)
		ts.create(`{"variant":"auction"}`)
		resp, b := ts.do("POST", "/api/tables", `{"variant":"pawnee"}`)
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(errorBody(t, b), "as many unfinished tables as it may (2)") {
			t.Fatalf("the 3rd unfinished table: %d %s, want 503 and the limit", resp.StatusCode, b)
		}
		if all, _ := ts.st.Tables(bg, false); len(all) != 2 {
			t.Errorf("%d tables stored, want 2", len(all))
		}
		ts.wantWarning("kind=max_tables", `reason="as many unfinished tables as it may hold (2, --max-tables)"`)
		if h := ts.health(); h.Refused["max_tables"] != 1 || h.Tables != 2 || h.MaxTables != 2 {
			t.Errorf("/api/health after one refused table: %+v", h)
		}
		// A restart counts the tables it loads.
		ts.stop()
		ts2 := startServer(t, ts.dsn, opts)
		if resp, b := ts2.do("POST", "/api/tables", `{"variant":"pawnee"}`); resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("after a restart with 2 unfinished tables: %d %s, want 503", resp.StatusCode, b)
		}
		ts2.wantWarning("kind=max_tables")
	})
}
