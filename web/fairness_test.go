package web_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"pitch"
)

// The browser's verifier (static/js/fairness.js) is checked against the Go
// implementation here, under Node: the same seeds, decks and deals on many
// inputs, honest records verified, and each kind of tampering caught. The
// browser test (TestBrowserFairDeal) runs it in Chromium on a real hand.

// nodePath finds Node, or "" when it is not installed.
func nodePath() string {
	p, err := exec.LookPath("node")
	if err != nil {
		return ""
	}
	return p
}

// jsCase is one input for the JavaScript verifier, with what Go makes of
// it: the shared test vectors of the two verifiers.
type jsCase struct {
	Name     string          `json:"name"`
	Record   json.RawMessage `json:"record"`
	Mine     map[string]any  `json:"mine,omitempty"`
	Size     int             `json:"size"`
	Seed     string          `json:"seed"`      // Go's seed (hex)
	Deck     []string        `json:"deck"`      // Go's deck, top first
	OK       bool            `json:"ok"`        // what the page's verifier must say (Go's VerifyFairness when no Mine)
	WantText string          `json:"want_text"` // a problem must say this when not OK
	GoText   string          `json:"go_text"`   // Go's problems must say this, when set
	WantWarn string          `json:"want_warn"` // a warning must say this, when set (both verifiers, without Mine)
}

// fairCase deals hand k of a game with a fair seed and returns its record
// (played out by random actions) and its proof.
func fairCase(t *testing.T, k int) (pitch.Record, *pitch.Fairness, [32]byte, *pitch.Game) {
	t.Helper()
	games := []*pitch.Game{pitch.MustNewGame(pitch.Auction), pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(7)),
		pitch.MustNewGame(pitch.TenPoint), pitch.MustNewGame(pitch.Pawnee), pitch.MustNewGame(pitch.Auction, pitch.WithPlayers(2))}
	g := games[k%len(games)]
	secret := sha256.Sum256([]byte(fmt.Sprint("secret", k)))
	c := pitch.FairCommitment(secret)
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(k) * time.Minute)
	dealer := k % g.Seats()
	f := &pitch.Fairness{Algorithm: pitch.FairAlgorithm, Version: pitch.FairVersion, Commitment: hex.EncodeToString(c[:]),
		Secret: hex.EncodeToString(secret[:]), CommittedAt: at.Format(pitch.FairTimeFormat), DealtAt: at.Add(3 * time.Second).Format(pitch.FairTimeFormat),
		Contributions: []pitch.Contribution{}, Dealer: &dealer}
	for s := range g.Seats() {
		if (k>>s)&1 == 1 { // a different set of contributors for each k
			v := sha256.Sum256([]byte(fmt.Sprint("value", k, s)))
			f.Contributions = append(f.Contributions, pitch.Contribution{Seat: s, Name: fmt.Sprint("P", s), Value: hex.EncodeToString(v[:]),
				At: at.Add(time.Duration(s+1) * 100 * time.Millisecond).Format(pitch.FairTimeFormat)})
		}
	}
	seed, err := pitch.FairSeed(secret, f.Contributions)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pitch.NewHand(g, dealer, nil, pitch.FairDeck(g, seed))
	if err != nil {
		t.Fatal(err)
	}
	rng := pitch.NewRand(uint64(k))
	var acts []pitch.Action
	for !s.Terminal() {
		a := s.RandomAction(rng)
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
	}
	r := s.Record(acts)
	r.Fairness, _ = json.Marshal(f)
	return r, f, seed, g
}

// runNode runs the JavaScript verifier over cases and returns its answers.
func runNode(t *testing.T, node string, cases []jsCase) []map[string]any {
	t.Helper()
	dir := t.TempDir()
	in, _ := json.Marshal(cases)
	if err := os.WriteFile(filepath.Join(dir, "cases.json"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	mod, err := filepath.Abs("static/js/fairness.js")
	if err != nil {
		t.Fatal(err)
	}
	script := `
import { readFileSync } from 'node:fs';
import { fairSeed, fairDeck, cardName, bytesToHex, verifyRecord } from ` + "'file://" + filepath.ToSlash(mod) + `';
const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = [];
for (const c of cases) {
  const f = c.record.fairness;
  let seed = '', deck = [];
  try {
    const s = await fairSeed(f.secret, f.contributions);
    seed = bytesToHex(s);
    deck = (await fairDeck(s, c.size)).map(cardName);
  } catch (e) { seed = 'error: ' + e.message; }
  out.push({ seed, deck, result: await verifyRecord(c.record, c.mine) });
}
console.log(JSON.stringify(out));
`
	sp := filepath.Join(dir, "run.mjs")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, sp, filepath.Join(dir, "cases.json"))
	outb, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node: %v\n%s", err, stderr)
	}
	var res []map[string]any
	if err := json.Unmarshal(outb, &res); err != nil || len(res) != len(cases) {
		t.Fatalf("node answered %d results for %d cases (%v): %.300s", len(res), len(cases), err, outb)
	}
	return res
}

