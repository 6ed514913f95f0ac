package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"pitch"
)

// decodeMessages are client messages of every kind, plain and unusual:
// the hand-written reader takes the plain ones and leaves the others to
// encoding/json.
var decodeMessages = []string{
	`{"type":"hello","token":"abc","summary":true}`,
	`{"type":"hello"}`,
	`{"type":"hello","summary":false,"host":"h"}`,
	`{"action":{"seat":1,"play":"JH"},"type":"action"}`,
	`{"type":"action","action":{"seat":0,"bid":7}}`,
	`{"type":"action","action":{"seat":4,"pass":true}}`,
	`{"type":"action","action":{"seat":2,"call":"10h"}}`,
	`{"type":"action","action":{"seat":2,"call":"AS"}}`,
	`{"type":"action","action":{"seat":3,"trump":"s"}}`,
	`{"type":"action","action":{"seat":3,"discard":["2C","BJ","LJ"]}}`,
	`{"type":"action","action":{"seat":3,"discard":[]}}`,
	`{"type":"action","action":{"seat":1,"pass_trumps":["JH"]}}`,
	`{"type":"action","action":{"seat":1,"give_stock":true}}`,
	`{"commitment":"00ff","type":"contribute","value":"1234"}`,
	`{"type":"ready","hand":3}`,
	`{"type":"ready","hand":-0}`,
	`{"type":"ready","hand":-12}`,
	`{"type":"chat","text":"héllo, 世界"}`,
	"{\"type\":\"chat\",\"text\":\"bad \xff\"}",
	`{"type":"chat","text":"a \"quote\" and \u00e9"}`,
	` { "type" : "hint" } `,
	"\t{\"type\":\n\"hint\"}\r\n",
	`{}`,
	``,
	`null`,
	`[]`,
	`"action"`,
	`{"type":"hello"} {"type":"chat"}`,
	`{"type":"hello"}x`,
	`{"Type":"hello"}`,
	`{"TYPE":"action","ACTION":{"seat":1,"bid":5}}`,
	`{"type":"hello","type":"chat"}`,
	`{"type":"hello","extra":1}`,
	`{"type":null}`,
	`{"type":5}`,
	`{"type":"ready","hand":1.0}`,
	`{"type":"ready","hand":1e1}`,
	`{"type":"ready","hand":01}`,
	`{"type":"ready","hand":12345678901}`,
	`{"type":"ready","hand":99999999999999999999}`,
	`{"type":"ready","hand":"3"}`,
	`{"type":"hello","summary":"true"}`,
	`{"type":"hello","summary":truex}`,
	`{"type":"hello","summary":null}`,
	`{"type":"action","action":null}`,
	`{"type":"action","action":5}`,
	`{"type":"action","action":"x"}`,
	`{"type":"action","action":[1,2,{"a":[true,false,null,"s",-3]}]}`,
	`{"type":"action","action":{"seat":1,"bid":5}`,
	`{"type":"action","action":{"seat":1,"bid":5},}`,
	`{,}`,
	`{"type" "hello"}`,
	`{"type":"hello",}`,
}

// decodeActions are actions of every kind, plain and unusual.
var decodeActions = []string{
	`{"seat":1,"play":"JH"}`,
	`{"play":"JH","seat":1}`,
	` {"seat" : 1 , "play" : "jh" } `,
	`{"seat":1,"play":" JH "}`,
	`{"seat":1,"play":"10C"}`,
	`{"seat":1,"play":"1C"}`,
	`{"seat":1,"play":"XX"}`,
	`{"seat":1,"play":5}`,
	`{"seat":1,"play":"J\u0048"}`,
	`{"seat":0,"bid":1}`,
	`{"seat":0,"bid":10}`,
	`{"seat":0,"bid":11}`,
	`{"seat":0,"bid":0}`,
	`{"seat":0,"bid":-1}`,
	`{"seat":0,"bid":5.0}`,
	`{"seat":0,"bid":"5"}`,
	`{"seat":7,"bid":5}`,
	`{"seat":8,"bid":5}`,
	`{"seat":-1,"bid":5}`,
	`{"seat":null,"bid":5}`,
	`{"seat":1.5,"bid":5}`,
	`{"seat":1,"seat":2,"bid":5}`,
	`{"seat":1,"bid":5,"bid":6}`,
	`{"seat":1,"bid":5,"pass":true}`,
	`{"seat":1}`,
	`{"bid":5}`,
	`{}`,
	`{"seat":1,"pass":true}`,
	`{"seat":1,"pass":false}`,
	`{"seat":1,"pass":1}`,
	`{"seat":1,"call":"BJ"}`,
	`{"seat":1,"trump":"H"}`,
	`{"seat":1,"trump":"h"}`,
	`{"seat":1,"trump":"X"}`,
	`{"seat":1,"trump":"HH"}`,
	`{"seat":1,"give_stock":false}`,
	`{"seat":1,"discard":["2C","3C"]}`,
	`{"seat":1,"discard":["2C","2c"]}`,
	`{"seat":1,"discard":["2C",]}`,
	`{"seat":1,"discard":["2C" "3C"]}`,
	`{"seat":1,"discard":"2C"}`,
	`{"seat":1,"discard":null}`,
	`{"seat":1,"pass_trumps":[]}`,
	`{"seat":1,"pass_trumps":["ZZ"]}`,
	`{"seat":1,"jump":true}`,
	`{"seat":1,"Play":"JH"}`,
	`{"seat":1,"play":"JH"}x`,
	`[1]`,
	`null`,
	``,
}

