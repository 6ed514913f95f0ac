package server_test

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// TestRatedTarget: a rated table plays to its game's standard target
// (docs/ratings.md: one hand to 1 point would be a whole rated match);
// another target is refused with rated_target and creates nothing, while
// a casual table may play to any.
func TestRatedTarget(t *testing.T) {
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), fastOptions())
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

// profileOf is what a test reads of GET /api/users/{name}.
type profileOf struct {
	Ratings []struct {
		Game    string
		Rating  int
		Matches int
	}
	Recent []struct {
		Table  string
		Place  int
		Change int
	}
}

// waitRated reads name's profile until it holds n rated matches (or the
// test's minute runs out).
func waitRated(t *testing.T, b *browser, name string, n int) profileOf {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var p profileOf
		if err := json.Unmarshal(b.must(200, "GET", "/api/users/"+name, ""), &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Recent) >= n {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d rated matches after a minute, want %d", name, len(p.Recent), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRatedAbandoned: a rated match whose people all left (nobody is at
// the table or watching) does not wait for them: the stand-ins play it
// out, it is rated, and the people who left lose it, sharing the last
// place behind the bot, whatever the stand-ins scored for them.
func TestRatedAbandoned(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		opts := fastOptions()
		opts.AwayDelay = time.Millisecond
		ts := startServer(t, fresh(t), opts)
		ada, bob := ts.browser(), ts.browser()
		ada.must(201, "POST", "/api/account/signup", creds("Ada-L", goodPassword))
		bob.must(201, "POST", "/api/account/signup", creds("Bob-L", goodPassword))
		var tb struct{ ID string }
		if err := json.Unmarshal(ada.must(201, "POST", "/api/tables", `{"variant":"auction","options":{"players":3},"rated":true,"seats":`+seatsBody("h", "h", "easy")+`}`), &tb); err != nil {
			t.Fatal(err)
		}
		ada.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0}`)
		bob.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":1}`)
		// Nobody connects: before, the table waited for them for ever
		// and was closed as idle, never rated.
		for _, c := range []struct {
			who  *browser
			name string
		}{{ada, "ada-l"}, {bob, "bob-l"}} {
			p := waitRated(t, c.who, c.name, 1)
			if r := p.Recent[0]; r.Table != tb.ID || r.Place != 2 || r.Change >= 0 {
				t.Errorf("%s: %+v, want table %s at place 2 (behind the bot) and a loss", c.name, r, tb.ID)
			}
		}
	})
}

// TestRatedRematchPairBound: a rated table's next match is rated too,
// until the same two accounts have played play.RatedPairsPerDay rated
// matches of the game together today: the next one is played unrated,
// its table says so from the start ("unrated": "pair_limit"), and it
// changes nobody's rating.
func TestRatedRematchPairBound(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		opts := fastOptions()
		opts.AwayDelay = time.Millisecond // nobody connects: the stand-ins play
		ts := startServer(t, fresh(t), opts)
		ada, bob := ts.browser(), ts.browser()
		ada.must(201, "POST", "/api/account/signup", creds("Ada-P", goodPassword))
		bob.must(201, "POST", "/api/account/signup", creds("Bob-P", goodPassword))
		type tableJS struct {
			ID       string
			Rated    bool
			Unrated  string
			Finished bool
		}
		var tb tableJS
		if err := json.Unmarshal(ada.must(201, "POST", "/api/tables", `{"variant":"auction","options":{"players":3},"rated":true,"seats":`+seatsBody("h", "h", "easy")+`}`), &tb); err != nil {
			t.Fatal(err)
		}
		ada.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0}`)
		bob.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":1}`)
		const bound = 3 // play.RatedPairsPerDay
		for n := 1; n <= bound+1; n++ {
			var info tableJS
			if err := json.Unmarshal(ada.must(200, "GET", "/api/tables/"+tb.ID, ""), &info); err != nil {
				t.Fatal(err)
			}
			wantUnrated := ""
			if n > bound {
				wantUnrated = "pair_limit"
			}
			if !info.Rated || info.Unrated != wantUnrated {
				t.Fatalf("match %d: rated %v, unrated %q; want a rated table, unrated %q", n, info.Rated, info.Unrated, wantUnrated)
			}
			if n <= bound {
				p := waitRated(t, ada, "ada-p", n)
				if p.Recent[0].Table != tb.ID {
					t.Fatalf("match %d: the last rated match is %s, want %s", n, p.Recent[0].Table, tb.ID)
				}
			} else {
				for deadline := time.Now().Add(time.Minute); !info.Finished; time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("match %d did not end", n)
					}
					if err := json.Unmarshal(ada.must(200, "GET", "/api/tables/"+tb.ID, ""), &info); err != nil {
						t.Fatal(err)
					}
				}
				for _, c := range []struct {
					who  *browser
					name string
				}{{ada, "ada-p"}, {bob, "bob-p"}} {
					if p := waitRated(t, c.who, c.name, bound); len(p.Recent) != bound || p.Ratings[0].Matches != bound {
						t.Errorf("%s: %d rated matches (%+v), want %d: the match past the bound was rated", c.name, len(p.Recent), p.Ratings, bound)
					}
				}
				if info.Unrated != "pair_limit" {
					t.Errorf("the finished table says unrated %q, want pair_limit", info.Unrated)
				}
				break
			}
			var next struct{ ID string }
			if err := json.Unmarshal(ada.must(201, "POST", "/api/tables/"+tb.ID+"/rematch", `{}`), &next); err != nil {
				t.Fatal(err)
			}
			// Bob accepts Ada's invitation: the match waits for him until then.
			bob.must(200, "POST", "/api/tables/"+tb.ID+"/rematch", `{}`)
			tb.ID = next.ID
		}
	})
}
