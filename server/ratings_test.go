package server_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/coder/websocket"
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
		const body = `{"variant":"auction","options":{"players":3,"target":5},"rated":true,"seats":[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"hard"}]}`
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
		// A spectator: a table plays only while someone is there.
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
