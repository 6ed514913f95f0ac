package eventview

import (
	"slices"
	"testing"
)

// TestBotNumbers: a table's bot seats are numbered from 1 in seat order,
// people 0, as the table numbers its bots (tableinfo.Public).
func TestBotNumbers(t *testing.T) {
	for _, c := range []struct {
		bots []bool
		want []int
	}{
		{[]bool{false, true, false, true, true}, []int{0, 1, 0, 2, 3}},
		{[]bool{true, true, true, true}, []int{1, 2, 3, 4}},
		{[]bool{false, false}, []int{0, 0}},
		{nil, []int{}},
	} {
		if got := BotNumbers(c.bots); !slices.Equal(got, c.want) {
			t.Errorf("BotNumbers(%v) = %v, want %v", c.bots, got, c.want)
		}
	}
}
