package account

import (
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	for _, c := range []struct {
		in, display, key string
		ok               bool
	}{
		{"Ada", "Ada", "ada", true},
		{"  Ada  ", "Ada", "ada", true},
		{"ＡＤＡ", "ＡＤＡ", "ada", true}, // full width: the same key as Ada
		{"Straße", "Straße", "strasse", true},
		{"Δημήτρης", "Δημήτρης", "δημήτρησ", true},
		{"さくら", "さくら", "さくら", true},
		{"de.la-cruz_2", "de.la-cruz_2", "de.la-cruz_2", true},
		{"e\u0301mile", "émile", "émile", true}, // composed (NFC)
		{"A", "", "", false},                    // too short
		{strings.Repeat("a", 25), "", "", false},
		{"Ada Lovelace", "", "", false}, // a space
		{"-ada", "", "", false},
		{"ada-", "", "", false},
		{"a--b", "", "", false},
		{"ada!", "", "", false},
		{"ada\u200b", "", "", false}, // zero-width space
		{"\u0301ab", "", "", false},  // a mark first
		{"ab\xff", "", "", false},
	} {
		display, key, err := CheckName(c.in)
		if (err == nil) != c.ok {
			t.Errorf("CheckName(%q): err %v, want ok %v", c.in, err, c.ok)
			continue
		}
		if c.ok && (display != c.display || key != c.key) {
			t.Errorf("CheckName(%q) = %q, %q; want %q, %q", c.in, display, key, c.display, c.key)
		}
	}
	if Key("Ada") != Key("ＡＤＡ") || Key("Ada") != Key("aDA") {
		t.Errorf("Ada, ＡＤＡ and aDA have different keys")
	}
}

func TestHashVerify(t *testing.T) {
	phc := Hash("correct horse battery")
	if !strings.HasPrefix(phc, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("Hash = %q, want a PHC string with OWASP's parameters", phc)
	}
	if phc == Hash("correct horse battery") {
		t.Errorf("two hashes of one password are equal: no fresh salt")
	}
	if ok, rehash, err := Verify("correct horse battery", phc); !ok || rehash || err != nil {
		t.Errorf("Verify(right) = %v, %v, %v", ok, rehash, err)
	}
	if ok, _, _ := Verify("correct horse batterY", phc); ok {
		t.Errorf("Verify(wrong) = true")
	}
	// A hash made with weaker settings still verifies, and asks to be made again.
	weak := hashWith("pass phrase", Params{Memory: 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32})
	if ok, rehash, err := Verify("pass phrase", weak); !ok || !rehash || err != nil {
		t.Errorf("Verify(weak hash) = %v, %v, %v; want true, true, nil", ok, rehash, err)
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$argon2id$v=19$m=1024,t=1,p=1$!!$!!"} {
		if ok, _, err := Verify("x", bad); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want an error", bad, ok, err)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	for _, c := range []struct{ pw, name, code string }{
		{"correct horse battery", "Ada", ""},
		{"short", "Ada", "password_short"},
		{strings.Repeat("x", 129), "Ada", "password_long"},
		{"1qaz2wsx3edc", "Ada", "password_common"},
		{"Q1W2E3R4T5Y6", "Ada", "password_common"}, // any case
		{"123qweasdzxc", "Ada", "password_common"},
		{"Ada.Lovelace", "ada.lovelace", "password_name"},
		// Only white space, or one character repeated: weak, whatever its length.
		{"            ", "Ada", "password_weak"},
		{" \t \u00a0\u3000        \n", "Ada", "password_weak"},
		{strings.Repeat(" ", 128), "Ada", "password_weak"},
		{"zzzzzzzzzzzz", "Ada", "password_weak"},
		{"zZzZzZzZzZzZ", "Ada", "password_weak"}, // any case
		{strings.Repeat("é", 20), "Ada", "password_weak"},
		{strings.Repeat("猫", 12), "Ada", "password_weak"},
		{"zzzzzzzzzzzy", "Ada", ""},              // two characters: not this rule's
		{" zzzzzzzzzzz ", "Ada", ""},             // spaces and a letter
		{"  correct horse  ", "Ada", ""},         // spaces around words are fine
		{"zzzz", "Ada", "password_short"},        // short first
		{"elevenchars", "Ada", "password_short"}, // 11: OWASP ASVS V2.1.1 asks 12
	} {
		err := CheckPassword(c.pw, c.name)
		got := ""
		if pe, ok := err.(*PasswordError); ok {
			got = pe.Code
		} else if err != nil {
			got = err.Error()
		}
		if got != c.code {
			t.Errorf("CheckPassword(%q) = %q, want %q", c.pw, got, c.code)
		}
	}
	if n := len(common); n != 10000 {
		t.Errorf("the common-password list has %d entries, want 10000", n)
	}
}
