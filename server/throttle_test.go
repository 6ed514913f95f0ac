package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pitch/server"
	"pitch/server/httpx"
)

// behindProxy is fastOptions for a server that trusts 127.0.0.1, where
// the tests run, as a proxy: a request's X-Forwarded-For is then the
// client's address, so a test can be many clients.
func behindProxy(t *testing.T) server.Options {
	t.Helper()
	o := fastOptions()
	p, err := httpx.ParseProxies("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	o.TrustedProxies = p
	return o
}

// from sends a request as the client at addr (X-Forwarded-For; "" for
// none) and returns its status, body and Retry-After.
func (ts *testServer) from(addr, method, path, body string) (int, []byte, string) {
	ts.t.Helper()
	req, err := http.NewRequest(method, ts.hs.URL+path, strings.NewReader(body))
	if err != nil {
		ts.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if addr != "" {
		req.Header.Set("X-Forwarded-For", addr)
	}
	resp, err := ts.hs.Client().Do(req)
	if err != nil {
		ts.t.Errorf("%s %s: %v", method, path, err)
		return 0, nil, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header.Get("Retry-After")
}

// burst sends n sign-ins at once (each released together), the i-th as
// the client addr(i) for the name name(i), and counts the answers by
// status and code.
func (ts *testServer) burst(n int, addr, name func(i int) string, password string) map[string]int {
	var (
		mu    sync.Mutex
		got   = map[string]int{}
		start = make(chan struct{})
		wg    sync.WaitGroup
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			status, body, retry := ts.from(addr(i), "POST", "/api/account/signin", creds(name(i), password))
			key := strconv.Itoa(status)
			if status >= 400 && status != 0 {
				key += " " + errCodeOf(body)
			}
			if status == 429 && retry == "" {
				key += " without Retry-After"
			}
			mu.Lock()
			got[key]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return got
}

func errCodeOf(body []byte) string {
	i := strings.Index(string(body), `"code":"`)
	if i < 0 {
		return "?"
	}
	rest := string(body[i+8:])
	return rest[:strings.IndexByte(rest, '"')]
}

// checkAnswers fails unless every answer of a burst is one of want.
func checkAnswers(t *testing.T, got map[string]int, want ...string) {
	t.Helper()
	for k, n := range got {
		if !slicesContains(want, k) {
			t.Errorf("%d answers %q; want only %q", n, k, want)
		}
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// refills is how many tokens a bucket of one each every can have
// regained since start: the margin a count allows for a slow machine
// (it does not depend on the machine being fast).
func refills(start time.Time, every time.Duration) int64 {
	return int64(time.Since(start)/every) + 1
}

// TestSignInGuessesAtOnce: guesses sent at once are counted before any
// is checked, so 200 of them at one name check no more passwords than
// the throttle allows — from one address (5: the name's bucket from
// that address), or from 200 (the name's bucket, 10, and the clean
// passes it may grant, 30) — counted by the argon2id hashes run.
func TestSignInGuessesAtOnce(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", behindProxy(t))
	ts.browser().must(201, "POST", "/api/account/signup", creds("Alan", goodPassword))

	t.Run("one address", func(t *testing.T) {
		start, before := time.Now(), server.PasswordHashes(ts.srv)
		got := ts.burst(200, func(int) string { return "" }, func(int) string { return "Alan" }, "not the password")
		checked := server.PasswordHashes(ts.srv) - before
		t.Logf("answers %v; %d passwords checked", got, checked)
		checkAnswers(t, got, "403 wrong_credentials", "429 too_many_signins", "429 busy")
		if allowed := 5 + refills(start, time.Minute); checked > allowed || checked < 1 {
			t.Errorf("200 guesses at once from one address checked %d passwords; want 1 to %d", checked, allowed)
		}
		if got["403 wrong_credentials"] > 5+int(refills(start, time.Minute)) {
			t.Errorf("%d guesses were answered wrong_credentials", got["403 wrong_credentials"])
		}
	})
	t.Run("many addresses", func(t *testing.T) {
		ts.browser().must(201, "POST", "/api/account/signup", creds("Barbara", goodPassword))
		start, before := time.Now(), server.PasswordHashes(ts.srv)
		got := ts.burst(200, func(i int) string { return fmt.Sprintf("198.51.%d.%d", i/200, i%200+1) },
			func(int) string { return "barbara" }, "not the password")
		checked := server.PasswordHashes(ts.srv) - before
		t.Logf("answers %v; %d passwords checked", got, checked)
		checkAnswers(t, got, "403 wrong_credentials", "429 too_many_signins", "429 busy")
		if allowed := 10 + 30 + 2*refills(start, 2*time.Minute); checked > allowed || checked < 1 {
			t.Errorf("200 guesses at once from 200 addresses checked %d passwords; want 1 to %d", checked, allowed)
		}
	})
}

// TestSignInOwnerNotLockedOut: guessers who used up a name's sign-ins
// are refused, even with the right password, but the owner, from an
// address that has not failed, signs in — again and again.
func TestSignInOwnerNotLockedOut(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", behindProxy(t))
	ts.browser().must(201, "POST", "/api/account/signup", creds("Grace", goodPassword))
	signIn := func(addr, password string) (int, string, string) {
		t.Helper()
		status, body, retry := ts.from(addr, "POST", "/api/account/signin", creds("grace", password))
		return status, errCodeOf(body), retry
	}
	// Three addresses guess: 15 failures, past the name's 10.
	for a := 1; a <= 3; a++ {
		for i := range 5 {
			status, code, _ := signIn(fmt.Sprintf("203.0.113.%d", a), fmt.Sprintf("guess %d of %d", i, a))
			if a == 3 && i >= 1 {
				// The name is throttled now, and this address has failed.
				if status != 429 || code != "too_many_signins" {
					t.Fatalf("address 3's guess %d: %d %s, want 429 too_many_signins", i, status, code)
				}
				continue
			}
			if status != 403 || code != "wrong_credentials" {
				t.Fatalf("address %d's guess %d: %d %s, want 403 wrong_credentials", a, i, status, code)
			}
		}
	}
	for a := 1; a <= 3; a++ {
		if status, code, retry := signIn(fmt.Sprintf("203.0.113.%d", a), goodPassword); status != 429 || code != "too_many_signins" || retry == "" {
			t.Errorf("the right password from guessing address %d: %d %s (Retry-After %q), want 429 too_many_signins", a, status, code, retry)
		}
	}
	for i := range 3 {
		if status, code, _ := signIn("192.0.2.50", goodPassword); status != 200 {
			t.Fatalf("the owner from a fresh address, sign-in %d: %d %s, want 200", i, status, code)
		}
	}
	// A fresh address that guesses wrong has had its one try.
	if status, code, _ := signIn("192.0.2.60", "a wrong guess"); status != 403 {
		t.Fatalf("a fresh address's wrong guess: %d %s, want 403", status, code)
	}
	if status, code, _ := signIn("192.0.2.60", goodPassword); status != 429 {
		t.Errorf("the right password after a wrong one from the same address: %d %s, want 429", status, code)
	}
	// Other names are not throttled for the guessing addresses' sake.
	ts.browser().must(201, "POST", "/api/account/signup", creds("Hopper", goodPassword))
	if status, body, _ := ts.from("203.0.113.3", "POST", "/api/account/signin", creds("Hopper", goodPassword)); status != 200 {
		t.Errorf("another name from a guessing address: %d %s, want 200", status, body)
	}
}

// TestForgedForwardedForIgnored: a client that is not a trusted proxy
// cannot pick the address its guesses count against by writing
// X-Forwarded-For.
func TestForgedForwardedForIgnored(t *testing.T) {
	for _, trusted := range []string{"", "10.0.0.0/8"} {
		t.Run("trusted="+trusted, func(t *testing.T) {
			o := fastOptions()
			var err error
			if o.TrustedProxies, err = httpx.ParseProxies(trusted); err != nil {
				t.Fatal(err)
			}
			ts := startServer(t, t.TempDir()+"/pitch.db", o)
			ts.browser().must(201, "POST", "/api/account/signup", creds("Alan", goodPassword))
			for i := range 5 {
				if status, body, _ := ts.from(fmt.Sprintf("203.0.113.%d", i+1), "POST", "/api/account/signin", creds("Alan", "a wrong guess")); status != 403 {
					t.Fatalf("guess %d: %d %s", i, status, body)
				}
			}
			status, body, _ := ts.from("203.0.113.99", "POST", "/api/account/signin", creds("Alan", goodPassword))
			if status != 429 || errCodeOf(body) != "too_many_signins" {
				t.Errorf("after 5 guesses from 127.0.0.1 under forged addresses, the next: %d %s, want 429 too_many_signins", status, body)
			}
		})
	}
}

// TestSignInAddrLimitFlag: Options.AddrSignIns sets how many failed
// sign-ins one address may make (a twelfth of the hour's in a row), and
// below 0 none are counted per address.
func TestSignInAddrLimitFlag(t *testing.T) {
	guesses := func(o server.Options) int {
		ts := startServer(t, t.TempDir()+"/pitch.db", o)
		for i := range 40 {
			if status, body, _ := ts.from("", "POST", "/api/account/signin", creds(fmt.Sprintf("name%d", i), "some guess here")); status != 403 {
				if status != 429 || errCodeOf(body) != "too_many_signins" {
					t.Fatalf("guess %d: %d %s", i, status, body)
				}
				return i
			}
		}
		return 40
	}
	o := fastOptions()
	o.AddrSignIns = 60
	if n := guesses(o); n != 5 {
		t.Errorf("with 60 an hour, %d failed sign-ins in a row; want 5", n)
	}
	o.AddrSignIns = -1
	if n := guesses(o); n != 40 {
		t.Errorf("with no limit per address, refused after %d failed sign-ins at different names", n)
	}
}

// vm reads a line of /proc/self/status, in bytes.
func vm(t *testing.T, key string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			return kb << 10
		}
	}
	t.Skipf("no %s in /proc/self/status", key)
	return 0
}

// TestSignInMemoryBounded: 200 sign-ins at once, each at its own name
// from its own address (so that no throttle holds one back), raise the
// process's peak memory by less than 150 MB: no more argon2id hashes
// (19 MiB each) run at once than Options.HashMemory allows (64 MiB:
// three). Without that bound the same burst raised the peak by
// 3.7 GB (measured with HashMemory set to 4096: all 200 at once).
func TestSignInMemoryBounded(t *testing.T) {
	o := behindProxy(t)
	ts := startServer(t, t.TempDir()+"/pitch.db", o)
	// A first sign-in makes the dummy hash unknown names are checked
	// against, and warms the server.
	ts.from("192.0.2.1", "POST", "/api/account/signin", creds("nobody", "not the password"))
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak RSS (/proc/self/clear_refs): %v", err)
	}
	base, before := vm(t, "VmRSS"), server.PasswordHashes(ts.srv)
	got := ts.burst(200, func(i int) string { return fmt.Sprintf("198.51.100.%d", i+1) },
		func(i int) string { return fmt.Sprintf("nobody%d", i) }, "not the password")
	peak, checked := vm(t, "VmHWM"), server.PasswordHashes(ts.srv)-before
	t.Logf("answers %v; %d passwords checked; RSS %d MB, peak %d MB during the burst", got, checked, base>>20, peak>>20)
	checkAnswers(t, got, "403 wrong_credentials", "429 busy")
	if checked < 3 {
		t.Errorf("only %d passwords were checked: the burst did not test the bound", checked)
	}
	if grew := peak - base; grew > 150<<20 {
		t.Errorf("200 sign-ins at once raised the peak memory by %d MB; want under 150", grew>>20)
	}
}

// TestNameLookupsBounded: the answers that tell whether a name has an
// account are bounded per address — 30 profiles of no one in a row (each
// of /api/users/NAME, …/events, …/daily), then every lookup from that
// address, a passkey sign-up's check of its name and a sign-up too, is
// 429 too_many_lookups — while profiles that exist cost nothing, and
// another address is not held back.
func TestNameLookupsBounded(t *testing.T) {
	ts := startServer(t, t.TempDir()+"/pitch.db", behindProxy(t))
	ts.browser().must(201, "POST", "/api/account/signup", creds("Ada", goodPassword))
	const me = "203.0.113.7"
	get := func(addr, path string) (int, string, string) {
		t.Helper()
		status, body, retry := ts.from(addr, "GET", path, "")
		return status, errCodeOf(body), retry
	}
	for i := range 100 { // people reading profiles: never held back
		if status, code, _ := get(me, []string{"/api/users/ada", "/api/users/ADA/events", "/api/users/Ada/daily"}[i%3]); status != 200 {
			t.Fatalf("profile read %d: %d %s", i, status, code)
		}
	}
	for i := range 30 {
		path := fmt.Sprintf("/api/users/nobody%d", i)
		if i%3 == 1 {
			path += "/events"
		}
		if status, code, _ := get(me, path); status != 404 || code != "no_such_user" {
			t.Fatalf("lookup %d of no one: %d %s, want 404 no_such_user", i, status, code)
		}
	}
	for _, path := range []string{"/api/users/nobody99", "/api/users/ada", "/api/users/ada/daily"} {
		if status, code, retry := get(me, path); status != 429 || code != "too_many_lookups" || retry == "" {
			t.Errorf("%s after 30 lookups of no one: %d %s (Retry-After %q), want 429 too_many_lookups", path, status, code, retry)
		}
	}
	for _, c := range []struct{ path, body string }{
		{"/api/account/passkey/signup/begin", `{"name":"ada"}`},
		{"/api/account/signup", creds("Ada", goodPassword)},
	} {
		if status, body, _ := ts.from(me, "POST", c.path, c.body); status != 429 || errCodeOf(body) != "too_many_lookups" {
			t.Errorf("POST %s after 30 lookups of no one: %d %s, want 429 too_many_lookups", c.path, status, body)
		}
	}
	if status, code, _ := get("203.0.113.8", "/api/users/nobody99"); status != 404 {
		t.Errorf("a lookup from another address: %d %s, want 404", status, code)
	}
}

// TestPasskeySignInFailuresAtOnce: passkey sign-ins sent at once take
// the address's token before the passkey is checked, so that failures
// sent together are not all checked: of 60 bad assertions from one
// address, at most the address's burst (a twelfth of --addr-signins'
// hour, 20) are answered passkey_failed; the rest are 429.
func TestPasskeySignInFailuresAtOnce(t *testing.T) {
	opts := behindProxy(t)
	opts.Origin = "http://localhost" // passkeys need a domain, not 127.0.0.1
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	const n = 60
	ceremonies := make([]string, n)
	for i := range ceremonies {
		status, body, _ := ts.from("203.0.113.9", "POST", "/api/account/passkey/signin/begin", `{}`)
		var c struct{ Ceremony string }
		if status != 200 || json.Unmarshal(body, &c) != nil || c.Ceremony == "" {
			t.Fatalf("begin %d: %d %s", i, status, body)
		}
		ceremonies[i] = c.Ceremony
	}
	start := time.Now()
	var (
		mu  sync.Mutex
		got = map[string]int{}
		go1 = make(chan struct{})
		wg  sync.WaitGroup
	)
	for _, c := range ceremonies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-go1
			status, body, _ := ts.from("203.0.113.9", "POST", "/api/account/passkey/signin/finish", fmt.Sprintf(`{"ceremony":%q,"credential":{"id":"x"}}`, c))
			mu.Lock()
			got[strconv.Itoa(status)+" "+errCodeOf(body)]++
			mu.Unlock()
		}()
	}
	close(go1)
	wg.Wait()
	t.Logf("answers %v", got)
	checkAnswers(t, got, "403 passkey_failed", "429 too_many_signins")
	burst := server.DefaultAddrSignIns / 12
	if allowed := burst + int(refills(start, time.Hour/time.Duration(server.DefaultAddrSignIns))); got["403 passkey_failed"] > allowed {
		t.Errorf("%d of %d bad passkeys sent at once were checked, want at most %d", got["403 passkey_failed"], n, allowed)
	}
	if got["429 too_many_signins"] == 0 {
		t.Error("no bad passkey was refused")
	}
}
