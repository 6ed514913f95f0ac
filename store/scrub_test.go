package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
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