// TestFairnessJSMatchesGo: on 300 hands of every game, with every mix of
// contributors, the browser's verifier computes Go's seed and deck and
// verifies the record; on the shared vectors — tampered records (the
// secret, a contribution, a swapped card, the stock's order, a commitment
// published after a contribution) and the cases the spec decides (upper
// case, seat order, unknown fields, time offsets and precision, field
// types, the dealer, abandoned commitments, an auction stock in any
// order) — both verifiers give the same verdict, each saying what is
// wrong. Cases with what only the page knows (the commitment and dealer
// it was shown, its own value, a commitment replaced) check the page's
// verdict alone.
func TestFairnessJSMatchesGo(t *testing.T) {
	node := nodePath()
	if node == "" {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	var cases []jsCase
	for k := range 300 {
		r, f, seed, g := fairCase(t, k)
		raw, _ := json.Marshal(r)
		deck := pitch.FairDeck(g, seed)
		names := make([]string, len(deck))
		for i, c := range deck {
			names[i] = c.String()
		}
		base := jsCase{Name: fmt.Sprintf("honest %d (%s, %d seats)", k, g.Variant, g.Seats()), Record: raw, Size: len(deck),
			Seed: hex.EncodeToString(seed[:]), Deck: names, OK: true}
		cases = append(cases, base)
		if k >= 20 {
			continue
		}
		// vector adds a changed version of the record: both verifiers must
		// say ok (want "") or fail saying want (JS) and goWant (Go).
		vector := func(name string, ok bool, want, goWant string, change func(m map[string]any, fm map[string]any)) {
			t.Helper()
			var m map[string]any
			_ = json.Unmarshal(raw, &m)
			change(m, m["fairness"].(map[string]any))
			b, _ := json.Marshal(m)
			rec, err := pitch.ReadRecord(strings.NewReader(string(b)))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rep := pitch.VerifyFairness(rec)
			if rep.OK() != ok {
				t.Fatalf("%s %d: Go says ok=%v (%q), want %v", name, k, rep.OK(), rep.Problems, ok)
			}
			if !ok && !strings.Contains(strings.Join(rep.Problems, "\n"), goWant) {
				t.Fatalf("%s %d: Go's problems %q do not say %q", name, k, rep.Problems, goWant)
			}
			c := base
			c.Name, c.Record, c.OK, c.WantText, c.GoText, c.Seed, c.Deck = fmt.Sprint(name, " ", k), b, ok, want, goWant, "", nil
			if ok {
				c.Seed, c.Deck = base.Seed, base.Deck
			}
			cases = append(cases, c)
		}
		tamper := func(name, want string, change func(m map[string]any, fm map[string]any)) {
			t.Helper()
			vector(name, false, want, "", change)
		}
		tamper("tampered secret", "the secret does not match the commitment", func(m, fm map[string]any) {
			fm["secret"] = strings.Repeat("0", 64)
		})
		cs := func(fm map[string]any) []any { return fm["contributions"].([]any) }
		if len(f.Contributions) > 0 {
			tamper("tampered contribution", "hand: the record has", func(m, fm map[string]any) {
				cs(fm)[0].(map[string]any)["value"] = strings.Repeat("ab", 32)
			})
			tamper("commitment published after the contributions", "dated before the commitment was published", func(m, fm map[string]any) {
				fm["committed_at"] = f.DealtAt
			})
			// The spec's decisions (docs/fairness.md, "The proof in the hand record").
			vector("upper-case value", false, "contributions[0].value is written in upper-case", "lower-case", func(m, fm map[string]any) {
				c := cs(fm)[0].(map[string]any)
				c["value"] = strings.ToUpper(c["value"].(string))
			})
			vector("a seat as a string", false, `contributions[0].seat is the string "`, "cannot unmarshal string", func(m, fm map[string]any) {
				c := cs(fm)[0].(map[string]any)
				c["seat"] = fmt.Sprint(c["seat"])
			})
			vector("an unknown field in a contribution", false, "contributions[0].weight", "unknown field", func(m, fm map[string]any) {
				cs(fm)[0].(map[string]any)["weight"] = 1
			})
			vector("a contribution without its time", false, "lacks contributions[0].at", "lacks at", func(m, fm map[string]any) {
				delete(cs(fm)[0].(map[string]any), "at")
			})
			vector("a contribution without a name", true, "", "", func(m, fm map[string]any) {
				delete(cs(fm)[0].(map[string]any), "name")
			})
			vector("a contribution time with an offset", false, "contribution time is not a time", "is not a time written as", func(m, fm map[string]any) {
				c := cs(fm)[0].(map[string]any)
				at, _ := time.Parse(pitch.FairTimeFormat, c["at"].(string))
				c["at"] = at.In(time.FixedZone("", 2*3600)).Format("2006-01-02T15:04:05.000000-07:00")
			})
		}
		if len(f.Contributions) > 1 {
			vector("contributions out of seat order", false, "ascending seat order", "ascending seat order", func(m, fm map[string]any) {
				l := cs(fm)
				l[0], l[1] = l[1], l[0]
			})
			vector("a seat twice", false, "ascending seat order", "ascending seat order", func(m, fm map[string]any) {
				l := cs(fm)
				l[1].(map[string]any)["seat"] = l[0].(map[string]any)["seat"]
			})
		}
		vector("upper-case secret", false, "secret is written in upper-case", "lower-case", func(m, fm map[string]any) {
			fm["secret"] = strings.ToUpper(f.Secret)
		})
		vector("upper-case commitment", false, "commitment is written in upper-case", "lower-case", func(m, fm map[string]any) {
			fm["commitment"] = strings.ToUpper(f.Commitment)
		})
		vector("an unknown field", false, "field extra that this verifier does not know", "unknown field", func(m, fm map[string]any) {
			fm["extra"] = true
		})
		vector("the version as a string", false, `version is the string "1": a number belongs there`, "cannot unmarshal string", func(m, fm map[string]any) {
			fm["version"] = "1"
		})
		vector("no contributions list", false, "lacks contributions", "lacks contributions", func(m, fm map[string]any) {
			delete(fm, "contributions")
		})
		vector("an empty contributions list", len(f.Contributions) == 0, "hand: the record has", "hand: the record has", func(m, fm map[string]any) {
			fm["contributions"] = []any{}
		})
		at, _ := time.Parse(pitch.FairTimeFormat, f.CommittedAt)
		for _, form := range []string{"2006-01-02T15:04:05.000000+02:00", "2006-01-02T15:04:05.000Z", "2006-01-02T15:04:05.000000000Z", "2006-01-02T15:04:05Z", "2006-01-02T15:04:05.000000z"} {
			zone := time.UTC
			if strings.Contains(form, "+") {
				zone = time.FixedZone("", 2*3600)
			}
			vector("committed_at as "+form, false, "committed_at is not a time", "is not a time written as", func(m, fm map[string]any) {
				fm["committed_at"] = at.In(zone).Format(form)
			})
		}
		vector("a date that does not exist", false, "dealt_at is not a time", "is not a time written as", func(m, fm map[string]any) {
			fm["dealt_at"] = "2026-02-30T12:00:00.000000Z"
		})
		dealer := float64(r.Dealer)
		vector("the dealer named", true, "", "", func(m, fm map[string]any) { fm["dealer"] = dealer })
		vector("another dealer named", false, "the dealer named with the commitment is seat", "the dealer named with the commitment is seat", func(m, fm map[string]any) {
			fm["dealer"] = float64((r.Dealer + 1) % g.Seats())
		})
		vector("a dealer as a string", false, `dealer is the string "`, "cannot unmarshal string", func(m, fm map[string]any) {
			fm["dealer"] = fmt.Sprint(r.Dealer)
		})
		old := sha256.Sum256([]byte(fmt.Sprint("abandoned", k)))
		oldC := pitch.FairCommitment(old)
		abandoned := map[string]any{"commitment": hex.EncodeToString(oldC[:]), "secret": hex.EncodeToString(old[:]), "committed_at": at.Add(-time.Second).Format(pitch.FairTimeFormat)}
		vector("an abandoned commitment", true, "", "", func(m, fm map[string]any) { fm["abandoned"] = []any{abandoned} })
		cases[len(cases)-1].WantWarn = "dropped commitment " + abandoned["commitment"].(string)
		vector("an abandoned commitment whose secret does not give it", false, "abandoned commitment", "does not match it", func(m, fm map[string]any) {
			a := maps.Clone(abandoned)
			a["secret"] = f.Secret
			fm["abandoned"] = []any{a}
		})
		vector("an abandoned commitment after the deal's", false, "abandoned commitment", "is dated after the commitment of the deal", func(m, fm map[string]any) {
			a := maps.Clone(abandoned)
			a["committed_at"] = at.Add(time.Second).Format(pitch.FairTimeFormat)
			fm["abandoned"] = []any{a}
		})
		vector("an abandoned commitment with an unknown field", false, "abandoned[0].hand", "unknown field", func(m, fm map[string]any) {
			a := maps.Clone(abandoned)
			a["hand"] = 1
			fm["abandoned"] = []any{a}
		})
		tamper("swapped card", "hand: the record has", func(m, fm map[string]any) {
			hands := m["deal"].(map[string]any)["hands"].([]any)
			h0, h1 := hands[0].([]any), hands[1].([]any)
			h0[0], h1[0] = h1[0], h0[0]
		})
		if g.Variant == pitch.TenPoint {
			tamper("stock order", "the stock, card 1 from the top", func(m, fm map[string]any) {
				st := m["deal"].(map[string]any)["stock"].([]any)
				st[0], st[1] = st[1], st[0]
			})
		}
		if g.Variant == pitch.Auction {
			undealt := toAny(names[g.Seats()*6:])
			slices.Reverse(undealt)
			vector("the undealt cards in another order", true, "", "", func(m, fm map[string]any) {
				m["deal"].(map[string]any)["stock"] = undealt
			})
		}
		if g.Variant == pitch.Pawnee {
			tamper("widow", "hand: the record has", func(m, fm map[string]any) {
				d := m["deal"].(map[string]any)
				w, h0 := d["widow"].([]any), d["hands"].([]any)[0].([]any)
				w[0], h0[0] = h0[0], w[0]
			})
		}
		// What only the page knows: the commitment and dealer it was
		// shown, its value, a commitment replaced before the deal.
		page := func(name string, ok bool, want string, mine map[string]any) {
			c := base
			c.Name, c.OK, c.WantText, c.Mine = fmt.Sprint(name, " ", k), ok, want, mine
			cases = append(cases, c)
		}
		other := strings.Repeat("cd", 32)
		page("another commitment shown", false, "is not the record’s", map[string]any{"commitment": other})
		if len(f.Contributions) > 0 {
			page("the page's acknowledged value replaced by another", false, "is not the one in the record",
				map[string]any{"commitment": f.Commitment, "seat": f.Contributions[0].Seat, "value": strings.Repeat("ef", 32), "acked": true})
		}
		free := -1 // a seat the record does not list
		for s := range g.Seats() {
			if !slices.ContainsFunc(f.Contributions, func(c pitch.Contribution) bool { return c.Seat == s }) {
				free = s
				break
			}
		}
		if free >= 0 {
			// Whenever it was sent: a value sent and left out is a failure,
			// however slow anything was (issue 39).
			page("the page's value sent and left out", false, "the server dealt without it",
				map[string]any{"commitment": f.Commitment, "seat": free, "value": strings.Repeat("ef", 32), "acked": true})
			page("the page's value sent as the deal was made, left out", false, "the server dealt without it",
				map[string]any{"commitment": f.Commitment, "seat": free, "value": strings.Repeat("ef", 32)})
			page("the page's value that never went out", false, "could not send its random value before the deal",
				map[string]any{"commitment": f.Commitment, "seat": free, "value": strings.Repeat("ef", 32), "sent": false})
			page("a seated page that sent no value", false, "this page sent no random value for this deal",
				map[string]any{"commitment": f.Commitment, "seat": free})
			page("the seat listed before the page sent", false, "before this page sent one",
				map[string]any{"commitment": f.Commitment, "seat": free, "listedFirst": true})
			page("shared claimed at a table of no event", false, "belongs to no event",
				map[string]any{"commitment": f.Commitment, "seat": free, "shared": map[string]any{"event": "", "honoured": false}})
			page("shared claimed, not among the event's commitments", false, "has not published its commitment",
				map[string]any{"commitment": f.Commitment, "seat": free, "shared": map[string]any{"event": "E1", "honoured": false}})
			page("shared, published by the event", true, "",
				map[string]any{"commitment": f.Commitment, "seat": free, "shared": map[string]any{"event": "E1", "honoured": true}})
		}
		page("the commitment never shown", false, "was never shown its commitment", map[string]any{"neverShown": true})
		page("the commitment shown only when due", false, "first shown only when the deal was to be made",
			map[string]any{"commitment": f.Commitment, "dueOnly": true})
		if len(f.Contributions) > 0 {
			var humans []any
			for s := range g.Seats() {
				if s != f.Contributions[0].Seat {
					humans = append(humans, s)
				}
			}
			page("a value for a seat that was no person's", false, "which was not a person’s seat",
				map[string]any{"commitment": f.Commitment, "humans": humans})
			page("values from people's seats", true, "",
				map[string]any{"commitment": f.Commitment, "humans": toAny(nil)})
			cases[len(cases)-1].Mine["humans"] = func() []any {
				var all []any
				for s := range g.Seats() {
					all = append(all, s)
				}
				return all
			}()
		}
		page("no dealer shown with the commitment", false, "did not name the dealer",
			map[string]any{"commitment": f.Commitment, "noDealer": true})
		page("the dealer after the one before", true, "",
			map[string]any{"commitment": f.Commitment, "prevDealer": (r.Dealer + g.Seats() - 1) % g.Seats()})
		page("the dealer not after the one before", false, "the deal passes to the left",
			map[string]any{"commitment": f.Commitment, "prevDealer": r.Dealer})
		if len(f.Contributions) > 0 {
			c0 := f.Contributions[0]
			other := (c0.Seat + 1) % g.Seats()
			page("the hand this page was dealt is not the record's", false, "this page was dealt",
				map[string]any{"commitment": f.Commitment, "seat": c0.Seat, "value": c0.Value, "dealt": toAny(cardNames(r.Hands[other]))})
			page("the hand this page was dealt", true, "",
				map[string]any{"commitment": f.Commitment, "seat": c0.Seat, "value": c0.Value, "dealt": toAny(cardNames(r.Hands[c0.Seat]))})
			acts := actionList(t, r)
			page("the actions this page saw", true, "",
				map[string]any{"commitment": f.Commitment, "seat": c0.Seat, "value": c0.Value, "log": []any{acts[0], acts[len(acts)-1]}})
			page("an action this page saw that the record lacks", false, "not those this page saw played",
				map[string]any{"commitment": f.Commitment, "seat": c0.Seat, "value": c0.Value, "log": []any{acts[len(acts)-1], acts[0]}})
			page("a commitment re-drawn after the page sent its value, listed", false, "after this page sent its value",
				map[string]any{"commitment": f.Commitment, "seat": c0.Seat, "value": c0.Value, "replaced": []any{map[string]any{"commitment": other, "afterValue": true}}})
		}
		page("the dealer shown", true, "", map[string]any{"commitment": f.Commitment, "dealer": r.Dealer})
		page("another dealer shown", false, "as the dealer before the deal",
			map[string]any{"commitment": f.Commitment, "dealer": (r.Dealer + 1) % g.Seats()})
		page("a commitment replaced, not listed", false, "does not list it as abandoned",
			map[string]any{"commitment": f.Commitment, "replaced": []any{map[string]any{"commitment": other}}})
		if len(f.Contributions) > 0 {
			page("the page's own value in", true, "",
				map[string]any{"commitment": f.Commitment, "seat": f.Contributions[0].Seat, "value": f.Contributions[0].Value, "acked": true, "early": true})
		}
	}
	// A replaced commitment that the record lists as abandoned: a warning.
	{
		r, f, _, _ := fairCase(t, 3)
		old := sha256.Sum256([]byte("replaced"))
		oldC := pitch.FairCommitment(old)
		at, _ := time.Parse(pitch.FairTimeFormat, f.CommittedAt)
		f.Abandoned = []pitch.Abandoned{{Commitment: hex.EncodeToString(oldC[:]), Secret: hex.EncodeToString(old[:]), CommittedAt: at.Add(-time.Second).Format(pitch.FairTimeFormat)}}
		r.Fairness, _ = json.Marshal(f)
		raw, _ := json.Marshal(r)
		cases = append(cases, jsCase{Name: "a commitment replaced and listed", Record: raw, OK: true, WantWarn: "the record lists it as abandoned",
			Mine: map[string]any{"commitment": f.Commitment, "replaced": []any{map[string]any{"commitment": f.Abandoned[0].Commitment}}}})
	}
	res := runNode(t, node, cases)
	for i, c := range cases {
		got := res[i]
		r := got["result"].(map[string]any)
		var ws []any
		noValue := false
		for _, w := range r["warnings"].([]any) {
			if w == "no player value: the server chose this deal" {
				noValue = true
				continue
			}
			ws = append(ws, w)
		}
		problems, warnings := fmt.Sprint(r["problems"]), fmt.Sprint(ws)
		if ws == nil {
			warnings = "[]"
		}
		var fo struct {
			Fairness struct {
				Contributions []any `json:"contributions"`
			} `json:"fairness"`
		}
		empty := json.Unmarshal(c.Record, &fo) == nil && fo.Fairness.Contributions != nil && len(fo.Fairness.Contributions) == 0
		if empty && c.OK {
			// No player value: both verifiers say so, plainly.
			if !noValue {
				t.Errorf("%s: no contributions, and the browser does not warn that the server chose the deal: %v", c.Name, r["warnings"])
			}
			if c.Mine == nil {
				rec, _ := pitch.ReadRecord(strings.NewReader(string(c.Record)))
				if rep := pitch.VerifyFairness(rec); !slices.Contains(rep.Warnings, "no player value: the server chose this deal") {
					t.Errorf("%s: no contributions, and Go does not warn that the server chose the deal: %q", c.Name, rep.Warnings)
				}
			}
		} else if noValue && !empty {
			t.Errorf("%s: the browser warns of no player value, with contributions", c.Name)
		}
		if ok, _ := r["ok"].(bool); ok != c.OK {
			t.Errorf("%s: the browser says ok=%v (problems %s), want %v", c.Name, ok, problems, c.OK)
			continue
		}
		if !c.OK && !strings.Contains(problems, c.WantText) {
			t.Errorf("%s: the browser's problems %s do not say %q", c.Name, problems, c.WantText)
		}
		if !strings.Contains(warnings, c.WantWarn) || (c.WantWarn == "" && warnings != "[]") {
			t.Errorf("%s: the browser's warnings %s, want one saying %q", c.Name, warnings, c.WantWarn)
		}
		if c.WantWarn != "" && c.Mine == nil {
			rec, err := pitch.ReadRecord(strings.NewReader(string(c.Record)))
			if err != nil {
				t.Fatal(err)
			}
			if rep := pitch.VerifyFairness(rec); !strings.Contains(strings.Join(rep.Warnings, "\n"), c.WantWarn) {
				t.Errorf("%s: Go's warnings %q do not say %q", c.Name, rep.Warnings, c.WantWarn)
			}
		}
		if c.Seed != "" {
			if got["seed"] != c.Seed {
				t.Errorf("%s: the browser's seed %v, Go's %s", c.Name, got["seed"], c.Seed)
			}
			if fmt.Sprint(got["deck"]) != fmt.Sprint(toAny(c.Deck)) {
				t.Errorf("%s: the browser's deck %v, Go's %v", c.Name, got["deck"], c.Deck)
			}
			if r["seed"] != c.Seed {
				t.Errorf("%s: the verifier's seed %v, Go's %s", c.Name, r["seed"], c.Seed)
			}
		}
	}
}

// cardNames writes a set of cards by name.
func cardNames(set pitch.CardSet) []string {
	var out []string
	for _, c := range set.Cards() {
		out = append(out, c.String())
	}
	return out
}

// actionList returns r's actions as the record writes them.
func actionList(t *testing.T, r pitch.Record) []any {
	t.Helper()
	b, _ := json.Marshal(r)
	var m struct {
		Actions []any `json:"actions"`
	}
	if err := json.Unmarshal(b, &m); err != nil || len(m.Actions) < 2 {
		t.Fatalf("the record's actions: %v %s", err, b)
	}
	return m.Actions
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// TestFairSpectatorRecords: a watching page (seat -1) records each
// commitment and dealer shown before the deal as a seated page does, and
// sends nothing; a later replaced commitment is kept, not overwritten; and
// the page's check of the record then fails on a dealer or a commitment
// other than those it saw (issue 30 E). Run under Node, with the page's
// module and an in-memory localStorage.
func TestFairSpectatorRecords(t *testing.T) {
	node := nodePath()
	if node == "" {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	r, f, _, _ := fairCase(t, 5)
	rec, _ := json.Marshal(r)
	mod, err := filepath.Abs("static/js/fairpanel.js") // the page's side of a fair deal; its check is fairness.js
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Repeat("ab", 32)
	script := `
const store = {};
globalThis.localStorage = { getItem: (k) => store[k] ?? null, setItem: (k, v) => { store[k] = String(v); } };
const { onFairState, verifyHand } = await import('file://` + filepath.ToSlash(mod) + `');
const rec = ` + string(rec) + `;
globalThis.fetch = async () => ({ ok: true, json: async () => structuredClone(rec) });
const sent = [];
const send = (m) => { sent.push(m); return true; };
const state = (hand, commitment, dealer) => ({ seat: -1, sheet: [], fair: { dealing: false, next: { hand, commitment, dealer, contributed: [] } } });
onFairState('T', state(1, '` + f.Commitment + `', ` + fmt.Sprint(r.Dealer) + `), send);
const honest = await verifyHand('T', 1);
onFairState('T', state(2, '` + other + `', ` + fmt.Sprint((r.Dealer+1)%r.Game.Seats()) + `), send);
onFairState('T', state(2, '` + f.Commitment + `', ` + fmt.Sprint(r.Dealer) + `), send);
const replaced = await verifyHand('T', 2);
onFairState('T', state(3, '` + f.Commitment + `', ` + fmt.Sprint((r.Dealer+1)%r.Game.Seats()) + `), send);
const dealer = await verifyHand('T', 3);
console.log(JSON.stringify({ sent, stored: JSON.parse(store['pitch.fair.T']), honest, replaced, dealer }));
`
	sp := filepath.Join(t.TempDir(), "spectator.mjs")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, sp).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	type verdict struct {
		OK       bool     `json:"ok"`
		Problems []string `json:"problems"`
	}
	var got struct {
		Sent    []any                      `json:"sent"`
		Stored  map[string]json.RawMessage `json:"stored"`
		Honest  verdict                    `json:"honest"`
		Replace verdict                    `json:"replaced"`
		Dealer  verdict                    `json:"dealer"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got.Sent) != 0 {
		t.Errorf("a watching page sent %v", got.Sent)
	}
	var h1 struct {
		Commitment string `json:"commitment"`
		Seat       int    `json:"seat"`
		Dealer     *int   `json:"dealer"`
		Value      string `json:"value"`
	}
	if json.Unmarshal(got.Stored["1"], &h1) != nil || h1.Commitment != f.Commitment || h1.Seat != -1 || h1.Dealer == nil || *h1.Dealer != r.Dealer || h1.Value != "" {
		t.Errorf("the watching page keeps %s for hand 1, want commitment %s, seat -1, dealer %d and no value", got.Stored["1"], f.Commitment, r.Dealer)
	}
	if !got.Honest.OK {
		t.Errorf("the hand it watched does not verify: %q", got.Honest.Problems)
	}
	if p := strings.Join(got.Replace.Problems, " "); got.Replace.OK || !strings.Contains(p, other) || !strings.Contains(p, "as the dealer before the deal") {
		t.Errorf("a commitment and dealer replaced after they were shown: %+v", got.Replace)
	}
	if p := strings.Join(got.Dealer.Problems, " "); got.Dealer.OK || !strings.Contains(p, "as the dealer before the deal") {
		t.Errorf("another dealer shown: %+v", got.Dealer)
	}
}

// TestFairPageMemory: what a seated page remembers of each deal, from the
// states alone (no clock), and its verdict, under Node with the page's
// module, an in-memory localStorage and a fetch that serves the record:
// an honest deal (its value sent, then listed; its hand as dealt; the
// actions it saw) verifies; the seat listed before the page sent, a deal
// whose commitment the page was never shown, one shown first only when
// the deal was due though the page watched the hand before, a value that
// never went out (the page knows its connection was down), and a
// finished hand's record the server says it does not have (404) each
// fail, saying so; the page commits to its value's hash first and reveals
// the value only once the contributors are frozen with it in, and fails a
// record with a value outside that list; a deal the server says is a
// duplicate round's counts
// as one only when the table's event published its commitment (issue 39).
func TestFairPageMemory(t *testing.T) {
	node := nodePath()
	if node == "" {
		t.Skip("node is not installed (.ci/run installs it)")
	}
	r, f, _, _ := fairCase(t, 5)
	if len(f.Contributions) == 0 || f.Contributions[0].Seat != 0 {
		t.Fatalf("fairCase 5 has contributions %+v, want seat 0's first", f.Contributions)
	}
	rec, _ := json.Marshal(r)
	r0, f0, _, _ := fairCase(t, 0) // no contributions: a duplicate round's deal
	if len(f0.Contributions) != 0 {
		t.Fatalf("fairCase 0 has contributions %+v", f0.Contributions)
	}
	rec0, _ := json.Marshal(r0)
	mod, err := filepath.Abs("static/js/fairpanel.js")
	if err != nil {
		t.Fatal(err)
	}
	script := `
const store = {};
globalThis.localStorage = { getItem: (k) => store[k] ?? null, setItem: (k, v) => { store[k] = String(v); } };
const { onFairState, verifyHand } = await import('file://` + filepath.ToSlash(mod) + `');
const rec = ` + string(rec) + `, rec0 = ` + string(rec0) + `;
let status = 200;
const json = (v) => ({ ok: true, status: 200, json: async () => structuredClone(v) });
globalThis.fetch = async (url) => {
  if (url.startsWith('/api/events/E1')) return json({ commitments: [['00'.repeat(32)], [rec0.fairness.commitment]] });
  if (url.startsWith('/api/events/E2')) return json({ commitments: [['00'.repeat(32)]] });
  if (url.startsWith('/api/tables/S')) return json(rec0);
  return status === 200 ? json(rec) : { ok: false, status, text: async () => 'no such hand' };
};
const V0 = rec.fairness.contributions[0].value, C = rec.fairness.commitment, D = rec.dealer, X = 'ab'.repeat(32);
crypto.getRandomValues = (v) => { for (let i = 0; i < v.length; i++) v[i] = parseInt(V0.substr(2 * i, 2), 16); return v; };
const sent = [];
let up = true;
const send = (m) => { if (!up) return false; sent.push(m.table + ':' + m.commitment); return true; };
const st = (o) => ({ seat: 0, sheet: [], table: {}, view: o.view || {}, log: o.log || [], fair: o.fair });
const next = (hand, commitment, contributed) => ({ hand, commitment, dealer: D, contributed });
const out = {};
// An honest deal.
onFairState('T1', st({ fair: { dealing: true, next: next(1, C, []) } }), send);
out.sentBeforeListed = sent.length;
onFairState('T1', st({ fair: { dealing: true, next: next(1, C, [0]) } }), send);
onFairState('T1', st({ view: { phase: 'bid', hand: rec.deal.hands[0] }, fair: { dealing: false, hand: { hand: 1, commitment: C }, next: next(2, X, []) } }), send);
onFairState('T1', st({ view: { phase: 'play', hand: [] }, log: rec.actions.slice(0, 5).map((action) => ({ action })), fair: { dealing: false, hand: { hand: 1, commitment: C }, next: next(2, X, [0]) } }), send);
out.sentHonest = sent.length;
out.honest = await verifyHand('T1', 1);
// Listed before the page sent: it sends nothing, and fails.
onFairState('T2', st({ fair: { dealing: true, next: next(1, C, [0]) } }), send);
out.sentListed = sent.length - out.sentHonest;
out.listed = await verifyHand('T2', 1);
// Never shown a commitment for the deal it watched coming.
onFairState('T3', st({ fair: { dealing: true } }), send);
onFairState('T3', st({ fair: { dealing: false, hand: { hand: 1, commitment: C } } }), send);
out.never = await verifyHand('T3', 1);
// Hand 1 in play with no next commitment; hand 2's shown only when due.
onFairState('T4', st({ fair: { dealing: false, hand: { hand: 1, commitment: X } } }), send);
onFairState('T4', st({ fair: { dealing: true, last: { hand: 1, commitment: X, secret: X }, next: next(2, C, []) } }), send);
out.due = await verifyHand('T4', 2);
// The page's value never went out: the connection was down.
up = false;
onFairState('T5', st({ fair: { dealing: true, next: next(1, C, []) } }), send);
up = true;
out.unsent = await verifyHand('T5', 1);
// Commit, then reveal: the page sends its value's hash, and its value
// only once the contributors are frozen with that hash in; a record with
// a value outside the frozen list fails.
const { valueHash } = await import('file://` + filepath.ToSlash(filepath.Join(filepath.Dir(mod), "fairness.js")) + `');
const H0 = valueHash(V0);
const cr = (hashes, frozen, contributed) => st({ fair: { dealing: true, next: { ...next(1, C, contributed), hashes, frozen } } });
const msgs = [];
const send2 = (m) => { msgs.push(m); return true; };
onFairState('R1', cr([], false, []), send2);
onFairState('R1', cr([{ seat: 0, hash: H0 }], false, []), send2);
out.beforeFreeze = msgs.map((m) => Object.keys(m).sort().join(','));
onFairState('R1', cr([{ seat: 0, hash: H0 }], true, []), send2);
onFairState('R1', cr([{ seat: 0, hash: H0 }], true, [0]), send2);
out.afterFreeze = msgs.map((m) => Object.keys(m).sort().join(','));
out.revealed = msgs.length === 2 && msgs[1].value === V0 && msgs[0].hash === H0;
out.committed = await verifyHand('R1', 1); // rec has seat 2's value too, not in the frozen list
onFairState('R2', cr([{ seat: 0, hash: H0 }], false, []), send2); // listed before this page committed
out.committedListedFirst = await verifyHand('R2', 1);
// A duplicate round's deal ("shared"): honoured only when the table's
// event published its commitment.
const shared = (event) => ({ seat: 0, sheet: [], table: event ? { event } : {}, view: {}, log: [],
  fair: { dealing: true, next: { hand: 1, commitment: rec0.fairness.commitment, dealer: rec0.dealer, contributed: [], shared: true } } });
const before = sent.length;
onFairState('S1', shared('E1'), send);
onFairState('S2', shared('E2'), send);
onFairState('S3', shared(''), send);
out.sentShared = sent.length - before;
out.shared = await verifyHand('S1', 1);
out.sharedUnpublished = await verifyHand('S2', 1);
out.sharedNoEvent = await verifyHand('S3', 1);
// The record of a finished hand is not served.
status = 404;
out.gone = await verifyHand('T1', 1);
console.log(JSON.stringify(out));
`
	sp := filepath.Join(t.TempDir(), "memory.mjs")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	outb, err := exec.Command(node, sp).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, outb)
	}
	type verdict struct {
		OK       bool     `json:"ok"`
		Checks   []string `json:"checks"`
		Problems []string `json:"problems"`
		Scope    string   `json:"scope"`
	}
	var got struct {
		BeforeFreeze, AfterFreeze                                                          []string
		Revealed                                                                           bool
		Committed, CommittedListedFirst                                                    verdict
		SentBeforeListed, SentHonest, SentListed, SentShared                               int
		Honest, Listed, Never, Due, Unsent, Gone, Shared, SharedUnpublished, SharedNoEvent verdict
	}
	if err := json.Unmarshal(outb, &got); err != nil {
		t.Fatalf("%v: %s", err, outb)
	}
	if got.SentBeforeListed != 1 || got.SentHonest != 2 {
		t.Errorf("the honest page sent %d value(s) before it was listed, %d in all; want 1, and 2 with hand 2's", got.SentBeforeListed, got.SentHonest)
	}
	if c := strings.Join(got.Honest.Checks, "\n"); !got.Honest.OK || got.Honest.Scope != "seated" ||
		!strings.Contains(c, "your own random value is in the deal") || !strings.Contains(c, "the hand this page was dealt") || !strings.Contains(c, "every action this page saw") {
		t.Errorf("the honest deal: %+v", got.Honest)
	}
	if fmt.Sprint(got.BeforeFreeze) != "[commitment,hash,type]" || fmt.Sprint(got.AfterFreeze) != "[commitment,hash,type commitment,type,value]" || !got.Revealed {
		t.Errorf("commit then reveal: sent %v before the freeze, %v after (revealed %v); want the hash, then the value once frozen", got.BeforeFreeze, got.AfterFreeze, got.Revealed)
	}
	if p := strings.Join(got.Committed.Problems, " "); got.Committed.OK || !strings.Contains(p, "a value for seat 3 that was not among the values committed to") || strings.Contains(p, "seat 1 that") {
		t.Errorf("a record with a value outside the frozen list: %+v", got.Committed)
	}
	if p := strings.Join(got.CommittedListedFirst.Problems, " "); got.CommittedListedFirst.OK || !strings.Contains(p, "before this page sent one") {
		t.Errorf("a hash listed for the page's seat before it committed: %+v", got.CommittedListedFirst)
	}
	if got.SentShared != 0 {
		t.Errorf("pages shown a shared deal sent %d value(s)", got.SentShared)
	}
	if !got.Shared.OK || !strings.Contains(strings.Join(got.Shared.Checks, " "), "the event published") {
		t.Errorf("a shared deal the event published: %+v", got.Shared)
	}
	if got.SentListed != 0 {
		t.Errorf("a page its seat listed before it sent sent %d value(s)", got.SentListed)
	}
	for _, c := range []struct {
		name string
		v    verdict
		want string
	}{
		{"listed before the page sent", got.Listed, "before this page sent one"},
		{"never shown a commitment", got.Never, "was never shown its commitment"},
		{"shown only when due", got.Due, "first shown only when the deal was to be made"},
		{"a value that never went out", got.Unsent, "its connection was down"},
		{"a record not served", got.Gone, "does not give out the record of this finished hand (404"},
		{"shared, not published by the event", got.SharedUnpublished, "the event has not published its commitment"},
		{"shared at a table of no event", got.SharedNoEvent, "this table belongs to no event"},
	} {
		if p := strings.Join(c.v.Problems, " "); c.v.OK || !strings.Contains(p, c.want) {
			t.Errorf("%s: %+v, want a failure saying %q", c.name, c.v, c.want)
		}
	}
}
