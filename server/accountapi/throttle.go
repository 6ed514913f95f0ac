package accountapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"pitch/account"
	"pitch/server/httpx"
)

// Sign-in throttling (docs/accounts.md, "Throttling"). Every password
// check — a sign-in, a password change's current password — takes its
// tokens before the argon2id hash runs, so that guesses sent at once are
// counted as surely as guesses sent one by one; a check that succeeds
// gives them back. It draws on:
//
//   - the client address's bucket (Config.AddrSignIns an hour, in bursts
//     of a twelfth of that): guessing at many names from one address;
//   - the bucket of the name from that address (signInPairBurst, then one
//     each signInPairEvery): guessing at one name from one address;
//   - the name's bucket (signInNameBurst, then one each
//     signInNameEvery): guessing at one name from many addresses.
//
// When the name's bucket is empty the name is under attack, and only an
// address with no failed sign-in in the last cleanEvery may still try —
// once (its clean pass, which a success gives back): so the owner, from
// home, still gets in while the addresses that guessed are refused. The
// clean passes one name may take are bounded too (signInFreshBurst, then
// one each signInFreshEvery), so that many addresses guessing once each
// cannot go on for ever: together, at most 100 failed sign-ins an hour
// reach one name (OWASP ASVS 2.2.1), 60 an hour once the bursts are
// spent.
const (
	signInPairBurst  = 5
	signInPairEvery  = time.Minute
	signInNameBurst  = 10
	signInNameEvery  = 2 * time.Minute
	signInFreshBurst = 30
	signInFreshEvery = 2 * time.Minute
	cleanEvery       = time.Hour
)

// DefaultAddrSignIns is how many failed sign-ins one client address may
// make in an hour unless Config.AddrSignIns says otherwise: 20 in a row,
// then one every 15 seconds.
const DefaultAddrSignIns = 240

// DefaultHashMemory is the argon2id memory, in MiB, the password hashes
// running at once may use unless Config.HashMemory says otherwise: three
// hashes of account.DefaultParams (19 MiB each).
const DefaultHashMemory = 64

// Password hashes waiting for their turn (hashGate) wait at most
// hashWait, and at most hashWaiters wait at once; past either, the
// request is answered 429 busy.
const (
	hashWait    = 5 * time.Second
	hashWaiters = 64
)

// throttle holds the buckets password checks draw on.
type throttle struct {
	byAddr *httpx.Limiter // per client address (nil: no limit)
	byPair *httpx.Limiter // per name and address
	byName *httpx.Limiter // per name, for the addresses that failed recently
	fresh  *httpx.Limiter // per name: clean passes taken while it is throttled
	clean  *httpx.Limiter // per address: one clean pass, gone for cleanEvery after a failure
}

func newThrottle(addrPerHour int) *throttle {
	t := &throttle{
		byPair: httpx.NewLimiter(1/signInPairEvery.Seconds(), signInPairBurst),
		byName: httpx.NewLimiter(1/signInNameEvery.Seconds(), signInNameBurst),
		fresh:  httpx.NewLimiter(1/signInFreshEvery.Seconds(), signInFreshBurst),
		clean:  httpx.NewLimiter(1/cleanEvery.Seconds(), 1),
	}
	if addrPerHour > 0 {
		t.byAddr = httpx.NewLimiter(float64(addrPerHour)/3600, max(1, float64(addrPerHour)/12))
	}
	return t
}

// taken is one token an attempt holds.
type taken struct {
	l   *httpx.Limiter
	key string
}

// attempt is one password check's tokens, taken before the check.
type attempt struct {
	t     *throttle
	addr  string
	held  []taken
	clean bool // it holds the address's clean pass
}

// throttleKey bounds a name's key as a bucket's key: a name too long to
// be anyone's is kept as its hash.
func throttleKey(key string) string {
	if len(key) <= 4*account.MaxName {
		return key
	}
	h := sha256.Sum256([]byte(key))
	return "#" + hex.EncodeToString(h[:])
}

// begin takes the tokens a password check of name key from addr draws
// on. It returns nil and how long to wait when one is missing (taking
// nothing).
func (t *throttle) begin(key, addr string) (*attempt, time.Duration) {
	key = throttleKey(key)
	a := &attempt{t: t, addr: addr}
	take := func(l *httpx.Limiter, k string) time.Duration {
		if l == nil {
			return 0
		}
		if ok, wait := l.Take(k); !ok {
			a.giveBack()
			return max(wait, time.Second)
		}
		a.held = append(a.held, taken{l, k})
		return 0
	}
	if wait := take(t.byAddr, addr); wait > 0 {
		return nil, wait
	}
	if wait := take(t.byPair, key+"\x00"+addr); wait > 0 {
		return nil, wait
	}
	if ok, _ := t.byName.Take(key); ok {
		a.held = append(a.held, taken{t.byName, key})
		return a, 0
	}
	// The name is throttled: only an address with a clean record tries.
	wait := t.byName.Wait(key)
	if ok, _ := t.clean.Take(addr); !ok {
		a.giveBack()
		return nil, max(wait, time.Second)
	}
	a.held = append(a.held, taken{t.clean, addr})
	a.clean = true
	if w := take(t.fresh, key); w > 0 {
		return nil, max(wait, w)
	}
	return a, 0
}

