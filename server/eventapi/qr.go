package eventapi

import (
	"fmt"
	"net/http"
	"net/url"
	"pitch/server/access"
	"pitch/server/httpx"
	"strconv"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// The join link of an event as a QR code, for the host to show on a
// screen: GET /api/events/{id}/qr.svg?origin=https://host:port draws
// origin + "/e/ID" (the page sends its own origin: behind a proxy the
// server cannot know the address people use); with &table=N, the table
// card's address origin + "/e/ID/table/N", which stays table N's all
// night (tables.go).

// qrQuiet is the blank border around the code, in modules (the standard's
// quiet zone).
const qrQuiet = 4

// qrSVG draws text as a QR code (error correction Q, 25%, the library's
// High: a code on a projector or a creased card still reads) in SVG, one
// unit a module. The same text is always the same drawing: the library
// scores the eight masks in order and keeps the first of the lowest.
func qrSVG(text string) (svg []byte, err error) {
	defer func() { // the library panics on a bug of its own: not the server's end
		if r := recover(); r != nil {
			svg, err = nil, fmt.Errorf("drawing the QR code: %v", r)
		}
	}()
	qr, err := qrcode.New(text, qrcode.High)
	if err != nil {
		return nil, err
	}
	qr.DisableBorder = true // the drawing's own quiet zone (qrQuiet)
	return drawSVG(qr.Bitmap()), nil
}

// drawSVG draws the modules bits (true: dark) as one SVG path, inside a
// quiet zone of qrQuiet modules.
func drawSVG(bits [][]bool) []byte {
	n := len(bits) + 2*qrQuiet
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y, row := range bits {
		for x, on := range row {
			if on {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+qrQuiet, y+qrQuiet)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return []byte(b.String())
}

// joinURL is the event's join link at origin, which must be an http or
// https origin (a scheme and a host, nothing else).
func joinURL(origin, id string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") ||
		u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("origin must be the site's address, such as https://pitch.example.org, not %q", origin)
	}
	return u.Scheme + "://" + u.Host + "/e/" + id, nil
}

// handleQR answers GET /api/events/{id}/qr.svg.
func (a *API) handleQR(w http.ResponseWriter, r *http.Request) {
	const op = "event qr"
	e, err := a.rt.Event(r.Context(), r.PathValue("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	e.Lock()
	ok := a.allowed(w, r, op, access.EventInfo, e, -1)
	e.Unlock()
	if !ok {
		return
	}
	q := r.URL.Query()
	link, err := joinURL(q.Get("origin"), e.ID())
	if err != nil {
		a.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_origin", nil))
		return
	}
	if tables, ok := q["table"]; ok {
		n, err := tableNo(tables[0])
		if err == nil && len(tables) > 1 {
			err = fmt.Errorf("one table at a time, not %d", len(tables))
		}
		if err != nil {
			a.writeError(w, r, httpx.Errorf(httpx.Invalid, op, "%v", err).With("bad_table", map[string]any{"Max": maxTableNo}))
			return
		}
		link += "/table/" + strconv.Itoa(n)
	}
	svg, err := qrSVG(link)
	if err != nil {
		a.writeError(w, r, httpx.Unexpected(op, err))
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	_, _ = w.Write(svg)
}
