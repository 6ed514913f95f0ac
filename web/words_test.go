package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"pitch/i18n"
	"pitch/server"
)

// namedTable creates an auction table of n seats through the API: seat 2
// is a person called name (who never connects: the table plays for them
// after the short AwayDelay of the site), the others easy bots; a
// spectator's connection keeps it playing until a hand is finished. It
// returns the table's id.
func (s *site) namedTable(n int, name string) string {
	s.t.Helper()
	return s.namedTables([]int{n}, name)[0]
}

// namedTables is namedTable for a table of each size in ns, all played at
// once; it returns their ids in the order of ns.
func (s *site) namedTables(ns []int, name string) []string {
	t := s.t
	t.Helper()
	ids := make([]string, len(ns))
	watching := map[string]*websocket.Conn{}
	for k, n := range ns {
		var seats []string
		for i := range n {
			if i == 2 {
				seats = append(seats, `{"kind":"human"}`)
			} else {
				seats = append(seats, `{"kind":"bot","level":"easy"}`)
			}
		}
		id := s.createAPI(fmt.Sprintf(`{"variant":"auction","options":{"players":%d},"seats":[%s]}`, n, strings.Join(seats, ",")))
		s.joinAPI(id, 2, name)
		ids[k], watching[id] = id, watch(t, s.url, id)
	}
	waitFor(t, "a finished hand at each table", func() bool {
		for id, w := range watching {
			var hands []json.RawMessage
			getJSON(t, s.url+"/api/tables/"+id+"/hands", &hands)
			if len(hands) > 0 {
				w.Close(1000, "")
				delete(watching, id)
			}
		}
		return len(watching) == 0
	}, 60*time.Second)
	return ids
}

// awayQuickly lets the table play for a person who is not connected
// after a moment, so that tables with a person nobody drives still play.
func awayQuickly(o *server.Options) { o.AwayDelay = 100 * time.Millisecond }

// botNames is what each page must call the seats of a namedTable of n
// seats: the bots numbered from 1 in seat order, the person by name.
func botNames(n int, name string) []string {
	var out []string
	k := 0
	for i := range n {
		if i == 2 {
			out = append(out, name)
			continue
		}
		k++
		out = append(out, fmt.Sprintf("Bot %d", k))
	}
	return out
}

