package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitch"
	"pitch/store"
)

// firstDealing returns the commitment of hand n that c was shown while the
// hand was not dealt yet, or "".
func firstDealing(c *client, n int) string {
	for _, m := range c.msgs {
		if m.Type == "state" && m.Fair != nil && m.Fair.Dealing && m.Fair.Next != nil && m.Fair.Next.Hand == n {
			return m.Fair.Next.Commitment
		}
	}
	return ""
}

// handRecord fetches the record of hand n.
func handRecord(t *testing.T, ts *testServer, id string, n int) *pitch.Record {
	t.Helper()
	resp, b := ts.do("GET", fmt.Sprintf("/api/tables/%s/hands/%d", id, n), "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("hand %d: %d %s", n, resp.StatusCode, b)
	}
	r, err := pitch.ReadRecord(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("hand %d's record: %v: %s", n, err, b)
	}
	return r
}

// TestFairDeals plays hands at a table with two people and bots, whose
// pages contribute to every deal: each hand's commitment is shown before
// it is dealt, the record carries the deal's proof with exactly the values
// the pages sent, it verifies, and no secret is shown or logged before its
// hand is over (checkMessages).
func TestFairDeals(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		opts := fastOptions()
		opts.DealWait = time.Minute // every deal waits for both people: none is dealt without them
		ts := startServer(t, fresh(t), opts)
		tab := ts.create(`{"variant":"pawnee","options":{"target":10},"seats":` + seatsBody("h", "easy", "h", "easy", "easy") + `}`)
		tok0, tok2 := ts.join(tab.ID, 0, "Ann"), ts.join(tab.ID, 2, "Bo")
		h := newHub(t, ts, tab.ID, 3)
		spec := h.connect("spectator", -1, "", false)
		h.run(10*time.Second, "the spectator's state", func() bool { return spec.last != nil })
		a := h.connect("Ann", 0, tok0, true)
		b := h.connect("Bo", 2, tok2, true)
		h.run(60*time.Second, "three hands", func() bool { return spec.last != nil && (len(spec.last.Sheet) >= 3 || spec.last.Over) })
		hands := len(spec.last.Sheet)
		for n := 1; n <= hands; n++ {
			r := handRecord(t, ts, tab.ID, n)
			rep := pitch.VerifyFairness(r)
			if !rep.OK() {
				t.Fatalf("hand %d does not verify: %q", n, rep.Problems)
			}
			f, _ := pitch.ParseFairness(r.Fairness)
			if n == 1 {
				for _, c := range []*client{a, b, spec} {
					if got := firstDealing(c, 1); got != f.Commitment {
						t.Errorf("%s was shown commitment %q before hand 1 was dealt; the record has %q", c.name, got, f.Commitment)
					}
				}
			}
			want := map[int]string{0: a.contributed[f.Commitment], 2: b.contributed[f.Commitment]}
			if len(f.Contributions) != 2 {
				t.Errorf("hand %d: contributions %+v, want one from each person", n, f.Contributions)
			}
			for _, c := range f.Contributions {
				if want[c.Seat] == "" || c.Value != want[c.Seat] || c.Name != map[int]string{0: "Ann", 2: "Bo"}[c.Seat] {
					t.Errorf("hand %d: contribution %+v; seat %d sent %q", n, c, c.Seat, want[c.Seat])
				}
			}
			if f.Algorithm != pitch.FairAlgorithm || f.Version != pitch.FairVersion {
				t.Errorf("hand %d: algorithm %q version %d", n, f.Algorithm, f.Version)
			}
		}
		checkMessages(t, ts.st, tab.ID, h.clients)
		deals, err := ts.st.Deals(bg, tab.ID)
		if err != nil || len(deals) < hands {
			t.Fatalf("%d deals stored (%v) for %d hands", len(deals), err, hands)
		}
		for _, d := range deals {
			f, _ := pitch.ParseFairness(d.Data)
			if strings.Contains(ts.all.String(), f.Secret) {
				t.Errorf("the server's log holds the secret of hand %d", d.N)
			}
		}
	})
}

