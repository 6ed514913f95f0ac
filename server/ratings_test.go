package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store/boardtest"
)

// TestRatedMatch: a guest may neither create nor join a rated table; a
// signed-in player's rated match against bots, played out by the
// stand-in, is rated once: the finished table's state gives the rating
// change, the profile shows the match, the rating and its history, the
// bots carry their fixed ratings, and the player, still provisional, is
// not on the leaderboard.
func TestRatedMatch(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		opts := fastOptions()
		opts.AwayDelay = time.Millisecond // the stand-in plays the absent person at once
		ts := startServer(t, fresh(t), opts)
		const body = `{"variant":"auction","options":{"players":3},"rated":true,"seats":[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"hard"}]}`
		guest := ts.browser()
		if b := guest.must(403, "POST", "/api/tables", body); errCode(t, b) != "rated_needs_account" {
			t.Errorf("a guest created a rated table: %s", b)
		}
		ada := ts.browser()
		ada.must(201, "POST", "/api/account/signup", creds("Ada-R", goodPassword))
		var tb struct {
			ID    string
			Rated bool
			Seats []struct {
				Kind   string
				Rating *struct{ Rating int }
			}
		}
		if err := json.Unmarshal(ada.must(201, "POST", "/api/tables", body), &tb); err != nil || !tb.Rated {
			t.Fatalf("create: %+v %v", tb, err)
		}
		if tb.Seats[1].Rating == nil || tb.Seats[2].Rating == nil || tb.Seats[1].Rating.Rating >= tb.Seats[2].Rating.Rating {
			t.Errorf("bots' ratings: %+v %+v, want easy's below hard's", tb.Seats[1].Rating, tb.Seats[2].Rating)
		}
		if b := guest.must(403, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0,"name":"guest"}`); errCode(t, b) != "rated_needs_account" {
			t.Errorf("a guest joined a rated table: %s", b)
		}
		ada.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0}`)
		// A spectator, to read the finished state.
		ctx, cancel := context.WithTimeout(bg, 60*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, ts.wsURL(tb.ID), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)); err != nil {
			t.Fatal(err)
		}
		var st struct {
			Type    string
			Over    bool `json:"match_over"`
			Ratings []struct{ Seat, Rating, Change int }
		}
		for !st.Over || len(st.Ratings) == 0 {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("waiting for the rated end of the match: %v", err)
			}
			st.Over, st.Ratings = false, nil
			_ = json.Unmarshal(data, &st)
		}
		var prof struct {
			Name    string
			Ratings []struct {
				Game        string
				Rating      int
				Provisional bool
				Matches     int
				Hands       int
				History     []struct{ Rating int }
			}
			Recent []struct {
				Table  string
				Rating int
				Change int
			}
		}
		if err := json.Unmarshal(guest.must(200, "GET", "/api/users/ada-r", ""), &prof); err != nil {
			t.Fatal(err)
		}
		if prof.Name != "Ada-R" || len(prof.Ratings) != 1 || len(prof.Recent) != 1 {
			t.Fatalf("profile %+v, want one game and one match", prof)
		}
		g, m := prof.Ratings[0], prof.Recent[0]
		if g.Game != "auction" || g.Matches != 1 || !g.Provisional || len(g.History) != 1 || g.History[0].Rating != g.Rating || g.Hands < 1 {
			t.Errorf("auction rating %+v", g)
		}
		if m.Table != tb.ID || m.Rating != g.Rating || m.Change != g.Rating-1500 || m.Change == 0 {
			t.Errorf("recent match %+v, want table %s, rating %d, change %d", m, tb.ID, g.Rating, g.Rating-1500)
		}
		// The finished table's state said the change to the seat.
		if len(st.Ratings) != 1 || st.Ratings[0].Seat != 0 || st.Ratings[0].Change != m.Change || st.Ratings[0].Rating != g.Rating {
			t.Errorf("state ratings %+v, want seat 0 at %d (%+d)", st.Ratings, g.Rating, m.Change)
		}
		var board struct {
			Rows []struct{ Name string }
			More bool
		}
		if err := json.Unmarshal(guest.must(200, "GET", "/api/leaderboard?game=auction", ""), &board); err != nil || len(board.Rows) != 0 {
			t.Errorf("leaderboard %+v (%v): a provisional player is on it", board, err)
		}
		if b := guest.must(400, "GET", "/api/leaderboard?game=chess", ""); errCode(t, b) != "bad_game" {
			t.Errorf("leaderboard of no game: %s", b)
		}
		if b := guest.must(400, "GET", "/api/leaderboard?game=auction&limit=1000", ""); errCode(t, b) != "bad_page" {
			t.Errorf("leaderboard limit 1000: %s", b)
		}
		if b := guest.must(404, "GET", "/api/users/nobody-here", ""); errCode(t, b) != "no_such_user" {
			t.Errorf("profile of nobody: %s", b)
		}
		var bots map[string]map[string]struct{ Rating int }
		if err := json.Unmarshal(guest.must(200, "GET", "/api/ratings/bots", ""), &bots); err != nil || len(bots) != 3 || bots["pawnee"]["expert"].Rating == 0 {
			t.Errorf("bot ratings %v (%v)", bots, err)
		}
	})
}