// TestBrowserBotNames: the bots of a table are "Bot 1" … "Bot N" on every
// page that names seats (the table, the replay, its match review, the
// history), so that they can be told apart; the table shows seats
// numbered from 1 (and so do its error messages), and the score sheet's bid column says the bid with a
// mark its caption explains (no seat number).
func TestBrowserBotNames(t *testing.T) {
	s := newSiteFor(t, 150*time.Second, awayQuickly)
	const n = 5
	id := s.namedTable(n, "Ada")
	want := botNames(n, "Ada")

	var info struct {
		Seats []struct {
			Name string
			Bot  int
		}
	}
	getJSON(t, s.url+"/api/tables/"+id, &info)
	for i, st := range info.Seats {
		if st.Name != want[i] {
			t.Errorf("the API names seat %d %q, want %q", i, st.Name, want[i])
		}
	}

	s.do("watch the table", chromedp.Navigate(s.url+"/t/"+id+"?watch=1"), chromedp.WaitVisible(chromedp.CSS("#felt .seat")))
	waitFor(t, "the seats", func() bool { return s.count("#felt .seat .s-name") == n }, 10*time.Second)
	var seats []struct{ Num, Name string }
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#felt .seat')).map((e) => ({
		num: e.querySelector('.s-num').textContent, name: e.querySelector('.s-name').textContent})))`, &seats)
	var gotNums []string
	for i, st := range seats {
		gotNums = append(gotNums, st.Num)
		if !strings.Contains(st.Name, want[i]) {
			t.Errorf("the table's seat %d reads %q, want the name %q", i, st.Name, want[i])
		}
	}
	if !slices.Equal(gotNums, []string{"1", "2", "3", "4", "5"}) {
		t.Errorf("the table numbers its seats %v, want 1 to 5", gotNums)
	}
	// An error's seats, sent counted from 0 as the protocol does, are
	// shown counted from 1 (C-7's not_your_turn: seat 2 is seat 3).
	out, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](`import('/js/util.js').then((u) => JSON.stringify([
		u.errorText('not_your_turn', { Turn: 2, Phase: 'play', Rule: 'C-7' }),
		u.errorText('seat_taken', { Seat: 0 }),
		u.errorText('contributed_already', { Seat: 4 })]))`, chromedp.EvalAwaitPromise))
	var refusals []string
	if err == nil {
		err = json.Unmarshal([]byte(out), &refusals)
	}
	if err != nil {
		t.Fatalf("the page's error texts: %v", err)
	}
	for i, want := range []string{"seat 3 is to act", "Seat 1 is taken", "Seat 5 has given"} {
		if i >= len(refusals) || !strings.Contains(refusals[i], want) {
			t.Errorf("error %d reads %q, want it to say %q", i, refusals, want)
		}
	}
	waitFor(t, "the sheet's first row", func() bool { return s.count("#sheet tbody tr") > 0 }, 10*time.Second)
	var heads []string
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#sheet thead th.who .nm')).map((e) => e.textContent))`, &heads)
	if !slices.Equal(heads, want) {
		t.Errorf("the score sheet's columns are %q, want %q", heads, want)
	}
	// The bid column says the bid and a mark the sheet's caption explains
	// (no seat number such as "#0"), its title who bid and whether they
	// made it.
	var bids []struct{ Bid, Mark, Title string }
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#sheet tbody tr td:first-of-type')).map((e) => ({
		bid: e.firstChild.textContent, mark: (e.querySelector('.ok, .bad') || {}).textContent || '', title: e.title})))`, &bids)
	caption := s.text("#sheet caption")
	if !strings.Contains(caption, "✓ made") || !strings.Contains(caption, "✗ set") {
		t.Errorf("the score sheet's caption %q does not explain its marks ✓ and ✗", caption)
	}
	for _, b := range bids {
		if strings.Trim(b.Bid, " 0123456789") != "" || (b.Mark != "✓" && b.Mark != "✗") ||
			!slices.ContainsFunc(want, func(w string) bool { return strings.Contains(b.Title, w) }) {
			t.Errorf("the score sheet's bid reads %q %q (title %q), want the bid, ✓ or ✗, and who bid in its title", b.Bid, b.Mark, b.Title)
		}
	}

	s.do("the replay", chromedp.Navigate(s.url+"/t/"+id+"/hands/1"), chromedp.WaitVisible(chromedp.CSS("#rp-main")))
	var opts []string
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#rp-review-seat option')).map((e) => e.textContent))`, &opts)
	if !slices.Equal(opts, want) {
		t.Errorf("the replay names the seats %q, want %q", opts, want)
	}
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#rp-match-seat option')).slice(1).map((e) => e.textContent))`, &opts)
	if !slices.Equal(opts, want) {
		t.Errorf("the replay's match review names the seats %q, want %q", opts, want)
	}

	s.do("the history", chromedp.Navigate(s.url+"/history"), chromedp.WaitVisible(chromedp.CSS("#history-list")))
	row := fmt.Sprintf(`#history-list tr[data-id=%q]`, id)
	waitFor(t, "the match in the history", func() bool { return s.count(row) == 1 }, 10*time.Second)
	if got, w := s.text(row+" td:nth-child(2)"), strings.Join(want, ", "); got != w {
		t.Errorf("the history names the players %q, want %q", got, w)
	}
	s.click(row + " .review-match")
	s.do("the match review", chromedp.WaitVisible(chromedp.CSS("#history-review")))
	s.eval(`JSON.stringify(Array.from(document.querySelectorAll('#history-mr-seat option')).slice(1).map((e) => e.textContent))`, &opts)
	if !slices.Equal(opts, want) {
		t.Errorf("the history's match review names the seats %q, want %q", opts, want)
	}
}

// sheetJS lists what makes the score sheet's columns hard to tell apart:
// a seat's column whose number or name is cut (an ellipsis, or text wider
// than its box), two columns that read the same, and a cell whose text is
// cut.
const sheetJS = `(() => {
  const out = [];
  const cut = (e) => e.scrollWidth > e.clientWidth + 1 || Array.from(e.querySelectorAll('*:not(.sr-only)')).some((k) => k.scrollWidth > k.clientWidth + 1);
  const heads = Array.from(document.querySelectorAll('#sheet thead th')).slice(2);
  const seen = new Set();
  heads.forEach((th, i) => {
    const text = th.innerText.replace(/\s+/g, ' ').trim();
    if (!text.split(' ').includes(String(i + 1))) out.push('column ' + i + ' does not show the seat number ' + (i + 1) + ': ' + JSON.stringify(text));
    if (text.includes('…') || cut(th)) out.push('column ' + i + ' is cut: ' + JSON.stringify(text));
    if (seen.has(text)) out.push('two columns read ' + JSON.stringify(text));
    seen.add(text);
  });
  document.querySelectorAll('#sheet tbody td, #sheet th').forEach((c) => {
    if (cut(c)) out.push('a cell is cut: ' + JSON.stringify(c.innerText));
  });
  return JSON.stringify(out);
})()`

