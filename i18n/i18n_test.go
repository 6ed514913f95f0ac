package i18n

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
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
	for _, root := range []string{"../web/static", "../cmd/pitch", "../tui", "../server", ".."} {
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
