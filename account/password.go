package account

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Password limits, in characters. OWASP ASVS asks for at least 12 and room for
// at least 64; the upper bound keeps one hash cheap to refuse.
const (
	MinPassword = 12 // OWASP ASVS 4.0.3 V2.1.1
	MaxPassword = 128
)

// Params are argon2id's settings, kept in each hash (its PHC string) so
// that they can be raised later: a hash made with lower settings still
// verifies, and Verify says it should be made again.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// DefaultParams are OWASP's first argon2id setting (Password Storage Cheat
// Sheet): 19 MiB, 2 passes, 1 thread, a 16-byte salt, a 32-byte hash.
// RFC 9106's second recommendation (64 MiB, 3 passes, 4 lanes) is
// stronger and costs more memory per sign-in; raise these to it on a
// server with the room.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// Hash returns the PHC string of password hashed with DefaultParams and a
// fresh random salt: $argon2id$v=19$m=19456,t=2,p=1$SALT$HASH.
func Hash(password string) string {
	return hashWith(password, DefaultParams)
}

func hashWith(password string, p Params) string {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// ErrBadHash is returned by Verify for a stored string that is not an
// argon2id PHC string it can read.
var ErrBadHash = errors.New("not an argon2id PHC string")

// Verify reports whether password matches the PHC string phc, in time
// that does not depend on where they differ, and whether phc was made
// with settings below DefaultParams (rehash: store Hash(password) anew).
func Verify(password, phc string) (ok, rehash bool, err error) {
	p, salt, key, err := parsePHC(phc)
	if err != nil {
		return false, false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	ok = subtle.ConstantTimeCompare(got, key) == 1
	d := DefaultParams
	rehash = p.Memory < d.Memory || p.Time < d.Time || p.Threads < d.Threads || len(salt) < int(d.SaltLen) || len(key) < int(d.KeyLen)
	return ok, rehash, nil
}

func parsePHC(phc string) (p Params, salt, key []byte, err error) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, ErrBadHash
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return p, nil, nil, fmt.Errorf("%w: version %q", ErrBadHash, parts[2])
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil ||
		p.Memory < 8 || p.Memory > 4<<20 || p.Time < 1 || p.Time > 64 || p.Threads < 1 {
		return p, nil, nil, fmt.Errorf("%w: parameters %q", ErrBadHash, parts[3])
	}
	if salt, err = base64.RawStdEncoding.DecodeString(parts[4]); err != nil || len(salt) < 8 {
		return p, nil, nil, fmt.Errorf("%w: salt", ErrBadHash)
	}
	if key, err = base64.RawStdEncoding.DecodeString(parts[5]); err != nil || len(key) < 16 || len(key) > 64 {
		return p, nil, nil, fmt.Errorf("%w: hash", ErrBadHash)
	}
	return p, salt, key, nil
}

var (
	dummyOnce sync.Once
	dummyPHC  string
)

// VerifyDummy spends the time of one Verify against a hash made with
// DefaultParams, and fails: a sign-in for a name that has no account (or
// no password) answers in the same time as a wrong password.
func VerifyDummy(password string) {
	dummyOnce.Do(func() { dummyPHC = Hash("not the password of anyone") })
	_, _, _ = Verify(password, dummyPHC)
}

//go:embed common-passwords.txt
var commonList []byte

var (
	commonOnce sync.Once
	common     map[string]struct{}
)

// isCommon reports whether password, in lower case, is one of the 10,000
// most common passwords of at least MinPassword characters
// (common-passwords.txt: from the ranked list of @zxcvbn-ts/language-common
// 4.1.3, MIT, see common-passwords.LICENSE).
func isCommon(password string) bool {
	commonOnce.Do(func() {
		common = make(map[string]struct{}, 10000)
		sc := bufio.NewScanner(bytes.NewReader(commonList))
		for sc.Scan() {
			if w := sc.Text(); w != "" {
				common[w] = struct{}{}
			}
		}
	})
	_, ok := common[strings.ToLower(password)]
	return ok
}

// CheckPassword says what is wrong with a new password for the account
// named name, or nil: MinPassword to MaxPassword characters, not only
// white space nor one character repeated, not one of the most common
// passwords, not the name itself.
func CheckPassword(password, name string) error {
	if !utf8.ValidString(password) {
		return &PasswordError{Code: "password_utf8", Msg: "a password must be valid UTF-8 text"}
	}
	n := utf8.RuneCountInString(password)
	if n < MinPassword {
		return &PasswordError{Code: "password_short", Msg: fmt.Sprintf("a password must be at least %d characters, not %d", MinPassword, n)}
	}
	if n > MaxPassword {
		return &PasswordError{Code: "password_long", Msg: fmt.Sprintf("a password may be at most %d characters, not %d", MaxPassword, n)}
	}
	if weak(password) {
		return &PasswordError{Code: "password_weak", Msg: "a password may not be only spaces, nor one character repeated: choose another"}
	}
	if isCommon(password) {
		return &PasswordError{Code: "password_common", Msg: "this password is one of the most common ones, which are tried first: choose another"}
	}
	if name != "" && Key(password) == Key(name) {
		return &PasswordError{Code: "password_name", Msg: "the password may not be the name: choose another"}
	}
	return nil
}

// weak reports whether password is only white space, or one character
// (in any case) repeated: long enough, and guessed at once.
func weak(password string) bool {
	first, _ := utf8.DecodeRuneInString(password)
	same, blank := true, true
	for _, r := range password {
		if !unicode.IsSpace(r) {
			blank = false
		}
		if unicode.ToLower(r) != unicode.ToLower(first) {
			same = false
		}
	}
	return blank || same
}

// PasswordError is a password CheckPassword refuses: Code names the
// reason for a program (password_short, password_long, password_weak, password_common,
// password_name), Msg says it in English.
type PasswordError struct{ Code, Msg string }

func (e *PasswordError) Error() string { return e.Msg }
