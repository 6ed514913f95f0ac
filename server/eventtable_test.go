package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	qrcode "github.com/skip2/go-qrcode"
)

// tableWire is the answer of POST /api/events/{id}/tables/{n}.
type tableWire struct {
	Event   string  `json:"event"`
	Round   int     `json:"round"`
	TableNo int     `json:"table_no"`
	Tables  int     `json:"tables"`
	Table   string  `json:"table"`
	Seat    *meWire `json:"seat"`
}

// qrSays checks that svg, a QR code the server drew, is text's code
// (error correction Q), module for module as the QR library encodes it:
// the same text is always the same code.
func qrSays(t *testing.T, svg []byte, text string) {
	t.Helper()
	qr, err := qrcode.New(text, qrcode.High)
	if err != nil {
		t.Fatal(err)
	}
	qr.DisableBorder = true
	got := map[[2]int]bool{}
	for _, m := range regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`).FindAllStringSubmatch(string(svg), -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		got[[2]int{x - 4, y - 4}] = true
	}
	n := 0
	for y, row := range qr.Bitmap() {
		for x, on := range row {
			if on {
				n++
				if !got[[2]int{x, y}] {
					t.Fatalf("the code of %s: module %d,%d is dark in the code but not drawn", text, x, y)
				}
			}
		}
	}
	if n != len(got) || n == 0 {
		t.Errorf("the code of %s: %d modules drawn, the code has %d", text, len(got), n)
	}
}

// TestEventTableAddress: a table card's address, /e/ID/table/N, stays
// table N's all night. Its QR code draws it (?table=N; anything but a
// table's number is refused, with nothing drawn); the page is served at
// it; POST /api/events/ID/tables/N says which table it is now: before
// the first round none; the seated person's own seat, with its token, to
// the token of someone sitting there; and while a duplicate round is
// played, the table's ID to nobody else (the access policy decides),
// until the round is over.
func TestEventTableAddress(t *testing.T) {
	opts := fastOptions()
	opts.Static = fstest.MapFS{"index.html": {Data: []byte(`<html lang="en"><body>page</body></html>`)}}
	ts := startServer(t, t.TempDir()+"/pitch.db", opts)
	var created struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	ts.post("/api/events", `{"variant":"ten-point","rounds":1,"end":"hands","hands":2,"movement":"duplicate"}`, 201, &created)
	id := created.ID
	origin := "https://club.example:8443"

	// The card's QR code.
	resp, b := ts.do("GET", "/api/events/"+id+"/qr.svg?origin="+url.QueryEscape(origin)+"&table=7", "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("qr of table 7: %d %s", resp.StatusCode, b)
	}
	qrSays(t, b, origin+"/e/"+id+"/table/7")
	for _, bad := range []string{"table=0", "table=-1", "table=abc", "table=07", "table=1.5", "table=", "table=100001", "table=1&table=2", "table=%201"} {
		resp, b := ts.do("GET", "/api/events/"+id+"/qr.svg?origin="+url.QueryEscape(origin)+"&"+bad, "")
		if resp.StatusCode != 400 || !strings.Contains(string(b), "bad_table") || !strings.Contains(string(b), "table") || strings.Contains(string(b), "<svg") {
			t.Errorf("qr with %s: %d %.200s, want 400 bad_table", bad, resp.StatusCode, b)
		}
	}

	// The page is served at the address.
	resp, b = ts.do("GET", "/e/"+id+"/table/3", "")
	if resp.StatusCode != 200 || !strings.Contains(string(b), "<html") {
		t.Errorf("GET /e/ID/table/3: %d %.100s, want the page", resp.StatusCode, b)
	}

	// Before the first round: no table yet.
	got := tableWire{}
	ts.post("/api/events/"+id+"/tables/1", `{}`, 200, &got)
	if got.Round != 0 || got.Tables != 0 || got.Table != "" || got.Seat != nil || got.TableNo != 1 {
		t.Errorf("before the first round: %+v, want no table", got)
	}
	tokens := map[int]string{}
	for i := range 8 {
		var j struct {
			Entry int    `json:"entry"`
			Token string `json:"token"`
		}
		ts.post("/api/events/"+id+"/join", fmt.Sprintf(`{"name":"T%d"}`, i), 200, &j)
		tokens[j.Entry] = j.Token
	}
	before := ts.event(id)
	for _, bad := range []struct{ n, body string }{{"0", `{}`}, {"-2", `{}`}, {"x", `{}`}, {"01", `{}`}, {"100001", `{}`}, {"1", `{"token":1}`}, {"1", `{"colour":"red"}`}} {
		resp, b := ts.do("POST", "/api/events/"+id+"/tables/"+bad.n, bad.body)
		if resp.StatusCode != 400 {
			t.Errorf("table %q with %s: %d %.200s, want 400", bad.n, bad.body, resp.StatusCode, b)
		}
		if bad.body == `{}` && !strings.Contains(string(b), "bad_table") {
			t.Errorf("table %q: %.200s, want the code bad_table", bad.n, b)
		}
	}
	ts.post("/api/events/nosuch/tables/1", `{}`, 404, nil)
	if after := ts.event(id); len(after.Entries) != len(before.Entries) || after.State != before.State {
		t.Errorf("the refusals changed the event: %+v", after)
	}

	ts.post("/api/events/"+id+"/start", fmt.Sprintf(`{"token":%q}`, created.Token), 200, nil)
	// Where each sits, by their own /me.
	at := map[int][]int{} // table number: entries
	seats := map[int]meWire{}
	for i := range 8 {
		var me struct {
			meWire
			TableNo int `json:"table_no"`
		}
		ts.post("/api/events/"+id+"/me", fmt.Sprintf(`{"token":%q}`, tokens[i]), 200, &me)
		at[me.TableNo] = append(at[me.TableNo], i)
		seats[i] = me.meWire
	}
	if len(at[1]) != 4 || len(at[2]) != 4 {
		t.Fatalf("the seating %v, want two tables of four", at)
	}
	// The one seated at table 2 gets their seat and its token.
	mine := at[2][0]
	got = tableWire{}
	ts.post("/api/events/"+id+"/tables/2", fmt.Sprintf(`{"token":%q}`, tokens[mine]), 200, &got)
	if got.Seat == nil || got.Table != seats[mine].Table || got.Seat.SeatToken != seats[mine].SeatToken || got.Round != 1 || got.Tables != 2 {
		t.Errorf("table 2 to the person seated there: %+v, want their seat at %s", got, seats[mine].Table)
	}
	// Anyone else, an anonymous browser or one who sits at table 1, is
	// not told the table's ID while the duplicate round is played.
	hidden := seats[mine].Table
	for _, body := range []string{`{}`, fmt.Sprintf(`{"token":%q}`, tokens[at[1][0]]), `{"token":"nobody"}`} {
		resp, b := ts.do("POST", "/api/events/"+id+"/tables/2", body)
		if resp.StatusCode != 200 || strings.Contains(string(b), hidden) || strings.Contains(string(b), "seat_token") {
			t.Errorf("table 2 asked with %s while the round is played: %d %s, want it without the table's ID", body, resp.StatusCode, b)
		}
	}
	// A table the round has not: no ID, the count of tables.
	got = tableWire{}
	ts.post("/api/events/"+id+"/tables/3", `{}`, 200, &got)
	if got.Table != "" || got.Tables != 2 {
		t.Errorf("table 3 of 2: %+v", got)
	}

	// Once the round is over, the table is named to anyone.
	playRound(t, ts, id, tokens, nil, 3)
	ts.waitEvent(id, "the round's end", func(e evWire) bool { return e.State == "over" })
	got = tableWire{}
	ts.post("/api/events/"+id+"/tables/2", `{}`, 200, &got)
	if got.Table != hidden || got.Seat != nil {
		t.Errorf("table 2 after the round: %+v, want its ID %s and no seat", got, hidden)
	}
	if resp, _ := ts.do("GET", "/api/events/"+id+"/qr.svg?origin="+url.QueryEscape(origin)+"&table=2", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("the card's code after the round: %d", resp.StatusCode)
	}
}
