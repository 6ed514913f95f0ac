package pitch

import (
	"fmt"
	"strings"
)

// RulesText returns the rules of v as implemented, short and plain, with
// the options and their defaults (`pitch rules`).
func RulesText(v Variant) string {
	var b strings.Builder
	b.WriteString(rulesSummary[v])
	d := DefaultOptions(v)
	b.WriteString("\nOptions (hand-record name: default):\n")
	for _, k := range optionKeys[v] {
		var def any
		switch k {
		case "target":
			def = d.Target
		case "players":
			def = d.Players
		case "partnerships":
			def = d.Partnerships
		case "low_to_holder":
			def = d.LowToHolder
		case "call_own_card":
			def = d.CallOwnCard
		case "pawnee_score_tricks":
			def = d.ScoreTricks
		case "pawnee_fail_bidder_only":
			def = d.FailBidderOnly
		}
		fmt.Fprintf(&b, "  %-24s %-6v %s\n", k, def, optionHelp[k])
	}
	return b.String()
}

var optionHelp = map[string]string{
	"target":                  "score that ends the match",
	"players":                 "2 to 7 players",
	"partnerships":            "4 or 6 players in two teams seated alternately",
	"low_to_holder":           "Low goes to the player dealt it, not the trick's winner",
	"call_own_card":           "the bidder may call a card they hold, and then plays alone",
	"pawnee_score_tricks":     "each side scores its tricks instead of its points",
	"pawnee_fail_bidder_only": "a failed bid costs only the bidder; off: the partner loses it too",
}

var rulesSummary = map[Variant]string{
	Auction: `Auction Pitch (Setback) — 2 to 7 players (4 by default), 52 cards.
Deal: 6 cards each, in packets of 3. Bidding: once each from the dealer's
left, pass or 1-4, each bid higher; 4 ends the auction. The dealer may
steal at the high bid, and must bid 2 or more if all others passed.
Play: the pitcher leads; that card's suit is trump. Follow the suit led
or trump; when trump is led you must play trump if you can. Highest trump,
else highest card of the suit led, wins. 6 tricks.
Points: High (highest trump in play), Low (lowest trump in play, to the
trick's winner), Jack (jack of trump, if dealt), Game (most card value in
won tricks: T=10 A=4 K=3 Q=2 J=1; none on a tie). A lone trump is High and
Low. The pitcher scores all points taken if they reach the bid, else loses
the bid; others score what they took. Only the pitcher can win, at the end
of a hand they pitched, with a score at or over the target.
`,
	TenPoint: `10 Point Pitch — 4 players in two partnerships (seats 0+2, 1+3), 54 cards.
Trumps: A K Q J, off-jack, big joker, little joker, T 9 ... 2.
Deal: 9 cards each; 18 form the stock. Bidding: once each from the
dealer's left, pass or 4-9, or 10 to shoot the moon (ends the auction);
if all others passed, the dealer must bid exactly 4. The pitcher names
trump. Everyone drops non-trumps; from the dealer's left each seat is
filled to 6 from the stock. Then the pitcher, knowing how many cards each
seat drew and how many are left, chooses whether the rest of the stock
goes to them or their partner, who keeps its trumps. Seats holding more than 6
trumps may pass some to a partner holding fewer than 6, then burn down to
6 (face up; point cards last). Play: only trumps, any trump; seats without
trumps sit out. 6 tricks or until no trumps are left.
Points (to the trick's winner): A, J, off-J, BJ, LJ, T, 2 one each; 3 is
worth 3. Made bid: the pitcher's team scores the bid, else loses it; the
others score what they took. Moon: made with a score of 0 or more wins at
once, made below 0 resets to 0, failed costs 10 and the others win. First
team at the target wins; both at once: the pitcher's team.
`,
	Pawnee: `Pawnee Ten Point Call Your Partner Pitch — 5 players, each for themselves, 54 cards.
Trumps: A K Q J, off-jack, big joker, little joker, T 9 ... 2.
Deal: 10 cards each; 4 form the widow. Bidding goes round from the
dealer's left, 5-10 (10 is the moon, only with a score of 0 or more); a
pass is final; the last bidder left wins; if all others passed, the
dealer must bid exactly 5. The bidder calls a card (not a joker): its suit is trump and its
holder the secret partner (alone if it is in the widow or the bidder's own
hand). The bidder takes the widow; everyone discards down to 6 in turn.
Point cards and the called card may not be discarded (a seat holding
more than 6 of them throws the extra point cards, which score for nobody);
other trumps only when needed; discarded trumps are shown once all have
discarded.
Play: the called card leads; only trumps; seats without trumps fold.
Points: J, off-J, BJ, LJ, T one each, 3 worth 3 (to the trick's winner);
High and Low to the side of the player who played them. A made bid scores
each member of the bidding side its side's points; a failed bid costs the
bidder alone the bid (the partner scores nothing). The others score their
side's points. A made moon wins for the bidder alone. Then a bidder who
made the bid and is at the target wins, even below another score;
otherwise a lone player at the target wins; otherwise play goes on.
`,
}
