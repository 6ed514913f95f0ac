package play

import (
	"encoding/json"
	"fmt"

	"pitch"
)

// Messages on the WebSocket (docs/protocol.md).

// clientMsg is what a client sends.
type clientMsg struct {
	Type   string          `json:"type"`             // "hello" or "action"
	Token  string          `json:"token,omitempty"`  // hello: the seat token; absent for a spectator (an event's: the person's token)
	Host   string          `json:"host,omitempty"`   // hello to an event: the host's token
	Action json.RawMessage `json:"action,omitempty"` // action: a hand-record action
	Text   string          `json:"text,omitempty"`   // chat: what to say
	// hello: this client shows each hand's summary and sends "ready" when
	// its person has closed it (ready.go)
	Summary bool `json:"summary,omitempty"`
	// ready: the hand whose summary was closed
	Hand int `json:"hand,omitempty"`
	// contribute: the commitment the page saw and its random value (hex)
	Commitment string `json:"commitment,omitempty"`
	Value      string `json:"value,omitempty"`
}

// stateMsg is sent to a connection after every change it may see.
type stateMsg struct {
	Type     string            `json:"type"`  // "state"
	Seat     int               `json:"seat"`  // -1 for a spectator
	Table    json.RawMessage   `json:"table"` // a tableInfo
	Seq      int               `json:"seq"`   // events so far
	HandNo   int               `json:"hand_no"`
	View     viewJSON          `json:"view"`
	Log      logJSON           `json:"log"`               // this hand's actions, as this seat may see them
	Legal    []json.RawMessage `json:"legal,omitempty"`   // this seat's legal actions when it is to act (not discards: see Discard)
	Discard  *discardJSON      `json:"discard,omitempty"` // what this seat must discard, burn or may pass
	Sheet    json.RawMessage   `json:"sheet"`             // a []sheetRow
	LastHand *handSummary      `json:"last_hand,omitempty"`
	Over     bool              `json:"match_over"`
	Winner   []int             `json:"winner"`
	Away     []bool            `json:"away"`    // seats a bot is playing for just now
	Waiting  bool              `json:"waiting"` // play waits for human seats to be taken
	// Timer is the turn timer of the seat to act, while one runs.
	Timer *timerJSON `json:"timer,omitempty"`
	// Refusals says, for the seat to act in play, why each card of its hand
	// it may not play is refused, in the engine's words (C-7).
	Refusals map[pitch.Card]refusal `json:"refusals,omitempty"`
	// SuitTrumps says, for the seat to name trump (ten-point) or call a
	// card (pawnee), how many trumps it would hold with each suit as
	// trump (C-4).
	SuitTrumps map[string]int `json:"suit_trumps,omitempty"`
	// NextTable is the table where the same seats play their next match.
	NextTable string `json:"next_table,omitempty"`
	// NextBy is the seat that started that next match, when this server
	// knows it, so that the others can be told who moved them.
	NextBy *int `json:"next_by,omitempty"`
	// Reading lists the seats whose people are reading the last hand's
	// summary: play waits for them (ready.go). Absent when it waits for
	// nobody.
	Reading []int `json:"reading,omitempty"`
	// Paused: the table's event is paused by its host; nobody may act
	// until it resumes (docs/events.md).
	Paused bool `json:"paused,omitempty"`
	// Fair is the table's fair deals: commitments, contributions, the last
	// hand's secret (docs/fairness.md); absent at tables from before.
	Fair *fairJSON `json:"fair,omitempty"`
	// Ratings says, once a rated match is over and rated, each signed-in
	// seat's new rating and its change (docs/ratings.md).
	Ratings []ratingChangeJSON `json:"ratings,omitempty"`
}

// timerJSON is a running turn timer: the seat it runs for, and the time
// left and in all, in milliseconds.
type timerJSON struct {
	Seat    int   `json:"seat"`
	LeftMS  int64 `json:"left_ms"`
	TotalMS int64 `json:"total_ms"`
}

type errorMsg struct {
	Type    string         `json:"type"` // "error"
	Message string         `json:"message"`
	Code    string         `json:"code,omitempty"`   // see docs/protocol.md
	Params  map[string]any `json:"params,omitempty"` // its seats, numbers and cards
}

type logEntry struct {
	Seat int    `json:"seat"`
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Action is the action itself when this seat may see all of it.
	Action json.RawMessage `json:"action,omitempty"`
	// By is who made it for the seat: "timer" (its time ran out) or
	// "stand-in" (it was away); absent for the seat itself.
	By string `json:"by,omitempty"`
}

