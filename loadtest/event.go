package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// Event mode (Config.Event): the load is one progressive event of
// Config.Event people (docs/events.md), as a club night runs it. The run
// creates the event, joins every person, and as its host starts each
// round; each person asks where they sit (POST /api/events/ID/me) and
// plays that table over its WebSocket like any other client, so the
// latency measured is that of event tables, all in play at once. When a
// round is over at every table the host starts the next, until the
// event's rounds are played or time is up. Each person also follows the
// event's page over its WebSocket (follow.go): the bytes each phone
// receives are measured.

// eventSeat is where a person sits in the round in progress.
type eventSeat struct {
	Entry     int    `json:"entry"`
	Round     int    `json:"round"`
	Table     string `json:"table"`
	Seat      int    `json:"seat"`
	SeatToken string `json:"seat_token"`
}

// checkEvent checks the event mode's settings.
func checkEvent(cfg *Config) error {
	if cfg.Event < 1 || cfg.Event > 1000 {
		return fmt.Errorf("an event's people must be 1 to 1000, not %d", cfg.Event)
	}
	if cfg.EventRounds == 0 {
		cfg.EventRounds = 3
	}
	if cfg.EventHands == 0 {
		cfg.EventHands = 2
	}
	if cfg.EventRounds < 1 || cfg.EventRounds > 20 || cfg.EventHands < 1 || cfg.EventHands > 50 {
		return fmt.Errorf("an event has 1 to 20 rounds of 1 to 50 hands, not %d of %d", cfg.EventRounds, cfg.EventHands)
	}
	return nil
}

// event runs the event: setup (before r.start), then its rounds.
func (r *run) event(ctx context.Context, rep *Report) {
	var once sync.Once
	ready := func() { once.Do(r.ready.Done) }
	defer ready()
	settings := map[string]any{"variant": r.cfg.Variant, "rounds": r.cfg.EventRounds, "end": "hands", "hands": r.cfg.EventHands,
		"movement": "progressive", "switch_partners": true, "head_stays": true}
	if r.cfg.Options != nil {
		settings["options"] = r.cfg.Options
	}
	var created struct{ ID, Token string }
	if !r.must(ctx, "create the event", "POST", "/api/events", settings, &created) {
		return
	}
	r.mu.Lock()
	rep.Event, rep.EventHost = created.ID, created.Token
	r.mu.Unlock()
	// Each person follows the event as their phone's page does, from
	// the moment they have joined until it is over (or the run ends).
	tokens := make([]string, r.cfg.Event)
	fls := make([]*follower, len(tokens))
	fctx, fcancel := context.WithCancel(context.WithoutCancel(ctx))
	var fwg sync.WaitGroup
	for i := range tokens {
		if i > 0 && r.cfg.EventJoinGap > 0 {
			sleep(ctx, r.cfg.EventJoinGap)
		}
		var j struct{ Token string }
		if !r.must(ctx, "join the event", "POST", "/api/events/"+created.ID+"/join", map[string]string{"name": fmt.Sprintf("Player %d", i+1)}, &j) {
			fcancel()
			fwg.Wait()
			return
		}
		tokens[i] = j.Token
		fls[i] = &follower{}
		fwg.Add(1)
		go func() {
			defer fwg.Done()
			r.follow(fctx, created.ID, j.Token, fls[i])
		}()
	}
	defer func() {
		// The last changes reach everyone within moments of the end;
		// a run cut short stops them.
		if ctx.Err() != nil {
			fcancel()
		}
		stop := time.AfterFunc(15*time.Second, fcancel)
		fwg.Wait()
		stop.Stop()
		fcancel()
		if ctx.Err() == nil {
			r.followed(context.WithoutCancel(ctx), created.ID, fls, rep)
		}
	}()
	host := map[string]string{"token": created.Token}
	for round := 1; ctx.Err() == nil; round++ {
		if round > 1 && !r.roundOver(ctx, created.ID) {
			return
		}
		if !r.must(ctx, fmt.Sprintf("start round %d", round), "POST", "/api/events/"+created.ID+"/start", host, &struct{}{}) {
			return
		}
		seats := make([]eventSeat, len(tokens))
		tables := map[string]bool{}
		for i, tok := range tokens {
			if !r.must(ctx, "ask where one sits", "POST", "/api/events/"+created.ID+"/me", map[string]string{"token": tok}, &seats[i]) {
				return
			}
			if seats[i].Table != "" { // "" sits out the round (a bye)
				tables[seats[i].Table] = true
			}
		}
		if round == 1 {
			r.mu.Lock()
			rep.Tables = len(tables)
			r.mu.Unlock()
			ready()
			select {
			case <-r.start:
			case <-ctx.Done():
				return
			}
		}
		var wg sync.WaitGroup
		for i, s := range seats {
			if s.Table == "" {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(r.cfg.Seed, uint64(round)<<16|uint64(i)))
				r.seat(ctx, s.Table, s.Seat, s.SeatToken, rng, func() {})
			}()
		}
		wg.Wait()
		if ctx.Err() != nil {
			return
		}
		r.finished.Add(int64(len(tables)))
		if round == r.cfg.EventRounds {
			r.roundOver(ctx, created.ID)
			return
		}
	}
}

// roundOver waits until the event has every result of its round in
// progress (each table's reaches it just after its last action).
func (r *run) roundOver(ctx context.Context, id string) bool {
	for ctx.Err() == nil {
		var ev struct{ State string }
		if err := r.call(ctx, "GET", "/api/events/"+id, nil, &ev); err == nil && (ev.State == "between" || ev.State == "over") {
			return true
		}
		sleep(ctx, 50*time.Millisecond)
	}
	return false
}

// must makes a request of the event, again while the server cannot be
// reached (a restart) if the run reconnects; false when it failed for
// good or time is up.
func (r *run) must(ctx context.Context, what, method, path string, body, out any) bool {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := r.call(ctx, method, path, body, out)
		if err == nil {
			return true
		}
		if ref := (*refusal)(nil); errors.As(err, &ref) {
			r.refuse(ref)
			return false
		}
		if ctx.Err() != nil {
			return false
		}
		var status *statusError
		if !r.cfg.Reconnect || errors.As(err, &status) {
			r.fail("%s: %v", what, err)
			return false
		}
		sleep(ctx, backoff)
		backoff = min(2*backoff, 2*time.Second)
	}
	return false
}
