package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"pitch/server/delta"
	"pitch/server/eventview"
)

// In event mode each person also follows the event over its WebSocket,
// as the event's page on their phone does (docs/protocol.md, Events):
// the whole event once, then what changed. The run counts every byte
// each follower's connection reads (the upgrade's answer and every frame),
// and at the end checks that what each holds, every change applied, is
// the event the server shows.

// follower is one person's view of the event.
type follower struct {
	bytes    atomic.Int64
	messages int
	f        eventview.Follower
	err      error // why it stopped following before the event was over
}

// follow follows event id with the person's token until the event is
// over or ctx ends; with Config.Reconnect it follows again (the whole
// event first) when the connection drops, as the page does.
func (r *run) follow(ctx context.Context, id, token string, fl *follower) {
	client := countingClient(&fl.bytes)
	backoff := 100 * time.Millisecond
	for {
		over, err := r.followOnce(ctx, client, id, token, fl)
		if over || ctx.Err() != nil {
			return
		}
		if !r.cfg.Reconnect {
			fl.err = err
			return
		}
		sleep(ctx, backoff)
		backoff = min(2*backoff, 2*time.Second)
	}
}

// followOnce follows the event over one connection; over reports that
// the event is over.
func (r *run) followOnce(ctx context.Context, client *http.Client, id, token string, fl *follower) (over bool, err error) {
	url := "ws" + strings.TrimPrefix(r.cfg.URL, "http") + "/api/events/" + id + "/ws"
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: client})
	if err != nil {
		return false, err
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	hello, _ := json.Marshal(map[string]string{"type": "hello", "token": token})
	if err := c.Write(ctx, websocket.MessageText, hello); err != nil {
		return false, err
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			return false, err
		}
		fl.messages++
		typ, err := fl.f.Read(data)
		if err != nil {
			return false, fmt.Errorf("message %d: %w", fl.messages, err)
		}
		if typ == "error" {
			return false, fmt.Errorf("the server says: %s", data)
		}
		var ev struct{ State string }
		if json.Unmarshal(fl.f.Event(), &ev) == nil && ev.State == "over" {
			return true, nil
		}
	}
}

// followed sums up the followers into rep, checking that each holds the
// event as the server shows a phone (eventview.Phone), its clock's time
// left aside.
func (r *run) followed(ctx context.Context, id string, fls []*follower, rep *Report) {
	var server eventview.Event
	if err := r.call(ctx, "GET", "/api/events/"+id, nil, &server); err != nil {
		r.fail("read the event at the end: %v", err)
		return
	}
	b, _ := json.Marshal(eventview.Phone(server))
	want, err := delta.Decode(b)
	if err != nil {
		r.fail("the event at the end: %v", err)
		return
	}
	delete(want.(map[string]any), "left_ms")
	var total int64
	for i, fl := range fls {
		n := fl.bytes.Load()
		total += n
		rep.FollowMaxBytes = max(rep.FollowMaxBytes, n)
		rep.FollowMaxMessages = max(rep.FollowMaxMessages, fl.messages)
		if fl.err != nil {
			r.fail("person %d following the event: %v", i+1, fl.err)
			continue
		}
		held, ok := fl.f.Doc.(map[string]any)
		if !ok {
			r.fail("person %d holds no event", i+1)
			continue
		}
		delete(held, "left_ms")
		if !reflect.DeepEqual(held, want) {
			rep.FollowMismatch++
			r.fail("person %d holds an event other than the server's:\n\t%.400s\nwant\n\t%.400s", i+1, fl.f.Event(), b)
		}
	}
	if len(fls) > 0 {
		rep.FollowMeanBytes = total / int64(len(fls))
	}
	rep.Followers = len(fls)
}