type discardJSON struct {
	Kind      string       `json:"kind"` // "discard" (pawnee) or "burn" (ten-point)
	Count     int          `json:"count"`
	Must      []pitch.Card `json:"must"`
	Pool      []pitch.Card `json:"pool"`
	Choose    int          `json:"choose"`
	PassLimit int          `json:"pass_limit"` // ten-point: up to this many trumps may first go to the partner
	Rule      string       `json:"rule"`
	// Keep says why each held card outside Must and Pool may not go:
	// "called", "point" or "trump" (pawnee), "burn_point" (ten-point).
	Keep map[pitch.Card]string `json:"keep"`
	// OverProtected is true when a pawnee seat holds more than 6
	// protected cards and point cards are in Pool (PW-DIS-3).
	OverProtected bool `json:"over_protected"`
}

// suitTrumps counts, for each suit, the trumps of hand if it were trump.
func suitTrumps(g *pitch.Game, hand pitch.CardSet) map[string]int {
	out := map[string]int{}
	for t := pitch.Clubs; t < pitch.NoSuit; t++ {
		out[t.String()] = (hand & pitch.Trumps(t, g.Jokers())).Len()
	}
	return out
}

// discardOf describes the discard or burn the seat to act in s must make.
func discardOf(s *pitch.State) *discardJSON {
	must, pool, k := s.DiscardChoice()
	called, points, trumps, over := s.DiscardKeep()
	d := &discardJSON{Kind: "discard", Count: must.Len() + k, Must: cards(must), Pool: cards(pool), Choose: k,
		PassLimit: s.PassLimit(), Keep: map[pitch.Card]string{}, OverProtected: over}
	pointWhy := "point"
	if s.Game().Variant == pitch.TenPoint {
		d.Kind, pointWhy = "burn", "burn_point"
	}
	d.Rule = discardRule(d.Kind, must, pool, k)
	for _, r := range []struct {
		set pitch.CardSet
		why string
	}{{called, "called"}, {points, pointWhy}, {trumps, "trump"}} {
		for _, c := range r.set.Cards() {
			d.Keep[c] = r.why
		}
	}
	return d
}

type sheetRow struct {
	Hand   int   `json:"hand"`
	Bidder int   `json:"bidder"`
	Bid    int   `json:"bid"`
	Made   bool  `json:"made"`
	Delta  []int `json:"delta"`
	Scores []int `json:"scores"`
}

type pointJSON struct {
	Kind string      `json:"kind"`
	Card *pitch.Card `json:"card,omitempty"`
	Seat int         `json:"seat"`
}

type handSummary struct {
	Hand    int          `json:"hand"`
	Bidder  int          `json:"bidder"`
	Bid     int          `json:"bid"`
	Trump   string       `json:"trump"`
	Trumps  []pitch.Card `json:"trumps"` // the trump cards, highest first
	Partner *int         `json:"partner"`
	Teams   [][]int      `json:"teams"`
	Points  []pointJSON  `json:"points"`
	Taken   []int        `json:"taken"`
	Made    bool         `json:"made"`
	Delta   []int        `json:"delta"`
	Scores  []int        `json:"scores"`
	Winner  []int        `json:"winner"`
	// The hand's last trick and its winner (so that the last card played
	// can be shown), and how many tricks were played: fewer than 6 when
	// nobody held a trump any more (TP-PLAY-1, PW-PLAY-3).
	LastTrick  []trickCard `json:"last_trick"`
	LastWinner int         `json:"last_winner"`
	Tricks     int         `json:"tricks"`
	// View and Log are the finished hand as the seat saw it at its end:
	// sent from the state that ends the hand until the next hand's first
	// move (and once the match is over), so that a client can show the
	// final trick as it was before it shows the next hand.
	View *viewJSON `json:"view,omitempty"`
	Log  logJSON   `json:"log,omitempty"`
	// head is the encoded summary up to View, made once for every seat
	// (appendSummaryHead); nil when not made.
	head []byte
}

type trickCard struct {
	Seat int        `json:"seat"`
	Card pitch.Card `json:"card"`
}

// viewJSON is a pitch.View for the wire: only what the seat may see.
type viewJSON struct {
	Phase        string       `json:"phase"`
	Dealer       int          `json:"dealer"`
	Turn         int          `json:"turn"`
	Scores       []int        `json:"scores"`
	Hand         []pitch.Card `json:"hand"` // sorted as a player sorts it (pitch.SortHand)
	Counts       []int        `json:"counts"`
	Bid          int          `json:"bid"`
	Bidder       int          `json:"bidder"`
	Passed       []int        `json:"passed"`
	Trump        *string      `json:"trump"`
	Trumps       []pitch.Card `json:"trumps"` // the trump cards, highest first (C-5); empty before trump is known
	Called       *pitch.Card  `json:"called"`
	Partner      *int         `json:"partner"`
	PartnerKnown bool         `json:"partner_known"`
	Widow        []pitch.Card `json:"widow"`
	Shown        []pitch.Card `json:"shown"`
	Out          []pitch.Card `json:"out"`
	Trick        []trickCard  `json:"trick"`
	LastTrick    []trickCard  `json:"last_trick"`
	LastWinner   int          `json:"last_winner"`
	Tricks       int          `json:"tricks"`
	TrickWins    []int        `json:"trick_wins"`
	StockLeft    int          `json:"stock_left"`
	FillGot      []int        `json:"fill_got,omitempty"` // ten-point: cards each seat drew from the stock (TP-TR-3, TP-TR-4)
}

