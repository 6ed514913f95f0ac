package rating

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"
)

// botFiles are the bot levels' ratings, one file a game, made by
// `pitch sim --ratings` (docs/ratings.md says the command) and fixed for
// a release.
//
//go:embed bots/*.json
var botFiles embed.FS

// bots returns variant → level → rating, read from botFiles once
// (TestBots checks that they read).
var bots = sync.OnceValues(readBots)

func readBots() (map[string]map[string]Rating, error) {
	files, err := botFiles.ReadDir("bots")
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]Rating{}
	for _, f := range files {
		b, err := botFiles.ReadFile(path.Join("bots", f.Name()))
		if err != nil {
			return nil, err
		}
		var v struct {
			Variant string `json:"variant"`
			Levels  []struct {
				Level  string `json:"level"`
				Rating Rating `json:"rating"`
			} `json:"levels"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("rating: bots/%s: %v", f.Name(), err)
		}
		if v.Variant+".json" != f.Name() {
			return nil, fmt.Errorf("rating: bots/%s holds the ratings of %q", f.Name(), v.Variant)
		}
		out[v.Variant] = map[string]Rating{}
		for _, l := range v.Levels {
			if err := check([][]Rating{{l.Rating}, {l.Rating}}, nil); err != nil {
				return nil, fmt.Errorf("rating: bots/%s, level %s: %v", f.Name(), l.Level, err)
			}
			out[v.Variant][l.Level] = l.Rating
		}
	}
	return out, nil
}

// Bot returns the fixed rating of a bot level in a game (variant as
// pitch.Variant.String names it), and whether there is one. Bots' ratings
// do not move with the matches they play at tables: they come from
// `pitch sim --ratings` and change only with a release.
func Bot(variant, level string) (Rating, bool) {
	all, err := bots()
	if err != nil {
		return Rating{}, false
	}
	r, ok := all[variant][strings.ToLower(level)]
	return r, ok
}
