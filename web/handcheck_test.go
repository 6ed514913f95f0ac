package web_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pitch"
)

// What a played hand must show: the hand as the server sorts it, and the
// stored record's scoring on the score sheet and in the hand's summary.

// checkHandShown checks that the hand is shown as the server sorts it
// and that exactly its trumps are marked as trumps (C-4, C-5): the page
// takes both from the server.
func (s *site) checkHandShown() {
	t := s.t
	t.Helper()
	var got struct {
		Trump, Variant string
		Cards          []string
		Marked         []string
	}
	s.eval(`JSON.stringify({trump: document.querySelector('#table-view').dataset.trump, variant: document.querySelector('#table-view').dataset.variant,
		cards: Array.from(document.querySelectorAll('#hand button.card')).map(e => e.dataset.card),
		marked: Array.from(document.querySelectorAll('#hand button.card')).filter(e => e.classList.contains('trump')).map(e => e.dataset.card)})`, &got)
	trump := pitch.NoSuit
	if got.Trump != "" {
		var err error
		if trump, err = pitch.ParseSuit(got.Trump); err != nil {
			t.Fatalf("the page's trump %q: %v", got.Trump, err)
		}
	}
	hand := pitch.SetOf(parseCards(t, got.Cards)...)
	jokers := got.Variant != "auction"
	want := make([]string, 0, hand.Len())
	for _, c := range pitch.SortHand(hand, trump, jokers) {
		want = append(want, c.String())
	}
	if !slices.Equal(got.Cards, want) {
		t.Errorf("the hand is shown as %v, want %v (%s, trump %q)", got.Cards, want, got.Variant, got.Trump)
	}
	var marked []string
	for _, c := range pitch.SortHand(hand&pitch.Trumps(trump, jokers), trump, jokers) {
		marked = append(marked, c.String())
	}
	if !slices.Equal(got.Marked, marked) {
		t.Errorf("the hand marks %v as trumps, want %v (%s, trump %q)", got.Marked, marked, got.Variant, got.Trump)
	}
}

// checkLastHand compares the page with the engine's scoring of the last
// hand's stored record, and the record's seat 0 actions with ours.
func (s *site) checkLastHand(id string, hands []hand, seats int) {
	t := s.t
	t.Helper()
	n := len(hands)
	rec := fetchRecord(t, s.url, id, n)
	var ours []pitch.Action
	for _, a := range rec.Actions {
		if a.Seat == 0 {
			ours = append(ours, a)
		}
	}
	if got, want := actionsJSON(t, ours), actionsJSON(t, hands[n-1].actions); got != want {
		t.Errorf("seat 0's actions in hand %d's record:\n got %s\nwant %s (what the test clicked)", n, got, want)
	}
	out, err := rec.Score()
	if err != nil {
		t.Fatalf("scoring the stored record: %v", err)
	}
	if !out.Complete || out.Bidder == nil || *out.Bidder != 0 || out.Made == nil {
		t.Fatalf("hand %d: complete %v, bidder %v; want a complete hand bid by seat 0", n, out.Complete, out.Bidder)
	}

	sheet := s.rows("#sheet tbody tr")
	if len(sheet) != n {
		t.Fatalf("the score sheet has %d rows after %d hands", len(sheet), n)
	}
	row := sheet[n-1]
	if len(row) != 2+seats {
		t.Fatalf("sheet row %v: want hand, bid and %d seats", row, seats)
	}
	if got, want := row[0], strconv.Itoa(n); got != want {
		t.Errorf("score sheet hand number %q, want %q", got, want)
	}
	if got := row[1]; !strings.HasPrefix(got, fmt.Sprint(*out.Bid)+" ") {
		t.Errorf("score sheet bid cell %q, want it to start with the bid %d", got, *out.Bid)
	}
	for seat := range seats {
		want := fmt.Sprintf("%d (%s)", out.Scores[seat], signed(out.ScoreDelta[seat]))
		if got := row[2+seat]; got != want {
			t.Errorf("score sheet, hand %d, seat %d: %q, want %q", n, seat, got, want)
		}
	}

	totals := s.rows("#summary .totals tbody tr")
	if len(totals) != seats {
		t.Fatalf("the summary's totals have %d rows, want %d", len(totals), seats)
	}
	for seat, r := range totals {
		if got, want := r[1:], []string{strconv.Itoa(out.Taken[seat]), signed(out.ScoreDelta[seat]), strconv.Itoa(out.Scores[seat])}; !slices.Equal(got, want) {
			t.Errorf("summary, seat %d: taken, change and score %v, want %v", seat, got, want)
		}
	}
	points := s.rows("#summary .points tbody tr")
	if len(out.Points) > 0 && len(points) != len(out.Points) {
		t.Errorf("the summary lists %d points, the record scores %d", len(points), len(out.Points))
	}
	head := s.text("#summary-h")
	word := " was set on "
	if *out.Made {
		word = " made "
	}
	if !strings.Contains(head, word+strconv.Itoa(*out.Bid)) {
		t.Errorf("summary heading %q, want it to say%s%d", head, word, *out.Bid)
	}
}