func cards(set pitch.CardSet) []pitch.Card {
	c := set.Cards()
	if c == nil {
		c = []pitch.Card{}
	}
	return c
}

func toViewJSON(v *pitch.View) viewJSON {
	n := v.Game.Seats()
	out := viewJSON{Phase: v.Phase.String(), Dealer: v.Dealer, Turn: v.Turn, Scores: v.Scores[:n:n],
		Hand: pitch.SortHand(v.Hand, v.Trump, v.Game.Jokers()), Trumps: pitch.TrumpOrder(v.Trump, v.Game.Jokers()), Counts: v.Counts[:n:n], Bid: v.Bid, Bidder: v.Bidder, Passed: []int{},
		PartnerKnown: v.PartnerKnown, Widow: cards(v.Widow), Shown: cards(v.Shown), Out: cards(v.Out),
		Trick: []trickCard{}, LastTrick: []trickCard{}, LastWinner: v.LastWon, Tricks: v.Tricks,
		TrickWins: v.TrickWins[:n:n], StockLeft: v.StockLeft}
	if v.Game.Variant == pitch.TenPoint && v.Phase >= pitch.PhaseGiveStock {
		out.FillGot = v.FillGot[:n:n]
	}
	for i := range n {
		if v.Passed&(1<<i) != 0 {
			out.Passed = append(out.Passed, i)
		}
	}
	if v.Trump != pitch.NoSuit {
		t := v.Trump.String()
		out.Trump = &t
	}
	if v.Called != pitch.NoCard {
		c := v.Called
		out.Called = &c
	}
	if v.PartnerKnown && v.Partner >= 0 {
		p := v.Partner
		out.Partner = &p
	}
	for i, c := range v.Trick {
		out.Trick = append(out.Trick, trickCard{v.TrickSeat[i], c})
	}
	for i, c := range v.Last {
		out.LastTrick = append(out.LastTrick, trickCard{v.LastSeat[i], c})
	}
	return out
}

// logEntryFor describes one action as seat may see it (-1: a spectator):
// a discard or a pass shows its cards only to those the rules let see them.
// raw is the action's JSON, shared by every seat that may see it all.
func logEntryFor(g *pitch.Game, a pitch.Action, raw json.RawMessage, seat int) logEntry {
	return logEntryText(g, a, raw, seat, a.String())
}

// logEntryText is logEntryFor with text, a.String(), made once for every
// seat.
func logEntryText(g *pitch.Game, a pitch.Action, raw json.RawMessage, seat int, text string) logEntry {
	e := logEntry{Seat: int(a.Seat), Kind: a.Kind.String()}
	switch a.Kind {
	case pitch.ActDiscard:
		// Ten-point burns are shown (TP-TR-5); a pawnee discard is the
		// discarder's own (its trumps are shown in view.shown once all
		// have discarded, PW-DIS-2).
		if g.Variant != pitch.TenPoint && int(a.Seat) != seat {
			e.Text = fmt.Sprintf("seat %d discards %d cards", a.Seat, a.Cards.Len())
			return e
		}
	case pitch.ActPassTrumps:
		if int(a.Seat) != seat && (int(a.Seat)+2)%4 != seat {
			e.Text = fmt.Sprintf("seat %d passes %d trumps to the partner", a.Seat, a.Cards.Len())
			return e
		}
	}
	e.Text, e.Action = text, raw
	return e
}

func summarize(n int, s *pitch.State) *handSummary {
	r := s.Result()
	h := &handSummary{Hand: n, Bidder: r.Bidder, Bid: r.Bid, Trump: r.Trump.String(), Trumps: pitch.TrumpOrder(r.Trump, s.Game().Jokers()), Teams: r.Teams, Taken: r.Taken,
		Made: r.Made, Delta: r.Delta, Scores: r.Scores, Winner: r.Winner, Points: []pointJSON{}}
	if r.Partner >= 0 {
		p := r.Partner
		h.Partner = &p
	}
	v := s.View(-1)
	h.LastTrick, h.LastWinner, h.Tricks = []trickCard{}, v.LastWon, v.Tricks
	for i, c := range v.Last {
		h.LastTrick = append(h.LastTrick, trickCard{v.LastSeat[i], c})
	}
	for _, p := range r.Points {
		pj := pointJSON{Kind: p.Kind.String(), Seat: int(p.Seat)}
		if p.Card != pitch.NoCard {
			c := p.Card
			pj.Card = &c
		}
		h.Points = append(h.Points, pj)
	}
	return h
}
