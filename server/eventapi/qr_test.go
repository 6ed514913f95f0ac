package eventapi

import (
	"bytes"
	"fmt"
	"testing"
)

// TestQRSameEachTime: a link is drawn as the same code every time (a
// printed table card and the screen's code agree, and a test can compare
// a drawing with the library's code of the link). The library before
// broke ties between masks by goroutine order: some links gave one of
// two codes.
func TestQRSameEachTime(t *testing.T) {
	for i := range 200 {
		text := fmt.Sprintf("https://club.example:8443/e/%016x/table/%d", uint64(i)*0x9e3779b97f4a7c15, i%20+1)
		first, err := qrSVG(text)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			again, err := qrSVG(text)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, again) {
				t.Fatalf("%s drawn twice gave two codes", text)
			}
		}
	}
}

// TestDrawSVG: each dark module is one unit square, inside the quiet
// zone, and the drawing is as wide as the code and its zone.
func TestDrawSVG(t *testing.T) {
	got := string(drawSVG([][]bool{{true, false}, {false, true}}))
	want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" shape-rendering="crispEdges">` +
		`<rect width="10" height="10" fill="#fff"/><path fill="#000" d="M4 4h1v1h-1zM5 5h1v1h-1z"/></svg>`
	if got != want {
		t.Errorf("drawSVG =\n%s\nwant\n%s", got, want)
	}
}
