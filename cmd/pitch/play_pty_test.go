//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"

	"pitch"
	"pitch/i18n"
	"pitch/tui"
)

// openPTY opens a pseudo-terminal of cols×rows with the kernel's
// interface (/dev/ptmx), so that no library is needed: the controlling
// side, which the test reads and writes, and the terminal side, which
// the program gets as its standard input and output.
func openPTY(t *testing.T, cols, rows int) (ctl, term *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	ioctl := func(f *os.File, req uintptr, arg unsafe.Pointer) {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
			t.Fatalf("ioctl %#x: %v", req, e)
		}
	}
	var unlock int32
	ioctl(ctl, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	var n uint32
	ioctl(ctl, syscall.TIOCGPTN, unsafe.Pointer(&n))
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	size := [4]uint16{uint16(rows), uint16(cols), 0, 0}
	ioctl(term, syscall.TIOCSWINSZ, unsafe.Pointer(&size))
	return ctl, term
}

// ptyRun is one run of `pitch play` under a pseudo-terminal.
type ptyRun struct {
	raw    string // all the program wrote
	screen *vt    // the terminal's screen when it exited
}

// playChild is the environment variable that makes this test binary run
// `pitch play` (its arguments, separated by \x1f) instead of the tests.
const playChild = "PITCH_PLAY_CHILD"

// runPTY runs `pitch play args` in a child process under a cols×rows
// pseudo-terminal with env, waits until the screen shows the text until
// (the human's decision: the screen no longer changes by itself), types
// keys, and reads until the program exits. A deadline ends only a wait
// that would otherwise hang.
func runPTY(t *testing.T, cols, rows int, env []string, until, keys string, args ...string) ptyRun {
	t.Helper()
	ctl, term := openPTY(t, cols, rows)
	defer ctl.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPlayPTY$", "-test.count=1")
	cmd.Env = append(cleanEnv(), append(env, playChild+"="+strings.Join(args, "\x1f"))...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = term, term, term
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 4096)
			n, err := ctl.Read(buf)
			if n > 0 {
				chunks <- buf[:n]
			}
			if err != nil { // EIO once the program and its terminal are gone
				return
			}
		}
	}()
	screen := newVT(cols, rows)
	var raw strings.Builder
	deadline := time.After(2 * time.Minute)
	typed := false
	for {
		select {
		case b, ok := <-chunks:
			if !ok {
				if err := <-done; err != nil {
					t.Fatalf("pitch play %v: %v\n%s", args, err, strings.Join(screen.rows(), "\n"))
				}
				if len(screen.unknown) > 0 {
					t.Fatalf("escape codes the test's terminal does not know: %v", screen.unknown)
				}
				return ptyRun{raw: raw.String(), screen: screen}
			}
			raw.Write(b)
			screen.Write(b)
			if !typed && strings.Contains(strings.Join(screen.rows(), "\n"), until) {
				typed = true
				if _, err := ctl.Write([]byte(keys)); err != nil {
					t.Fatal(err)
				}
			}
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("pitch play %v did not finish; the screen:\n%s", args, strings.Join(screen.rows(), "\n"))
		}
	}
}

// cleanEnv is the test's environment without what decides the terminal
// game's look and language, which each run sets.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TERM", "NO_COLOR", "LANG", "LC_ALL", "LC_MESSAGES", "COLORTERM", "CLICOLOR_FORCE", playChild:
			continue
		}
		env = append(env, kv)
	}
	return env
}

// expectedScreen is the screen the model draws for the human's first
// decision of a match with these settings, on a cols×rows terminal, as
// rows of text without escape codes.
func expectedScreen(t *testing.T, cfg tui.Config, cols, rows int) []string {
	t.Helper()
	m, err := tui.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: cols, Height: rows})
	for cmd := m.Init(); cmd != nil; { // the bots move up to the human's turn, as --delay 0 has them
		_, cmd = m.Update(cmd())
	}
	return strings.Split(sgr.ReplaceAllString(m.Render(), ""), "\n")
}

// sameScreen fails unless the terminal's rows are the model's: all but
// the last, which bubbletea clears as the program exits (it leaves the
// cursor there), and which the program must have written.
func sameScreen(t *testing.T, r ptyRun, want []string) {
	t.Helper()
	got := r.screen.rows()
	for i, w := range want[:len(want)-1] {
		if got[i] != w {
			t.Fatalf("row %d reads %q, the model drew %q; the screen:\n%s", i+1, got[i], w, strings.Join(got, "\n"))
		}
	}
	for _, row := range got[len(want)-1:] {
		if row != "" {
			t.Fatalf("rows below the model's screen: %q", row)
		}
	}
	if last := want[len(want)-1]; !strings.Contains(sgr.ReplaceAllString(r.raw, ""), last) {
		t.Fatalf("the last row %q was never written", last)
	}
}

var (
	sgr       = regexp.MustCompile("\x1b\\[[0-9;:]*m")
	colourSGR = regexp.MustCompile("\x1b\\[([0-9;:]*;)?(3[0-8]|9[0-7])(;[0-9;:]*)?m")
)