// TestFairDealWait: a deal waits for a person who is not connected only
// for the table's deal wait, then goes on with the values that came.
func TestFairDealWait(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		opts := fastOptions()
		opts.DealWait = 200 * time.Millisecond
		opts.AwayDelay = time.Millisecond // a stand-in plays for the person who never came
		ts := startServer(t, fresh(t), opts)
		tab := ts.create(`{"variant":"auction","options":{"target":3},"seats":` + seatsBody("h", "easy", "h", "easy") + `}`)
		tok0 := ts.join(tab.ID, 0, "Ann")
		ts.join(tab.ID, 2, "Gone") // never connects
		h := newHub(t, ts, tab.ID, 4)
		// Ann's page says it contributes, so the deal waits for her value
		// (the test checks it is in), not only the deal wait.
		h.fair = true
		a := h.connect("Ann", 0, tok0, true)
		var dealingAt, dealtAt time.Time
		h.run(20*time.Second, "hand 1 dealt", func() bool {
			if a.last == nil || a.last.Fair == nil {
				return false
			}
			if a.last.Fair.Dealing && dealingAt.IsZero() {
				dealingAt = time.Now()
			}
			if !a.last.Fair.Dealing {
				dealtAt = time.Now()
				return true
			}
			return false
		})
		if dealingAt.IsZero() || dealtAt.Sub(dealingAt) > 10*time.Second {
			t.Errorf("dealing seen at %v, dealt at %v", dealingAt, dealtAt)
		}
		h.run(30*time.Second, "hand 1's end", func() bool { return len(a.last.Sheet) >= 1 || a.last.Over })
		r := handRecord(t, ts, tab.ID, 1)
		if rep := pitch.VerifyFairness(r); !rep.OK() {
			t.Fatalf("hand 1 does not verify: %q", rep.Problems)
		}
		f, _ := pitch.ParseFairness(r.Fairness)
		if len(f.Contributions) != 1 || f.Contributions[0].Seat != 0 || f.Contributions[0].Value != a.contributed[f.Commitment] {
			t.Errorf("contributions %+v, want only Ann's %q", f.Contributions, a.contributed[f.Commitment])
		}
		checkMessages(t, ts.st, tab.ID, h.clients)
	})
}

// TestContributeRefused: what is wrong with a contribution is said, and
// nothing changes.
func TestContributeRefused(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		opts := fastOptions()
		opts.DealWait = time.Minute
		ts := startServer(t, fresh(t), opts)
		tab := ts.create(`{"variant":"auction","seats":` + seatsBody("h", "easy", "h", "easy") + `}`)
		tok0, tok2 := ts.join(tab.ID, 0, "Ann"), ts.join(tab.ID, 2, "Bo")
		h := newHub(t, ts, tab.ID, 5)
		h.noContribute = true
		a := h.connect("Ann", 0, tok0, false)
		spec := h.connect("spectator", -1, "", false)
		h.run(10*time.Second, "the first states", func() bool { return a.last != nil && spec.last != nil })
		commit := a.last.Fair.Next.Commitment
		val := strings.Repeat("ab", 32)
		msg := func(c, v string) string {
			b, _ := json.Marshal(map[string]string{"type": "contribute", "commitment": c, "value": v})
			return string(b)
		}
		spec.refusedText(msg(commit, val), "spectators do not contribute")
		a.refusedText(msg(commit, "12"), "64 hexadecimal digits")
		a.refusedText(msg(commit, strings.Repeat("zz", 32)), "hexadecimal")
		a.refusedText(msg(strings.Repeat("00", 32), val), "is not the one awaiting contributions")
		a.sendText(msg(commit, val))
		a.sendText(msg(commit, strings.ToUpper(val))) // the same value again: fine
		a.refusedText(msg(commit, strings.Repeat("cd", 32)), "has contributed to this deal already")
		h.run(10*time.Second, "the answers", func() bool {
			return len(a.bad) == 0 && len(spec.bad) == 0 && a.last.Fair.Next != nil && len(a.last.Fair.Next.Contributed) == 1
		})
		if !a.last.Fair.Dealing || a.last.Fair.Next.Contributed[0] != 0 {
			t.Errorf("after Ann's value: %+v, want dealing with seat 0's value in", a.last.Fair)
		}
		// Bo's value completes the deal at once.
		b := h.connect("Bo", 2, tok2, false)
		h.run(10*time.Second, "Bo's state", func() bool { return b.last != nil })
		b.sendText(msg(commit, strings.Repeat("ef", 32)))
		h.run(10*time.Second, "the deal", func() bool { return !a.last.Fair.Dealing })
		// A value for the deal just made is late: ignored, no error.
		b.sendText(msg(commit, strings.Repeat("ef", 32)))
		deals, err := ts.st.Deals(bg, tab.ID)
		if err != nil || len(deals) != 1 {
			t.Fatalf("deals %v (%v), want hand 1's", deals, err)
		}
		f, _ := pitch.ParseFairness(deals[0].Data)
		if f.Commitment != commit || len(f.Contributions) != 2 || f.Contributions[0].Value != val || f.Contributions[1].Value != strings.Repeat("ef", 32) {
			t.Errorf("the deal %+v", f)
		}
		// Nothing may act before the deal: checked by the harness on every state.
		checkMessages(t, ts.st, tab.ID, h.clients)
	})
}

