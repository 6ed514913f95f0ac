package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"pitch/i18n"
)

// signedInAs is the account the page's session belongs to ("" for none),
// asked of the server by the page itself.
func (b *browser) signedInAs() (name string, hasPassword bool, passkeys int) {
	b.t.Helper()
	var got struct {
		Account *struct {
			Name        string
			HasPassword bool `json:"has_password"`
			Passkeys    int
		}
	}
	b.evalAsync(`fetch('/api/account').then((r) => r.text())`, &got)
	if got.Account == nil {
		return "", false, 0
	}
	return got.Account.Name, got.Account.HasPassword, got.Account.Passkeys
}

// evalAsync is eval for an expression that gives a promise.
func (b *browser) evalAsync(expr string, v any) {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		b.t.Fatalf("decoding %s from %s: %v", s, expr, err)
	}
}

// expectRefused drops from the console log the browser's own note of a
// refusal the test asked for on purpose (a 4xx answer to path): it is
// the server saying no, shown to the person, not a fault of the page.
func (b *browser) expectRefused(path string, status int) {
	b.t.Helper()
	time.Sleep(100 * time.Millisecond) // the console event may trail the page's change
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.console[:0]
	for _, m := range b.console {
		if !(strings.Contains(m, fmt.Sprintf("status of %d", status)) && strings.HasSuffix(m, path)) {
			kept = append(kept, m)
		}
	}
	b.console = kept
}

// waitShown waits until sel is visible.
func (b *browser) waitShown(what, sel string) {
	b.t.Helper()
	b.do(what, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// fill types text into an input, replacing what it held.
func (b *browser) fill(sel, text string) {
	b.t.Helper()
	b.eval(fmt.Sprintf(`(document.querySelector(%q).value = '', 'true')`, sel), new(bool))
	b.do("fill "+sel, chromedp.SendKeys(chromedp.CSS(sel), text))
}

// noOverflow fails the test if the page scrolls sideways or a visible
// input or button of the account page lies outside the viewport's width.
func (b *browser) noOverflow(where string) {
	b.t.Helper()
	var probs []string
	b.eval(`(() => { const w = document.documentElement.clientWidth, out = [];
		if (document.documentElement.scrollWidth > w + 1) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + w);
		for (const e of document.querySelectorAll('#account-view input, #account-view button, #account-view h1, #account-link')) {
			const r = e.getBoundingClientRect();
			if (r.width === 0) continue;
			if (r.left < 0 || r.right > w + 1) out.push((e.id || e.tagName) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' of ' + w);
		}
		return JSON.stringify(out); })()`, &probs)
	for _, p := range probs {
		b.t.Errorf("%s: %s", where, p)
	}
}

// accountSizes are the screens the account pages are checked at.
var accountSizes = []struct {
	name  string
	w, h  int64
	scale float64
}{{"desktop", 1280, 800, 1}, {"phone", 390, 844, 2}}

// TestBrowserPasswordAccount: a guest takes a seat, signs up with a name
// and a password mid-match and keeps the seat; on a browser with nothing
// saved (another device) signing in brings the seat back; sign out and in
// again; the pages fit desktop and phone.
func TestBrowserPasswordAccount(t *testing.T) {
	s := newSite(t)
	id := s.createTable("auction", 4, "")
	s.join("Guest")
	if got := s.text("#account-link"); got != "Sign in" {
		t.Errorf("a guest's header link says %q, want Sign in", got)
	}
	s.do("open the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-up form", "#signup-form")
	for _, sz := range accountSizes {
		s.do("resize", chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(sz.scale)), settled())
		s.noOverflow("sign-in page at " + sz.name)
	}
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
	// A refused password says why, in words.
	s.fill("#signup-name", "Ada-Byron")
	s.fill("#signup-password", "1qaz2wsx3edc")
	s.click("#signup-btn")
	waitFor(t, "the common password refused", func() bool { return strings.Contains(s.text("#alert-text"), "most common") }, 10*time.Second)
	s.expectRefused("/api/account/signup", 400)
	s.fill("#signup-password", "analytical engine")
	s.click("#signup-btn")
	s.waitShown("the account page", "#acct-me")
	if got := s.text("#me-h"); got != "Ada-Byron" {
		t.Errorf("the account page is headed %q", got)
	}
	waitFor(t, "the guest's seat listed under the account", func() bool { return s.count("#me-seats li") == 1 }, 10*time.Second)
	if got := s.text("#account-link"); got != "Ada-Byron" {
		t.Errorf("the header link says %q, want the name", got)
	}
	for _, sz := range accountSizes {
		s.do("resize", chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(sz.scale)), settled())
		s.noOverflow("account page at " + sz.name)
	}
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))

	// Another device: nothing saved in the browser, only the sign-in.
	s.click("#signout-btn")
	s.waitShown("the lobby after signing out", "#create-form")
	if name, _, _ := s.signedInAs(); name != "" {
		t.Fatalf("after signing out the page is signed in as %q", name)
	}
	s.eval(`localStorage.clear(), 'true'`, new(bool))
	s.do("the table, signed out and with nothing saved", chromedp.Navigate(s.url+"/t/"+id))
	waitFor(t, "the table shown to a spectator", func() bool { return s.ui().Seat == -1 }, 20*time.Second)
	s.do("sign in", chromedp.Navigate(s.url+"/account?next=/t/"+id))
	s.waitShown("the sign-in form", "#signin-form")
	s.fill("#signin-name", "ada-byron")
	s.fill("#signin-password", "wrong password")
	s.click("#signin-btn")
	waitFor(t, "a wrong password refused", func() bool { return strings.Contains(s.text("#alert-text"), "Wrong name or password") }, 10*time.Second)
	s.expectRefused("/api/account/signin", 403)
	s.fill("#signin-password", "analytical engine")
	s.click("#signin-btn")
	s.waitShown("the table after signing in", "#table-view")
	waitFor(t, "the seat back at the table after signing in", func() bool { return s.ui().Seat == 0 }, 20*time.Second)
	if name, hasPw, _ := s.signedInAs(); name != "Ada-Byron" || !hasPw {
		t.Errorf("signed in as %q (password %v), want Ada-Byron with a password", name, hasPw)
	}
}

