package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"pitch/server"
	"pitch/server/wire"
	"pitch/store"
	"pitch/web"
)

// TestStateDeltaJS: the page's reducer (static/js/table/statedelta.js),
// under Node, makes of each protocol-2 message what Go's (wire.Held)
// makes of it, over the messages a spectator is sent through whole
// matches of bots in each game, recorded from a real server; and both
// refuse a delta from a version not held (the page then asks for the
// whole state).
func TestStateDeltaJS(t *testing.T) {
	node := nodePath()
	if node == "" {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pitch.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(ctx, st, server.Options{BotDelay: time.Millisecond, AwayDelay: time.Minute, Static: web.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	type step struct {
		Msg  json.RawMessage `json:"msg"`
		Want json.RawMessage `json:"want"` // what Go holds after it; null: refused
	}
	var steps []step
	for _, tc := range []struct{ variant, target, seats string }{
		{"pawnee", "21", `[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]`},
		{"ten-point", "21", `[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]`},
		{"auction", "5", `[{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"},{"kind":"bot","level":"easy"}]`},
	} {
		id := (&site{browser: &browser{t: t}, url: ts.URL}).createAPI(fmt.Sprintf(`{"variant":%q,"options":{"target":%s},"seats":%s}`, tc.variant, tc.target, tc.seats))
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/tables/"+id+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 22)
		if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","protocol":2,"ops":["copy","push"]}`)); err != nil {
			t.Fatal(err)
		}
		var held wire.Held
		deltas := 0
		for over := false; !over; {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("%s: %v (after %d messages)", tc.variant, err, len(steps))
			}
			var head struct {
				Type string
				Over bool `json:"match_over"`
			}
			if err := json.Unmarshal(data, &head); err != nil {
				t.Fatal(err)
			}
			switch head.Type {
			case "state":
				err = held.Reset(data)
			case "delta":
				deltas++
				err = held.Apply(data)
			default:
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v: %s", tc.variant, err, data)
			}
			steps = append(steps, step{Msg: data, Want: held.JSON(nil)})
			var now struct {
				Over bool `json:"match_over"`
			}
			if err := json.Unmarshal(steps[len(steps)-1].Want, &now); err != nil {
				t.Fatal(err)
			}
			over = now.Over
		}
		ws.CloseNow()
		if deltas < 20 {
			t.Fatalf("%s: %d deltas over a whole match", tc.variant, deltas)
		}
		// Out of step: the last delta again (its base is no longer held).
		last := steps[len(steps)-1]
		if err := held.Apply(last.Msg); err != wire.ErrOutOfStep {
			t.Fatalf("%s: a delta applied twice: %v, want ErrOutOfStep", tc.variant, err)
		}
		steps = append(steps, step{Msg: last.Msg, Want: json.RawMessage("null")})
	}
	// The ops a match may not have sent (a push needs fair deals with
	// players' contributions): server/wire's TestDeltaOps states.
	ops, err := os.ReadFile(filepath.Join("..", "server", "wire", "testdata", "deltaops.json"))
	if err != nil {
		t.Fatal(err)
	}
	var states []json.RawMessage
	if err := json.Unmarshal(ops, &states); err != nil {
		t.Fatal(err)
	}
	var tr wire.Tracker
	var held wire.Held
	sent := ""
	for i, s := range states {
		delta, _, err := tr.Track(nil, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		msg := delta
		if i == 0 {
			msg = wire.AppendVersioned(nil, s, tr.Version())
			err = held.Reset(msg)
		} else {
			err = held.Apply(delta)
		}
		if err != nil {
			t.Fatalf("deltaops.json state %d: %v", i+1, err)
		}
		sent += string(msg)
		steps = append(steps, step{Msg: msg, Want: held.JSON(nil)})
	}
	for _, op := range []string{`"copy":`, `"push":`, `"view.trick":[{"seat":1,"card":"KS"}]`} {
		if !strings.Contains(sent, op) {
			t.Errorf("deltaops.json's deltas have no %s", op)
		}
	}
	dir := t.TempDir()
	in, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "steps.json"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	mod, err := filepath.Abs("static/js/table/statedelta.js")
	if err != nil {
		t.Fatal(err)
	}
	script := `
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { applyDelta } from ` + "'file://" + filepath.ToSlash(mod) + `';
const steps = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let held = null, deltas = 0, refused = 0;
for (const [i, { msg, want }] of steps.entries()) {
  let got;
  if (msg.type === 'state') got = msg;
  else {
    deltas++;
    got = applyDelta(held, msg);
    if (got === null) refused++;
  }
  if (!isDeepStrictEqual(got, want)) {
    console.log(JSON.stringify({ error: 'step ' + i, got, want, msg }));
    process.exit(0);
  }
  if (got !== null) held = got;
}
console.log(JSON.stringify({ steps: steps.length, deltas, refused }));
`
	sp := filepath.Join(dir, "run.mjs")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, sp, filepath.Join(dir, "steps.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var res struct {
		Error          string
		Steps, Refused int
		Deltas         int
		Got, Want, Msg any
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node said %s: %v", out, err)
	}
	if res.Error != "" {
		t.Fatalf("%s: applyDelta gave\n%v\nGo holds\n%v\n(delta %v)", res.Error, res.Got, res.Want, res.Msg)
	}
	if res.Steps != len(steps) || res.Refused != 3 {
		t.Errorf("node went through %d messages of %d, refused %d deltas, want 3", res.Steps, len(steps), res.Refused)
	}
	t.Logf("%d messages, %d deltas", res.Steps, res.Deltas)
}
