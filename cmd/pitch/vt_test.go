package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// vt is a small terminal emulator for the tests that run `pitch play`
// under a pseudo-terminal: it keeps the screen's cells and, for each, its
// character and whether it is drawn in red, from what the program writes.
// It knows the escape codes a full-screen program uses to draw (cursor
// moves, erasing, inserting and deleting, scrolling, colours) and skips
// the terminal's modes, queries and strings (OSC, DCS); a drawing code
// it does not know is noted in unknown, so that a test fails rather than
// judge a screen it may have read wrong.
type vt struct {
	w, h        int
	cells       [][]cell
	x, y        int
	sx, sy      int // the saved cursor
	top, bottom int // the scrolling region, rows from 0, inclusive
	red         bool
	last        string // the last character printed, for REP
	unknown     []string
	pending     []byte // an escape code or a character split between reads
}

type cell struct {
	s   string // "" for the right half of a wide character
	red bool
}

func newVT(w, h int) *vt {
	t := &vt{w: w, h: h, bottom: h - 1}
	t.cells = make([][]cell, h)
	for i := range t.cells {
		t.cells[i] = t.blankRow()
	}
	return t
}

func (t *vt) blankRow() []cell {
	r := make([]cell, t.w)
	for i := range r {
		r[i] = cell{s: " "}
	}
	return r
}

// Write feeds the emulator what the program wrote.
func (t *vt) Write(p []byte) (int, error) {
	b := append(t.pending, p...)
	t.pending = nil
	i := 0
	for i < len(b) {
		c := b[i]
		switch {
		case c == 0x1b:
			n := t.escape(b[i:])
			if n == 0 { // incomplete: wait for the rest
				t.pending = append([]byte(nil), b[i:]...)
				return len(p), nil
			}
			i += n
		case c == '\r':
			t.x = 0
			i++
		case c == '\n':
			t.lineFeed()
			i++
		case c == '\b':
			t.x = max(0, t.x-1)
			i++
		case c == '\t':
			t.x = min(t.w-1, (t.x/8+1)*8)
			i++
		case c < 0x20 || c == 0x7f:
			i++ // BEL and other controls draw nothing
		default:
			if !utf8.FullRune(b[i:]) {
				t.pending = append([]byte(nil), b[i:]...)
				return len(p), nil
			}
			r, n := utf8.DecodeRune(b[i:])
			t.print(string(r))
			i += n
		}
	}
	return len(p), nil
}

func (t *vt) print(s string) {
	w := ansi.StringWidth(s)
	if w == 0 {
		return // a combining mark: none are drawn here
	}
	if t.x+w > t.w { // the deferred wrap of xterm
		t.x = 0
		t.lineFeed()
	}
	t.cells[t.y][t.x] = cell{s: s, red: t.red}
	for k := 1; k < w; k++ {
		t.cells[t.y][t.x+k] = cell{s: "", red: t.red}
	}
	t.x += w
	t.last = s
}

func (t *vt) lineFeed() {
	if t.y == t.bottom {
		t.scrollUp(1)
		return
	}
	t.y = min(t.h-1, t.y+1)
}

func (t *vt) scrollUp(n int) {
	for range n {
		copy(t.cells[t.top:t.bottom], t.cells[t.top+1:t.bottom+1])
		t.cells[t.bottom] = t.blankRow()
	}
}

func (t *vt) scrollDown(n int) {
	for range n {
		copy(t.cells[t.top+1:t.bottom+1], t.cells[t.top:t.bottom])
		t.cells[t.top] = t.blankRow()
	}
}

// escape handles the escape code at the start of b and returns its
// length, 0 if b holds only part of it.
func (t *vt) escape(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '[':
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				t.csi(string(b[2:i]), b[i])
				return i + 1
			}
		}
		return 0
	case ']', 'P', '_', '^', 'X': // a string, to BEL or ST
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
		}
		return 0
	case '(', ')', '*', '+', '#', ' ': // a charset or line size: one more byte
		if len(b) < 3 {
			return 0
		}
		return 3
	case '7':
		t.sx, t.sy = t.x, t.y
	case '8':
		t.x, t.y = t.sx, t.sy
	case 'M':
		if t.y == t.top {
			t.scrollDown(1)
		} else {
			t.y = max(0, t.y-1)
		}
	case 'D':
		t.lineFeed()
	case 'E':
		t.x = 0
		t.lineFeed()
	case '=', '>', '\\':
	default:
		t.unknown = append(t.unknown, fmt.Sprintf("ESC %q", b[1]))
	}
	return 2
}

