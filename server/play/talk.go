package play

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"pitch"
	"pitch/bot"
	"pitch/server/access"
	"pitch/server/httpx"
	"pitch/store"
)

// What the table offers besides play: the reason a card is refused
// (wire.Refusals), hints, table talk and the next match with the same
// seats.

// hintWorlds is how many worlds a hint weighs: enough to rank the options
// well, little enough to answer in a fraction of a second.
const hintWorlds = 200

// hintMsg answers a hint request: the search bot's view of the options for
// the seat to act, best first, from that seat's knowledge only.
type hintMsg struct {
	Type    string       `json:"type"` // "hint"
	Seq     int          `json:"seq"`  // the state it is for
	Worlds  int          `json:"worlds"`
	Options []hintOption `json:"options"`
}

type hintOption struct {
	Action json.RawMessage `json:"action"`
	Text   string          `json:"text"`
	Value  float64         `json:"value"`          // expected points for the seat's side this hand
	Make   *float64        `json:"make,omitempty"` // bids: the chance to make it, when won
}

// maxHintOptions is how many options a hint lists.
const maxHintOptions = 6

// hint answers a seated player's request for a hint on its own decision.
// The analysis runs outside the table's lock, a few at once server-wide, so
// that hints never slow play.
func (c *conn) hint(t *table) {
	fail := func(code, msg string) { c.sendJSON(errorCode(code, msg, nil)) }
	if c.seat < 0 {
		fail("hint_spectator", "spectators may not ask for hints")
		return
	}
	t.mu.Lock()
	s := t.match.State()
	switch {
	case t.info.NoHints:
		t.mu.Unlock()
		fail("hints_off", "hints are turned off at this table")
		return
	case t.over() || !t.full() || s.Turn() != c.seat:
		t.mu.Unlock()
		fail("hint_turn", "a hint is for your own decision: it is not your turn")
		return
	}
	v := s.View(c.seat) // the seat's knowledge, nothing more
	legal := s.Legal(nil)
	seq, seed := t.seq, t.info.Seed
	t.mu.Unlock()

	select {
	case t.srv.hints <- struct{}{}:
		defer func() { <-t.srv.hints }()
	default:
		fail("hint_busy", "the server is busy with other hints: try again in a moment")
		return
	}
	b := &bot.Search{Worlds: hintWorlds}
	opts := b.Analyze(bot.Request{View: &v, Legal: legal, Rand: pitch.NewRand(seed ^ uint64(seq+1)*0x85ebca77c2b2ae63)})
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].Value > opts[j].Value })
	m := hintMsg{Type: "hint", Seq: seq, Worlds: hintWorlds, Options: []hintOption{}}
	for i, o := range opts {
		if i == maxHintOptions {
			break
		}
		raw, _ := json.Marshal(o.Action)
		h := hintOption{Action: raw, Text: o.Action.String(), Value: o.Value}
		if o.Action.Kind == pitch.ActBid && o.Won > 0 {
			mk := o.Made
			h.Make = &mk
		}
		m.Options = append(m.Options, h)
	}
	c.sendJSON(m)
}

