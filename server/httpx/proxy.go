package httpx

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Proxies are the peers trusted to say who the client is: a request from
// one of them is taken to come from the address its X-Forwarded-For (or,
// without one, X-Real-IP) names. A request from any other peer is taken
// to come from the peer, whatever its headers say. The zero value
// trusts no one, which is the default: a header a client can write
// itself must never decide the address its limits are counted against.
type Proxies struct {
	nets []netip.Prefix
}

// ParseProxies reads a comma-separated list of CIDRs (10.0.0.0/8,
// fd00::/8) and plain addresses (127.0.0.1, one address); "" trusts no
// one.
func ParseProxies(s string) (Proxies, error) {
	var p Proxies
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var pre netip.Prefix
		var err error
		if strings.Contains(f, "/") {
			pre, err = netip.ParsePrefix(f)
		} else {
			var a netip.Addr
			if a, err = netip.ParseAddr(f); err == nil {
				pre = netip.PrefixFrom(a, a.BitLen())
			}
		}
		if err != nil {
			return Proxies{}, fmt.Errorf("%q is not a CIDR (such as 10.0.0.0/8) nor an IP address", f)
		}
		p.nets = append(p.nets, pre.Masked())
	}
	return p, nil
}

// String lists the trusted networks, comma-separated.
func (p Proxies) String() string {
	s := make([]string, len(p.nets))
	for i, n := range p.nets {
		s[i] = n.String()
	}
	return strings.Join(s, ",")
}

// Trusted reports whether a is a trusted proxy.
func (p Proxies) Trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, n := range p.nets {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// clientKey is the context key of the client's address as Proxies.Handler
// found it.
type clientKey struct{}

// Handler serves next with each request's client address resolved
// (ClientAddr): the peer's, unless the peer is a trusted proxy; then the
// nearest address of X-Forwarded-For that is not a trusted proxy (read
// from the right, as each proxy appends the address it heard from), or
// X-Real-IP without X-Forwarded-For. A header that does not hold an IP
// address leaves the nearest proxy as the client.
func (p Proxies) Handler(next http.Handler) http.Handler {
	if len(p.nets) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := p.client(r); a != "" {
			r = r.WithContext(context.WithValue(r.Context(), clientKey{}, a))
		}
		next.ServeHTTP(w, r)
	})
}

// client is the client's address behind trusted proxies, or "" to take
// the peer's.
func (p Proxies) client(r *http.Request) string {
	peer, ok := parseIP(peerAddr(r))
	if !ok || !p.Trusted(peer) {
		return ""
	}
	hops := forwardedFor(r.Header.Values("X-Forwarded-For"))
	if len(hops) == 0 {
		if a, ok := parseIP(strings.TrimSpace(r.Header.Get("X-Real-IP"))); ok {
			return a.String()
		}
		return ""
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseIP(hops[i])
		if !ok {
			break // not an address: the last proxy heard it from someone unknown
		}
		client = a
		if !p.Trusted(a) {
			break
		}
	}
	return client.String()
}

// forwardedFor splits X-Forwarded-For headers (each a comma-separated
// list) into their hops, leftmost first.
func forwardedFor(values []string) []string {
	var hops []string
	for _, v := range values {
		for _, h := range strings.Split(v, ",") {
			hops = append(hops, strings.TrimSpace(h))
		}
	}
	return hops
}

// parseIP reads an IP address, with or without a port ("1.2.3.4:80",
// "[::1]:80"), IPv4-mapped IPv6 as IPv4.
func parseIP(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone(""), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	return netip.Addr{}, false
}

// peerAddr is the address of the connection's other end, without its
// port.
func peerAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
