package tableinfo

import (
	"encoding/json"
	"fmt"
	"testing"

	"pitch/store"
)

// TestGameShared: tables with the same game share one *pitch.Game, tables
// with another get their own, and options made to fill the cache still
// get the game they asked for.
func TestGameShared(t *testing.T) {
	game := func(variant, opts string) *store.Table {
		return &store.Table{ID: "t", Variant: variant, Options: json.RawMessage(opts)}
	}
	a1, err := Game(game("pawnee", `{"target":42}`))
	if err != nil {
		t.Fatal(err)
	}
	a2, err := Game(game("pawnee", ``)) // the defaults: the same game
	if err != nil {
		t.Fatal(err)
	}
	if a1 != a2 {
		t.Error("two pawnee tables with the default options have a game each")
	}
	b, err := Game(game("pawnee", `{"target":21}`))
	if err != nil {
		t.Fatal(err)
	}
	if b == a1 || b.Options.Target != 21 || a1.Options.Target != 42 {
		t.Errorf("targets 42 and 21: games %p %p with targets %d %d", a1, b, a1.Options.Target, b.Options.Target)
	}
	for target := 1; target <= maxSharedGames+50; target++ {
		g, err := Game(game("auction", fmt.Sprintf(`{"target":%d}`, target)))
		if err != nil {
			t.Fatal(err)
		}
		if g.Options.Target != target {
			t.Fatalf("target %d: the game's target is %d", target, g.Options.Target)
		}
	}
	games.mu.Lock()
	n := len(games.m)
	games.mu.Unlock()
	if n > maxSharedGames {
		t.Errorf("%d games kept, more than the %d allowed", n, maxSharedGames)
	}
	if _, err := Game(game("pawnee", `{"target":0}`)); err == nil {
		t.Error("target 0 was accepted")
	}
}
