package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/server"
	"pitch/store"
)

// reference decodes data with json.Unmarshal, as the client did before
// decodeState: the fields of state, and the sheet's rows counted.
func reference(data []byte) (state, error) {
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return st, err
	}
	var sheet struct {
		Sheet []json.RawMessage `json:"sheet"`
	}
	if err := json.Unmarshal(data, &sheet); err != nil {
		return st, err
	}
	st.Hands = len(sheet.Sheet)
	return st, nil
}

// checkDecode compares decodeState with json.Unmarshal on one message.
func checkDecode(t *testing.T, data []byte) state {
	t.Helper()
	want, werr := reference(data)
	var got state
	gerr := decodeState(data, &got)
	if (gerr != nil) != (werr != nil) {
		t.Fatalf("decodeState error %v, json.Unmarshal error %v, on %s", gerr, werr, data)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeState gives\n%+v\njson.Unmarshal\n%+v\non %s", got, want, data)
	}
	return got
}

// TestDecodeState: the load test's client reads every message a real
// server sends a seat over whole matches of each game (fair deals, bots
// at the other seats), and errors, exactly as json.Unmarshal reads them.
func TestDecodeState(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pitch.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{BotDelay: time.Millisecond, AwayDelay: time.Minute, DealWait: 10 * time.Millisecond, AddrRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	defer srv.Close()
	for i, g := range []struct{ variant, seats, target string }{
		{"pawnee", `[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]`, "21"},
		{"ten-point", `[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]`, "21"},
		{"auction", `[{"kind":"human"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]`, "5"},
	} {
		t.Run(g.variant, func(t *testing.T) {
			var info struct{ ID string }
			post(t, hs.URL+"/api/tables", fmt.Sprintf(`{"variant":%q,"seats":%s,"options":{"target":%s}}`, g.variant, g.seats, g.target), &info)
			var j struct{ Token string }
			post(t, hs.URL+"/api/tables/"+info.ID+"/join", `{"seat":0,"name":"me"}`, &j)
			c := dialSeat(ctx, t, "ws"+strings.TrimPrefix(hs.URL, "http")+"/api/tables/"+info.ID+"/ws", j.Token)
			defer c.CloseNow()
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			states, errs := 0, 0
			// send keeps every message, not only the actions, to the
			// server's limit of 10 a second on a connection, as the load
			// test's client does (writeGap): a message over it is dropped,
			// and a match long enough took the bucket's 20 to nothing (an
			// action every 105 ms and, unpaced, a contribution to each
			// fair deal, sent again on every state until the server showed
			// it, and the refused actions); the dropped action was never
			// answered and the test waited out its context.
			var last time.Time // the last message sent
			send := func(msg []byte) {
				t.Helper()
				time.Sleep(time.Until(last.Add(writeGap)))
				last = time.Now()
				if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
					t.Fatal(err)
				}
			}
			answered := "" // the commitment contributed to
			for {
				_, data, err := c.Read(ctx)
				if err != nil {
					t.Fatalf("after %d states: %v", states, err)
				}
				m := checkDecode(t, data)
				if m.Type == "error" {
					if strings.Contains(string(data), `"code":"rate_`) { // a message dropped: an action may be lost
						t.Fatalf("after %d states, over the server's rate limit: %s", states, data)
					}
					errs++
					continue
				}
				states++
				if m.Over {
					break
				}
				if f := m.Fair; f != nil && f.Next != nil && len(f.Next.Contributed) == 0 && f.Next.Commitment != answered && rng.IntN(2) == 0 {
					answered = f.Next.Commitment
					send(fmt.Appendf(nil, `{"type":"contribute","commitment":%q,"value":"%064x"}`, f.Next.Commitment, rng.Uint64()))
				}
				if m.View.Turn != 0 {
					continue
				}
				if rng.IntN(20) == 0 || errs == 0 { // now and then a refused action: an error message
					send([]byte(`{"type":"action","action":{"seat":0,"bid":99}}`))
				}
				if a := choose(&m, 0, rng); a != nil {
					send(fmt.Appendf(nil, `{"type":"action","action":%s}`, a))
				}
			}
			if states < 20 || errs == 0 {
				t.Errorf("%d states and %d errors read, want a whole match and some errors", states, errs)
			}
		})
	}
	// Shapes the server does not write today, read alike all the same.
	for _, data := range []string{
		` { "type" : "state" , "seq" : 12 , "seat":-1, "view" : { "hand":["AS"], "turn" : 3 } , "legal" : [ {"seat":3,"pass":true} , {"seat":3,"bid":"x\"]}"} ] , "sheet":[[1,{"a":"}"}],2] , "match_over":true } `,
		`{"type":"error","message":"caf\u00e9 \"quoted\" \\ ☕","code":"x"}`,
		`{"type":"state","seq":-0,"view":null,"legal":null,"sheet":null,"match_over":false,"fair":null,"discard":null}`,
		`{"type":"state","seq":1e2}`,
		`{"type":"state","seq":007}`,
		`{"type":"state","seq":"x"}`,
		`{"type":"state","view":{"turn":1.5}}`,
		`{"type":"bad \xff byte"}`,
		`{"type":"state"`,
		`[1,2]`,
		`null`,
		``,
		`{"type":"state"} x`,
		`{"fair":{"dealing":true,"next":null,"last":{"hand":1}}}`,
		`{"fair":{"next":{"contributed":[],"shared":true}}}`,
		`{"fair":{"next":{"contributed":null,"commitment":"a\u0062"}}}`,
		`{"fair":{"next":{"contributed":["x"]}}}`,
		`{"fair":[]}`,
		`{"discard":{"must":["AS"],"pool":["2C","3C"],"choose":1,"kind":"discard"},"fair":{"next":{"commitment":"ab","contributed":[0,2]}}}`,
	} {
		checkDecode(t, []byte(data))
	}
}
