package httpx

import (
	"strings"
	"testing"
)

// TestCleanName: a name is counted in characters as people see them
// (grapheme clusters), so a joined emoji is one; invisible characters
// other than the joiners of emoji sequences are refused.
func TestCleanName(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"plain", "  Ann  ", "Ann", true},
		{"joined emoji", "👩‍💻", "👩‍💻", true},
		{"a name with one", "Kim 👩‍💻", "Kim 👩‍💻", true},
		{"24 joined emoji", strings.Repeat("👨‍👩‍👧", 24), strings.Repeat("👨‍👩‍👧", 24), true},
		{"25 joined emoji", strings.Repeat("👨‍👩‍👧", 25), "", false},
		{"a flag of a region", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", true},
		{"24 letters", strings.Repeat("a", 24), strings.Repeat("a", 24), true},
		{"25 letters", strings.Repeat("a", 25), "", false},
		{"combining marks", "é", "é", true},
		{"marks by the hundred", "a" + strings.Repeat("\u0301", 300), "", false},
		{"empty", "   ", "", false},
		{"right-to-left override", "Ann\u202e", "", false},
		{"zero-width space", "A\u200bB", "", false},
		{"control", "A\x01", "", false},
		{"replacement character", "A\uFFFD", "", false},
		{"invalid UTF-8", "A\xff", "", false},
	}
	for _, tt := range tests {
		got, err := CleanName(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%s: CleanName(%q) = %q, %v; want %q, ok %v", tt.name, tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// TestLimiterScaled: an address's bucket holds scale times the burst (a
// rate so small nothing refills while the test runs), and a scale below
// 1 is 1.
func TestLimiterScaled(t *testing.T) {
	l := NewLimiter(1e-9, 10)
	count := func(addr string, scale float64) int {
		n := 0
		for range 100 {
			if l.AllowScaled(addr, scale) {
				n++
			}
		}
		return n
	}
	for _, tt := range []struct {
		addr  string
		scale float64
		want  int
	}{{"a", 1, 10}, {"b", 3, 30}, {"c", 0.2, 10}, {"d", 7.5, 75}} {
		if got := count(tt.addr, tt.scale); got != tt.want {
			t.Errorf("scale %v: %d allowed, want %d", tt.scale, got, tt.want)
		}
	}
	var none *Limiter
	if !none.AllowScaled("a", 1) {
		t.Error("a nil limiter refused")
	}
}