// leaderPage is GET /api/leaderboard's answer.
type leaderPage struct {
	Rank       int
	More       bool
	Prev, Next string
	Rows       []struct {
		Rank   int
		Name   string
		Rating int
	}
}

func (p leaderPage) names() string {
	var out []string
	for _, r := range p.Rows {
		out = append(out, r.Name)
	}
	return strings.Join(out, ",")
}

// TestLeaderboardPages: the leaderboard pages by place (docs/ratings.md):
// forwards with a page's next, backwards with its prev, to the last page;
// every row's rank is its place on the whole board; a disabled account
// leaves it and the ranks close up; a bad cursor, an offset or two places
// at once get a 400 that says what is allowed.
func TestLeaderboardPages(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		var names []string
		for i := range 12 {
			names = append(names, fmt.Sprintf("Board-%02d", i))
		}
		if err := boardtest.Settle(bg, ts.st, names); err != nil {
			t.Fatal(err)
		}
		g := ts.browser()
		get := func(q string) leaderPage {
			t.Helper()
			var p leaderPage
			if err := json.Unmarshal(g.must(200, "GET", "/api/leaderboard?game=pawnee&"+q, ""), &p); err != nil {
				t.Fatal(err)
			}
			for i, r := range p.Rows {
				if r.Rank != p.Rank+i {
					t.Errorf("%s: row %d has rank %d, the page starts at %d", q, i, r.Rank, p.Rank)
				}
			}
			return p
		}
		all := get("limit=100")
		if len(all.Rows) != 12 || all.Rank != 1 || all.More || all.Prev != "" || all.Next != "" {
			t.Fatalf("the whole board: %+v", all)
		}
		for i := 1; i < len(all.Rows); i++ {
			if all.Rows[i].Rating > all.Rows[i-1].Rating {
				t.Errorf("the board is not best first: %+v", all.Rows)
			}
		}
		slice := func(from, to int) string { // ranks from to to, as names
			var out []string
			for _, r := range all.Rows[from-1 : to] {
				out = append(out, r.Name)
			}
			return strings.Join(out, ",")
		}
		p1 := get("limit=5")
		if p1.Rank != 1 || p1.names() != slice(1, 5) || !p1.More || p1.Prev != "" || p1.Next == "" {
			t.Fatalf("page 1: %+v", p1)
		}
		p2 := get("limit=5&after=" + url.QueryEscape(p1.Next))
		if p2.Rank != 6 || p2.names() != slice(6, 10) || !p2.More || p2.Prev == "" {
			t.Fatalf("page 2: %+v", p2)
		}
		p3 := get("limit=5&after=" + url.QueryEscape(p2.Next))
		if p3.Rank != 11 || p3.names() != slice(11, 12) || p3.More || p3.Next != "" {
			t.Fatalf("page 3: %+v", p3)
		}
		if back := get("limit=5&before=" + url.QueryEscape(p3.Prev)); back.Rank != 6 || back.names() != p2.names() || !back.More {
			t.Errorf("back from page 3: %+v, want page 2", back)
		}
		if back := get("limit=5&before=" + url.QueryEscape(p2.Prev)); back.Rank != 1 || back.names() != p1.names() {
			t.Errorf("back from page 2: %+v, want page 1", back)
		}
		if last := get("limit=5&last=1"); last.Rank != 8 || last.names() != slice(8, 12) || last.More || last.Prev == "" {
			t.Errorf("the last page: %+v, want ranks 8 to 12", last)
		}
		// A disabled account leaves the board; the ranks after it close up.
		gone := all.Rows[2].Name
		if err := ts.st.SetDisabled(bg, "board-"+gone, true); err != nil {
			t.Fatal(err)
		}
		if p := get("limit=5&after=" + url.QueryEscape(p1.Next)); p.Rank != 5 || strings.Contains(p.names(), gone) || p.Rows[0].Name != all.Rows[5].Name {
			t.Errorf("after disabling %s, the page after page 1: %+v", gone, p)
		}
		for _, q := range []string{"after=", "after=abc", "after=1.5", "after=NaN_x", "after=Inf_x", "after=1.5_a%2Fb", "before=1.5_" + strings.Repeat("x", 65),
			"offset=5", "after=1.5_a&before=1.5_a", "after=1.5_a&last=1", "last=2", "limit=0"} {
			resp, body := g.do("GET", "/api/leaderboard?game=pawnee&"+q, "")
			var e struct{ Code, Error string }
			_ = json.Unmarshal(body, &e)
			if resp.StatusCode != 400 || e.Code != "bad_page" || !strings.Contains(e.Error, "=") {
				t.Errorf("?%s: %d %s, want 400 bad_page saying what is allowed", q, resp.StatusCode, body)
			}
		}
		if _, body := g.do("GET", "/api/leaderboard?game=pawnee&after=abc", ""); !strings.Contains(string(body), "a page's next") {
			t.Errorf("a bad cursor's error does not say what a cursor is: %s", body)
		}
	})
}
