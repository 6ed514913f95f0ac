// Package i18n holds the message catalogs of every language the project
// speaks, one JSON file per language in locales/, read both by the Go side
// (pitch rules, pitch play, through go-i18n) and by the browser (served at
// /i18n/LANG.json). A message is a string, or for a number an object of
// CLDR plural forms ("one", "other", …) picked by the parameter Count;
// placeholders are {{.Name}}. docs/translating.md says how to add a
// language.
package i18n

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed locales/*.json
var locales embed.FS

// Lang is a language offered: its tag and its name in itself.
type Lang struct {
	Tag  string
	Name string
}

// Languages are the languages offered, English first (the fallback).
var Languages = []Lang{
	{"en", "English"}, {"it", "Italiano"}, {"ms", "Bahasa Melayu"}, {"ja", "日本語"}, {"el", "Ελληνικά"}, {"fr", "Français"},
}

// Catalogs returns the catalog files, named LANG.json.
func Catalogs() fs.FS {
	sub, err := fs.Sub(locales, "locales")
	if err != nil {
		panic(err) // the embedded tree always has locales/
	}
	return sub
}

// bundle loads every catalog once; a catalog that fails to load (the tests
// make sure none does) is left out, and its language falls back to English.
var bundle = sync.OnceValues(func() (*goi18n.Bundle, error) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("json", json.Unmarshal)
	var errs []error
	for _, l := range Languages {
		if _, err := b.LoadMessageFileFS(locales, "locales/"+l.Tag+".json"); err != nil {
			errs = append(errs, fmt.Errorf("i18n: catalog %s: %w", l.Tag, err))
		}
	}
	return b, errors.Join(errs...)
})

// Check reports a catalog that does not load.
func Check() error {
	_, err := bundle()
	return err
}

var matcher = func() language.Matcher {
	var tags []language.Tag
	for _, l := range Languages {
		tags = append(tags, language.MustParse(l.Tag))
	}
	return language.NewMatcher(tags)
}()

// Match returns the offered language that best fits prefs: tags such as
// "fr-CA", Accept-Language values ("it-IT,it;q=0.9,en;q=0.5") or POSIX
// locales ("ja_JP.UTF-8"). English when nothing fits.
func Match(prefs ...string) string {
	var tags []language.Tag
	for _, p := range prefs {
		if p == "" || p == "C" || p == "POSIX" {
			continue
		}
		p = strings.SplitN(p, ".", 2)[0] // ja_JP.UTF-8
		p = strings.ReplaceAll(p, "_", "-")
		if ts, _, err := language.ParseAcceptLanguage(p); err == nil {
			tags = append(tags, ts...)
		}
	}
	if len(tags) == 0 {
		return "en"
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return "en"
	}
	return Languages[i].Tag
}

// FromEnv is the language the environment asks for: LC_ALL, then
// LC_MESSAGES, then LANG (the POSIX order).
func FromEnv() string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := os.Getenv(v); s != "" {
			return Match(s)
		}
	}
	return "en"
}

// Supported reports whether tag is an offered language.
func Supported(tag string) bool {
	for _, l := range Languages {
		if l.Tag == tag {
			return true
		}
	}
	return false
}

// Printer says messages in one language.
type Printer struct {
	lang string
	loc  *goi18n.Localizer
}

// New returns the printer of lang (an offered tag; others fall back to
// English).
func New(lang string) *Printer {
	b, _ := bundle()
	return &Printer{lang: lang, loc: goi18n.NewLocalizer(b, lang, "en")}
}

// Lang is the printer's language.
func (p *Printer) Lang() string { return p.lang }

// T returns message id with data filled in; with a Count in data, the
// plural form that fits it. An unknown id comes back as itself.
func (p *Printer) T(id string, data map[string]any) string {
	cfg := &goi18n.LocalizeConfig{MessageID: id, TemplateData: data}
	if n, ok := data["Count"]; ok {
		cfg.PluralCount = n
	}
	s, err := p.loc.Localize(cfg)
	if err != nil && cfg.PluralCount != nil {
		// A plain message with a Count: it has one form only.
		cfg.PluralCount = nil
		s, err = p.loc.Localize(cfg)
	}
	if err != nil && s == "" {
		return id
	}
	return s
}
