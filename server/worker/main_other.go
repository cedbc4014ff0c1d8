//go:build !(js && wasm)

package main

import (
	"net/http"
	"os"

	"github.com/discspan/discspan/server"
)

// newHandler serves the published directory $ASSETS_DIR (default
// build/assets) from the local file system.
func newHandler() (http.Handler, error) {
	dir := os.Getenv("ASSETS_DIR")
	if dir == "" {
		dir = "build/assets"
	}
	return server.NewReadOnly(server.ReadOnlyOptions{Weights: os.DirFS(dir)})
}