// chatMsg is one line of table talk, as sent to the seated players.
type chatMsg struct {
	Type string    `json:"type"` // "chat"
	Seat int       `json:"seat"`
	Name string    `json:"name"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// Table talk limits.
const (
	maxChatRunes = 200         // a line's length
	chatKept     = 20          // lines a table keeps for players who come back
	chatEvery    = time.Second // a connection's steady rate
	chatBurst    = 3           // lines a connection may send at once
)

// chat passes a seated player's line to the seated players at the table
// (spectators do not see table talk). It is checked, limited and kept in
// memory only; the page shows it as text, never as markup.
func (c *conn) chat(t *table, text string) {
	if c.seat < 0 {
		c.sendJSON(errorCode("chat_spectator", "only seated players may talk at the table", nil))
		return
	}
	text = strings.TrimSpace(text)
	if code, msg := checkChat(text); msg != "" {
		c.sendJSON(errorCode(code, msg, nil))
		return
	}
	now := time.Now()
	// A token bucket per connection: chatBurst at once, then one a second.
	if c.chatAt.IsZero() || now.Sub(c.chatAt) > chatEvery*chatBurst {
		c.chatAt = now.Add(-chatEvery * chatBurst)
	}
	if now.Sub(c.chatAt) < chatEvery {
		c.sendJSON(errorCode("chat_fast", "you are talking too fast: one line a second", nil))
		return
	}
	c.chatAt = c.chatAt.Add(chatEvery)
	t.mu.Lock()
	defer t.mu.Unlock()
	m := chatMsg{Type: "chat", Seat: c.seat, Name: t.info.Seats[c.seat].Name, Text: text, At: now.UTC().Truncate(time.Second)}
	t.chat = append(t.chat, m)
	if len(t.chat) > chatKept {
		t.chat = t.chat[len(t.chat)-chatKept:]
	}
	t.sendChat(m)
	t.tell(serverNote{Type: "chat", Chat: &m}) // to the other processes' connections
}

// sendChat sends a line of table talk to the seated connections here,
// encoded once. The lock must be held.
func (t *table) sendChat(m chatMsg) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	for o := range t.conns {
		if o.seat >= 0 {
			o.sendRaw(b)
		}
	}
}

// checkChat says what is wrong with a line of table talk (a code and the
// words), or "".
func checkChat(text string) (string, string) {
	if text == "" {
		return "chat_empty", "say something: an empty line is not sent"
	}
	if !utf8.ValidString(text) {
		return "chat_utf8", "table talk must be valid UTF-8 text"
	}
	if n := utf8.RuneCountInString(text); n > maxChatRunes {
		return "chat_long", "a line of table talk holds at most 200 characters"
	}
	for _, r := range text {
		if r == utf8.RuneError {
			return "chat_utf8", "table talk may not hold U+FFFD (the replacement character, left by invalid UTF-8 or a lone surrogate such as \\ud800)"
		}
		if unicode.IsControl(r) {
			return "chat_control", "table talk is one line of text, without control characters"
		}
		if bidiControl(r) {
			return "chat_control", fmt.Sprintf("table talk may not hold %U: bidirectional overrides and isolates (U+202A to U+202E, U+2066 to U+2069) could make a line read as something else", r)
		}
	}
	return "", ""
}

// bidiControl reports whether r is a bidirectional embedding, override or
// isolate (U+202A–U+202E, U+2066–U+2069): invisible characters that
// reorder the text after them, so that a line of talk could pass for
// another seat's or the server's words. Names refuse them as they refuse
// every character that is not printable.
func bidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// rematchReq asks for the next match at a finished table.
type rematchReq struct {
	Token string `json:"token"`
}

// handleRematch starts the next match of a finished table with the same
// game, seats and people: the new table copies the seats (and the hashes
// of the players' tokens, so that each keeps its seat), and the old one
// points to it, so that everyone at it follows. Asked twice, it answers
// with the same new table.
func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request) {
	const op = "rematch"
	var req rematchReq
	if err := httpx.Decode(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := s.table(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.allowed(w, r, op, access.TableInfo, t.id) {
		return
	}
	// One rematch at a time per table, without holding the table's lock
	// over the store (nor over Server.load, which takes the server's).
	t.rematch.Lock()
	defer t.rematch.Unlock()
	t.mu.Lock()
	me, signedIn := s.account(r)
	seat, _ := t.seatOf(req.Token, me, signedIn)
	seated, over, cur := seat >= 0, t.match.Over(), t.info.Next
	info := *t.info
	round := t.round
	t.mu.Unlock()
	if round != nil {
		// An event's host starts its next round; the table has no next
		// match of its own.
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "this table plays a round of an event: there is no next match here; the host starts the next round, and the event's page (/e/%s) shows your next table", round.ev.id).
			With("rematch_event", map[string]any{"Event": round.ev.id}))
		return
	}
	if !seated {
		s.writeError(w, r, httpx.Errorf(httpx.Forbidden, op, "only a player seated at this table may start its next match: send your seat's token").With("rematch_not_seated", nil))
		return
	}
	if !over {
		s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "the match is not over yet: the next one starts when it is").With("rematch_not_over", nil))
		return
	}
	if cur != "" {
		httpx.WriteJSON(w, http.StatusOK, map[string]string{"id": cur, "url": "/t/" + cur})
		return
	}
	next := &store.Table{ID: httpx.RandomString(12), Variant: info.Variant, Options: info.Options, Seed: newSeed(), FairDeals: true,
		TurnTimer: info.TurnTimer, Created: time.Now().UTC().Truncate(time.Millisecond), NoHints: info.NoHints}
	for _, st := range info.Seats {
		next.Seats = append(next.Seats, store.Seat{Seat: st.Seat, Kind: st.Kind, Level: st.Level, Name: st.Name, TokenHash: st.TokenHash, Account: st.Account})
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), storeTimeout)
	defer cancel()
	if err := s.store.CreateTable(ctx, next); err != nil {
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if err := s.store.SetNext(ctx, t.id, next.ID); err != nil {
		if errors.Is(err, store.ErrConflict) {
			s.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "another process started the next match: reload the table"))
			return
		}
		s.writeError(w, r, httpx.StoreDown(op, err))
		return
	}
	if _, err := s.load(ctx, next); err != nil {
		s.writeError(w, r, httpx.Unexpected(op, err))
		return
	}
	t.mu.Lock()
	t.info.Next = next.ID
	t.nextBy = seat + 1
	t.infoVer++
	t.broadcast()
	t.mu.Unlock()
	httpx.WriteJSON(w, http.StatusCreated, map[string]string{"id": next.ID, "url": "/t/" + next.ID})
}

// newSeed draws a match seed (C-6) from crypto/rand.
func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// maxHints is how many hints the server works out at once; more are
// refused with "busy" rather than queued behind play.
const maxHints = 2