// TestBrowserScoreSheetColumns: at 5 and 7 seats, in every language, at
// the desktop and phone sizes, every column of the score sheet can be told
// apart (its seat number and whole name show, no two read the same) and
// no cell is cut; the sheet at 5 seats in Japanese and Greek is a
// screenshot.
func TestBrowserScoreSheetColumns(t *testing.T) {
	s := newSiteFor(t, 240*time.Second, awayQuickly)
	ids := s.namedTables([]int{5, 7}, "Alexandra")
	for k, n := range []int{5, 7} {
		id := ids[k]
		s.do("watch the table", chromedp.Navigate(s.url+"/t/"+id+"?watch=1"), chromedp.WaitVisible(chromedp.CSS("#felt")))
		for _, l := range i18n.Languages {
			s.eval(`localStorage.setItem('pitch.lang', '`+l.Tag+`'), 'true'`, new(bool))
			s.do("reload in "+l.Name, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt")))
			waitFor(t, "the sheet's rows", func() bool { return s.count("#sheet tbody tr") > 0 }, 10*time.Second)
			for _, sz := range []screen{sizes[0], sizes[2]} {
				scale := 1.0
				if sz.phone {
					scale = 2
				}
				s.do("resize", chromedp.EmulateViewport(sz.width, sz.height, chromedp.EmulateScale(scale)), settled())
				var probs []string
				s.eval(sheetJS, &probs)
				for _, p := range probs {
					t.Errorf("%d seats, %s, %s: the score sheet: %s", n, l.Tag, sz.name, p)
				}
				if s.shots != "" && n == 5 && sz.name == "desktop" && (l.Tag == "ja" || l.Tag == "el") {
					png, err := chromedp.Run(s.ctx, chromedp.Screenshot(chromedp.CSS(`section.panel:has(#sheet)`)))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(s.shots, "sheet-5-"+l.Tag+".png"), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			s.do("back to the desktop", chromedp.EmulateViewport(1280, 900))
		}
	}
}

// breaksJS lists the lines of Japanese text on the table broken inside a
// word: a line may end only at a space or after punctuation ("・", "、",
// "）" …). It looks at the seat boxes and at cards drawn
// by the page's own cardNode: the jokers, whose faces carry their names,
// at each size a card comes in (the hand, the trick, the last trick).
const breaksJS = `(async () => {
  const { cardNode } = await import('/js/util.js');
  const box = document.createElement('div');
  box.id = 'break-cards';
  for (const cls of ['', 'tcard', 'small']) for (const c of ['BJ', 'LJ']) box.append(cardNode(c, { cls }));
  document.querySelector('#felt').append(box);
  const ok = ' ・·、。）)/：:,';
  const out = [];
  // The bots' names ("ボット1") wherever a seat is named: the seat boxes,
  // the score sheet's columns, the last trick.
  const names = Array.from(document.querySelectorAll('#sheet th.who .nm, #last-trick .mini-name')).filter((e) => /^ボット/.test(e.textContent));
  for (const el of [...document.querySelectorAll('#break-cards .c-pip, #felt .seat .s-name, #felt .seat .s-stats'), ...names]) {
    // A new line starts lower down, or in vertical writing (the sheet's
    // names at seven seats) further left.
    const vertical = getComputedStyle(el).writingMode.startsWith('vertical');
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      let prev = null;
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i); r.setEnd(n, i + 1);
        const rects = r.getClientRects();
        if (!rects.length) continue;
        const top = vertical ? -rects[0].left : rects[0].top;
        if (prev !== null && top > prev + 2 && !ok.includes(n.data[i - 1]) && n.data[i] !== ' ') out.push(n.data.slice(0, i) + '/' + n.data.slice(i));
        prev = top;
      }
    }
  }
  box.remove();
  return JSON.stringify(out);
})()`

// TestBrowserJapaneseLineBreaks: in Japanese, at the desktop and phone
// sizes, no line of a card face or a seat box at a seven-seat table breaks
// inside a word ("リトルジョ/ーカー", "0ト/リック"), nor a bot's name
// ("ボッ/ト1") in the score sheet's columns or the last trick, whichever
// Japanese font the machine has (CI installs two: IPA Gothic and Noto
// Sans CJK). (The score sheet's narrow columns at seven seats may wrap a
// long name anywhere: its seat number tells the columns apart,
// TestBrowserScoreSheetColumns.)
func TestBrowserJapaneseLineBreaks(t *testing.T) {
	s := newSiteFor(t, 120*time.Second, awayQuickly)
	id := s.namedTable(7, "Alexandra")
	s.do("watch the table", chromedp.Navigate(s.url+"/t/"+id+"?watch=1"), chromedp.WaitVisible(chromedp.CSS("#felt")))
	s.eval(`localStorage.setItem('pitch.lang', 'ja'), 'true'`, new(bool))
	s.do("reload in Japanese", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#felt .seat")))
	waitFor(t, "the sheet's rows", func() bool { return s.count("#sheet tbody tr") > 0 }, 10*time.Second)
	for _, sz := range []screen{sizes[0], sizes[2]} {
		scale := 1.0
		if sz.phone {
			scale = 2
		}
		s.do("resize", chromedp.EmulateViewport(sz.width, sz.height, chromedp.EmulateScale(scale)), settled())
		out, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](breaksJS, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		var breaks []string
		if err := json.Unmarshal([]byte(out), &breaks); err != nil {
			t.Fatal(err)
		}
		for _, b := range breaks {
			t.Errorf("%s: a line breaks inside a word: %q", sz.name, b)
		}
	}
}
