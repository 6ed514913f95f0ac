package main

import (
	"strings"
	"testing"
)

// TestPprofLoopbackOnly: --pprof takes a loopback address only; any
// other is a usage error that says what is allowed, before anything is
// opened or served.
func TestPprofLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:6060", true}, {"[::1]:6060", true}, {"localhost:0", true}, {"127.0.0.2:6060", true},
		{":6060", false}, {"0.0.0.0:6060", false}, {"[::]:6060", false}, {"192.168.1.10:6060", false}, {"example.com:6060", false}, {"6060", false},
	} {
		if err := loopbackAddr(tc.addr); (err == nil) != tc.ok {
			t.Errorf("loopbackAddr(%q) = %v; want allowed: %v", tc.addr, err, tc.ok)
		}
		if tc.ok {
			continue
		}
		code, _, stderr := runCmd(t, "", "serve", "--db", t.TempDir()+"/pitch.db", "--addr", "127.0.0.1:0", "--pprof", tc.addr)
		if code != 2 || !strings.Contains(stderr, "--pprof") || !strings.Contains(stderr, "127.0.0.1") {
			t.Errorf("serve --pprof %s: exit %d, stderr %q; want 2 and what is allowed", tc.addr, code, stderr)
		}
	}
}

// TestLoadtestSetupFlags: a bad --setup-at-once or --setup-timeout is
// refused with what is allowed, before any server is asked.
func TestLoadtestSetupFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--setup-at-once", "-5"}, "tables set up at once must be 0 (all of them) to 10000, not -5"},
		{[]string{"--setup-timeout", "-2s"}, "the set-up time must be 0 (the default: 30s and 25ms a table) to 24h, not -2s"},
		{[]string{"--setup-at-once", "3", "--event", "8"}, "not an event"},
		{[]string{"--protocol", "3"}, "--protocol must be 1 (whole states) or 2 (deltas), not 3"},
	} {
		code, _, stderr := runCmd(t, "", append([]string{"loadtest", "--addr", "http://127.0.0.1:1", "--tables", "2"}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("loadtest %v: exit %d, stderr %q; want an error saying %q", tc.args, code, stderr, tc.want)
		}
	}
}
