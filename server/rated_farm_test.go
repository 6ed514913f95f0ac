package server_test

import (
	"testing"
)

// TestRatedTarget: a rated table plays to its game's standard target
// (docs/ratings.md: one hand to 1 point would be a whole rated match);
// another target is refused with rated_target and creates nothing, while
// a casual table may play to any.
func TestRatedTarget(t *testing.T) {
	ts := startServer(t, "", fastOptions())
	ada := ts.browser()
	ada.must(201, "POST", "/api/account/signup", creds("Ada-T", goodPassword))
	total := func() int {
		var l struct{ Total int }
		ts.getJSON("/api/tables", &l)
		return l.Total
	}
	for _, c := range []struct {
		name, body string
		want       int
		code       string
	}{
		{"auction to 1", `{"variant":"auction","options":{"target":1},"rated":true}`, 400, "rated_target"},
		{"auction to 11", `{"variant":"auction","options":{"target":11},"rated":true}`, 400, "rated_target"},
		{"ten-point to 21", `{"variant":"ten-point","options":{"target":21},"rated":true}`, 400, "rated_target"},
		{"pawnee to 1", `{"variant":"pawnee","options":{"target":1},"rated":true}`, 400, "rated_target"},
		{"auction standard, given", `{"variant":"auction","options":{"target":7},"rated":true}`, 201, ""},
		{"auction, no target", `{"variant":"auction","rated":true}`, 201, ""},
		{"ten-point standard", `{"variant":"ten-point","options":{"target":52},"rated":true}`, 201, ""},
		{"pawnee standard", `{"variant":"pawnee","options":{"target":42},"rated":true}`, 201, ""},
		{"three-player auction, standard", `{"variant":"auction","options":{"players":3},"rated":true}`, 201, ""},
		{"casual to 1", `{"variant":"auction","options":{"target":1}}`, 201, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := total()
			b := ada.must(c.want, "POST", "/api/tables", c.body)
			if c.code != "" {
				if got := errCode(t, b); got != c.code {
					t.Errorf("code %q, want %q: %s", got, c.code, b)
				}
				if after := total(); after != before {
					t.Errorf("a refused table was created: %d tables, then %d", before, after)
				}
			}
		})
	}
}
