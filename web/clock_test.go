package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"pitch"
	"pitch/server"
)

// A seat played from the test over the WebSocket, beside the browser: the
// other people at a table.

// seatClient is a seated player's connection, keeping the newest state.
type seatClient struct {
	t     *testing.T
	c     *websocket.Conn
	mu    sync.Mutex
	last  wsState
	moved int // the seq of the state last moved in, plus one
}

// wsState is what the seat clients read of a state.
type wsState struct {
	Type   string `json:"type"`
	Seq    int    `json:"seq"`
	Seat   int    `json:"seat"`
	HandNo int    `json:"hand_no"`
	// MatchOver: the match has ended.
	MatchOver bool              `json:"match_over"`
	Legal     []json.RawMessage `json:"legal"`
	View      struct {
		Turn   int          `json:"turn"`
		Phase  string       `json:"phase"`
		Dealer int          `json:"dealer"`
		Bid    int          `json:"bid"`
		Hand   []pitch.Card `json:"hand"`
	} `json:"view"`
}

// connectSeat says hello to table id with a seat's token and reads its
// states until the test ends.
func connectSeat(t *testing.T, base, id, token string) *seatClient {
	t.Helper()
	return connectSeatAs(t, base, id, token, "")
}

// connectSeatAs is connectSeat with a Cookie header: a seat of an
// account's is played signed in to it.
func connectSeatAs(t *testing.T, base, id, token, cookie string) *seatClient {
	t.Helper()
	ctx := context.Background()
	var opts *websocket.DialOptions
	if cookie != "" {
		opts = &websocket.DialOptions{HTTPHeader: http.Header{"Cookie": {cookie}}}
	}
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/tables/"+id+"/ws", opts)
	if err != nil {
		t.Fatalf("connecting to %s: %v", id, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello","token":"`+token+`"}`)); err != nil {
		t.Fatalf("hello to %s: %v", id, err)
	}
	sc := &seatClient{t: t, c: c}
	go func() {
		for {
			_, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			var m wsState
			if json.Unmarshal(b, &m) == nil && m.Type == "state" {
				sc.mu.Lock()
				if m.Seq >= sc.last.Seq {
					sc.last = m
				}
				sc.mu.Unlock()
			}
		}
	}()
	return sc
}

// move makes the seat's first legal move if the newest state asks one of
// it (once a state); it reports whether it moved.
func (sc *seatClient) move() bool {
	sc.mu.Lock()
	m := sc.last
	sc.mu.Unlock()
	return sc.send(m, m.Legal)
}

// asked reports whether m asks the seat to move and it has not.
func (sc *seatClient) asked(m wsState) bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return m.Type == "state" && m.View.Turn == m.Seat && len(m.Legal) > 0 && sc.moved != m.Seq+1
}

// send makes the first of moves (legal actions as m offers them) in
// answer to m, if m asks the seat to move and it has not; it reports
// whether it moved.
func (sc *seatClient) send(m wsState, moves []json.RawMessage) bool {
	if !sc.asked(m) || len(moves) == 0 {
		return false
	}
	sc.mu.Lock()
	sc.moved = m.Seq + 1
	sc.mu.Unlock()
	msg := `{"type":"action","action":` + string(moves[0]) + `}`
	if err := sc.c.Write(context.Background(), websocket.MessageText, []byte(msg)); err != nil {
		sc.t.Fatalf("seat %d: %v", m.Seat, err)
	}
	return true
}