// TestTableFromBeforeFairDeals: a table stored before fair deals (no
// fair_deals, no deals) loads, deals from its seed as it always did, and
// finishes its match; its states and records have no fairness.
func TestTableFromBeforeFairDeals(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(*testing.T) string) {
		dsn := fresh(t)
		st, err := store.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		g := pitch.MustNewGame(pitch.Auction, pitch.WithTarget(2))
		opts, _ := json.Marshal(g.OptionMap())
		hash := sha256.Sum256([]byte("tok-0"))
		tb := &store.Table{ID: "old", Variant: "auction", Options: opts, Seed: 77, Created: time.Now().UTC(),
			Seats: []store.Seat{{Seat: 0, Kind: "human", Name: "Ann", TokenHash: hash[:]},
				{Seat: 1, Kind: "bot", Level: "easy"}, {Seat: 2, Kind: "bot", Level: "easy"}, {Seat: 3, Kind: "bot", Level: "easy"}}}
		if err := st.CreateTable(bg, tb); err != nil {
			t.Fatal(err)
		}
		// Two actions of the first hand, as the old server stored them.
		m := pitch.NewMatch(g, 77)
		for seq := range 2 {
			a := m.State().RandomAction(pitch.NewRand(1))
			if err := m.Apply(a); err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(a)
			if err := st.Append(bg, "old", store.Append{Event: store.Event{Seq: seq, Action: raw}}); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		ts := startServer(t, dsn, fastOptions())
		h := newHub(t, ts, "old", 6)
		a := h.connect("Ann", 0, "tok-0", true)
		h.run(60*time.Second, "the match's end", func() bool { return a.last != nil && a.last.Over })
		if got := setOf(a.msgs[0].View.Hand); got != m.State().Hand(0) {
			t.Errorf("Ann's hand after loading: %v, want %v (the seed's deal)", got, m.State().Hand(0))
		}
		for n := 1; n <= len(a.last.Sheet); n++ {
			if r := handRecord(t, ts, "old", n); r.Fairness != nil {
				t.Errorf("hand %d of a table from before has fairness %s", n, r.Fairness)
			}
		}
		if deals, _ := ts.st.Deals(bg, "old"); len(deals) != 0 {
			t.Errorf("%d deals stored for a table from before", len(deals))
		}
		checkMessages(t, ts.st, "old", h.clients)
	})
}

