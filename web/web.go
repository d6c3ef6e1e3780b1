// Package web holds the browser UI that verity serve serves at /.
//
// The UI is plain HTML, CSS and JavaScript ES modules under static/,
// embedded in the binary: there is no front-end build step. It calls only
// the public HTTP API that server/openapi.json describes, and it renders
// every server and model text with textContent, never as HTML, because
// pages and model outputs are data.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Assets returns the UI's files: index.html at the root, the stylesheet,
// scripts and icons beside it (app.css, js/*.js, icon.svg).
func Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// fs.Sub fails only on an invalid path, and "static" is valid.
		panic(err)
	}
	return sub
}
