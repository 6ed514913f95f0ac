package httpx

import (
	"net/http"
	"sync"
	"time"
)

// Limiter is a token bucket per client address: HTTP requests and
// WebSocket messages from one address draw on the same bucket, so one
// client cannot flood the server by opening many connections.
type Limiter struct {
	rate, burst float64 // tokens a second, and at most
	mu          sync.Mutex
	buckets     map[string]*bucket
	lastSweep   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// NewLimiter returns a limiter of rate tokens a second per address, at
// most burst.
func NewLimiter(rate, burst float64) *Limiter {
	return &Limiter{rate: rate, burst: burst, buckets: map[string]*bucket{}, lastSweep: time.Now()}
}

// Allow takes a token for addr, reporting false when it has none left.
// A nil limiter allows everything.
func (l *Limiter) Allow(addr string) bool { return l.AllowScaled(addr, 1) }

// AllowScaled is Allow for an address whose rate and burst are scale
// times the limiter's (scale ≥ 1): an address known to hold that many
// people's worth of traffic.
func (l *Limiter) AllowScaled(addr string, scale float64) bool {
	if l == nil {
		return true
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	ok, _ := l.takeScaledLocked(addr, now, max(scale, 1))
	return ok
}

// Take is allow that also says, when it refuses, how long until a token
// is back.
func (l *Limiter) Take(addr string) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.takeLocked(addr, time.Now())
}

// Give returns a token taken from addr (one the request did not need
// after all: a sign-in that succeeded), up to the bucket's burst. A nil
// limiter, or an address with no bucket (a full one), takes nothing back.
func (l *Limiter) Give(addr string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b, ok := l.buckets[addr]; ok {
		b.tokens = min(l.burst, b.tokens+1)
	}
}

// Wait is how long until addr has a token, without taking one: 0 when it
// has one now (or l is nil).
func (l *Limiter) Wait(addr string) time.Duration {
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

func (l *Limiter) takeLocked(addr string, now time.Time) (bool, time.Duration) {
	return l.takeScaledLocked(addr, now, 1)
}

func (l *Limiter) takeScaledLocked(addr string, now time.Time, scale float64) (bool, time.Duration) {
	rate, burst := l.rate*scale, l.burst*scale
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
		b = &bucket{tokens: burst, last: now}
		l.buckets[addr] = b
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / rate * float64(time.Second))
	}
	b.tokens--
	return true, 0
}

// ClientAddr is the address of the request's client, without the port:
// the peer's (RemoteAddr), or, behind a proxy trusted with
// Proxies.Handler, the address the proxy says it serves. No header is
// honoured from a peer that is not trusted. Every per-address limit
// (requests, connections, tables, sign-ins, sign-ups) counts against it.
func ClientAddr(r *http.Request) string {
	if a, ok := r.Context().Value(clientKey{}).(string); ok {
		return a
	}
	return peerAddr(r)
}
