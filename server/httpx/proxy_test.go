package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestClientAddr: a header names the client only when the peer is a
// trusted proxy; then the nearest untrusted hop of X-Forwarded-For is
// the client, whatever a client wrote further left.
func TestClientAddr(t *testing.T) {
	trusted, err := ParseProxies("127.0.0.1, 10.0.0.0/8,fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		proxies Proxies
		peer    string
		headers map[string]string
		want    string
	}{
		{"no proxy trusted: the header is ignored", Proxies{}, "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, "127.0.0.1"},
		{"untrusted peer forging the header", trusted, "198.51.100.7:5000", map[string]string{"X-Forwarded-For": "203.0.113.9", "X-Real-IP": "203.0.113.10"}, "198.51.100.7"},
		{"trusted peer", trusted, "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, "203.0.113.9"},
		{"a client's forged hop to the left is not believed", trusted, "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "1.2.3.4, 203.0.113.9"}, "203.0.113.9"},
		{"a chain of trusted proxies", trusted, "10.0.0.2:5000", map[string]string{"X-Forwarded-For": "1.2.3.4, 203.0.113.9, 10.1.1.1"}, "203.0.113.9"},
		{"X-Real-IP without X-Forwarded-For", trusted, "127.0.0.1:5000", map[string]string{"X-Real-IP": "203.0.113.10"}, "203.0.113.10"},
		{"garbage: the last proxy is the client", trusted, "10.0.0.2:5000", map[string]string{"X-Forwarded-For": "not-an-ip, 10.1.1.1"}, "10.1.1.1"},
		{"garbage X-Real-IP", trusted, "127.0.0.1:5000", map[string]string{"X-Real-IP": "evil"}, "127.0.0.1"},
		{"IPv6 behind a trusted IPv6 proxy, with a port", trusted, "[fd00::1]:5000", map[string]string{"X-Forwarded-For": "[2001:db8::5]:443"}, "2001:db8::5"},
		{"IPv4-mapped", trusted, "[::ffff:127.0.0.1]:5000", map[string]string{"X-Forwarded-For": "::ffff:203.0.113.9"}, "203.0.113.9"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			h := tc.proxies.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = ClientAddr(r) }))
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			if got != tc.want {
				t.Errorf("ClientAddr = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestParseProxies: CIDRs and single addresses are read; anything else is
// refused with the bad entry named.
func TestParseProxies(t *testing.T) {
	p, err := ParseProxies(" 192.168.0.0/16 ,::1,")
	if err != nil || p.String() != "192.168.0.0/16,::1/128" {
		t.Errorf("ParseProxies = %q, %v", p.String(), err)
	}
	for _, bad := range []string{"192.168.0.0/33", "proxy.example", "10.0.0.0/8;1.2.3.4"} {
		if _, err := ParseProxies(bad); err == nil {
			t.Errorf("ParseProxies(%q) took it", bad)
		}
	}
}

// TestLimiterGive: a token given back is there to take again, never
// more than the burst.
func TestLimiterGive(t *testing.T) {
	l := NewLimiter(1e-9, 2)
	l.Give("a") // no bucket yet: a full one
	for range 2 {
		if ok, _ := l.Take("a"); !ok {
			t.Fatal("a full bucket refused")
		}
	}
	if ok, _ := l.Take("a"); ok {
		t.Fatal("an empty bucket gave a token")
	}
	l.Give("a")
	l.Give("a")
	l.Give("a")
	n := 0
	for ok, _ := l.Take("a"); ok; ok, _ = l.Take("a") {
		n++
	}
	if n != 2 {
		t.Errorf("after giving back 3 tokens, %d could be taken; want the burst, 2", n)
	}
}
