package eventapi

import (
	"net/http"
	"slices"
	"strconv"

	"pitch/event"
	"pitch/server/access"
	"pitch/server/eventview"
	"pitch/server/httpx"
)

// A duplicate deal's results: how everyone who held each seat's cards
// did (docs/events.md, Duplicate).

// dealJSON is a deal of a duplicate round: how everyone who held each
// seat's cards did (GET /api/events/{id}/deals/{round}/{deal}).
type dealJSON struct {
	Event      string `json:"event"`
	Variant    string `json:"variant"`
	Round      int    `json:"round"` // from 1
	Deal       int    `json:"deal"`  // from 1
	Deals      int    `json:"deals"` // the round's deals
	Over       bool   `json:"over"`  // the round is over: the replays are linked
	Commitment string `json:"commitment,omitempty"`
	// Groups: one per table size (auction may have several), each seat's
	// results, best first.
	Groups []dealGroupJSON `json:"groups"`
}

// dealGroupJSON is the results of one table size.
type dealGroupJSON struct {
	Seats int           `json:"seats"`
	Rows  []dealSeatRow `json:"rows"`
}

// dealSeatRow is the results of one seat.
type dealSeatRow struct {
	Seat    int              `json:"seat"`
	Results []dealResultJSON `json:"results"`
}

// dealResultJSON is how one table did at a seat.
type dealResultJSON struct {
	Table   int     `json:"table"` // from 1
	Entry   int     `json:"entry"` // -1 for a bot
	Name    string  `json:"name"`
	Bot     bool    `json:"bot"`
	BotNo   int     `json:"bot_no,omitempty"` // a bot's number at its table ("Bot 1", eventview.Seat)
	Result  int     `json:"result"`           // the seat's change of score on the deal
	Points  int     `json:"points"`
	Max     int     `json:"max"`
	Percent float64 `json:"percent"`
	Replay  string  `json:"replay,omitempty"` // the hand's page, once the round is over
}

// deal is deal d (from 0) of round r of e, as dealJSON. The lock must be
// held.
func deal(e Event, r, d int) dealJSON {
	ev := e.Event()
	out := dealJSON{Event: e.ID(), Variant: ev.Settings.Variant, Round: r + 1, Deal: d + 1, Deals: ev.Settings.Hands, Over: ev.RoundOver(r),
		Groups: []dealGroupJSON{}}
	if cs := e.Commitments(r); d < len(cs) {
		out.Commitment = cs[d]
	}
	// The tables' replays are linked when the policy lets anyone see the
	// round's tables (access.EventTable: its duplicate round is over).
	tables := access.Decide(access.EventTable, access.Viewer{Kind: access.Anonymous}, access.OfEvent(ev, e.Daily(), r)).Allowed
	bySize := map[int]*dealGroupJSON{}
	for _, m := range ev.Matchpoints(r) {
		if m.Deal != d {
			continue
		}
		tab := ev.Rounds[r].Tables[m.Table]
		g := bySize[len(tab.Seats)]
		if g == nil {
			g = &dealGroupJSON{Seats: len(tab.Seats)}
			for seat := range len(tab.Seats) {
				g.Rows = append(g.Rows, dealSeatRow{Seat: seat})
			}
			bySize[len(tab.Seats)] = g
		}
		x := dealResultJSON{Table: m.Table + 1, Entry: m.Entry, Name: "", Bot: m.Entry == event.Bot, Result: m.Result, Points: m.Points, Max: m.Max,
			Percent: m.Percent}
		if m.Entry != event.Bot {
			x.Name, x.Bot = ev.Entries[m.Entry].Name, ev.BotPlays(m.Entry, r)
		}
		if x.Bot {
			bots := make([]bool, len(tab.Seats))
			for k, id := range tab.Seats {
				bots[k] = id == event.Bot || ev.BotPlays(id, r)
			}
			x.BotNo = eventview.BotNumbers(bots)[m.Seat]
		}
		if tables {
			x.Replay = "/t/" + e.TableID(r, m.Table) + "/hands/" + strconv.Itoa(d+1)
		}
		g.Rows[m.Seat].Results = append(g.Rows[m.Seat].Results, x)
	}
	sizes := make([]int, 0, len(bySize))
	for n := range bySize {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	for _, n := range sizes {
		g := bySize[n]
		var rows []dealSeatRow
		for _, row := range g.Rows {
			if ev.Settings.Solo && !slices.ContainsFunc(row.Results, func(x dealResultJSON) bool { return x.Entry != event.Bot }) {
				continue // a solo event's bots' seats
			}
			slices.SortStableFunc(row.Results, func(a, b dealResultJSON) int { return b.Points - a.Points })
			rows = append(rows, row)
		}
		g.Rows = rows
		out.Groups = append(out.Groups, *g)
	}
	return out
}

func (a *API) handleDeal(w http.ResponseWriter, r *http.Request) {
	const op = "event deal"
	e, err := a.rt.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.Lock()
	defer e.Unlock()
	ev := e.Event()
	if ev.Settings.Movement != event.Duplicate {
		a.writeError(w, r, httpx.Errorf(httpx.NotFound, op, "this event is not duplicate: its deals are not compared").With("no_deal", nil))
		return
	}
	round, err1 := strconv.Atoi(r.PathValue("round"))
	d, err2 := strconv.Atoi(r.PathValue("deal"))
	if err1 != nil || err2 != nil || round < 1 || round > len(ev.Rounds) || d < 1 || d > ev.Settings.Hands {
		a.writeError(w, r, httpx.Errorf(httpx.NotFound, op, "no deal %q of round %q: rounds played are 1 to %d, deals 1 to %d", r.PathValue("deal"), r.PathValue("round"),
			len(ev.Rounds), ev.Settings.Hands).With("no_deal", nil))
		return
	}
	if d := access.Ask(r.Context(), access.EventResults, a.viewer(r), access.OfEvent(ev, e.Daily(), round-1)); !d.Allowed {
		if d.Reason == access.RoundNotOver {
			a.writeError(w, r, httpx.Errorf(httpx.Conflict, op, "each deal's results are shown once the event is over, so that no one still to play it learns anything of it").
				With("deal_not_over", nil))
		} else {
			a.writeError(w, r, httpx.Refused(op, d))
		}
		return
	}
	httpx.WriteJSON(w, 200, deal(e, round-1, d-1))
}
