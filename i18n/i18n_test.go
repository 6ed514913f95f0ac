package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// pluralForms are the CLDR plural forms each language's plural messages
// must have (go-i18n and Intl.PluralRules pick among them).
var pluralForms = map[string][]string{
	"en": {"one", "other"}, "it": {"one", "many", "other"}, "fr": {"one", "many", "other"},
	"el": {"one", "other"}, "ja": {"other"}, "ms": {"other"},
}

var placeholder = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

func load(t *testing.T, tag string) map[string]any {
	t.Helper()
	b, err := fs.ReadFile(Catalogs(), tag+".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s.json: %v", tag, err)
	}
	return m
}

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}

// TestCatalogs: every language has every message English has and no other,
// with the same placeholders and the plural forms its language needs; and
// every catalog loads in go-i18n.
func TestCatalogs(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	en := load(t, "en")
	for _, l := range Languages {
		tr := load(t, l.Tag)
		for id, ev := range en {
			tv, ok := tr[id]
			if !ok {
				t.Errorf("%s lacks %s", l.Tag, id)
				continue
			}
			switch ev := ev.(type) {
			case string:
				ts, ok := tv.(string)
				if !ok {
					t.Errorf("%s %s: a plural message where English has a string", l.Tag, id)
				} else if got, want := placeholders(ts), placeholders(ev); !slices.Equal(got, want) {
					t.Errorf("%s %s: placeholders %v, English has %v", l.Tag, id, got, want)
				}
			case map[string]any:
				tm, ok := tv.(map[string]any)
				if !ok {
					t.Errorf("%s %s: a string where English has plural forms", l.Tag, id)
					continue
				}
				var forms []string
				for f := range tm {
					forms = append(forms, f)
				}
				sort.Strings(forms)
				want := slices.Clone(pluralForms[l.Tag])
				sort.Strings(want)
				if !slices.Equal(forms, want) {
					t.Errorf("%s %s: plural forms %v, want %v", l.Tag, id, forms, want)
				}
				enPh := placeholders(ev["other"].(string))
				for f, s := range tm {
					got := placeholders(s.(string))
					// A "one" form may say the number in words.
					if !slices.Equal(got, enPh) && !(f != "other" && slices.Equal(append(slices.Clone(got), "Count"), enPh)) &&
						!(f != "other" && slices.Equal(got, slices.DeleteFunc(slices.Clone(enPh), func(s string) bool { return s == "Count" }))) {
						t.Errorf("%s %s (%s): placeholders %v, English has %v", l.Tag, id, f, got, enPh)
					}
				}
			}
		}
		for id := range tr {
			if _, ok := en[id]; !ok {
				t.Errorf("%s has %s, which English has not", l.Tag, id)
			}
		}
	}
}

