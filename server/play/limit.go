package play

import (
	"net/http"
	"pitch/server/httpx"
)

// limit refuses API requests over the address's rate with 429.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.limiter.Allow(httpx.ClientAddr(r)) {
			s.gauge.refuse(refusedRate, "too many requests from one address (--addr-rate)")
			w.Header().Set("Retry-After", "1")
			s.writeError(w, r, httpx.Errorf(httpx.TooMany, "rate limit", "too many requests from your address: slow down and try again in a second").With("rate_addr", nil))
			return
		}
		next.ServeHTTP(w, r)
	})
}
