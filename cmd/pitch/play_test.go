package main

import (
	"regexp"
	"strings"
	"testing"
)

var suits = regexp.MustCompile("[♠♥♦♣]")

// TestPlayNotATerminal: with output that is not a terminal, `pitch play`
// prints plain screens (letters, no escape code) and reads lines; a seat
// out of range is refused with the seats there are, from 1.
func TestPlayNotATerminal(t *testing.T) {
	code, out, errs := runCmd(t, "xyz\nq\n", "play", "--seed", "4", "--seat", "4", "--lang", "en", "--delay", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.ContainsRune(out, 0x1b) || suits.MatchString(out) {
		t.Errorf("escape codes or suit symbols in plain output:\n%s", out)
	}
	for _, want := range []string{"you are seat 4", "Not a choice: “xyz”"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	for _, seat := range []string{"0", "5"} {
		code, _, errs := runCmd(t, "", "play", "--seat", seat)
		if code != 2 || !strings.Contains(errs, "seats are 1 to 4") {
			t.Errorf("--seat %s: exit %d, %q", seat, code, errs)
		}
	}
}
