// Package web holds the browser UI, embedded in the binary: running the
// server needs no build step and no files beside it.
package web

import (
	"embed"
	"io/fs"
	"strings"

	"pitch/i18n"
)

//go:embed static
var static embed.FS

// FS returns the UI's files (index.html at its root), with the message
// catalogs of package i18n under i18n/ (i18n/fr.json, …): the browser and
// the Go side read the same files.
func FS() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return withCatalogs{sub}
}

// withCatalogs serves i18n/NAME from the catalogs and the rest from static.
type withCatalogs struct{ static fs.FS }

// Open implements fs.FS.
func (w withCatalogs) Open(name string) (fs.File, error) {
	if name == "i18n" {
		return i18n.Catalogs().Open(".")
	}
	if rest, ok := strings.CutPrefix(name, "i18n/"); ok {
		return i18n.Catalogs().Open(rest)
	}
	return w.static.Open(name)
}