// TestTableStale: a stored table whose moves no longer replay (here a
// pawnee forced dealer's 6, which PW-BID-3 now refuses) does not stop the
// server; asking for it says why it cannot go on (409 table_stale, C-6),
// names no card, and other tables play on.
func TestTableStale(t *testing.T) {
	dsn := t.TempDir() + "/pitch.db"
	st, err := store.Open(bg, dsn)
	if err != nil {
		t.Fatal(err)
	}
	g := pitch.MustNewGame(pitch.Pawnee)
	opts, _ := json.Marshal(g.OptionMap())
	tb := &store.Table{ID: "stale", Variant: "pawnee", Options: opts, Seed: 5, Created: time.Now().UTC()}
	for i := range 5 {
		tb.Seats = append(tb.Seats, store.Seat{Seat: i, Kind: "bot", Level: "easy"})
	}
	if err := st.CreateTable(bg, tb); err != nil {
		t.Fatal(err)
	}
	m := pitch.NewMatch(g, 5)
	var acts []pitch.Action
	for range 4 {
		a := pitch.Pass(m.State().Turn())
		if err := m.Apply(a); err != nil {
			t.Fatal(err)
		}
		acts = append(acts, a)
	}
	dealer := m.State().Turn()
	if err := m.Apply(pitch.Bid(dealer, 6)); err == nil {
		t.Fatal("the engine lets the forced dealer bid 6")
	}
	acts = append(acts, pitch.Bid(dealer, 6)) // what an older version stored
	for seq, a := range acts {
		raw, _ := json.Marshal(a)
		if err := st.Append(bg, "stale", store.Append{Event: store.Event{Seq: seq, Action: raw}}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	ts := startServer(t, dsn, fastOptions())
	resp, body := ts.do("GET", "/api/tables/stale", "")
	var e struct {
		Error  string         `json:"error"`
		Code   string         `json:"code"`
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("%d %s: %v", resp.StatusCode, body, err)
	}
	if resp.StatusCode != http.StatusConflict || e.Code != "table_stale" || e.Params["Move"] != float64(5) ||
		!strings.Contains(e.Error, "rules that have since changed") {
		t.Errorf("GET the stale table: %d %s; want 409 table_stale, move 5", resp.StatusCode, body)
	}
	if cs := cardTokens(e.Error); len(cs) != 0 {
		t.Errorf("the error names cards %v: %s", cs, e.Error)
	}
	resp, body = ts.do("POST", "/api/tables", `{"variant": "auction"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("after a stale table, creating one: %d %s", resp.StatusCode, body)
	}
	// The operator's log has the engine's reason.
	if l := ts.logs.take(); !strings.Contains(l, "cannot resume table") || !strings.Contains(l, "PW-BID-3") {
		t.Errorf("the server's warnings do not say why the table cannot resume:\n%s", l)
	}
}

// TestFairAbandonedListed: a commitment stored for a hand and not the one
// it is dealt from (dropped unused, as when a new driver could not read
// the old one's) is listed in that hand's record as abandoned, with its
// secret; the record verifies, with a warning naming it.
func TestFairAbandonedListed(t *testing.T) {
	opts := fastOptions()
	opts.DealWait = 100 * time.Millisecond
	ts := startServer(t, filepath.Join(t.TempDir(), "pitch.db"), opts)
	tab := ts.create(`{"variant":"pawnee","options":{"target":10},"seats":` + seatsBody("h", "easy", "easy", "easy", "easy") + `}`)
	tok := ts.join(tab.ID, 0, "Ann")
	stored, err := ts.st.Commitments(bg, tab.ID)
	if err != nil || len(stored) != 1 || stored[0].N != 1 {
		t.Fatalf("commitments stored before the deal: %+v (%v), want hand 1's", stored, err)
	}
	secret := sha256.Sum256([]byte("dropped"))
	c := pitch.FairCommitment(secret)
	at, _ := time.Parse(pitch.FairTimeFormat, stored[0].At)
	dropped := store.Commitment{N: 1, Commitment: fmt.Sprintf("%x", c), At: at.Add(-time.Second).Format(pitch.FairTimeFormat),
		Pending: json.RawMessage(fmt.Sprintf(`{"secret":"%x","committed_at":%q,"contributions":[]}`, secret, at.Add(-time.Second).Format(pitch.FairTimeFormat)))}
	if err := ts.st.SaveCommitment(bg, tab.ID, dropped); err != nil {
		t.Fatal(err)
	}
	h := newHub(t, ts, tab.ID, 5)
	a := h.connect("Ann", 0, tok, true)
	h.run(30*time.Second, "hand 1", func() bool { return a.last != nil && len(a.last.Sheet) >= 1 })
	r := handRecord(t, ts, tab.ID, 1)
	f, err := pitch.ParseFairness(r.Fairness)
	if err != nil {
		t.Fatal(err)
	}
	if f.Commitment != stored[0].Commitment {
		t.Errorf("hand 1 was dealt from %s, not the commitment published first, %s", f.Commitment, stored[0].Commitment)
	}
	if len(f.Abandoned) != 1 || f.Abandoned[0].Commitment != dropped.Commitment || f.Abandoned[0].Secret != fmt.Sprintf("%x", secret) {
		t.Errorf("hand 1's abandoned commitments %+v, want %s with its secret", f.Abandoned, dropped.Commitment)
	}
	rep := pitch.VerifyFairness(r)
	if !rep.OK() || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], dropped.Commitment) {
		t.Errorf("hand 1 verifies %v (%q), warnings %q; want verified with a warning naming %s", rep.OK(), rep.Problems, rep.Warnings, dropped.Commitment)
	}
}
