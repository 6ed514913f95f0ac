package loadtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/store"
)

// TestKillDuringTakeover kills `pitch serve` with SIGKILL again and
// again while people press Play (README.md "Play now") and the tables'
// drivers take bots' seats over at hand boundaries, and after each kill
// reads the database: every seat has exactly one owner — a person's seat
// has no pending claim left on it, a bot's seat at most one — and each
// person holds exactly the one seat or claim their hold names (at a
// table whose match is not over).
func TestKillDuringTakeover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildPitch(t)
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "pitch.db")
	base := "http://" + addr
	people := 0
	var tables []string
	for round := range 5 {
		srv := startServer(t, bin, addr, db)
		// Someone watches each play-now table, so that it plays (stand-ins
		// for the people, who are away) and reaches its hand boundaries.
		ctx, cancel := context.WithCancel(context.Background())
		for _, id := range tables { // the earlier rounds' tables play on, their claims pending through the kill
			go watchTable(ctx, base, id, nil)
		}
		first := pressPlay(t, base, fmt.Sprintf("person-browser-%09d", people), fmt.Sprintf("P%d", people))
		people++
		tables = append(tables, first)
		started := make(chan struct{})
		go watchTable(ctx, base, first, started)
		select { // hand 1 under way: the next are takeovers at its end
		case <-started:
		case <-time.After(startWait):
			t.Fatal("the table did not start")
		}
		for range 3 {
			pressPlay(t, base, fmt.Sprintf("person-browser-%09d", people), fmt.Sprintf("P%d", people))
			people++
			time.Sleep(50 * time.Millisecond)
		}
		// Kill at a different moment each round: mid-hand with the
		// takeovers pending, at the boundary where they are made, or after.
		time.Sleep(time.Duration(200+900*round) * time.Millisecond)
		if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		srv.Wait() //nolint:errcheck
		cancel()
		checkOwners(t, db, round, people)
	}
}

// pressPlay presses Play as a guest and returns the table's ID.
func pressPlay(t *testing.T, base, guest, name string) string {
	t.Helper()
	body := fmt.Sprintf(`{"variant":"auction","pace":"fast","guest":%q,"name":%q}`, guest, name)
	resp, err := http.Post(base+"/api/play", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var p struct {
		Table struct {
			ID string `json:"id"`
		} `json:"table"`
	}
	if resp.StatusCode/100 != 2 || json.Unmarshal(b, &p) != nil {
		t.Fatalf("play: %d %s", resp.StatusCode, b)
	}
	return p.Table.ID
}

// watchTable watches table id until ctx ends (or the server goes), and
// closes started once a move has been made there.
func watchTable(ctx context.Context, base, id string, started chan struct{}) {
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/tables/"+id+"/ws", nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 22)
	if ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`)) != nil {
		return
	}
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return
		}
		var m struct {
			Seq int `json:"seq"`
		}
		if started != nil && json.Unmarshal(data, &m) == nil && m.Seq > 0 {
			close(started)
			started = nil
		}
	}
}

// checkOwners reads the database a killed server left and checks that
// every seat of every play-now table has one owner.
func checkOwners(t *testing.T, db string, round, people int) {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tables, err := st.Tables(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	holders := map[string]string{} // a token hash: where it holds a seat or claim
	named := map[string][]string{} // a person's name: where they hold a seat or claim
	takeovers, claims := 0, 0
	for _, tb := range tables {
		if !tb.PlayNow {
			t.Errorf("round %d: table %s is not a play-now table", round, tb.ID)
		}
		for _, s := range tb.Seats {
			where := fmt.Sprintf("%s seat %d", tb.ID, s.Seat)
			if s.Kind == "human" && s.Claim != nil {
				t.Errorf("round %d: %s is %s's and still claimed by %s: two owners", round, where, s.Name, s.Claim.Name)
			}
			if s.Kind == "human" && s.TokenHash == nil {
				t.Errorf("round %d: %s is a person's with no token", round, where)
			}
			if s.TookOver != nil {
				takeovers++
			}
			// A finished or closed table's seats hold nobody through play
			// now any more (its match over, they may press Play again).
			live := !tb.Finished && !tb.Closed
			if s.Kind == "human" && live {
				named[s.Name] = append(named[s.Name], where)
			}
			if s.Claim != nil {
				claims++
				if live {
					named[s.Claim.Name] = append(named[s.Claim.Name], where)
				}
			}
			for _, h := range [][]byte{s.TokenHash, claimHash(s.Claim)} {
				if h == nil {
					continue
				}
				if other, ok := holders[string(h)]; ok {
					t.Errorf("round %d: one person holds %s and %s", round, other, where)
				}
				holders[string(h)] = where
			}
		}
	}
	for i := range people {
		name := fmt.Sprintf("P%d", i)
		if len(named[name]) > 1 {
			t.Errorf("round %d: %s holds %v", round, name, named[name])
		}
		h := sha256.Sum256([]byte(fmt.Sprintf("person-browser-%09d", i)))
		held, err := st.PlayNowHeld(context.Background(), "g:"+hex.EncodeToString(h[:]))
		switch {
		case err != nil && len(named[name]) > 0:
			t.Errorf("round %d: %s holds %v, but no hold names it: %v", round, name, named[name], err)
		case err == nil && (len(named[name]) != 1 || named[name][0] != fmt.Sprintf("%s seat %d", held.Table, held.Seat)):
			t.Errorf("round %d: %s's hold names %+v, but they hold %v", round, name, held, named[name])
		}
	}
	t.Logf("round %d: %d tables, %d seats or claims held, %d takeovers made, %d pending", round, len(tables), len(holders), takeovers, claims)
}

func claimHash(c *store.Claim) []byte {
	if c == nil {
		return nil
	}
	return c.TokenHash
}
