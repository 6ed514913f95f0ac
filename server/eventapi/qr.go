package eventapi

import (
	"fmt"
	"net/http"
	"net/url"
	"pitch/server/access"
	"pitch/server/httpx"
	"strconv"
	"strings"

	qrcode "github.com/yeqown/go-qrcode/v2"
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

// qrSVG draws text as a QR code (error correction Q, so a code on a
// projector or a creased card still reads) in SVG, one unit a module.
func qrSVG(text string) ([]byte, error) {
	qr, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionQuart))
	if err != nil {
		return nil, err
	}
	w := &svgWriter{}
	if err := qr.Save(w); err != nil {
		return nil, err
	}
	return w.out, nil
}

// svgWriter is a qrcode.Writer that draws the matrix as one SVG path.
type svgWriter struct{ out []byte }

// Write draws m.
func (w *svgWriter) Write(m qrcode.Matrix) error {
	bits := m.Bitmap()
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
	w.out = []byte(b.String())
	return nil
}

// Close does nothing.
func (w *svgWriter) Close() error { return nil }

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
