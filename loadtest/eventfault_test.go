package loadtest

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"pitch/event"
	"pitch/store"
)

// clockEvent is what the test reads of an event on the clock.
type clockEvent struct {
	State  string     `json:"state"`
	EndsAt *time.Time `json:"ends_at"`
	LeftMS *int64     `json:"left_ms"`
}

func getEvent(t *testing.T, addr, id string, out any) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/events/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET event %s: %s %v", id, resp.Status, err)
	}
}

// TestKillDuringEvent kills the server with SIGKILL in the middle of the
// first round of a 12-person progressive event (3 tables of 10 Point
// Pitch, 2 rounds of 2 hands, driven by the load test's event mode) and
// starts it again on the same database: the people reconnect, the round
// is finished, the second round is seated by the movement from the first
// round's results exactly as the event's rules say, the standings are
// the sums of the tables' results as the store's hands have them, no
// action a client was told of is lost, and another event's round clock
// ends when it did before the kill.
func TestKillDuringEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildPitch(t)
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "pitch.db")
	srv := startServer(t, bin, addr, db)

	// An event on the clock, its round under way: its clock must survive.
	var clock struct{ ID, Token string }
	post(t, "http://"+addr+"/api/events", `{"variant":"ten-point","rounds":2,"end":"clock","minutes":30,"movement":"mixed"}`, &clock)
	for _, name := range []string{"A", "B", "C", "D"} {
		post(t, "http://"+addr+"/api/events/"+clock.ID+"/join", `{"name":"`+name+`"}`, &struct{}{})
	}
	post(t, "http://"+addr+"/api/events/"+clock.ID+"/start", `{"token":"`+clock.Token+`"}`, &struct{}{})
	var before clockEvent
	getEvent(t, addr, clock.ID, &before)

	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := Run(context.Background(), Config{URL: "http://" + addr, Event: 12, EventRounds: 2, EventHands: 2, Duration: 90 * time.Second,
			Variant: "ten-point", Think: 20 * time.Millisecond, Seed: 5, Reconnect: true, Trace: true})
		done <- result{rep, err}
	}()
	// The kill: once the event's three tables are in play (and the clock
	// event's one), after a little play.
	deadline := time.Now().Add(30 * time.Second)
	for {
		var st serverStats
		resp, err := http.Get("http://" + addr + "/api/stats")
		if err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
		}
		if st.Tables >= 4 && st.Connections >= 12 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the event's tables did not start: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.Wait() //nolint:errcheck
	time.Sleep(300 * time.Millisecond)
	again := startServer(t, bin, addr, db)
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	rep := res.rep
	if rep.Reconnects == 0 {
		t.Error("no client reconnected: was the server killed while they played?")
	}
	if rep.Errors != 0 {
		t.Errorf("%d errors: %v", rep.Errors, rep.ErrorSamples)
	}
	if rep.Event == "" || rep.Tables != 3 || rep.Finished != 6 {
		t.Fatalf("event %q: %d tables a round, %d finished; want 3 a round, 6 in all", rep.Event, rep.Tables, rep.Finished)
	}
	var after clockEvent
	getEvent(t, addr, clock.ID, &after)
	if after.State != "playing" || after.EndsAt == nil || !after.EndsAt.Equal(*before.EndsAt) || *after.LeftMS > *before.LeftMS {
		t.Errorf("the clock event after the kill: %+v (ends %v), before %+v (ends %v): want its round playing to the same end",
			after, after.EndsAt, before, before.EndsAt)
	}

	stopServer(t, again) // a SQLite file is one process's: the server's, until it stops
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for table, seen := range rep.Seen {
		events, err := st.Events(context.Background(), table)
		if err != nil {
			t.Fatal(err)
		}
		if len(events) < seen {
			t.Errorf("table %s: clients were told of %d events; the log holds %d", table, seen, len(events))
		}
		for seq, sent := range rep.Confirmed[table] {
			if seq >= len(events) || !sameAction(sent, events[seq].Action) {
				t.Errorf("table %s: confirmed action %d (%s) is not in the log as sent", table, seq, sent)
			}
		}
	}
	rec, err := st.Tournament(context.Background(), rep.Event)
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Event  *event.Event `json:"event"`
		Tables [][]string   `json:"tables"`
	}
	if err := json.Unmarshal(rec.Data, &data); err != nil {
		t.Fatal(err)
	}
	ev := data.Event
	if !ev.Over() || len(ev.Rounds) != 2 || !rec.Finished {
		t.Fatalf("the event after the kill: over %v, %d rounds, stored finished %v", ev.Over(), len(ev.Rounds), rec.Finished)
	}
	// Each table's result is its stored hands'.
	total := map[int]int{}
	for r, round := range ev.Rounds {
		for ti, tab := range round.Tables {
			hands, err := st.Hands(context.Background(), data.Tables[r][ti])
			if err != nil {
				t.Fatal(err)
			}
			if tab.Result == nil || len(tab.Result.Hands) != len(hands) || len(hands) == 0 {
				t.Fatalf("round %d table %d: result %+v, %d hands stored", r+1, ti+1, tab.Result, len(hands))
			}
			sum := make([]int, len(tab.Seats))
			for _, h := range tab.Result.Hands {
				for s, d := range h {
					sum[s] += d
				}
			}
			if !slices.Equal(sum, tab.Result.Scores) {
				t.Errorf("round %d table %d: hands %v do not add up to the scores %v", r+1, ti+1, tab.Result.Hands, tab.Result.Scores)
			}
			for s, id := range tab.Seats {
				if id >= 0 {
					total[id] += tab.Result.Scores[s]
				}
			}
		}
	}
	// The movement: round 2 is what the rules seat from round 1's results.
	redo := *ev
	redo.Rounds = slices.Clone(ev.Rounds[:1])
	want, err := redo.NextRound()
	if err != nil {
		t.Fatal(err)
	}
	for ti := range want.Tables {
		if !slices.Equal(want.Tables[ti].Seats, ev.Rounds[1].Tables[ti].Seats) {
			t.Errorf("round 2 table %d seats %v; the movement from round 1 gives %v", ti+1, ev.Rounds[1].Tables[ti].Seats, want.Tables[ti].Seats)
		}
	}
	for _, s := range ev.Standings() {
		if s.Total != total[s.Entry] || s.Rounds != 2 {
			t.Errorf("%s: total %d over %d rounds, want %d over 2", s.Name, s.Total, s.Rounds, total[s.Entry])
		}
	}
}
