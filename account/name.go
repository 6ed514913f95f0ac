// Package account holds what an account is made of apart from its
// storage: names (which characters, when two names are the same),
// passwords (argon2id hashes in PHC strings, the length and common-password
// checks). The server (server/accounts.go) and `pitch user` use it; the
// rows live in package store. See docs/accounts.md.
package account

import (
	"crypto/rand"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Name limits, in characters (code points of the NFC form).
const (
	MinName = 2
	MaxName = 24
)

// nameSeparators are the characters besides letters, marks and digits a
// name may hold, never first, last or two together.
const nameSeparators = "-_."

// CheckName checks a name someone chose and returns it as it is kept (NFC,
// spaces around it trimmed) and its key (see Key). A name is 2 to 24
// Unicode letters, digits and the separators - _ . (not at either end,
// not two together); combining marks may follow a letter or a digit.
func CheckName(name string) (display, key string, err error) {
	if !utf8.ValidString(name) {
		return "", "", fmt.Errorf("a name must be valid UTF-8 text")
	}
	name = norm.NFC.String(strings.TrimSpace(name))
	n := utf8.RuneCountInString(name)
	if n < MinName || n > MaxName {
		return "", "", fmt.Errorf("a name must be %d to %d characters, not %d", MinName, MaxName, n)
	}
	var prev rune
	for i, r := range name {
		sep := strings.ContainsRune(nameSeparators, r)
		switch {
		case unicode.IsLetter(r) || unicode.Is(unicode.Nd, r):
		case unicode.Is(unicode.M, r):
			if i == 0 || strings.ContainsRune(nameSeparators, prev) {
				return "", "", fmt.Errorf("a name may not start with a combining mark (%U) nor put one after a separator", r)
			}
		case sep:
			if i == 0 || i+utf8.RuneLen(r) == len(name) {
				return "", "", fmt.Errorf("a name may not start or end with %q: it must start and end with a letter or a digit", r)
			}
			if strings.ContainsRune(nameSeparators, prev) {
				return "", "", fmt.Errorf("a name may not hold two separators together (%q%q)", prev, r)
			}
		case r == ' ':
			return "", "", fmt.Errorf("a name may not hold spaces: use - _ or . between words")
		default:
			return "", "", fmt.Errorf("a name may hold only letters, digits and - _ . (not %q, %U)", r, r)
		}
		prev = r
	}
	return name, Key(name), nil
}

// Key is what makes two names the same: compatibility-normalised (NFKC),
// case-folded and normalised again, so "Ada", "ADA" and "ＡＤＡ" (full
// width) share one key and cannot belong to two accounts.
func Key(name string) string {
	return norm.NFKC.String(cases.Fold().String(norm.NFKC.String(name)))
}

// AnonName is the name a deleted account's seats are given: "anon-" and
// four random characters, unrelated to the account, the same for every seat
// of one account (so its hands still tell its seat apart) and not a valid
// account name's key of anyone in particular.
func AnonName() string { return "anon-" + rand.Text()[:4] }