// TestPlayPTY runs the built `pitch play` (this test binary, as a child)
// under a pseudo-terminal with a fixed seed, reads its screen with a
// terminal emulator, and checks what a person sees:
//
//   - TERM=xterm-256color: the hand in suit symbols, hearts and diamonds
//     drawn red and spades and clubs not, the screen exactly the model's
//     (so nothing was cut), 24 rows at most;
//   - NO_COLOR=1: letters, no colour escape at all;
//   - TERM=dumb: line mode, not one escape code;
//   - --lang fr on a 120×30 terminal: French words, no English prompt, and
//     no row wider than 80 columns though the terminal is;
//   - seats numbered from 1 (--seat 2 is "seat 2"; no seat 0).
func TestPlayPTY(t *testing.T) {
	if a := os.Getenv(playChild); a != "" {
		os.Exit(run(strings.Split(a, "\x1f"), os.Stdin, os.Stdout, os.Stderr))
	}
	g := pitch.MustNewGame(pitch.Auction)
	const seed = 4
	args := []string{"play", "--seed", fmt.Sprint(seed), "--seat", "2", "--level", "easy", "--delay", "0"}
	hand := pitch.NewMatch(g, seed).State().Hand(1)
	en := i18n.New("en")

	t.Run("colour", func(t *testing.T) {
		r := runPTY(t, 80, 24, []string{"TERM=xterm-256color"}, en.T("tui.bidPrompt", nil), "q", append(args, "--lang", "en")...)
		want := expectedScreen(t, tui.Config{Game: g, Seat: 1, Level: "easy", Seed: seed, Lang: "en", Look: tui.Look{Symbols: true, Color: true}}, 80, 24)
		sameScreen(t, r, want)
		got := r.screen.rows()
		if !strings.Contains(got[0], "you are seat 2") || !strings.Contains(strings.Join(got, "\n"), "  seat 1 ") || strings.Contains(strings.Join(got, "\n"), "seat 0") {
			t.Errorf("seats are not numbered from 1:\n%s", strings.Join(got, "\n"))
		}
		// Each card of the hand on the hand's row, in its suit's colour.
		var handRow int = -1
		for y, row := range got {
			if strings.HasPrefix(row, en.T("tui.hand", nil)) {
				handRow = y
			}
		}
		if handRow < 0 {
			t.Fatalf("no hand on the screen:\n%s", strings.Join(got, "\n"))
		}
		reds, blacks := 0, 0
		for _, c := range r.screen.cells[handRow] {
			if !suits.MatchString(c.s) {
				continue
			}
			if isRed := c.s == "♥" || c.s == "♦"; c.red != isRed {
				t.Errorf("%s drawn red=%v", c.s, c.red)
			} else if isRed {
				reds++
			} else {
				blacks++
			}
		}
		wantRed := 0
		for _, c := range hand.Cards() {
			if c.Suit() == pitch.Hearts || c.Suit() == pitch.Diamonds {
				wantRed++
			}
		}
		if reds != wantRed || reds+blacks != hand.Len() {
			t.Errorf("the hand %s shows %d red and %d black suit symbols", hand, reds, blacks)
		}
		if !colourSGR.MatchString(r.raw) {
			t.Error("no colour escape code written")
		}
	})

	t.Run("no-color", func(t *testing.T) {
		r := runPTY(t, 80, 24, []string{"TERM=xterm-256color", "NO_COLOR=1"}, en.T("tui.bidPrompt", nil), "q", append(args, "--lang", "en")...)
		want := expectedScreen(t, tui.Config{Game: g, Seat: 1, Level: "easy", Seed: seed, Lang: "en"}, 80, 24)
		sameScreen(t, r, want)
		got := r.screen.rows()
		if suits.MatchString(r.raw) || colourSGR.MatchString(r.raw) {
			t.Errorf("NO_COLOR: suit symbols or colours written: %q", r.raw)
		}
		if !strings.Contains(strings.Join(got, "\n"), hand.Cards()[0].String()) {
			t.Errorf("the hand is not in letters:\n%s", strings.Join(got, "\n"))
		}
	})

	t.Run("dumb", func(t *testing.T) {
		r := runPTY(t, 80, 24, []string{"TERM=dumb"}, "(AH, 10H)", "q\n", append(args, "--lang", "en")...)
		if strings.ContainsRune(r.raw, 0x1b) || suits.MatchString(r.raw) {
			t.Errorf("TERM=dumb: escape codes or suit symbols written: %q", r.raw)
		}
		if !strings.Contains(r.raw, " 1) ") || !strings.Contains(r.raw, "you are seat 2") {
			t.Errorf("TERM=dumb: no numbered choices or seat 2:\n%s", r.raw)
		}
	})

	t.Run("french", func(t *testing.T) {
		fr := i18n.New("fr")
		r := runPTY(t, 120, 30, []string{"TERM=xterm-256color", "LANG=en_US.UTF-8"}, fr.T("tui.bidPrompt", nil), "q", append(args, "--lang", "fr")...)
		got := r.screen.rows()
		text := strings.Join(got, "\n")
		for y, row := range got {
			if w := tui.Width(row); w > tui.Cols {
				t.Errorf("row %d is %d columns wide on a 120-column terminal: %q", y+1, w, row)
			}
		}
		for _, want := range []string{fr.T("tui.bidPrompt", nil), fr.T("tui.seatN", map[string]any{"N": 1}) + " ", "vous êtes à la place 2"} {
			if !strings.Contains(text, want) {
				t.Errorf("no %q on the French screen:\n%s", want, text)
			}
		}
		if strings.Contains(text, en.T("tui.bidPrompt", nil)) || strings.Contains(text, "Score sheet") {
			t.Errorf("English on the French screen:\n%s", text)
		}
		want := expectedScreen(t, tui.Config{Game: g, Seat: 1, Level: "easy", Seed: seed, Lang: "fr", Look: tui.Look{Symbols: true, Color: true}}, 120, 30)
		sameScreen(t, r, want)
	})
}
