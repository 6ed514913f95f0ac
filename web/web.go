// Package web holds the browser UI, embedded in the binary: running the
// server needs no build step and no files beside it.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// FS returns the UI's files (index.html at its root).
func FS() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}
