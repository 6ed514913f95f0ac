package loadtest

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// TestClubNightOneAddress plays a club night as a club's WiFi shows it to
// the server: 200 phones behind one address (more than the 80 a hall
// holds), a four-round progressive event of 10 Point Pitch with the
// server's default limits (docs/events.md, "A club on one WiFi"). People
// arrive 25 ms apart, each follows the event's page and plays their
// table as a phone does. Nothing is refused, no connection is closed on
// anyone, no stand-in or timer plays for a person who is there, every
// table of every round finishes, each phone ends holding the event the
// server shows, and each phone received under 100 KB from the event's
// page over the whole night (the changes, not the event again after
// every change).
func TestClubNightOneAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildPitch(t)
	addr := freeAddr(t)
	srv, logs := startServerFlags(t, bin, addr, filepath.Join(t.TempDir(), "pitch.db")) // the default limits
	const people, rounds = 200, 4
	rep, err := Run(context.Background(), Config{URL: "http://" + addr, Event: people, EventRounds: rounds, EventHands: 1,
		EventJoinGap: 25 * time.Millisecond, Variant: "ten-point", Think: 20 * time.Millisecond, Seed: 11, Duration: 5 * time.Minute})
	if err != nil {
		t.Fatalf("%v\nthe server's log:\n%s", err, logs.String())
	}
	if rep.Errors != 0 || len(rep.Closes) != 0 {
		t.Errorf("%d errors %v, connections closed %v", rep.Errors, rep.ErrorSamples, rep.Closes)
	}
	if want := people / 4 * rounds; rep.Finished != want {
		t.Errorf("%d tables finished, want %d (%d a round, %d rounds)", rep.Finished, want, people/4, rounds)
	}
	if rep.StandIns != 0 || rep.TimerMoves != 0 {
		t.Errorf("actions made for people who were there: %d by the stand-in, %d by the timer", rep.StandIns, rep.TimerMoves)
	}
	if rep.Followers != people || rep.FollowMismatch != 0 {
		t.Errorf("%d followers, %d holding an event other than the server's", rep.Followers, rep.FollowMismatch)
	}
	if rep.FollowMaxBytes >= 100_000 {
		t.Errorf("a phone received %d bytes from the event's page (%d messages), want under 100 KB", rep.FollowMaxBytes, rep.FollowMaxMessages)
	}
	// The server counted no refusal of any kind.
	resp, err := http.Get("http://" + addr + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var health struct {
		Refused map[string]int `json:"refused"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&health); err != nil {
		t.Fatal(err)
	}
	for kind, n := range health.Refused {
		if n != 0 {
			t.Errorf("the server refused %d× %s", n, kind)
		}
	}
	t.Logf("%d phones on one address: %d actions, p99 %s; each phone received %.1f KB on average, at most %.1f KB in %d messages",
		people, rep.Actions, rep.P99, float64(rep.FollowMeanBytes)/1000, float64(rep.FollowMaxBytes)/1000, rep.FollowMaxMessages)
	stopServer(t, srv)
}
