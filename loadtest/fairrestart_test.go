package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestFairCommitmentSurvivesRestart: a table's next commitment, shown to
// a page that then sent its value, is the same after the server is killed
// (SIGKILL) or stopped (SIGTERM) and started again on the same database,
// and the value is still listed: a restart cannot re-draw a pending deal
// (docs/fairness.md, issue 30 B).
func TestFairCommitmentSurvivesRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildPitch(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			addr := freeAddr(t)
			db := filepath.Join(t.TempDir(), "pitch.db")
			srv := startServer(t, bin, addr, db)
			base := "http://" + addr
			// Two people and two bots; the second person never joins, so
			// hand 1 is not due and its commitment stays pending.
			var info struct{ ID string }
			post(t, base+"/api/tables", `{"variant":"auction","seats":[{"kind":"human"},{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]}`, &info)
			var j struct{ Token string }
			post(t, base+"/api/tables/"+info.ID+"/join", `{"seat":0,"name":"Ada"}`, &j)
			ws := "ws://" + addr + "/api/tables/" + info.ID + "/ws"

			c := dialSeat(ctx, t, ws, j.Token)
			first := nextFair(ctx, t, c, func(n *fairNext) bool { return n != nil })
			value := strings.Repeat("5a", 32)
			msg := fmt.Sprintf(`{"type":"contribute","commitment":%q,"value":%q}`, first.Commitment, value)
			if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
				t.Fatal(err)
			}
			nextFair(ctx, t, c, func(n *fairNext) bool { return n != nil && len(n.Contributed) == 1 && n.Contributed[0] == 0 })
			c.CloseNow()

			if err := srv.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			srv.Wait() //nolint:errcheck
			startServer(t, bin, addr, db)
			c = dialSeat(ctx, t, ws, j.Token)
			defer c.CloseNow()
			after := nextFair(ctx, t, c, func(n *fairNext) bool { return n != nil })
			if after.Hand != first.Hand || after.Commitment != first.Commitment || after.CommittedAt != first.CommittedAt {
				t.Errorf("after %s the next deal is hand %d, %s (%s); before it was hand %d, %s (%s)", sig,
					after.Hand, after.Commitment, after.CommittedAt, first.Hand, first.Commitment, first.CommittedAt)
			}
			if fmt.Sprint(after.Contributed) != "[0]" {
				t.Errorf("after %s the seats in are %v, want [0] (the value acknowledged before)", sig, after.Contributed)
			}
		})
	}
}

type fairNext struct {
	Hand        int    `json:"hand"`
	Commitment  string `json:"commitment"`
	CommittedAt string `json:"committed_at"`
	Contributed []int  `json:"contributed"`
}

func post(t *testing.T, url, body string, out any) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 && res.StatusCode != 201 {
		t.Fatalf("POST %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

func dialSeat(ctx context.Context, t *testing.T, url, token string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 20)
	if err := c.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(`{"type":"hello","token":%q}`, token))); err != nil {
		t.Fatal(err)
	}
	return c
}

// nextFair reads states until one's fair.next satisfies ok.
func nextFair(ctx context.Context, t *testing.T, c *websocket.Conn, ok func(*fairNext) bool) *fairNext {
	t.Helper()
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("waiting for a state: %v", err)
		}
		var m struct {
			Type string `json:"type"`
			Fair *struct {
				Next *fairNext `json:"next"`
			} `json:"fair"`
		}
		if json.Unmarshal(data, &m) != nil || m.Type != "state" || m.Fair == nil {
			continue
		}
		if ok(m.Fair.Next) {
			return m.Fair.Next
		}
	}
}
