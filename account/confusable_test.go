package account

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNameScripts: a name's letters come from one script, or from one of
// the sets Japanese, Chinese and Korean write together with Latin
// (Unicode's highly restrictive profile); digits, marks and separators
// (Common, Inherited) go with any.
func TestNameScripts(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
		says string // in the error, when refused
	}{
		{"Ada", true, ""},
		{"Zoë-2", true, ""},
		{"Αλέξης", true, ""},                    // Greek
		{"Дмитрий", true, ""},                   // Cyrillic
		{"さくら", true, ""},                       // Hiragana
		{"山田さくら", true, ""},                     // Han and Hiragana
		{"ヤマダ山田さくら", true, ""},                  // Han, Hiragana and Katakana
		{"山田Taro", true, ""},                    // Japanese with Latin
		{"王小明", true, ""},                       // Han
		{"ㄅㄆ王", true, ""},                       // Bopomofo and Han
		{"김민준", true, ""},                       // Hangul
		{"김민준Kim", true, ""},                    // Hangul with Latin
		{"محمد", true, ""},                      // Arabic
		{"Αda", false, "Greek and Latin"},       // a Greek capital alpha
		{"Adа", false, "Latin and Cyrillic"},    // a Cyrillic small a
		{"Pаypal", false, "Latin and Cyrillic"}, // the classic
		{"Дmitri", false, "Cyrillic and Latin"},
		{"さくらДима", false, "Hiragana and Cyrillic"},
		{"김민준さくら", false, "Hangul and Hiragana"},
		{"ㄅㄆさくら", false, "Bopomofo and Hiragana"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := CheckName(c.name)
			if c.ok && err != nil {
				t.Errorf("CheckName(%q): %v, want it taken", c.name, err)
			}
			if !c.ok && (err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "one script")) {
				t.Errorf("CheckName(%q): %v, want a refusal naming %s", c.name, err, c.says)
			}
		})
	}
}

// TestSkeleton: names that look alike share a skeleton (Unicode's
// confusables, folded for case both ways); names that do not look alike
// do not.
func TestSkeleton(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Ada", "ADA", true},
		{"Ada", "ａｄａ", true},       // full width
		{"Ada", "Αda", true},       // Greek capital alpha
		{"Ada", "Аda", true},       // Cyrillic capital a
		{"Ada", "аda", true},       // Cyrillic small a
		{"Ada", "Adа", true},       // Cyrillic small a, last
		{"Ada", "αda", true},       // Greek small alpha
		{"Ian", "lan", true},       // capital I, small l
		{"Bob0", "BobO", true},     // zero and O
		{"Paypal", "Pаypal", true}, // Cyrillic а
		{"Adam", "Adarn", true},    // m and rn
		{"Ѕеrgеу", "Sergey", true}, // all Cyrillic, looks Latin
		{"Νικος", "Nikoς", false},  // Greek small iota and kappa are not i and k
		{"Ada", "Ida", false},
		{"Zoë", "Zoe", false},
		{"さくら", "サクラ", false}, // Hiragana and Katakana
		{"山田", "田山", false},
	} {
		t.Run(c.a+" "+c.b, func(t *testing.T) {
			if got := Skeleton(c.a) == Skeleton(c.b); got != c.same {
				t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q: same %v, want %v", c.a, Skeleton(c.a), c.b, Skeleton(c.b), got, c.same)
			}
		})
	}
}

// TestReservedGuestName: a guest may not sit as a bot ("Bot 2", or
// anything that looks like it); other names are free.
func TestReservedGuestName(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"Bot 1", true},
		{"Bot 7", true},
		{"bot 12", true},
		{"BOT 3", true},
		{"Bot3", true},
		{"B0t 1", true},
		{"Βot 2", true}, // a Greek capital beta
		{"Bot", false},
		{"Botany", false},
		{"Robot 1", false},
		{"Ada", false},
	} {
		if got := ReservedGuestName(c.name); got != c.want {
			t.Errorf("ReservedGuestName(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReservedGuestNameLocales: the name every catalog gives a bot
// (seat.bot) is reserved, so that a guest cannot pass for one in any
// language.
func TestReservedGuestNameLocales(t *testing.T) {
	files, err := filepath.Glob("../i18n/locales/*.json")
	if err != nil || len(files) < 6 {
		t.Fatalf("the catalogs: %v (%d)", err, len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cat map[string]any
		if err := json.Unmarshal(b, &cat); err != nil {
			t.Fatal(err)
		}
		s, ok := cat["seat.bot"].(string)
		if !ok {
			t.Fatalf("%s: no seat.bot", f)
		}
		for _, n := range []string{"1", "7"} {
			if name := strings.ReplaceAll(s, "{{.N}}", n); !ReservedGuestName(name) {
				t.Errorf("%s: a guest may sit as %q, the name of a bot", filepath.Base(f), name)
			}
		}
	}
}
