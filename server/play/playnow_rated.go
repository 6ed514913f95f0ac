package play

// Rated play now (docs/ratings.md "Play now"): whether a Play is rated,
// and who a rated play-now match is rated for when people took bots'
// seats over and left them during it.

import (
	"net/http"

	"pitch"
	"pitch/server/httpx"
	"pitch/store"
)

// ratedTarget refuses a rated table of g that does not play to its
// game's standard target: one hand to 1 point would be a whole rated
// match (docs/ratings.md "The standard target").
func ratedTarget(op string, g *pitch.Game) error {
	if std := pitch.DefaultOptions(g.Variant).Target; g.Options.Target != std {
		return httpx.Errorf(httpx.Invalid, op, "a rated table plays to the game's standard target: %s plays to %d, not %d; leave target out, or create a casual table", g.Variant, std, g.Options.Target).
			With("rated_target", map[string]any{"Target": std})
	}
	return nil
}

// playRated decides whether p's Play is rated: as asked (asked nil: a
// signed-in person's is rated when g plays to the standard target, a
// guest's never). A guest asking for a rated Play, or a rated Play of
// another target, is refused.
func playRated(op string, asked *bool, p player, g *pitch.Game) (bool, error) {
	if asked == nil {
		return p.signedIn && ratedTarget(op, g) == nil, nil
	}
	if !*asked {
		return false, nil
	}
	if !p.signedIn {
		return false, httpx.Errorf(httpx.Forbidden, op, "a rated table needs every person signed in: sign in first, or play casual (\"rated\": false)").With("rated_needs_account", nil)
	}
	return true, ratedTarget(op, g)
}

// PlayNowShare is the least share of a rated play-now match's hands, as
// a fraction (3 of 4), that a person must have played in a seat,
// counted up to when they left it or the match ended, to be rated for
// it (docs/ratings.md "Play now").
const (
	playNowShareNum = 3
	playNowShareDen = 4
)

// stint is a person's time in a seat of a play-now table.
type stint struct {
	account string
	played  int  // hands dealt to them in the seat
	upTo    int  // the match's hands up to the stint's end
	left    bool // the stint ended by leaving the seat to a bot
}

// counts reports whether the stint is rated (the share above).
func (s stint) counts() bool {
	return s.account != "" && s.played > 0 && playNowShareDen*s.played >= playNowShareNum*s.upTo
}

// seatHolders is who held seat st from which hand on: its stored
// holders, or (a table made before they were kept) its holder now, from
// the hand they took it over at or the first.
func seatHolders(st store.Seat) []store.Holder {
	if len(st.Holders) > 0 {
		return st.Holders
	}
	from := 1
	if st.TookOver != nil && st.Kind == "human" {
		from = st.TookOver.Hand
	}
	return []store.Holder{{Hand: from, Kind: st.Kind, Name: st.Name, Account: st.Account}}
}

// stints lists the people's stints in seat st of a match of hands
// hands, oldest first.
func stints(st store.Seat, hands int) []stint {
	hs := seatHolders(st)
	var out []stint
	for i, h := range hs {
		if h.Kind != "human" || h.Account == "" {
			continue
		}
		end, left := hands+1, false
		if i+1 < len(hs) {
			end, left = min(hs[i+1].Hand, hands+1), true
		}
		out = append(out, stint{account: h.Account, played: max(end-h.Hand, 0), upTo: end - 1, left: left})
	}
	return out
}

// ratedFor is who a seat of a rated play-now match is rated for.
type ratedFor struct {
	account string // "" when the seat counts as its bot
	forfeit bool   // they left it: they lose the match
	hands   int    // the hands they played in it
}

// playNowRated decides who each seat of a finished rated play-now match
// of hands hands is rated for (docs/ratings.md "Play now"): the person
// who left a seat after playing their share of the match until then
// (the first such), as a loss; else the person holding it at the end if
// they played their share of the match; else nobody, and the seat
// counts as its bot. A person rated as a leaver is rated for nothing
// else at the table.
func playNowRated(seats []store.Seat, hands int) []ratedFor {
	out := make([]ratedFor, len(seats))
	quit := map[string]bool{}
	for i, st := range seats {
		ss := stints(st, hands)
		for _, s := range ss {
			if s.left && s.counts() {
				out[i] = ratedFor{account: s.account, forfeit: true, hands: s.played}
				quit[s.account] = true
				break
			}
		}
		if out[i].account == "" && len(ss) > 0 {
			if last := ss[len(ss)-1]; !last.left && last.counts() {
				out[i] = ratedFor{account: last.account, hands: last.played}
			}
		}
	}
	for i, r := range out {
		if !r.forfeit && quit[r.account] {
			out[i] = ratedFor{}
		}
	}
	return out
}

// leaveHand is the first hand the bot plays from its deal when a person
// leaves a seat now: the next hand, or this one while it waits for its
// deal. The lock must be held.
func (t *table) leaveHand() int {
	if t.match.AwaitingDeal() {
		return t.fairHand()
	}
	return t.fairHand() + 1
}

// handlePopular serves GET /api/play: for each game, the house rules
// most played on this server lately when they are not the game's
// defaults (popularRules), for the home page's second Play button.
func (s *Server) handlePopular(w http.ResponseWriter, r *http.Request) {
	list, err := s.popularRules(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"popular": list, "window_days": int(popularWindow.Hours() / 24)})
}