// giveBack returns every token the attempt holds.
func (a *attempt) giveBack() {
	for _, h := range a.held {
		h.l.Give(h.key)
	}
	a.held = nil
}

// succeeded ends an attempt whose password was right: it gives back
// what it took, so that a success costs nothing.
func (a *attempt) succeeded() { a.giveBack() }

// canceled ends an attempt whose password was not checked (the server
// was busy, the store down): it gives back what it took.
func (a *attempt) canceled() { a.giveBack() }

// failed ends an attempt whose password was wrong: it keeps what it took,
// and the address loses its clean pass for cleanEvery.
func (a *attempt) failed() {
	a.held = nil
	if !a.clean {
		a.t.clean.Take(a.addr)
	}
}

// beginCheck takes the tokens of a password check of name key from the
// request's address, or answers 429 too_many_signins and returns nil.
func (s *API) beginCheck(w http.ResponseWriter, r *http.Request, op, key string) *attempt {
	a, wait := s.throttle.begin(key, httpx.ClientAddr(r))
	if a == nil {
		s.tooMany(w, r, op, wait, "too many failed sign-ins: wait before trying again", "too_many_signins")
	}
	return a
}

// errBusy says too many password hashes are running and waiting.
var errBusy = errors.New("too many password checks at once")

// hashGate bounds the argon2id hashes running at once, server-wide: each
// takes account.DefaultParams.Memory (19 MiB), and Config.HashMemory
// bounds their sum. The others wait for a turn, at most hashWaiters of
// them and each at most hashWait (or until its request ends).
type hashGate struct {
	slots   chan struct{}
	wait    time.Duration // the longest a hash waits for its turn: hashWait
	waiting atomic.Int64
	hashes  atomic.Int64 // argon2id hashes run, for tests and monitoring
}

// newHashGate returns a gate for mib MiB of argon2id memory: at least one
// hash at a time.
func newHashGate(mib int) *hashGate {
	n := max(1, mib*1024/int(account.DefaultParams.Memory))
	return &hashGate{slots: make(chan struct{}, n), wait: hashWait}
}

// run runs f, which hashes, in its turn; errBusy (or the context's error)
// when it did not run.
func (g *hashGate) run(ctx context.Context, f func()) error {
	select {
	case g.slots <- struct{}{}:
	default:
		if g.waiting.Add(1) > hashWaiters {
			g.waiting.Add(-1)
			return errBusy
		}
		t := time.NewTimer(g.wait)
		select {
		case g.slots <- struct{}{}:
			g.waiting.Add(-1)
			t.Stop()
		case <-t.C:
			g.waiting.Add(-1)
			return errBusy
		case <-ctx.Done():
			g.waiting.Add(-1)
			t.Stop()
			return ctx.Err()
		}
	}
	defer func() { <-g.slots }()
	f()
	return nil
}

// verify is account.Verify, counted.
func (g *hashGate) verify(password, phc string) (ok, rehash bool, err error) {
	g.hashes.Add(1)
	return account.Verify(password, phc)
}

// verifyDummy is account.VerifyDummy, counted.
func (g *hashGate) verifyDummy(password string) {
	g.hashes.Add(1)
	account.VerifyDummy(password)
}

// hash is account.Hash, counted.
func (g *hashGate) hash(password string) string {
	g.hashes.Add(1)
	return account.Hash(password)
}

// hashOnce hashes password in its turn; false when it wrote 429 busy.
func (s *API) hashOnce(w http.ResponseWriter, r *http.Request, op, password string) (string, bool) {
	var phc string
	if err := s.hashes.run(r.Context(), func() { phc = s.hashes.hash(password) }); err != nil {
		s.busy(w, r, op)
		return "", false
	}
	return phc, true
}

// busy answers 429 busy: the server checks as many passwords as it may
// at once.
func (s *API) busy(w http.ResponseWriter, r *http.Request, op string) {
	s.tooMany(w, r, op, time.Second, "the server is checking too many passwords at once: try again", "busy")
}

// Hashes is how many argon2id hashes the accounts have run since New
// (sign-ins' checks, dummy checks of unknown names, sign-ups, password
// changes and resets): for tests, and to watch.
func (s *API) Hashes() int64 { return s.hashes.hashes.Load() }
