package server

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// limiter is a token bucket per client address: HTTP requests and
// WebSocket messages from one address draw on the same bucket, so one
// client cannot flood the server by opening many connections.
type limiter struct {
	rate, burst float64 // tokens a second, and at most
	mu          sync.Mutex
	buckets     map[string]*bucket
	lastSweep   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate, burst float64) *limiter {
	return &limiter{rate: rate, burst: burst, buckets: map[string]*bucket{}, lastSweep: time.Now()}
}

// allow takes a token for addr, reporting false when it has none left.
// A nil limiter allows everything.
func (l *limiter) allow(addr string) bool {
	if l == nil {
		return true
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	ok, _ := l.takeLocked(addr, now)
	return ok
}

// take is allow that also says, when it refuses, how long until a token
// is back.
func (l *limiter) take(addr string) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.takeLocked(addr, time.Now())
}

// wait is how long until addr has a token, without taking one: 0 when it
// has one now (or l is nil).
func (l *limiter) wait(addr string) time.Duration {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[addr]
	if !ok {
		return 0
	}
	tokens := min(l.burst, b.tokens+time.Since(b.last).Seconds()*l.rate)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) / l.rate * float64(time.Second))
}

func (l *limiter) takeLocked(addr string, now time.Time) (bool, time.Duration) {
	if now.Sub(l.lastSweep) > time.Minute { // forget addresses whose buckets are full again
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
				delete(l.buckets, k)
			}
		}
		l.lastSweep = now
	}
	b, ok := l.buckets[addr]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[addr] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	}
	b.tokens--
	return true, 0
}

// clientAddr is the request's remote IP (without the port). Behind a
// proxy every client shares the proxy's address; run the limit there, or
// set it off here.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limit refuses API requests over the address's rate with 429.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.limiter.allow(clientAddr(r)) {
			s.gauge.refuse(refusedRate, "too many requests from one address (--addr-rate)")
			w.Header().Set("Retry-After", "1")
			s.writeError(w, r, errorf(TooMany, "rate limit", "too many requests from your address: slow down and try again in a second").with("rate_addr", nil))
			return
		}
		next.ServeHTTP(w, r)
	})
}