func (t *vt) csi(params string, final byte) {
	if params != "" && strings.ContainsAny(params[:1], "?><=") || strings.ContainsAny(params, "$ \"'!") {
		return // modes, queries and keyboard protocols: nothing drawn
	}
	var ps []int
	for _, f := range strings.Split(params, ";") {
		n, _ := strconv.Atoi(strings.Split(f, ":")[0])
		ps = append(ps, n)
	}
	arg := func(i, def int) int {
		if i < len(ps) && ps[i] > 0 {
			return ps[i]
		}
		return def
	}
	clampX := func() { t.x = min(max(t.x, 0), t.w-1) }
	clampY := func() { t.y = min(max(t.y, 0), t.h-1) }
	switch final {
	case 'A':
		t.y -= arg(0, 1)
		clampY()
	case 'B', 'e':
		t.y += arg(0, 1)
		clampY()
	case 'C', 'a':
		t.x += arg(0, 1)
		clampX()
	case 'D':
		t.x -= arg(0, 1)
		clampX()
	case 'E':
		t.y, t.x = t.y+arg(0, 1), 0
		clampY()
	case 'F':
		t.y, t.x = t.y-arg(0, 1), 0
		clampY()
	case 'G', '`':
		t.x = arg(0, 1) - 1
		clampX()
	case 'd':
		t.y = arg(0, 1) - 1
		clampY()
	case 'H', 'f':
		t.y, t.x = arg(0, 1)-1, arg(1, 1)-1
		clampX()
		clampY()
	case 'J':
		switch arg(0, 0) {
		case 0:
			t.erase(t.y, t.x, t.w)
			for r := t.y + 1; r < t.h; r++ {
				t.cells[r] = t.blankRow()
			}
		case 1:
			for r := 0; r < t.y; r++ {
				t.cells[r] = t.blankRow()
			}
			t.erase(t.y, 0, t.x+1)
		default:
			for r := range t.cells {
				t.cells[r] = t.blankRow()
			}
		}
	case 'K':
		switch arg(0, 0) {
		case 0:
			t.erase(t.y, t.x, t.w)
		case 1:
			t.erase(t.y, 0, t.x+1)
		default:
			t.erase(t.y, 0, t.w)
		}
	case 'X':
		t.erase(t.y, t.x, t.x+arg(0, 1))
	case 'P':
		row, n := t.cells[t.y], min(arg(0, 1), t.w-t.x)
		copy(row[t.x:], row[t.x+n:])
		t.erase(t.y, t.w-n, t.w)
	case '@':
		row, n := t.cells[t.y], min(arg(0, 1), t.w-t.x)
		copy(row[t.x+n:], row[t.x:t.w-n])
		t.erase(t.y, t.x, t.x+n)
	case 'L', 'M':
		if t.y < t.top || t.y > t.bottom {
			return
		}
		top := t.top
		t.top = t.y
		if final == 'L' {
			t.scrollDown(arg(0, 1))
		} else {
			t.scrollUp(arg(0, 1))
		}
		t.top = top
	case 'S':
		t.scrollUp(arg(0, 1))
	case 'T':
		t.scrollDown(arg(0, 1))
	case 'b':
		for range arg(0, 1) {
			t.print(t.last)
		}
	case 'r':
		t.top, t.bottom = arg(0, 1)-1, arg(1, t.h)-1
		t.x, t.y = 0, 0
	case 'm':
		t.sgr(ps)
	case 'n', 'c', 'h', 'l', 's', 'u', 't', 'q', 'p':
		// reports, modes, the cursor's shape: nothing drawn
	default:
		t.unknown = append(t.unknown, fmt.Sprintf("CSI %q %q", params, final))
	}
}

func (t *vt) erase(row, from, to int) {
	for x := max(from, 0); x < min(to, t.w); x++ {
		t.cells[row][x] = cell{s: " "}
	}
}

// sgr follows the foreground colour: red is 31, 91, 256-colour 1 or 9,
// or a true colour whose red outweighs green and blue.
func (t *vt) sgr(ps []int) {
	for i := 0; i < len(ps); i++ {
		switch p := ps[i]; {
		case p == 0:
			t.red = false
		case p == 31 || p == 91:
			t.red = true
		case p >= 30 && p <= 37 || p >= 90 && p <= 97 || p == 39:
			t.red = false
		case p == 38 && i+2 < len(ps) && ps[i+1] == 5:
			t.red = ps[i+2] == 1 || ps[i+2] == 9
			i += 2
		case p == 38 && i+4 < len(ps) && ps[i+1] == 2:
			t.red = ps[i+2] > 2*ps[i+3] && ps[i+2] > 2*ps[i+4]
			i += 4
		case p == 48 && i+1 < len(ps):
			if ps[i+1] == 5 {
				i += 2
			} else {
				i += 4
			}
		}
	}
}

// rows is the screen as text, a string per row without trailing spaces.
func (t *vt) rows() []string {
	out := make([]string, t.h)
	for y, row := range t.cells {
		var b strings.Builder
		for _, c := range row {
			b.WriteString(c.s)
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}
