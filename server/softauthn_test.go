package server_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
)

// softKey is a passkey of a software authenticator: its credential ID,
// private key and user handle.
type softKey struct {
	id   []byte
	key  *ecdsa.PrivateKey
	user []byte
}

// softAuthenticator makes and uses passkeys as a browser's authenticator
// does, for the origin it is given (the test server's): attestation
// "none", ES256, user present and verified.
type softAuthenticator struct {
	t      *testing.T
	origin string
	made   []*softKey // every key it made
}

var b64u = base64.RawURLEncoding

// options is what a begin answers: {ceremony, options}.
type begun struct {
	Ceremony string
	Options  struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
			RP        struct {
				ID string `json:"id"`
			} `json:"rp"`
			RPID string `json:"rpId"`
			User struct {
				ID string `json:"id"`
			} `json:"user"`
			AllowCredentials []struct {
				ID string `json:"id"`
			} `json:"allowCredentials"`
		} `json:"publicKey"`
	}
}

func (a *softAuthenticator) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": a.origin, "crossOrigin": false})
	return b
}

func authData(rpID string, flags byte, count uint32, attested []byte) []byte {
	h := sha256.Sum256([]byte(rpID))
	var buf bytes.Buffer
	buf.Write(h[:])
	buf.WriteByte(flags)
	_ = binary.Write(&buf, binary.BigEndian, count)
	buf.Write(attested)
	return buf.Bytes()
}

// create makes a new passkey for the options of a registration's begin
// (JSON), and returns the finish request's body and the key.
func (a *softAuthenticator) create(body []byte) (string, *softKey) {
	a.t.Helper()
	var b begun
	if err := json.Unmarshal(body, &b); err != nil {
		a.t.Fatalf("begin: %v: %s", err, body)
	}
	pk := b.Options.PublicKey
	user, err := b64u.DecodeString(pk.User.ID)
	if err != nil {
		a.t.Fatalf("user ID %q: %v", pk.User.ID, err)
	}
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	k := &softKey{id: make([]byte, 16), key: priv, user: user}
	_, _ = rand.Read(k.id)
	raw, err := priv.PublicKey.Bytes() // 0x04, then X and Y, 32 bytes each
	if err != nil {
		a.t.Fatal(err)
	}
	x, y := raw[1:33], raw[33:65]
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{
		PublicKeyData: webauthncose.PublicKeyData{KeyType: int64(webauthncose.EllipticKey), Algorithm: int64(webauthncose.AlgES256)},
		Curve:         int64(webauthncose.P256), XCoord: x, YCoord: y})
	if err != nil {
		a.t.Fatal(err)
	}
	var att bytes.Buffer
	att.Write(make([]byte, 16)) // AAGUID
	_ = binary.Write(&att, binary.BigEndian, uint16(len(k.id)))
	att.Write(k.id)
	att.Write(cose)
	ad := authData(pk.RP.ID, 0x45, 0, att.Bytes()) // UP, UV, AT
	a.made = append(a.made, k)
	obj, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": ad})
	if err != nil {
		a.t.Fatal(err)
	}
	out, _ := json.Marshal(map[string]any{"ceremony": b.Ceremony, "credential": map[string]any{
		"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key", "clientExtensionResults": map[string]any{},
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(a.clientData("webauthn.create", pk.Challenge)),
			"attestationObject": b64u.EncodeToString(obj), "transports": []string{"internal"}}}})
	return string(out), k
}

// get signs the challenge of an assertion's begin (JSON) with k at
// counter count, and returns the finish request's body.
func (a *softAuthenticator) get(body []byte, k *softKey, count uint32) string {
	a.t.Helper()
	var b begun
	if err := json.Unmarshal(body, &b); err != nil {
		a.t.Fatalf("begin: %v: %s", err, body)
	}
	pk := b.Options.PublicKey
	ad := authData(pk.RPID, 0x05, count, nil) // UP, UV
	cd := a.clientData("webauthn.get", pk.Challenge)
	h := sha256.Sum256(cd)
	signed := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, signed[:])
	if err != nil {
		a.t.Fatal(err)
	}
	out, _ := json.Marshal(map[string]any{"ceremony": b.Ceremony, "credential": map[string]any{
		"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key", "clientExtensionResults": map[string]any{},
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(cd), "authenticatorData": b64u.EncodeToString(ad),
			"signature": b64u.EncodeToString(sig), "userHandle": b64u.EncodeToString(k.user)}}})
	return string(out)
}

// authenticator is a software authenticator for the test server's origin.
func (ts *testServer) authenticator() *softAuthenticator {
	u, _ := url.Parse(ts.hs.URL)
	return &softAuthenticator{t: ts.t, origin: u.Scheme + "://" + u.Host}
}

// passkeySignUp signs b up as name with a new passkey of a.
func (b *browser) passkeySignUp(a *softAuthenticator, name string) *softKey {
	b.t.Helper()
	body, k := a.create(b.must(200, "POST", "/api/account/passkey/signup/begin", `{"name":"`+name+`"}`))
	b.must(201, "POST", "/api/account/passkey/signup/finish", body)
	return k
}

// passkeySignIn signs b in with k at counter count, and answers the
// finish's response.
func (b *browser) passkeySignIn(a *softAuthenticator, k *softKey, count uint32) (int, []byte) {
	b.t.Helper()
	begin := b.must(200, "POST", "/api/account/passkey/signin/begin", `{}`)
	resp, body := b.do("POST", "/api/account/passkey/signin/finish", a.get(begin, k, count))
	return resp.StatusCode, body
}
