package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pitch"
	"pitch/i18n"
)

var updateRules = flag.Bool("update", false, "rewrite the golden files of pitch rules in testdata/rules")

// `pitch rules --lang L VARIANT` prints the rules as implemented in each
// language: golden files per language and game (refresh with
// go test ./cmd/pitch -run TestRulesGolden -update, then read them), the
// options and defaults from the engine in every language, and an unknown
// language refused with the list of languages.
func TestRulesGolden(t *testing.T) {
	for _, l := range i18n.Languages {
		for _, v := range pitch.Variants {
			t.Run(l.Tag+"/"+v.String(), func(t *testing.T) {
				code, out, stderr := runCmd(t, "", "rules", "--lang", l.Tag, v.String())
				if code != 0 || stderr != "" {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				path := filepath.Join("testdata", "rules", l.Tag, v.String()+".txt")
				if *updateRules {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if out != string(want) {
					t.Errorf("rules differ from %s:\n%s", path, out)
				}
				for k, def := range pitch.MustNewGame(v).OptionMap() {
					if !strings.Contains(out, k) {
						t.Errorf("the option %s (default %v) is missing", k, def)
					}
				}
				if l.Tag != "en" && strings.Contains(out, "Options (hand-record name: default)") {
					t.Errorf("the %s rules are in English", l.Tag)
				}
			})
		}
	}
	code, _, stderr := runCmd(t, "", "rules", "--lang", "de")
	if code != 2 || !strings.Contains(stderr, `unknown language "de"`) || !strings.Contains(stderr, "en, it, ms, ja, el, fr") {
		t.Errorf("rules --lang de: exit %d, stderr %q", code, stderr)
	}
	// The environment chooses when --lang is not given.
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "fr_FR.UTF-8")
	_, fromEnv, _ := runCmd(t, "", "rules", "auction")
	_, fr, _ := runCmd(t, "", "rules", "--lang", "fr", "auction")
	if fromEnv != fr {
		t.Error("LANG=fr_FR.UTF-8 does not give the French rules")
	}
}