// countdownJS says where the countdown is (its seat, or -1 while none is
// counting or cards still fly), the state's seq, and what is wrong: the
// badge outside the felt (inside its border) or the viewport, and what
// seatsLayoutJS finds (boxes over each other or less than 2 px apart,
// or outside the felt's rounded edge, the countdown too).
const countdownJS = `(() => {` + layoutHelpersJS + `
  const seq = Number(document.querySelector('#table-view').dataset.seq || -1);
  if (document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.target && a.effect.target.closest('#trick'))) return JSON.stringify({ seat: -1, seq });
  // Shown, and counting (the tick that writes the time places the boxes).
  const cd = $$('#seats .countdown').filter((e) => !e.hidden && e.textContent && rect(e).width > 0);
  if (cd.length !== 1) return JSON.stringify({ seat: -1, seq });
  const e = cd[0], r = rect(e), felt = $('#felt'), fr = rect(felt), bw = felt.clientLeft;
  const inner = { left: fr.left + bw, top: fr.top + felt.clientTop, right: fr.left + bw + felt.clientWidth, bottom: fr.top + felt.clientTop + felt.clientHeight };
  if (r.left < inner.left - 0.5 || r.top < inner.top - 0.5 || r.right > inner.right + 0.5 || r.bottom > inner.bottom + 0.5)
    probs.push('the countdown ' + JSON.stringify(e.textContent) + ' ' + [r.left, r.top, r.right, r.bottom].map(Math.round) + ' leaves the felt ' + [inner.left, inner.top, inner.right, inner.bottom].map(Math.round));
  inView(e, 'the countdown');
  probs.push(...JSON.parse(` + seatsLayoutJS + `));
  return JSON.stringify({ seat: Number(e.closest('.seat').dataset.seat), seq, probs });
})()`

// TestBrowserCountdownInFelt: with a turn timer running, the countdown
// badge of the seat to act — each seat in turn, round the table — lies
// wholly inside the felt (and its rounded edge) and the viewport, at
// 1280×720 and 390×844, with 3, 5 and 7 players. The other people at the
// table are played from the test, so that the clock never has to run out:
// each seat is seen at desktop size in the bidding, then at phone size in
// the play.
func TestBrowserCountdownInFelt(t *testing.T) {
	s := newSiteFor(t, 180*time.Second, func(o *server.Options) { o.DealWait = 100 * time.Millisecond })
	for _, n := range []int{3, 5, 7} {
		seats := strings.TrimSuffix(strings.Repeat(`{"kind":"human"},`, n), ",")
		id := s.createAPI(fmt.Sprintf(`{"variant":"auction","turn_timer":30,"options":{"players":%d},"seats":[%s]}`, n, seats))
		toks := []string{s.joinAPI(id, 0, "Ada")}
		for i := 1; i < n; i++ {
			toks = append(toks, s.joinAPI(id, i, fmt.Sprintf("P%d", i+1)))
		}
		s.do("desktop", chromedp.EmulateViewport(1280, 720))
		s.openSeat(id, 0, toks[0], "Ada")
		others := map[int]*seatClient{}
		for i := 1; i < n; i++ {
			others[i] = connectSeat(t, s.url, id, toks[i])
		}
		for _, sz := range []screen{sizes[0], sizes[2]} {
			if sz.phone {
				s.do("phone", chromedp.EmulateViewport(sz.width, sz.height, chromedp.EmulateScale(2)), settled())
			}
			seen := map[int]bool{}
			deadline := time.Now().Add(60 * time.Second)
			for len(seen) < n {
				if time.Now().After(deadline) {
					t.Fatalf("%d players, %s: the countdown was seen at seats %v only", n, sz.name, seen)
				}
				var at struct {
					Seat, Seq int
					Probs     []string
				}
				s.eval(countdownJS, &at)
				if at.Seat < 0 {
					time.Sleep(50 * time.Millisecond)
					continue
				}
				for _, p := range at.Probs {
					t.Errorf("%d players, seat %d to act, %s: %s", n, at.Seat, sz.name, p)
				}
				seen[at.Seat] = true
				if at.Seat == 0 {
					s.actOnce()
				} else if others[at.Seat].move() {
					waitFor(t, "the move", func() bool {
						var now struct{ Seq int }
						s.eval(countdownJS, &now)
						return now.Seq != at.Seq
					}, 10*time.Second)
				}
			}
		}
	}
}