// TestBrowserPasskey signs up and in with a passkey of Chromium's virtual
// authenticator (the DevTools WebAuthn domain), then adds a password to
// the passkey-only account and signs in with it.
func TestBrowserPasskey(t *testing.T) {
	s := newSite(t)
	// WebAuthn needs a domain, not an IP address: localhost, a secure context.
	s.url = strings.Replace(s.url, "127.0.0.1", "localhost", 1)
	s.do("open the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-up form", "#signup-form")
	if _, err := chromedp.Call(s.ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		t.Fatalf("WebAuthn.enable: %v", err)
	}
	auth, err := chromedp.Call(s.ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
		Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
		HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}})
	if err != nil {
		t.Fatalf("WebAuthn.addVirtualAuthenticator: %v", err)
	}
	if n := s.count("#signup-passkey:not([hidden])"); n != 1 || s.count(".no-passkeys") != 0 {
		t.Fatalf("the passkey button is not offered on a secure page")
	}
	s.fill("#signup-name", "Grace")
	s.click("#signup-passkey")
	s.waitShown("the account page after a passkey sign-up", "#acct-me")
	if name, hasPw, keys := s.signedInAs(); name != "Grace" || hasPw || keys != 1 {
		t.Fatalf("after the passkey sign-up: %q, password %v, %d passkeys; want Grace, no password, 1 passkey", name, hasPw, keys)
	}
	creds, err := chromedp.Call(s.ctx, webauthn.GetCredentials, webauthn.GetCredentialsParams(auth))
	if err != nil || len(creds.Credentials) != 1 || !creds.Credentials[0].IsResidentCredential || creds.Credentials[0].RpID != "localhost" {
		t.Fatalf("the authenticator holds %+v (%v), want one resident credential for localhost", creds, err)
	}
	if got := s.text("#pw-h"); got != "Add a password" {
		t.Errorf("a passkey-only account's password heading says %q", got)
	}

	s.click("#signout-btn")
	s.waitShown("the lobby after signing out", "#create-form")
	s.do("open the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-in form", "#signin-form")
	s.click("#signin-passkey")
	s.waitShown("the account page after a passkey sign-in", "#acct-me")
	if name, _, _ := s.signedInAs(); name != "Grace" {
		t.Fatalf("after the passkey sign-in: %q, want Grace", name)
	}
	creds, _ = chromedp.Call(s.ctx, webauthn.GetCredentials, webauthn.GetCredentialsParams(auth))
	if len(creds.Credentials) != 1 || creds.Credentials[0].SignCount < 1 {
		t.Errorf("the credential was not used to sign in: %+v", creds.Credentials)
	}

	// A password added to the passkey account signs in too.
	s.fill("#pw-new", "amazing grace hopper")
	s.click("#pw-btn")
	// The page reloads once the password is set: wait for the reloaded page
	// (it asks for the old password now), not on a fetch the reload may cut.
	waitFor(t, "the reloaded page to ask for the old password", func() bool {
		return s.count("#acct-me:not([hidden]) #pw-old-field:not([hidden])") == 1
	}, 30*time.Second) // a hang-stopper: a reload on a loaded machine has taken more than 10 s
	if _, hasPw, _ := s.signedInAs(); !hasPw {
		t.Fatal("the page asks for the old password, yet the account has none")
	}
	s.click("#signout-btn")
	s.waitShown("the lobby after signing out", "#create-form")
	s.do("open the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-in form", "#signin-form")
	s.fill("#signin-name", "grace")
	s.fill("#signin-password", "amazing grace hopper")
	s.click("#signin-btn")
	s.waitShown("the account page after a password sign-in", "#acct-me")
	if name, hasPw, keys := s.signedInAs(); name != "Grace" || !hasPw || keys != 1 {
		t.Errorf("finally: %q, password %v, %d passkeys; want Grace with both", name, hasPw, keys)
	}
}

