package server

import (
	"mime"
	"path"
)

// types are the MIME types of the app's files, set explicitly so that the
// answer does not depend on the host's mime tables (WebAssembly streaming
// compilation requires application/wasm).
var types = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".txt":         "text/plain; charset=utf-8",
	".export":      "text/plain; charset=utf-8",
	".discbracket": "text/plain; charset=utf-8",
	".safetensors": "application/octet-stream",
}

// contentType returns the MIME type of a file name.
func contentType(name string) string {
	ext := path.Ext(name)
	if t, ok := types[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}
