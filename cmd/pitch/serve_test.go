package main

import (
	"strings"
	"testing"
)

// TestServeThrottleFlags: a bad --trusted-proxy, --addr-signins,
// --hash-memory or --commit-window is a usage error that names what is wrong, before
// anything is opened or served.
func TestServeThrottleFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "proxy.example"}, `"proxy.example" is not a CIDR`},
		{[]string{"--trusted-proxy", "10.0.0.0/40"}, `"10.0.0.0/40" is not a CIDR`},
		{[]string{"--addr-signins", "-1"}, "--addr-signins must be 0 (no limit) or more, not -1"},
		{[]string{"--hash-memory", "0"}, "--hash-memory must be 1 MiB or more, not 0"},
		{[]string{"--commit-window", "-1ms"}, "--commit-window must be 0 (commit at once) to 1s, not -1ms"},
		{[]string{"--commit-window", "2s"}, "--commit-window must be 0 (commit at once) to 1s, not 2s"},
	} {
		code, _, stderr := runCmd(t, "", append([]string{"serve", "--db", t.TempDir() + "/pitch.db", "--addr", "127.0.0.1:0"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("serve %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
