package web_test

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"pitch/i18n"
)

// englishLeft lists English fragments of the catalog (runs of two words or
// more between placeholders) that the catalog of lang does not also use:
// any of them in a page shown in lang is a string left in English.
func englishLeft(t *testing.T, lang string) []string {
	t.Helper()
	read := func(tag string) map[string]any {
		b, err := fs.ReadFile(i18n.Catalogs(), tag+".json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	texts := func(v any) []string {
		if s, ok := v.(string); ok {
			return []string{s}
		}
		var out []string
		for _, s := range v.(map[string]any) {
			out = append(out, s.(string))
		}
		return out
	}
	en, tr := read("en"), read(lang)
	var all strings.Builder
	for _, v := range tr {
		for _, s := range texts(v) {
			all.WriteString(s + "\n")
		}
	}
	theirs := all.String()
	ph := regexp.MustCompile(`\{\{[^}]*\}\}|\(|\)|:|\.|,|!|—|…`)
	seen := map[string]bool{}
	var out []string
	for _, v := range en {
		for _, s := range texts(v) {
			for _, frag := range ph.Split(s, -1) {
				frag = strings.TrimSpace(frag)
				if len(strings.Fields(frag)) < 2 || len(frag) < 8 || seen[frag] || strings.Contains(theirs, frag) {
					continue
				}
				seen[frag] = true
				out = append(out, frag)
			}
		}
	}
	return out
}

// englishWordsOf caches englishWords by language; the browser tests run
// side by side, so englishWordsMu guards it.
var (
	englishWordsMu sync.Mutex
	englishWordsOf = map[string]map[string]bool{}
)

// englishWords are the words of the English catalog (four letters or more,
// lower-cased) that the catalog of lang never uses: one of them in a page
// shown in lang is English the page wrote without the catalog, such as a
// literal aria-label ("Suit of the card to call").
func englishWords(t *testing.T, lang string) map[string]bool {
	t.Helper()
	englishWordsMu.Lock()
	defer englishWordsMu.Unlock()
	if m, ok := englishWordsOf[lang]; ok {
		return m
	}
	word := regexp.MustCompile(`\p{L}{4,}`)
	words := func(tag string) map[string]bool {
		b, err := fs.ReadFile(i18n.Catalogs(), tag+".json")
		if err != nil {
			t.Fatal(err)
		}
		var cat map[string]any
		if err := json.Unmarshal(b, &cat); err != nil {
			t.Fatal(err)
		}
		var all strings.Builder // the messages, not their IDs
		for _, v := range cat {
			if m, ok := v.(map[string]any); ok {
				for _, f := range m {
					all.WriteString(f.(string) + "\n")
				}
			} else {
				all.WriteString(v.(string) + "\n")
			}
		}
		ph := regexp.MustCompile(`\{\{[^}]*\}\}`)
		out := map[string]bool{}
		for _, w := range word.FindAllString(ph.ReplaceAllString(all.String(), " "), -1) {
			out[strings.ToLower(w)] = true
		}
		return out
	}
	en, theirs := words("en"), words(lang)
	m := map[string]bool{}
	for w := range en {
		if !theirs[w] {
			m[w] = true
		}
	}
	englishWordsOf[lang] = m
	return m
}

// checkLanguage checks the page in lang at both sizes: no English left in
// what it shows, nothing overflowing, what matters in view; and takes a
// screenshot of the table in that language.
func (s *site) checkLanguage(lang, where string, english []string, shot bool) {
	t := s.t
	t.Helper()
	for _, sz := range []struct {
		name   string
		w, h   int64
		scale  float64
		layout bool
	}{{"desktop", 1280, 720, 1, true}, {"phone", 390, 844, 2, true}} {
		s.do("resize", chromedp.EmulateViewport(sz.w, sz.h, chromedp.EmulateScale(sz.scale)), settled())
		var text string
		s.eval(`JSON.stringify(document.body.innerText + '\n' + Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]')).map((e) =>
			[e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')].filter(Boolean).join('\n')).join('\n'))`, &text)
		for _, frag := range english {
			if strings.Contains(text, frag) {
				t.Errorf("%s, %s at %s: English left: %q", lang, where, sz.name, frag)
			}
		}
		if lang != "en" {
			// Code (the rules' option names, <code>) is no English.
			var codes []string
			s.eval(`JSON.stringify(Array.from(document.querySelectorAll('code')).map((e) => e.textContent))`, &codes)
			prose := text
			for _, c := range codes {
				prose = strings.ReplaceAll(prose, c, " ")
			}
			// Nor are rule IDs (PW-PLAY-2), the same in every language.
			prose = regexp.MustCompile(`\b(?:C|AP|TP|PW)(?:-[A-Z]+)*-\d+\b`).ReplaceAllString(prose, " ")
			words := englishWords(t, lang)
			seen := map[string]bool{}
			for _, w := range regexp.MustCompile(`\p{L}{4,}`).FindAllString(prose, -1) {
				if lw := strings.ToLower(w); words[lw] && !seen[lw] {
					seen[lw] = true
					t.Errorf("%s, %s at %s: the English word %q, which the catalog of %s never says", lang, where, sz.name, w, lang)
				}
			}
		}
		if sz.layout && where != "lobby" && !strings.HasPrefix(where, "rules") {
			var probs []string
			s.eval(layoutJS, &probs)
			for _, p := range probs {
				t.Errorf("%s, %s at %s: %s", lang, where, sz.name, p)
			}
		}
		if shot {
			s.shot("lang-"+lang+"-"+sz.name, false)
		}
	}
	s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
}

// TestBrowserLanguages plays a pawnee hand in each language but English:
// the lobby and the table at each of our decisions show no English string
// (card ranks and names aside), nothing overflows at 390×844 and 1280×720,
// and the console stays clean (newSite fails the test on a console error).
func TestBrowserLanguages(t *testing.T) {
	for _, l := range i18n.Languages {
		if l.Tag == "en" {
			continue
		}
		t.Run(l.Tag, func(t *testing.T) {
			english := englishLeft(t, l.Tag)
			s := newSite(t)
			// The language is chosen on the first page (the rules, in
			// English), so that every page the test opens next starts in it.
			s.do("open the rules", chromedp.Navigate(s.url+"/?rules=pawnee"), chromedp.WaitVisible(chromedp.CSS("#rules-view .rules-text")))
			s.eval(`localStorage.setItem('pitch.lang', '`+l.Tag+`'), 'true'`, new(bool))
			// The rules page of each game, in the language, with its options.
			for _, g := range []struct {
				variant string
				options int
			}{{"pawnee", 4}, {"ten-point", 1}, {"auction", 4}} {
				s.do("the rules of "+g.variant, chromedp.Navigate(s.url+"/?rules="+g.variant), chromedp.WaitVisible(chromedp.CSS("#rules-view .rules-text")))
				if n := s.count("#rules-view table.options tr"); n != g.options {
					t.Errorf("the rules of %s list %d options, want %d", g.variant, n, g.options)
				}
				if got := s.text("#rules-view .rules-text"); len(got) < 300 {
					t.Errorf("the rules of %s say only %q", g.variant, got)
				}
				s.checkLanguage(l.Tag, "rules of "+g.variant, english, false)
			}
			// The lobby, where the table is then created.
			s.do("open the lobby in "+l.Name, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS("#create-form")))
			var lang string
			s.eval(`JSON.stringify(document.documentElement.lang)`, &lang)
			if lang != l.Tag {
				t.Fatalf("the page's language is %q, want %q", lang, l.Tag)
			}
			if got := s.value("#lang"); got != l.Tag {
				t.Errorf("the language picker shows %q, want %q", got, l.Tag)
			}
			s.checkLanguage(l.Tag, "lobby", english, false)
			id := s.createTable("pawnee", 5, "")
			s.join("Ada")
			checked := map[string]bool{}
			s.onTurn = func(u ui) {
				if !checked[u.Act] {
					checked[u.Act] = true
					s.checkLanguage(l.Tag, u.Act, english, u.Act == "play")
				}
			}
			hands := s.playUntilOurBid(nil)
			s.checkLanguage(l.Tag, "summary", english, false)
			if len(hands) == 0 || !checked["bid"] || !checked["play"] {
				t.Errorf("checked %v over %d hands", checked, len(hands))
			}
			if rec := fetchRecord(t, s.url, id, len(hands)); len(rec.Actions) == 0 {
				t.Error("the hand played is not stored")
			}
		})
	}
}
