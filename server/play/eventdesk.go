package play

import (
	"slices"

	"pitch/server/eventview"
)

// What the director's desk changes shows (docs/events.md, The director's
// desk; the byes): who sat out each round, who was withdrawn or merged,
// which results were adjusted and why.

// deskView adds to v (built by view) each round's byes, the withdrawn
// and merged entries and seats, and the adjusted results. The lock must
// be held.
func (e *liveEvent) deskView(v *eventview.Event) {
	ev := e.d.Event
	v.Byes = make([][]int, len(ev.Rounds))
	v.ByeNames = make([][]string, len(ev.Rounds))
	for r, round := range ev.Rounds {
		v.Byes[r] = slices.Clone(round.Byes)
		if v.Byes[r] == nil {
			v.Byes[r] = []int{}
		}
		v.ByeNames[r] = []string{}
		for _, id := range round.Byes {
			v.ByeNames[r] = append(v.ByeNames[r], ev.Entries[id].Name)
		}
		if r >= len(v.Rounds) {
			continue
		}
		for ti, tab := range round.Tables {
			if ti >= len(v.Rounds[r]) {
				break
			}
			v.Rounds[r][ti].Adjusted = tab.Adjusted
			for si, id := range tab.Seats {
				if id >= 0 && si < len(v.Rounds[r][ti].Seats) {
					v.Rounds[r][ti].Seats[si].Withdrawn = ev.Entries[id].Withdrawn && ev.BotPlays(id, r)
				}
			}
		}
	}
	for i := range v.Entries {
		if i < len(ev.Entries) {
			v.Entries[i].Withdrawn, v.Entries[i].MergedInto = ev.Entries[i].Withdrawn, ev.Entries[i].MergedInto
		}
	}
}

// byeOf tells me (seatOf's) that they sit out the latest round, when
// they do. The lock must be held.
func (e *liveEvent) byeOf(me *eventview.MySeat) {
	ev := e.d.Event
	if r := len(ev.Rounds) - 1; ev.SitsOut(me.Entry, r) {
		me.Round, me.Bye, me.Done = r+1, true, ev.Rounds[r].Done()
	}
}
