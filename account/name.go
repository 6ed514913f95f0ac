// Package account holds what an account is made of apart from its
// storage: names (which characters, when two names are the same),
// passwords (argon2id hashes in PHC strings, the length and common-password
// checks). The server (server/accounts.go) and `pitch user` use it; the
// rows live in package store. See docs/accounts.md.
package account

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
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
	if err := checkScripts(name); err != nil {
		return "", "", err
	}
	return name, Key(name), nil
}

// scriptSets are the sets of scripts a name may mix, after Unicode's
// highly restrictive profile (UTS #39, 5.2): Japanese, Chinese and Korean
// writing with Latin. Any one script alone is allowed too.
var scriptSets = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// scriptOf returns the Unicode script of r ("Common" or "Inherited" for
// the characters every script uses, such as digits and combining marks;
// "" for none).
func scriptOf(r rune) string {
	for _, name := range []string{"Common", "Inherited", "Latin", "Greek", "Cyrillic", "Han", "Hiragana", "Katakana"} {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

// checkScripts refuses a name whose characters come from scripts no
// language writes together (a Latin name with a Cyrillic "а" in it, which
// shows as another person's name): apart from Common and Inherited
// characters, one script, or one of scriptSets.
func checkScripts(name string) error {
	var scripts []string
	for _, r := range name {
		sc := scriptOf(r)
		if sc == "Common" || sc == "Inherited" || sc == "" || slices.Contains(scripts, sc) {
			continue
		}
		scripts = append(scripts, sc)
	}
	if len(scripts) <= 1 {
		return nil
	}
	for _, set := range scriptSets {
		if !slices.ContainsFunc(scripts, func(sc string) bool { return !slices.Contains(set, sc) }) {
			return nil
		}
	}
	return fmt.Errorf("a name is written in one script (Japanese, Chinese and Korean may add Latin letters), not %s mixed", strings.Join(scripts, " and "))
}

// Skeleton is what makes two names look the same, by Unicode's
// confusable skeleton (UTS #39, 4): "Ada" in Latin letters, "Αda" with a
// Greek capital alpha and "Аda" with a Cyrillic one share one skeleton,
// and so do "Ian" and "lan". It is the skeleton of the name, folded as
// Key folds, and the skeleton again, so that capitals and small letters
// are compared both ways. The data is Unicode's confusables.txt
// (github.com/mtibben/confusables, Unicode 13.0).
func Skeleton(name string) string {
	return confusables.Skeleton(Key(confusables.Skeleton(name)))
}

// botWords are the words the pages name bots with, in every language
// (the catalogs' seat.bot: "Bot 2", "ボット2"); TestReservedGuestNameLocales
// checks that each catalog's is here.
var botWords = []string{"Bot", "ボット"}

// botName matches a name's key that is a bot word, maybe a separator,
// and a number of any length.
var botName = regexp.MustCompile(`^(?:bot|ボット)[ _.\-]*[0-9]+$`)

// ReservedGuestName reports whether a guest may not sit under name
// because it looks like a bot's ("Bot 2", "B0T 2", "bot2", "ボット2"): a
// table names its bots "Bot 1" to "Bot N" (in Japanese "ボット1" …).
func ReservedGuestName(name string) bool {
	return botSkeletons()[Skeleton(strings.TrimSpace(name))] || botName.MatchString(Key(strings.TrimSpace(name)))
}

// botSkeletons are the skeletons of the bots' names "Bot 0" to "Bot 99"
// (and "Bot0", in every botWords), made once.
var botSkeletons = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, w := range botWords {
		for n := range 100 {
			out[Skeleton(fmt.Sprintf("%s %d", w, n))] = true
			out[Skeleton(fmt.Sprintf("%s%d", w, n))] = true
		}
	}
	return out
})

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
