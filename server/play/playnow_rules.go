package play

// The house rules most played on this server (README.md "Play now"): the
// home page's second Play button of each game, beside the default rules'.

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"

	"pitch/server/httpx"
)

const (
	// popularWindow is how far back the tables counted for the most
	// played house rules were created.
	popularWindow = 30 * 24 * time.Hour
	// popularMin is how many tables a game's house rules need in the
	// window to be offered: one odd table makes no button.
	popularMin = 2
	// popularEvery is how old the count may be (the home page asks on
	// every visit).
	popularEvery = time.Minute
)

// popular is a game's most played house rules other than its default.
type popular struct {
	Variant string `json:"variant"`
	// Options are the rules as POST /api/play takes them (every option).
	Options json.RawMessage `json:"options"`
	// Differs holds the options whose value is not the default, for the
	// button's label.
	Differs map[string]any `json:"differs"`
	Tables  int            `json:"tables"` // how many tables played them in the window
}

// popularCache keeps the last count of the most played rules.
type popularCache struct {
	mu   sync.Mutex
	at   time.Time
	list []popular
}

// popularRules is, for each game, its most played house rules other
// than its default, when played at popularMin tables or more created in
// the last popularWindow, finished or in play: ties go to the rules
// whose latest table is newest. Games without any are left out.
func (s *Server) popularRules(ctx context.Context) ([]popular, error) {
	c := &s.popular
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.list != nil && time.Since(c.at) < popularEvery {
		return c.list, nil
	}
	counts, err := s.store.PopularRules(ctx, time.Now().Add(-popularWindow))
	if err != nil {
		return nil, httpx.StoreDown("most played house rules", err)
	}
	list := []popular{}
	for _, p := range counts {
		if p.Tables < popularMin || len(list) > 0 && list[len(list)-1].Variant == p.Variant {
			continue
		}
		g, opts, err := parseGame("", p.Variant, p.Options)
		if err != nil {
			continue // rules this version no longer takes
		}
		def, _, _ := parseGame("", p.Variant, nil)
		if bytes.Equal(opts, mustJSON(def.OptionMap())) {
			continue // the default rules: the first button
		}
		differs := map[string]any{}
		want := def.OptionMap()
		for k, v := range g.OptionMap() {
			if want[k] != v {
				differs[k] = v
			}
		}
		list = append(list, popular{Variant: g.Variant.String(), Options: opts, Differs: differs, Tables: p.Tables})
	}
	c.list, c.at = list, time.Now()
	return list, nil
}

// mustJSON is v as JSON, for values that always encode.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
