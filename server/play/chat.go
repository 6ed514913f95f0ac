package play

// Table talk: short lines from the seats and spectators, checked and
// kept (the last few) with the table.

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

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
	if !c.lockLive(t) {
		return
	}
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
