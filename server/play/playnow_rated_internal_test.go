package play

import (
	"fmt"
	"testing"

	"pitch/server/tableinfo"
	"pitch/store"
)

// TestPlayNowRatedRule: who a rated play-now match is rated for
// (docs/ratings.md "Play now"): a person who played at least 3/4 of the
// match's hands in a seat up to its end or their leaving, a leaver as a
// loss; a late takeover (the farmer's 9-0 lead a few hands from the end)
// is rated for nobody and the seat counts as its bot; leaving and coming
// back does not undo a loss.
func TestPlayNowRatedRule(t *testing.T) {
	human := func(hand int, acct string) store.Holder {
		return store.Holder{Hand: hand, Kind: "human", Name: acct, Account: acct}
	}
	bot := func(hand int) store.Holder { return store.Holder{Hand: hand, Kind: "bot"} }
	seat := func(hs ...store.Holder) store.Seat {
		last := hs[len(hs)-1]
		return store.Seat{Kind: last.Kind, Name: last.Name, Account: last.Account, Holders: hs}
	}
	for _, tc := range []struct {
		name  string
		hands int
		seats []store.Seat
		want  string
	}{
		{"the creator against bots", 8, []store.Seat{seat(human(1, "ann")), seat(bot(1)), seat(bot(1))},
			"[{ann false 8} { false 0} { false 0}]"},
		{"a takeover at hand 2 of 8: 7 hands, rated", 8, []store.Seat{seat(human(1, "ann")), seat(bot(1), human(2, "bob")), seat(bot(1))},
			"[{ann false 8} {bob false 7} { false 0}]"},
		{"the farmer: a takeover 3 hands from the end, rated for nobody", 10, []store.Seat{seat(human(1, "ann")), seat(bot(1), human(8, "far")), seat(bot(1))},
			"[{ann false 10} { false 0} { false 0}]"},
		{"a takeover at hand 3 of 8: 6 hands, exactly 3/4", 8, []store.Seat{seat(human(1, "ann")), seat(bot(1), human(3, "bob"))},
			"[{ann false 8} {bob false 6}]"},
		{"a takeover at hand 4 of 8: 5 hands, not rated", 8, []store.Seat{seat(human(1, "ann")), seat(bot(1), human(4, "bob"))},
			"[{ann false 8} { false 0}]"},
		{"leaving after hand 5: a loss", 9, []store.Seat{seat(human(1, "ann"), bot(6)), seat(bot(1))},
			"[{ann true 5} { false 0}]"},
		{"leaving and taking a seat back: still the loss", 9, []store.Seat{seat(human(1, "ann"), bot(6), human(7, "ann")), seat(bot(1))},
			"[{ann true 5} { false 0}]"},
		{"leaving and coming back in another seat: the loss only", 6, []store.Seat{seat(human(1, "ann"), bot(3)), seat(bot(1), human(3, "ann"))},
			"[{ann true 2} { false 0}]"},
		{"a late joiner who leaves: not yet rated, no loss", 8, []store.Seat{seat(human(1, "ann")), seat(bot(1), human(5, "bob"), bot(7))},
			"[{ann false 8} { false 0}]"},
		{"a guest counts as its bot", 8, []store.Seat{seat(human(1, "")), seat(bot(1))},
			"[{ false 0} { false 0}]"},
		{"left before playing a hand: nothing", 8, []store.Seat{seat(human(1, "ann")), seat(bot(1), human(2, "bob"), bot(2))},
			"[{ann false 8} { false 0}]"},
	} {
		got := playNowRated(tc.seats, tc.hands)
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, s, tc.want)
		}
	}
}

// TestPlayNowHeldAt: a hand's seats name who held each seat in that
// hand: the bot before a takeover, the person after, the bot again after
// they left.
func TestPlayNowHeldAt(t *testing.T) {
	tb := &store.Table{PlayNow: true, Variant: "auction", Seats: []store.Seat{
		{Seat: 0, Kind: "human", Name: "Ann", TokenHash: []byte{1}, Holders: []store.Holder{{Hand: 1, Kind: "human", Name: "Ann"}}},
		{Seat: 1, Kind: "human", Name: "Bob", TokenHash: []byte{2}, TookOver: &store.TookOver{Bot: 1, Hand: 3},
			Holders: []store.Holder{{Hand: 1, Kind: "bot"}, {Hand: 3, Kind: "human", Name: "Bob"}}},
		{Seat: 2, Kind: "bot", Level: "medium", Holders: []store.Holder{{Hand: 1, Kind: "bot"}, {Hand: 2, Kind: "human", Name: "Cy"}, {Hand: 4, Kind: "bot"}}},
	}}
	info := tableinfo.Public(tb, nil)
	for _, tc := range []struct {
		hand int
		want string
	}{{1, "[Ann Bot 1 Bot 2]"}, {2, "[Ann Bot 1 Cy]"}, {3, "[Ann Bob Cy]"}, {4, "[Ann Bob Bot 2]"}, {9, "[Ann Bob Bot 2]"}} {
		var names []string
		for _, s := range tableinfo.HeldAt(info.Seats, tc.hand) {
			names = append(names, s.Name)
		}
		if got := fmt.Sprint(names); got != tc.want {
			t.Errorf("hand %d: %s, want %s", tc.hand, got, tc.want)
		}
	}
	if info.Seats[0].Holders != nil || len(info.Seats[1].Holders) != 2 || info.Seats[1].Holders[0].Bot != 1 {
		t.Errorf("holders sent: %+v / %+v; want none for a seat that never changed hands, Bot 1 then Bob", info.Seats[0].Holders, info.Seats[1].Holders)
	}
}
