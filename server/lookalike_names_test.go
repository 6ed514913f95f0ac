package server_test

import (
	"encoding/json"
	"testing"
)

// TestNameLookalikes: an account's name is in one script (Japanese,
// Chinese and Korean may add Latin letters), and one that looks like a
// name taken (Unicode's confusable skeleton) is taken; a guest may sit
// neither under an account's name nor one that looks like it, nor as a
// bot ("Bot 2"); and the table marks the seats accounts hold.
func TestNameLookalikes(t *testing.T) {
	forEachStore(t, func(t *testing.T, fresh func(t *testing.T) string) {
		ts := startServer(t, fresh(t), fastOptions())
		for _, c := range []struct {
			name string
			want int
			code string
		}{
			{"Ada-N", 201, ""},
			{"ADA-N", 409, "name_taken"},
			{"Αda-N", 400, "bad_account_name"}, // a Greek capital alpha among Latin letters
			{"Adа-N", 400, "bad_account_name"}, // a Cyrillic small a among Latin letters
			{"Caxap", 201, ""},
			{"Сахар", 409, "name_taken"}, // all Cyrillic, and looks like Caxap
			{"Дмитрий", 201, ""},
			{"山田さくら", 201, ""},
			{"Kim김민준", 201, ""},
			{"さくらДима", 400, "bad_account_name"},
			{"Ian-N", 201, ""},
			{"lan-N", 409, "name_taken"}, // capital I, small l
		} {
			t.Run("sign up "+c.name, func(t *testing.T) {
				b := ts.browser().must(c.want, "POST", "/api/account/signup", creds(c.name, goodPassword))
				if c.code != "" && errCode(t, b) != c.code {
					t.Errorf("code %q, want %q: %s", errCode(t, b), c.code, b)
				}
			})
		}

		ada := ts.browser()
		ada.must(200, "POST", "/api/account/signin", creds("Ada-N", goodPassword))
		var tb struct{ ID string }
		if err := json.Unmarshal(ada.must(201, "POST", "/api/tables", `{"variant":"auction","seats":`+seatsBody("h", "h", "h", "easy")+`}`), &tb); err != nil {
			t.Fatal(err)
		}
		ada.must(200, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":0}`)
		guest := ts.browser()
		for _, c := range []struct {
			name string
			want int
			code string
		}{
			{"Ada-N", 409, "name_account"},
			{"ada-n", 409, "name_account"},
			{"Аda-N", 409, "name_account"}, // a Cyrillic capital a
			{"Сахар", 409, "name_account"},
			{"Caxap", 409, "name_account"},
			{"Дмитрий", 409, "name_account"},
			{"lan-N", 409, "name_account"},
			{"Bot 1", 400, "name_bot"},
			{"bot 3", 400, "name_bot"},
			{"B0t 2", 400, "name_bot"},
			{"Βot 1", 400, "name_bot"}, // a Greek capital beta
			{"Grace", 200, ""},
		} {
			t.Run("guest "+c.name, func(t *testing.T) {
				b := guest.must(c.want, "POST", "/api/tables/"+tb.ID+"/join", `{"seat":1,"name":`+jsonString(c.name)+`}`)
				if c.code != "" && errCode(t, b) != c.code {
					t.Errorf("code %q, want %q: %s", errCode(t, b), c.code, b)
				}
			})
		}
		var info struct {
			Seats []struct {
				Name    string
				Kind    string
				Account bool
			}
		}
		if err := json.Unmarshal(guest.must(200, "GET", "/api/tables/"+tb.ID, ""), &info); err != nil {
			t.Fatal(err)
		}
		for i, want := range []bool{true, false, false, false} {
			if info.Seats[i].Account != want {
				t.Errorf("seat %d (%s %q): account %v, want %v", i, info.Seats[i].Kind, info.Seats[i].Name, info.Seats[i].Account, want)
			}
		}

		// The same at an event and at the daily deals: a guest may not
		// join under an account's name (or a look-alike) nor a bot's;
		// a signed-in person joins under their account's name, whatever
		// they type.
		var ev struct{ ID string }
		if err := json.Unmarshal(ts.browser().must(201, "POST", "/api/events", `{"variant":"ten-point","rounds":1,"end":"hands","hands":1,"movement":"mixed"}`), &ev); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			want int
			code string
		}{
			{"Аda-N", 409, "name_account"},
			{"Bot 2", 400, "name_bot"},
			{"Grace", 200, ""},
		} {
			b := guest.must(c.want, "POST", "/api/events/"+ev.ID+"/join", `{"name":`+jsonString(c.name)+`}`)
			if c.code != "" && errCode(t, b) != c.code {
				t.Errorf("a guest joining the event as %q: code %q, want %q: %s", c.name, errCode(t, b), c.code, b)
			}
			b = guest.must(c.want, "POST", "/api/daily/ten-point/play", `{"guest":"0123456789abcdef0123","name":`+jsonString(c.name)+`}`)
			if c.code != "" && errCode(t, b) != c.code {
				t.Errorf("a guest playing the daily deals as %q: code %q, want %q: %s", c.name, errCode(t, b), c.code, b)
			}
		}
		ada.must(200, "POST", "/api/events/"+ev.ID+"/join", `{"name":"Caxap"}`)
		var got struct {
			Entries []struct{ Name string }
		}
		if err := json.Unmarshal(ada.must(200, "GET", "/api/events/"+ev.ID, ""), &got); err != nil {
			t.Fatal(err)
		}
		if n := len(got.Entries); n != 2 || got.Entries[1].Name != "Ada-N" {
			t.Errorf("the event's people %+v: want Grace, then Ada-N under her account's name", got.Entries)
		}
	})
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
