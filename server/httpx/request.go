package httpx

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// MaxBody is the largest request body Decode reads.
const MaxBody = 16 << 10

// Decode reads a request body of one JSON value into v. The body must be
// UTF-8 (RFC 8259): encoding/json would silently turn bad bytes into
// U+FFFD, so they are refused first, with where they are.
func Decode(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return Errorf(Invalid, "decode", "the request body is over %d bytes", MaxBody)
		}
		return Errorf(Invalid, "decode", "the request body could not be read: %v", err)
	}
	if i := InvalidUTF8(body); i >= 0 {
		return Errorf(Invalid, "decode", "the request body is not valid UTF-8 (byte %d); JSON must be UTF-8 text", i)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Errorf(Invalid, "decode", "the request body is not the JSON expected: %v", err)
	}
	if dec.More() {
		return Errorf(Invalid, "decode", "the request body holds more than one JSON value")
	}
	return nil
}

// RandomString is n random bytes, base64url: tokens and IDs.
func RandomString(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// InvalidUTF8 returns the offset of the first byte of b that is not
// valid UTF-8, or -1.
func InvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// MaxName is the most characters a display name may hold: characters
// as people see them (grapheme clusters: 👩‍💻 is one, though it is three
// code points joined).
const MaxName = 24

// maxCharBytes bounds one character of a name (a grapheme cluster) in
// UTF-8: room for the longest emoji sequences (a family of four, a
// region's flag), not a character of hundreds of stacked marks.
const maxCharBytes = 32

// CleanName checks a display name: 1 to 24 printable characters of valid
// UTF-8, counted as people see them. U+FFFD is refused too: it is what a
// JSON escape of half a surrogate pair ("\ud800") decodes to, and never a
// name someone typed. The joiners of emoji sequences (U+200D and the tag
// characters of flags) are the only invisible characters allowed.
func CleanName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", fmt.Errorf("a name must be valid UTF-8 text")
	}
	name = strings.TrimSpace(name)
	if n := uniseg.GraphemeClusterCount(name); n < 1 || n > MaxName {
		return "", fmt.Errorf("a name must be 1 to %d characters, not %d", MaxName, n)
	}
	for g := uniseg.NewGraphemes(name); g.Next(); {
		if c := g.Str(); len(c) > maxCharBytes {
			return "", fmt.Errorf("a name's character may be at most %d bytes of UTF-8, not %d (%.12q…): fewer marks on one letter", maxCharBytes, len(c), c)
		}
	}
	for _, r := range name {
		if r == utf8.RuneError {
			return "", fmt.Errorf("a name may not hold U+FFFD (the replacement character, left by invalid UTF-8 or a lone surrogate such as \\ud800)")
		}
		if !unicode.IsPrint(r) && r != '\u200d' && (r < 0xE0020 || r > 0xE007F) {
			return "", fmt.Errorf("a name may hold only printable characters (letters, marks, digits, punctuation, symbols and spaces), not %U", r)
		}
	}
	return name, nil
}

// ValidGuest reports whether g may be a guest browser's identity (the
// random value a browser keeps to be known again without an account):
// 16 to 64 letters, digits, - or _.
func ValidGuest(g string) bool { return len(g) >= 16 && len(g) <= 64 && ValidID(g) }

// ValidID reports whether id may be a table's or event's ID: 1 to 64
// letters, digits, - and _.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// SecurityHeaders adds the headers every response carries.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// Clip shortens s to at most n bytes, for quoting a client's input back
// in an error.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// SameOrigin refuses cross-origin requests that change state: every
// method but GET, HEAD and OPTIONS, from a browser whose Sec-Fetch-Site or
// Origin says another site sent it (http.CrossOriginProtection), with 403
// cross_origin, logged to log. WebSocket upgrades are GETs:
// websocket.Accept checks their Origin against the Host instead.
func SameOrigin(log *slog.Logger, next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteError(log, w, r, Errorf(Forbidden, "cross-origin", "a request from another site may not change anything here").With("cross_origin", nil))
	}))
	return p.Handler(next)
}
