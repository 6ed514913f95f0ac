package store

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pitch/store/storetest"
)

func TestRenameContributions(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		changed        bool
	}{
		{"a record's fair deal: only seat 1's name, every other byte kept",
			`{"variant":"auction","seed":18446744073709551615,"fairness":{"contributions":[{"seat":0,"name":"Ada","value":"aa","at":"t"},{"seat":1,"name":"Hopper","value":"bb","at":"t"}],"dealt_at":"t"},"x":1.50}`,
			`{"variant":"auction","seed":18446744073709551615,"fairness":{"contributions":[{"seat":0,"name":"Ada","value":"aa","at":"t"},{"seat":1,"name":"anon-X","value":"bb","at":"t"}],"dealt_at":"t"},"x":1.50}`, true},
		{"a pending deal", `{"secret":"s","contributions":[{"seat":1,"name":"Hopper","value":"bb"}]}`,
			`{"secret":"s","contributions":[{"seat":1,"name":"anon-X","value":"bb"}]}`, true},
		{"no contribution of the seat", `{"contributions":[{"seat":0,"name":"Ada"}]}`, `{"contributions":[{"seat":0,"name":"Ada"}]}`, false},
		{"a contribution without a name stays so", `{"contributions":[{"seat":1,"value":"bb"}]}`, `{"contributions":[{"seat":1,"value":"bb"}]}`, false},
		{"no fair deal", `{"variant":"auction","actions":["p"]}`, `{"variant":"auction","actions":["p"]}`, false},
		{"not JSON of objects", `[1,"contributions",null]`, `[1,"contributions",null]`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, changed := renameContributions(json.RawMessage(c.in), map[int]bool{1: true}, "anon-X")
			if string(got) != c.want || changed != c.changed {
				t.Errorf("got %s (changed %v), want %s (%v)", got, changed, c.want, c.changed)
			}
		})
	}
}

func TestScrubEvent(t *testing.T) {
	const ev = `{"event":{"settings":{"variant":"auction"},"entries":[{"name":"Ada","joined":0,"left":-1},{"name":"Hopper","joined":0,"left":-1}],` +
		`"rounds":[{"tables":[{"seats":[1,-1,0]}]},{"tables":[{"seats":[0,1,-1]}]}]},"host":"aGk=","tables":[["t1"],["t2"]]%s}`
	for _, c := range []struct {
		name    string
		in      string
		entries map[int]bool
		want    string
		seats   []seatRef
		changed bool
	}{
		{"an entry by tournament_players", fmt.Sprintf(ev, ""), map[int]bool{1: true},
			`{"event":{"settings":{"variant":"auction"},"entries":[{"name":"Ada","joined":0,"left":-1},{"name":"anon-X","joined":0,"left":-1}],` +
				`"rounds":[{"tables":[{"seats":[1,-1,0]}]},{"tables":[{"seats":[0,1,-1]}]}]},"host":"aGk=","tables":[["t1"],["t2"]]}`,
			[]seatRef{{"t1", 0}, {"t2", 1}}, true},
		{"a daily entry by its owner", fmt.Sprintf(ev, `,"daily":{"day":"2026-03-01","owners":["a:me","g:00"]}`), nil,
			`{"event":{"settings":{"variant":"auction"},"entries":[{"name":"anon-X","joined":0,"left":-1},{"name":"Hopper","joined":0,"left":-1}],` +
				`"rounds":[{"tables":[{"seats":[1,-1,0]}]},{"tables":[{"seats":[0,1,-1]}]}]},"host":"aGk=","tables":[["t1"],["t2"]],"daily":{"day":"2026-03-01","owners":["","g:00"]}}`,
			[]seatRef{{"t1", 2}, {"t2", 0}}, true},
		{"not the person's event", fmt.Sprintf(ev, `,"daily":{"day":"2026-03-01","owners":["a:other"]}`), nil,
			fmt.Sprintf(ev, `,"daily":{"day":"2026-03-01","owners":["a:other"]}`), nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, seats, changed, err := scrubEvent(json.RawMessage(c.in), c.entries, "a:me", "anon-X")
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want || changed != c.changed || !slices.Equal(seats, c.seats) {
				t.Errorf("got %s %v (changed %v),\nwant %s %v (%v)", got, seats, changed, c.want, c.seats, c.changed)
			}
		})
	}
	if _, _, _, err := scrubEvent(json.RawMessage(`{"event":{"entries":{}},"daily":{"owners":["a:me"]}}`), nil, "a:me", "anon-X"); err == nil {
		t.Errorf("an event whose entries are not a list: no error")
	}
}

func TestAccountStates(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testAccountStates(t, filepath.Join(t.TempDir(), "pitch.db")) })
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PITCH_TEST_POSTGRES")
		if base == "" {
			t.Skip("PITCH_TEST_POSTGRES is not set")
		}
		testAccountStates(t, storetest.FreshPostgres(t, base))
	})
}

// testAccountStates: an enabled, a disabled and a deleted account, and
// more IDs than one query takes.
func testAccountStates(t *testing.T, dsn string) {
	t.Helper()
	s := open(t, dsn)
	a, b, c := mustAccount(t, s, "Ada"), mustAccount(t, s, "Bob"), mustAccount(t, s, "Cy")
	if err := s.SetDisabled(ctx, b, true); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAccount(ctx, c, "anon-1"); err != nil {
		t.Fatal(err)
	}
	ids := []string{a, b, c}
	for i := range 1200 {
		ids = append(ids, fmt.Sprint("nobody-", i))
	}
	got, err := s.AccountStates(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{a: false, b: true}; !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, err := s.AccountStates(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("no IDs: %v %v", got, err)
	}
	// TournamentsHolding: the exact string, not a LIKE pattern's match.
	for _, tr := range []struct{ id, data string }{
		{"e1", `{"daily":{"owners":["a:id_1","g:00"]}}`},
		{"e2", `{"daily":{"owners":["a:idX1"]}}`},
		{"e3", `{"daily":{"owners":["A:ID_1"]}}`},
		{"e4", `{"event":{"entries":[{"name":"a:id_1"}]}}`},
	} {
		if err := s.CreateTournament(ctx, &Tournament{ID: tr.id, Data: json.RawMessage(tr.data)}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.TournamentVersions(ctx, []string{"e1", "e2", "nosuch"}); err != nil || !maps.Equal(got, map[string]int{"e1": 1, "e2": 1}) {
		t.Errorf("TournamentVersions: %v %v", got, err)
	}
	for _, c := range []struct {
		text string
		want []string
	}{
		{"a:id_1", []string{"e1", "e4"}},
		{"a:id%", nil},
		{"g:00", []string{"e1"}},
	} {
		if got, err := s.TournamentsHolding(ctx, c.text); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("TournamentsHolding(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
}
