package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pitch/server"
)

// TestBrowserDaily: /daily at 1280×720 and at 390×844. Three signed-in
// players have played the day's ten-point deals (their stand-ins played
// them out): the page shows today's standings of the three and the
// deals' commitments, and says each deal's results wait for the end of
// the day; a guest is told they play unranked, types a name and plays
// the day's pawnee, which takes them to their seat (where the table says
// there is no hint at a competition, and whose title shows which of the
// day's deals it is, whole, on the phone). The next day, the day before is listed, its deals are linked, and
// a deal's page shows the three results at seat 1 with their replays.
// Everything inside the viewport, nothing cut off, the console clean.
func TestBrowserDaily(t *testing.T) {
	var clock atomic.Int64
	day1 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock.Store(day1.UnixNano())
	s := newSiteWith(t, func(o *server.Options) {
		o.DailyDeals, o.DailyBots = 2, "easy"
		o.AwayDelay = 5 * time.Millisecond // stand-ins play the guests' tables out
		o.Clock = func() time.Time { return time.Unix(0, clock.Load()) }
	})
	// Three signed-in players (the ranked daily is of accounts; a guest
	// plays unranked).
	for _, name := range []string{"Ada", "Bertrand-de-Montmorency", "渡辺さくら"} {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}
		for _, step := range [][2]string{{"/api/account/signup", fmt.Sprintf(`{"name":%q,"password":"correct horse battery"}`, name)}, {"/api/daily/ten-point/play", `{}`}} {
			resp, err := c.Post(s.url+step[0], "application/json", strings.NewReader(step[1]))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				t.Fatalf("POST %s for %s: %d %s", step[0], name, resp.StatusCode, b)
			}
		}
	}
	var d struct {
		Games []struct {
			Variant   string `json:"variant"`
			Event     string `json:"event"`
			Standings []struct {
				Name    string  `json:"name"`
				Percent float64 `json:"percent"`
				Boards  int     `json:"boards"`
			} `json:"standings"`
		} `json:"games"`
	}
	waitFor(t, "the three players' tables to finish", func() bool {
		resp, err := http.Get(s.url + "/api/daily")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(&d); err != nil {
			t.Fatal(err)
		}
		if len(d.Games) != 3 || len(d.Games[0].Standings) != 3 {
			return false
		}
		for _, st := range d.Games[0].Standings { // both deals compared: the standings are final
			if st.Boards != 2 {
				return false
			}
		}
		return true
	}, 30*time.Second)
	check := func(where string) {
		t.Helper()
		if p := s.layoutProblems("#daily h1, #daily h2, #daily p, #daily td, #daily th, #daily button, #daily summary, #deal h1, #deal h2, #deal p, #deal td, #deal th", 12, false); len(p) > 0 {
			t.Errorf("%s: %v", where, p)
		}
	}

	s.do("open /daily at 1280×720", chromedp.EmulateViewport(1280, 720), chromedp.Navigate(s.url+"/daily"),
		chromedp.WaitVisible(chromedp.CSS(".dl-game")))
	waitFor(t, "three sections", func() bool { return s.count(".dl-game") == 3 }, 5*time.Second)
	rows := s.rows("#dl-h-ten-point ~ div .ev-standings tbody tr")
	if len(rows) != 3 {
		t.Errorf("%d standings rows of ten-point, want 3", len(rows))
	}
	for i, r := range rows {
		st := d.Games[0].Standings[i]
		if want := strconv.FormatFloat(math.Round(st.Percent*10)/10, 'f', -1, 64) + "%"; len(r) != 3 || r[1] != st.Name || r[2] != want {
			t.Errorf("standings row %d: %q, want %s with %s", i+1, r, st.Name, want)
		}
	}
	// The day and the time it closes, both in the page's language (no
	// 2026-03-01 beside "Mar 2, 2026"); no past day yet: no empty panel.
	if got := s.text("#dl-day"); !strings.HasPrefix(got, "Today, March 1, 2026: open until March ") || strings.Contains(got, "2026-03-01") {
		t.Errorf("the day says %q, want Today, March 1, 2026 and when it closes, in words", got)
	}
	var empty []string
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#daily .panel')).filter((p) => p.getClientRects().length && !p.innerText.trim()).map((p) => p.outerHTML.slice(0, 80)))`, &empty)
	if len(empty) > 0 {
		t.Errorf("/daily shows empty panels: %q", empty)
	}
	if n := s.count(".dl-game .dl-deals a"); n != 0 {
		t.Errorf("%d links to deals' results before the day is over", n)
	}
	if n := s.count(".dl-game .dl-commit li"); n != 6 {
		t.Errorf("%d commitments, want 2 deals × 3 games", n)
	}
	check("today at 1280×720")
	s.shot("daily", false)
	s.do("a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile))
	check("today at 390×844")

	// A guest is told they play unranked.
	var note string
	s.eval(`JSON.stringify(document.querySelector('#dl-unranked').hidden ? '' : document.querySelector('#dl-unranked').textContent)`, &note)
	if !strings.Contains(note, "unranked") {
		t.Errorf("the guest's note on /daily: %q, want it to say they play unranked", note)
	}
	s.do("type a name", chromedp.SendKeys(chromedp.CSS("#dl-name"), "Rosa"))
	s.click(`.dl-play[data-game="pawnee"]`)
	waitFor(t, "the pawnee table with their seat", func() bool {
		var ok bool
		s.eval(`JSON.stringify(location.pathname.startsWith('/t/') && !!document.querySelector('#table-view'))`, &ok)
		return ok && s.ui().Seat == 0
	}, 15*time.Second)
	// On the phone the title shows which of the day's deals this is,
	// whole and in view.
	waitFor(t, "the deal's number in the title", func() bool { return s.text("#t-hand") != "" }, 10*time.Second)
	// (The bots may have played the first deal out already.)
	s.checkTitleLike("the daily table at 390×844", regexp.MustCompile(`^deal [12] of 2$`))
	// The table says there is no help at a competition, and offers none.
	waitFor(t, "the table saying hints are off", func() bool {
		var ok bool
		s.eval(`JSON.stringify(document.querySelector('#table-info').textContent.includes('off until the competition is over') && !document.querySelector('.hint-row'))`, &ok)
		return ok
	}, 15*time.Second)

	// Back on /daily while the table plays: how far through the deals.
	// (The table plays on for the guest who left it: it may be over.)
	s.do("back to /daily", chromedp.Navigate(s.url+"/daily"), chromedp.WaitVisible(chromedp.CSS(".dl-game")))
	waitFor(t, "three sections", func() bool { return s.count(".dl-game") == 3 }, 5*time.Second)
	if s.count(`#dl-h-pawnee ~ p a[href^="/t/"]`) == 1 {
		if got := s.text("#dl-h-pawnee ~ .dl-progress"); !regexp.MustCompile(`^You are at deal [12] of 2\.$`).MatchString(got) {
			t.Errorf("at the day's table: the progress reads %q, want You are at deal N of 2.", got)
		}
	} else {
		t.Log("the guest's table finished before /daily was loaded again: no progress to show")
	}

	clock.Store(day1.Add(24 * time.Hour).UnixNano())
	// The day's ten-point event is over once its day is and every table
	// has finished (a table may still be playing its last deal out).
	waitFor(t, "the day before's ten-point event over", func() bool {
		var past struct {
			Games []struct {
				Variant string `json:"variant"`
				Over    bool   `json:"over"`
			} `json:"games"`
		}
		resp, err := http.Get(s.url + "/api/daily?day=2026-03-01")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if err := json.NewDecoder(resp.Body).Decode(&past); err != nil {
			t.Fatal(err)
		}
		for _, g := range past.Games {
			if g.Variant == "ten-point" {
				return g.Over
			}
		}
		return false
	}, 30*time.Second)
	s.do("the next day's /daily", chromedp.Navigate(s.url+"/daily"), chromedp.WaitVisible(chromedp.CSS("#dl-past a")))
	// The past days are listed below the games, drawn with them: the
	// link does not move down under a finger as the games come in.
	if n := s.count(".dl-game"); n != 3 {
		t.Errorf("the past days were listed with %d of 3 games drawn above them", n)
	}
	if got := s.text("#dl-past"); got != "March 1, 2026" {
		t.Errorf("past days %q, want March 1, 2026", got)
	}
	s.click("#dl-past a")
	waitFor(t, "the day's deals linked", func() bool { return s.count("#dl-h-ten-point ~ .dl-deals a") == 2 }, 10*time.Second)
	check("the day before at 390×844")
	s.click("#dl-h-ten-point ~ .dl-deals a")
	waitFor(t, "deal 1's results", func() bool { return s.count("#dd-seats .dd-table tbody tr") == 3 }, 10*time.Second)
	if n := s.count(`#dd-seats a[href^="/t/"][href$="/hands/1"]`); n != 3 {
		t.Errorf("%d replays linked, want 3", n)
	}
	if got := s.text("#dd-commit"); len(got) != 64 {
		t.Errorf("the commitment shown is %q", got)
	}
	check("a deal's page at 390×844")
	s.do("a desktop", chromedp.EmulateViewport(1280, 720))
	check("a deal's page at 1280×720")
}
