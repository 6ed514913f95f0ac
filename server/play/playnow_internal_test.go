package play

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"pitch/rating"
	"pitch/store"
	"pitch/store/boardtest"
)

// TestPlayNowRatingBand: a signed-in person's Play prefers the table
// whose accounts' rating is within their band, the band widening as a
// table waits; a guest's Play keeps the order it had.
func TestPlayNowRatingBand(t *testing.T) {
	ctx := context.Background()
	st, srv := internalServer(t, filepath.Join(t.TempDir(), "pitch.db"), Options{})
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	if err := boardtest.Settle(ctx, st, names); err != nil {
		t.Fatal(err)
	}
	shown := map[string]int{}
	for _, n := range names {
		list, err := st.PlayerRatings(ctx, "board-"+n)
		if err != nil || len(list) != 1 {
			t.Fatalf("%s's ratings: %v %v", n, list, err)
		}
		shown[n] = rating.Shown(list[0].Rating)
	}
	// The person is the account with the nearest other (near), far the
	// account farthest from them.
	person, near := "", ""
	for _, n := range names {
		for _, o := range names {
			if o != n && (person == "" || abs(shown[n]-shown[o]) < abs(shown[person]-shown[near])) {
				person, near = n, o
			}
		}
	}
	far := near
	for _, n := range names {
		if abs(shown[n]-shown[person]) > abs(shown[far]-shown[person]) {
			far = n
		}
	}
	gap := abs(shown[far] - shown[person])
	if abs(shown[near]-shown[person]) > bandBase || gap <= bandBase {
		t.Fatalf("the settled ratings %v do not make the case: %s, near %s, far %s", shown, person, near, far)
	}
	waited := time.Duration((gap-bandBase)/bandPerMinute+1) * time.Minute // far's table's band reaches the person then
	table := func(id, acct string, age time.Duration) candidate {
		return candidate{&store.Table{ID: id, Created: time.Now().Add(-age), Seats: []store.Seat{{Seat: 0, Kind: "human", Account: acct}, {Seat: 1, Kind: "bot"}}}, 1}
	}
	order := func(p player, cs ...candidate) []string {
		var ids []string
		for _, c := range srv.byRating(ctx, p, "pawnee", cs) {
			ids = append(ids, c.table.ID)
		}
		return ids
	}
	a := player{signedIn: true, me: Account{ID: "board-" + person}}
	for _, tc := range []struct {
		p    player
		cs   []candidate
		want string
	}{
		// The far account's table is out of the person's band, the near one in it.
		{a, []candidate{table("low", "board-"+far, 0), table("near", "board-"+near, 0)}, "[near low]"},
		// The far table has waited long enough for its band to reach them.
		{a, []candidate{table("low", "board-"+far, waited), table("near", "board-"+near, 0)}, "[low near]"},
		// A guests' table has no rating: after the tables in the band.
		{a, []candidate{table("guests", "", 0), table("near", "board-"+near, 0)}, "[near guests]"},
		// A guest's Play keeps the order.
		{player{}, []candidate{table("low", "board-"+far, 0), table("near", "board-"+near, 0)}, "[low near]"},
	} {
		if got := fmtIDs(order(tc.p, tc.cs...)); got != tc.want {
			t.Errorf("%s's order of %s: %s, want %s", tc.p.me.ID, fmtIDs(order(player{}, tc.cs...)), got, tc.want)
		}
	}
}

func abs(n int) int { return max(n, -n) }

func fmtIDs(ids []string) string {
	s := "["
	for i, id := range ids {
		if i > 0 {
			s += " "
		}
		s += id
	}
	return s + "]"
}