// slowMsg is how a client message was read before: encoding/json.
func slowMsg(data []byte) (ClientMsg, error) {
	var m ClientMsg
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&m)
	return m, err
}

// sameMsg fails t unless DecodeMsg reads data as encoding/json does: the
// same message, or the same error.
func sameMsg(t *testing.T, data []byte) {
	t.Helper()
	want, werr := slowMsg(data)
	var got ClientMsg
	gerr := DecodeMsg(data, &got)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%q: error %v, want %v", data, gerr, werr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: read as %+v, want %+v", data, got, want)
	}
}

// sameAction fails t unless DecodeAction reads raw as json.Unmarshal
// does: the same action, or the same error.
func sameAction(t *testing.T, raw []byte) {
	t.Helper()
	var want pitch.Action
	werr := json.Unmarshal(raw, &want)
	got, gerr := DecodeAction(raw)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("%q: error %v, want %v", raw, gerr, werr)
	}
	if werr == nil && got != want {
		t.Fatalf("%q: read as %+v, want %+v", raw, got, want)
	}
}

// TestDecodeMessage: client messages and actions, plain and unusual, are
// read as encoding/json reads them (the same fields, or the same error),
// and the plain ones without it; so is every action a client can send
// in whole random matches of each game.
func TestDecodeMessage(t *testing.T) {
	for _, m := range decodeMessages {
		sameMsg(t, []byte(m))
	}
	for _, a := range decodeActions {
		sameAction(t, []byte(a))
		sameMsg(t, []byte(`{"type":"action","action":`+a+`}`))
	}
	for _, plain := range []string{decodeMessages[0], decodeMessages[3], decodeMessages[13], decodeMessages[14], decodeMessages[17]} {
		var m ClientMsg
		if !quickMsg([]byte(plain), &m) {
			t.Errorf("%s: left to encoding/json", plain)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	kinds := map[pitch.ActionKind]bool{}
	for _, v := range []pitch.Variant{pitch.Auction, pitch.TenPoint, pitch.Pawnee} {
		m := pitch.NewMatch(pitch.MustNewGame(v), rng.Uint64())
		for range 2000 {
			if m.Over() {
				m = pitch.NewMatch(pitch.MustNewGame(v), rng.Uint64())
			}
			s := m.State()
			for _, a := range s.Legal(nil) {
				raw, _ := json.Marshal(a)
				sameAction(t, raw)
				if a.Kind != pitch.ActGiveStock {
					if _, ok := quickAction(raw); !ok {
						t.Fatalf("%s: left to encoding/json", raw)
					}
				}
				kinds[a.Kind] = true
			}
			a := s.RandomAction(rng)
			raw, _ := json.Marshal(a)
			sameAction(t, raw)
			msg, _ := json.Marshal(map[string]any{"type": "action", "action": a})
			sameMsg(t, msg)
			if err := m.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(kinds) < 7 {
		t.Errorf("%d kinds of action seen, want every kind", len(kinds))
	}
}

// FuzzDecodeMessage: whatever a client sends is read as encoding/json
// reads it, as a message and as an action.
func FuzzDecodeMessage(f *testing.F) {
	for _, m := range decodeMessages {
		f.Add([]byte(m))
	}
	for _, a := range decodeActions {
		f.Add([]byte(a))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameMsg(t, data)
		sameAction(t, data)
	})
}