// TestCatalogKeysUsed: every message is used by the code: its ID is
// written somewhere in the browser code or the Go code (an error code's
// message err.CODE, where the server or the engine writes "CODE").
func TestCatalogKeysUsed(t *testing.T) {
	var src strings.Builder
	for _, root := range []string{"../web/static", "../cmd/pitch", "../tui", "../server", "../account", ".."} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != root && (root == ".." || strings.HasSuffix(path, "testdata")) {
				return filepath.SkipDir // the root package is one directory; testdata is data
			}
			if d.IsDir() || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			if ext := filepath.Ext(path); ext == ".go" || ext == ".js" || ext == ".html" {
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				src.Write(b)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	code := src.String()
	written := func(s string) bool {
		// "id" or 'id' in code; :id" or :id; in an HTML data-i18n-attr.
		return strings.Contains(code, `"`+s+`"`) || strings.Contains(code, `'`+s+`'`) ||
			strings.Contains(code, `:`+s+`"`) || strings.Contains(code, `:`+s+`;`)
	}
	for id := range load(t, "en") {
		if c, ok := strings.CutPrefix(id, "err."); ok && !written(id) {
			if !written(c) {
				t.Errorf("%s: no code writes the error code %q", id, c)
			}
			continue
		}
		if !written(id) {
			t.Errorf("%s is in the catalog, but no code uses it", id)
		}
	}
}

// TestMatch: Accept-Language values, POSIX locales and tags pick the
// offered language, English when nothing fits.
func TestMatch(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"it-IT,it;q=0.9,en;q=0.5", "it"}, {"ja_JP.UTF-8", "ja"}, {"fr-CA", "fr"}, {"el", "el"}, {"ms-MY", "ms"},
		{"de-DE,de;q=0.9", "en"}, {"C", "en"}, {"", "en"}, {"en-GB", "en"}, {"zz", "en"},
	} {
		if got := Match(c.in); got != c.want {
			t.Errorf("Match(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPrinter: a message in each language, with a plural form picked by
// Count, and an unknown ID said as itself.
func TestPrinter(t *testing.T) {
	en, ja := New("en"), New("ja")
	if got := en.T("count.cards", map[string]any{"Count": 1}); got != "1 card" {
		t.Errorf("en one: %q", got)
	}
	if got := en.T("count.cards", map[string]any{"Count": 3}); got != "3 cards" {
		t.Errorf("en other: %q", got)
	}
	if got := ja.T("count.cards", map[string]any{"Count": 3}); !strings.Contains(got, "3") || strings.Contains(got, "cards") {
		t.Errorf("ja: %q", got)
	}
	if got := en.T("no.such.message", nil); got != "no.such.message" {
		t.Errorf("unknown id: %q", got)
	}
}

// texts is every text of a message: the string, or each plural form.
func texts(v any) []string {
	if s, ok := v.(string); ok {
		return []string{s}
	}
	var out []string
	for _, f := range slices.Sorted(maps.Keys(v.(map[string]any))) {
		out = append(out, v.(map[string]any)[f].(string))
	}
	return out
}

// isJapanese reports whether r is written in a Japanese script.
func isJapanese(r rune) bool {
	return unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) || r == 'ー' || r == '、' || r == '。'
}

// styleProblems lists what breaks lang's punctuation style in s (a
// message with its placeholders removed): French sets a no-break space
// before : ; ! ? (never a plain space, never none), Japanese writes
// full-width punctuation next to Japanese text, Italian the typographic
// apostrophe.
func styleProblems(lang, s string) []string {
	var out []string
	rs := []rune(s)
	for i, r := range rs {
		switch lang {
		case "fr":
			if strings.ContainsRune(":;!?", r) && i > 0 {
				next := rune(' ')
				if i+1 < len(rs) {
					next = rs[i+1]
				}
				if rs[i-1] == ' ' {
					out = append(out, fmt.Sprintf("a plain space before %q (French takes a no-break space, U+00A0)", r))
				} else if unicode.IsLetter(rs[i-1]) && (unicode.IsSpace(next) || next == '\n') {
					out = append(out, fmt.Sprintf("no space before %q (French takes a no-break space, U+00A0)", r))
				}
			}
		case "ja":
			if strings.ContainsRune(",:;!?()", r) {
				near := func(j int) bool {
					for ; j >= 0 && j < len(rs) && rs[j] == ' '; j += map[bool]int{true: -1, false: 1}[j < i] {
					}
					return j >= 0 && j < len(rs) && isJapanese(rs[j])
				}
				if near(i-1) || near(i+1) {
					out = append(out, fmt.Sprintf("half-width %q next to Japanese text (write %q)", r, map[rune]rune{',': '、', ':': '：', ';': '；', '!': '！', '?': '？', '(': '（', ')': '）'}[r]))
				}
			}
		case "it":
			if r == '\'' {
				out = append(out, "a plain apostrophe (write ’)")
			}
		}
	}
	return out
}

// properNames are written as they are in every language: the games'
// names, the keys of a keyboard, the names of file formats and programs.
var properNames = regexp.MustCompile(`Pawnee Ten Point Call Your Partner Pitch|10 Point Pitch|Auction Pitch|Setback|Pitch|Pawnee|` +
	`\b(Enter|enter|Home|End|Ctrl|Space|space|JSON|CSV|QR|JavaScript|SHA-256|WebSocket|Bot|bot|pitch (score|verify|rules|play))\b|` +
	`\bpitch\b|\b[A-Z]{2}-[A-Z]+-\d+\b|\b\w+_\w+\b|` + // the program and its bid, rule IDs, a hand record's fields
	`\b(fairness|algorithm|version|commitment|secret|contributions|dealer|abandoned)\b`) // the fields of its fairness object

// sharedWords are words of English that are also words of the language
// (or loanwords it uses as they are): they are no sign of English left.
var sharedWords = map[string][]string{
	"fr": {"plus", "pause", "table", "tables", "points", "point", "score", "scores", "joker", "jokers", "non", "message", "messages", "minute", "minutes",
		"contribution", "contributions", "options", "place", "code", "match", "total", "duplicate", "club", "face", "page", "pages", "version", "six", "expert", "action", "moment", "date", "menu", "continue", "secret", "pts", "site", "chose"},
	"it": {"non", "match", "decide", "server", "link", "file", "replay", "offline", "timer", "database", "default", "menu", "score", "account", "password", "passkey", "browser"},
	"ms": {"joker", "log", "menu"},
}

// TestCatalogStyle is the catalogs' lint: each language's punctuation
// style (styleProblems), and no English word left in a language other
// than English, names and shared words aside.
func TestCatalogStyle(t *testing.T) {
	en := load(t, "en")
	english := map[string]bool{}
	word := regexp.MustCompile(`\p{L}+(’\p{L}+)?`) // "all’inizio" is one Italian word
	clean := func(s string) string { return properNames.ReplaceAllString(placeholder.ReplaceAllString(s, ""), "") }
	for _, v := range en {
		for _, s := range texts(v) {
			for _, w := range word.FindAllString(clean(s), -1) {
				if len(w) >= 3 {
					english[strings.ToLower(w)] = true
				}
			}
		}
	}
	for _, l := range Languages {
		if l.Tag == "en" {
			continue
		}
		shared := map[string]bool{}
		for _, w := range sharedWords[l.Tag] {
			shared[w] = true
		}
		cat := load(t, l.Tag)
		for _, id := range slices.Sorted(maps.Keys(cat)) {
			for _, s := range texts(cat[id]) {
				for _, p := range styleProblems(l.Tag, placeholder.ReplaceAllString(s, "")) {
					t.Errorf("%s %s: %s: %q", l.Tag, id, p, s)
				}
				for _, w := range word.FindAllString(clean(s), -1) {
					if lw := strings.ToLower(w); english[lw] && !shared[lw] {
						t.Errorf("%s %s: the English word %q: %q", l.Tag, id, w, s)
					}
				}
			}
		}
	}
}

// TestCountsArePlural: an English message that says a count of things
// ("{{.Count}} cards") is a plural message, so that no language says "1
// cards"; the other languages follow English (TestCatalogs).
func TestCountsArePlural(t *testing.T) {
	counted := regexp.MustCompile(`\{\{\.(Count|N|Total)\}\}((\s+\p{L}+){1,3})`)
	nouns := []string{"cards", "trumps", "hands", "deals", "choices", "points", "tricks", "moves", "bids", "players", "seats", "tables", "minutes", "seconds"}
	for id, v := range load(t, "en") {
		s, ok := v.(string)
		if !ok {
			continue
		}
		for _, m := range counted.FindAllStringSubmatch(s, -1) {
			for _, w := range strings.Fields(m[2]) {
				if slices.Contains(nouns, w) {
					t.Errorf("%s says %q with a count, but it is not a plural message: %q", id, w, s)
				}
			}
		}
	}
}

// glossary holds each language's settled words, from a native reader's
// review: where the English message matches when (any message if nil)
// and does not match unless, the translation must not match avoid.
var glossary = map[string][]struct {
	when, unless, avoid *regexp.Regexp
	why                 string
}{
	"el": {
		{regexp.MustCompile(`(?i)\bhands?\b`), regexp.MustCompile(`(?i)\bmatch|\bwins?\b`), regexp.MustCompile(`παρτίδ`), "a hand is μοιρασιά (παρτίδα is the match)"},
		{nil, nil, regexp.MustCompile(`αγών`), "a match is παρτίδα, not αγώνας"},
		{nil, nil, regexp.MustCompile(`ειδικ`), "the expert level is έμπειρο"},
	},
	"ms": {
		{nil, nil, regexp.MustCompile(`(?i)tempat duduk`), "a seat is kerusi"},
		{nil, nil, regexp.MustCompile(`(?i)pembahagi`), "the dealer is pengagih"},
		{regexp.MustCompile(`^Away$`), nil, regexp.MustCompile(`(?i)^tiada$`), "tiada means none; away is tidak hadir"},
	},
	"ja": {
		{nil, nil, regexp.MustCompile(`(^|[\p{Han}\p{Katakana}\p{Hiragana}：、。])Pitch`), "the game is ピッチ (the official English name aside)"},
		{regexp.MustCompile(`NOT VERIFIED`), nil, regexp.MustCompile(`できません`), "the check failed, it is not that it could not be made"},
		{regexp.MustCompile(`(?i)luck`), nil, regexp.MustCompile(`よろしく`), "よろしく is not good luck"},
	},
	"it": {
		{regexp.MustCompile(`made the bid`), nil, regexp.MustCompile(`fatto`), "made the bid is mantenere la dichiarazione (fare la dichiarazione is to bid)"},
	},
}

// TestCatalogGlossary: each language keeps to its settled words.
func TestCatalogGlossary(t *testing.T) {
	en := load(t, "en")
	for lang, rules := range glossary {
		cat := load(t, lang)
		for _, id := range slices.Sorted(maps.Keys(cat)) {
			ev, ts := texts(en[id]), texts(cat[id])
			for _, r := range rules {
				if r.when != nil && !slices.ContainsFunc(ev, r.when.MatchString) || r.unless != nil && slices.ContainsFunc(ev, r.unless.MatchString) {
					continue
				}
				for _, s := range ts {
					if r.avoid.MatchString(s) {
						t.Errorf("%s %s: %s: %q", lang, id, r.why, s)
					}
				}
			}
		}
	}
}

// TestRulesRanks: the rules (pitch rules --lang and the /?rules= page say
// the rules.* messages) write ranks as the language's players read them:
// no "T" for the ten nor "BJ"/"LJ" for the jokers in any language, and
// in Greek and Japanese no Latin letters A K Q J for the ranks.
func TestRulesRanks(t *testing.T) {
	opaque := regexp.MustCompile(`(^|[^\p{L}-])(T|BJ|LJ)([^\p{L}]|$)`)
	latin := regexp.MustCompile(`(^|[^\p{L}-])(A|K|Q|J)([^\p{L}]|$)`)
	for _, l := range Languages {
		cat := load(t, l.Tag)
		for _, id := range slices.Sorted(maps.Keys(cat)) {
			if !strings.HasPrefix(id, "rules.") {
				continue
			}
			for _, s := range texts(cat[id]) {
				if m := opaque.FindStringSubmatch(s); m != nil {
					t.Errorf("%s %s writes the rank %q", l.Tag, id, m[2])
				}
				if m := latin.FindStringSubmatch(s); m != nil && (l.Tag == "el" || l.Tag == "ja") {
					t.Errorf("%s %s writes the rank %q in Latin letters", l.Tag, id, m[2])
				}
			}
		}
	}
}

// render says message id of p with every placeholder filled: cards with a
// real card's name as the page and the terminal compose it, the players
// with who, numbers with 2, anything else with "X".
func render(p *Printer, id string, en any, card, who string) string {
	data := map[string]any{}
	for _, s := range texts(en) {
		for _, ph := range placeholders(s) {
			switch ph {
			case "Card", "Cards", "Legal":
				data[ph] = card
			case "Who", "Players":
				data[ph] = who
			case "Count", "N", "Total", "Bid", "Seat", "Max", "Done":
				data[ph] = 2
			default:
				data[ph] = "X"
			}
		}
	}
	return p.T(id, data)
}

// articles are each language's definite articles (elided ones end in ’).
var articles = map[string]string{
	"el": `ο|η|το|τον|την|του|της|τα|οι|των`,
	"fr": `le|la|les|l’|du|des|au|aux`,
	"it": `il|lo|la|i|gli|le|l’|del|della|dello|al|alla`,
}

// TestCardMessages renders every message that takes a card with real
// cards named as the page names them (card.name of rank.X and suit.X, and
// the jokers), and checks the grammar holds where it can be checked: no
// article doubled ("το φύλλο ο άσος"), no preposition left uncontracted
// ("de le", "di il").
func TestCardMessages(t *testing.T) {
	en := load(t, "en")
	bad := map[string]*regexp.Regexp{
		"fr": regexp.MustCompile(`(?i)\b(de|à) (le|les)\b`),
		"it": regexp.MustCompile(`(?i)\b(di|a|da|in|su) (il|lo|la|i|gli|le|l’)`),
	}
	for _, l := range Languages {
		p := New(l.Tag)
		var doubled *regexp.Regexp
		if a := articles[l.Tag]; a != "" {
			doubled = regexp.MustCompile(`(?i)(^|[^\p{L}’])(` + a + `)\s+(\p{L}+\s+)?(` + a + `)(\s|$)`)
		}
		for _, c := range [][2]string{{"A", "S"}, {"Q", "H"}, {"T", "D"}, {"J", "C"}} {
			card := p.T("card.name", map[string]any{"Rank": p.T("rank."+c[0], nil), "Suit": p.T("suit."+c[1], nil)})
			for _, name := range []string{card, p.T("card.bigJoker", nil)} {
				for _, id := range slices.Sorted(maps.Keys(en)) {
					ph := strings.Join(placeholders(strings.Join(texts(en[id]), " ")), " ")
					if !strings.Contains(" "+ph+" ", " Card ") || id == "card.name" {
						continue
					}
					s := render(p, id, en[id], name, "Ada")
					if doubled != nil && doubled.MatchString(s) {
						t.Errorf("%s %s with %q: an article doubled: %q", l.Tag, id, name, s)
					}
					if b := bad[l.Tag]; b != nil && b.MatchString(s) {
						t.Errorf("%s %s with %q: %q is not contracted: %q", l.Tag, id, name, b.FindString(s), s)
					}
				}
			}
		}
	}
}

// TestNoNestedBrackets: a player's name may carry brackets ("Ada (you)",
// seat.you), so no message puts a player in brackets: "(Ada (εσείς))".
// (The terminal says "you" without brackets: its tui.* messages may.)
func TestNoNestedBrackets(t *testing.T) {
	en := load(t, "en")
	for _, l := range Languages {
		p := New(l.Tag)
		for _, id := range slices.Sorted(maps.Keys(en)) {
			who := p.T("seat.you", map[string]any{"Name": "Ada"})
			if strings.HasPrefix(id, "tui.") {
				who = p.T("tui.you", nil)
			}
			s := render(p, id, en[id], p.T("card.bigJoker", nil), who)
			depth := 0
			for _, r := range s {
				switch r {
				case '(', '（':
					depth++
					if depth > 1 {
						t.Errorf("%s %s: brackets in brackets: %q", l.Tag, id, s)
					}
				case ')', '）':
					depth--
				}
			}
		}
	}
}

// TestCatalogErrorCodes: every error code the server gives a client
// (.With("CODE", …) and errorCode("CODE", …) in ../server and its
// parts) has its message err.CODE, so that a page says every refusal in
// its language.
func TestCatalogErrorCodes(t *testing.T) {
	en := load(t, "en")
	var files []string
	err := filepath.WalkDir("../server", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("the server's files: %v", err)
	}
	code := regexp.MustCompile(`(?:\)\.\s*With|errorCode)\("([a-z0-9_]+)"`)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range code.FindAllStringSubmatch(string(b), -1) {
			n++
			if _, ok := en["err."+m[1]]; !ok {
				t.Errorf("%s gives the error code %q, but the catalog has no err.%s", filepath.Base(f), m[1], m[1])
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d error codes found in the server: the pattern no longer matches how it writes them", n)
	}
}