// TestBrowserAccountLanguages: the account pages (a guest's and a
// signed-in person's) in every language, with no English left, at desktop
// and phone sizes.
func TestBrowserAccountLanguages(t *testing.T) {
	s := newSite(t)
	s.do("open the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-up form", "#signup-form")
	s.fill("#signup-name", "Polyglot")
	s.fill("#signup-password", "many tongues spoken")
	s.click("#signup-btn")
	s.waitShown("the account page", "#acct-me")
	for _, l := range i18n.Languages {
		if l.Tag == "en" {
			continue
		}
		english := englishLeft(t, l.Tag)
		s.eval(`localStorage.setItem('pitch.lang', '`+l.Tag+`'), 'true'`, new(bool))
		for _, page := range []string{"me", "guest"} {
			if page == "guest" {
				s.evalAsync(`fetch('/api/account/signout', {method: 'POST'}).then(() => 'true')`, new(bool))
			}
			s.do("reload in "+l.Name, chromedp.Navigate(s.url+"/account"))
			s.waitShown("the "+page+" page", map[string]string{"me": "#acct-me", "guest": "#acct-guest"}[page])
			for _, sz := range accountSizes {
				s.do("resize", chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(sz.scale)), settled())
				var text string
				s.eval(`JSON.stringify(document.body.innerText + '\n' + Array.from(document.querySelectorAll('[aria-label]')).map((e) => e.getAttribute('aria-label')).join('\n'))`, &text)
				for _, frag := range english {
					if strings.Contains(text, frag) {
						t.Errorf("%s, account %s page at %s: English left: %q", l.Tag, page, sz.name, frag)
					}
				}
				s.noOverflow(fmt.Sprintf("%s, account %s page at %s", l.Tag, page, sz.name))
			}
			s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
			if page == "guest" { // sign in again for the next language
				s.evalAsync(`fetch('/api/account/signin', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Polyglot', password: 'many tongues spoken'})}).then((r) => JSON.stringify(r.ok))`, new(bool))
			}
		}
	}
}
