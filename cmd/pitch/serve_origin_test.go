package main

import (
	"os"
	"strings"
	"testing"
)

// TestServeOriginRefused: `pitch serve --origin` with an address that is
// not an origin is a usage error that says what is allowed, before any
// store is opened.
func TestServeOriginRefused(t *testing.T) {
	for _, bad := range []string{"pitch.example", "https://pitch.example/play", "http://pitch.example", "https://192.0.2.1"} {
		db := t.TempDir() + "/pitch.db"
		code, _, stderr := runCmd(t, "", "serve", "--db", db, "--addr", "127.0.0.1:0", "--origin", bad)
		if code != 2 || !strings.Contains(stderr, "--origin") || !strings.Contains(stderr, "https://pitch.example") {
			t.Errorf("--origin %s: exit %d, stderr %q; want 2 and what is allowed", bad, code, stderr)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("--origin %s: the store was opened", bad)
		}
	}
}
