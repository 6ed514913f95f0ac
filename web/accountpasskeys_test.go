package web_test

import (
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"pitch/server/httpx"
	"pitch/store"
)

// passkeyLayout checks, at each size, that the page does not overflow
// and that every element sel names (after scrolling the first into view)
// lies wholly in the viewport.
func (s *site) passkeyLayout(t *testing.T, where, sel string) {
	t.Helper()
	for _, sz := range []struct {
		name  string
		w, h  int64
		scale float64
	}{{"1280×720", 1280, 720, 1}, {"390×844", 390, 844, 2}} {
		s.do("resize", chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(sz.scale)), settled())
		s.noOverflow(where + " at " + sz.name)
		var out []string
		s.eval(`(() => { const es = [...document.querySelectorAll(`+"`"+sel+"`"+`)], out = [];
			if (!es.length) return JSON.stringify(['nothing matches']);
			es[0].scrollIntoView({block: 'start'});
			for (const e of es) { const r = e.getBoundingClientRect();
				if (r.width === 0 || r.top < -1 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1)
					out.push((e.id || e.className || e.tagName) + ' at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ' of ' + innerWidth + '×' + innerHeight); }
			return JSON.stringify(out); })()`, &out)
		for _, p := range out {
			t.Errorf("%s at %s: %s is not wholly in view", where, sz.name, p)
		}
	}
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
}

// TestBrowserAccountPasskeys: the account page lists the passkeys (name,
// when added, when last used), adds a named one, and removes one after
// the person confirms it is them with a passkey; the last way to sign in
// is not removed, and the page says why. At 1280×720 and 390×844: in
// view, no overflow; the console stays clean but for the refusals asked
// for.
func TestBrowserAccountPasskeys(t *testing.T) {
	s := newSite(t)
	s.url = strings.Replace(s.url, "127.0.0.1", "localhost", 1) // WebAuthn needs a domain
	s.do("open the account page", chromedp.Navigate(s.url+"/account"))
	s.waitShown("the sign-up form", "#signup-form")
	if _, err := chromedp.Call(s.ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		t.Fatalf("WebAuthn.enable: %v", err)
	}
	device := func() webauthn.AuthenticatorID {
		auth, err := chromedp.Call(s.ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}})
		if err != nil {
			t.Fatalf("WebAuthn.addVirtualAuthenticator: %v", err)
		}
		return auth.AuthenticatorID
	}
	laptop := device()
	s.fill("#signup-name", "Lin")
	s.click("#signup-passkey")
	s.waitShown("the account page", "#acct-me")
	waitFor(t, "the passkey listed", func() bool { return s.count("#pk-list li") == 1 }, 10*time.Second)
	if got := s.text("#pk-list li"); !strings.Contains(got, "Passkey 1") || !strings.Contains(got, "not used yet") || !strings.Contains(got, "added") {
		t.Errorf("the first passkey is listed as %q, want Passkey 1, when added, not used yet", got)
	}

	// A second one, named, on another device (just signed up: no
	// confirmation needed yet). The first device is gone from here on.
	if _, err := chromedp.Call(s.ctx, webauthn.RemoveVirtualAuthenticator, webauthn.RemoveVirtualAuthenticatorParams{AuthenticatorID: laptop}); err != nil {
		t.Fatalf("WebAuthn.removeVirtualAuthenticator: %v", err)
	}
	device()
	s.fill("#pk-name", "Phone")
	s.click("#pk-add")
	waitFor(t, "two passkeys listed", func() bool { return s.count("#pk-list li") == 2 }, 10*time.Second)
	if got := s.text("#pk-list li:nth-child(2)"); !strings.Contains(got, "Phone") {
		t.Errorf("the second passkey is listed as %q, want Phone", got)
	}
	if got := s.text("#pk-count"); got != "This account has 2 passkeys." {
		t.Errorf("the count says %q", got)
	}
	s.passkeyLayout(t, "the passkey list", "#pk-list li, #pk-list .pk-remove, #pk-name, #pk-add")

	// Signed in long ago: removing one asks to confirm first.
	var me struct{ Account struct{ ID string } }
	s.evalAsync(`fetch('/api/account').then((r) => r.text())`, &me)
	token := httpx.RandomString(32)
	h := sha256.Sum256([]byte(token))
	if err := s.st.CreateSession(s.ctx, store.Session{Hash: h[:], Account: me.Account.ID, Created: time.Now().Add(-time.Hour), Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	httpOnly := true
	if _, err := chromedp.Call(s.ctx, network.SetCookie, network.SetCookieParams{Name: "pitch_session", Value: token, URL: s.url + "/", Path: "/", HTTPOnly: &httpOnly}); err != nil {
		t.Fatalf("Network.setCookie: %v", err)
	}
	s.do("the account page, signed in long ago", chromedp.Navigate(s.url+"/account"))
	waitFor(t, "two passkeys listed", func() bool { return s.count("#pk-list li") == 2 }, 10*time.Second)
	s.click("#pk-list li:nth-child(1) .pk-remove") // the lost laptop's
	s.waitShown("the confirmation", "#reauth")
	s.expectRefused("/api/account/passkey/remove", 403)
	if s.count("#reauth-pw-field:not([hidden])") != 0 || s.count("#reauth-passkey:not([hidden])") != 1 {
		t.Errorf("a passkey-only account is asked for a password, or offered no passkey")
	}
	if got := s.count("#pk-list li"); got != 2 {
		t.Errorf("%d passkeys listed before confirming, want 2", got)
	}
	s.passkeyLayout(t, "the confirmation", "#reauth h2, #reauth-passkey, #reauth-cancel")
	s.click("#reauth-passkey")
	waitFor(t, "one passkey left", func() bool { return s.count("#pk-list li") == 1 }, 10*time.Second)
	if s.count("#reauth:not([hidden])") != 0 {
		t.Errorf("the confirmation is still shown")
	}
	if got := s.text("#pk-list li"); !strings.Contains(got, "Phone") || !strings.Contains(got, "last used") {
		t.Errorf("the passkey left is listed as %q, want Phone, just used to confirm", got)
	}

	// The last way to sign in stays, and the page says why.
	s.click("#pk-list .pk-remove")
	waitFor(t, "the last passkey's removal refused", func() bool { return strings.Contains(s.text("#alert-text"), "only way to sign in") }, 10*time.Second)
	s.expectRefused("/api/account/passkey/remove", 409)
	if got := s.count("#pk-list li"); got != 1 {
		t.Errorf("%d passkeys listed after the refusal, want 1", got)
	}
	s.passkeyLayout(t, "the refusal", "#alert, #pk-list .pk-remove")
}
