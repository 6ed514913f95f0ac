package play

import (
	"net/http"
	"pitch/server/httpx"
)

// Limit refuses API requests over the address's rate with 429: the
// rate of --addr-rate, and half as much again for each player connected
// from the address.
func (s *Server) Limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.limiter == nil {
			next.ServeHTTP(w, r)
			return
		}
		addr := httpx.ClientAddr(r)
		// An address behind which people play (a club's WiFi) gets their
		// share too: half the limit again for each player's connection.
		if !s.limiter.AllowScaled(addr, 1+float64(s.conns.playersAt(addr))/2) {
			s.gauge.refuse(refusedRate, "too many requests from one address (--addr-rate)")
			s.noteRequestRefused(r, "too many requests from one address")
			w.Header().Set("Retry-After", "1")
			s.writeError(w, r, httpx.Errorf(httpx.TooMany, "rate limit", "too many requests from your address: slow down and try again in a second").With("rate_addr", nil))
			return
		}
		next.ServeHTTP(w, r)
	})
}
