// Package api holds the types and paths the discspan server and the browser
// app share: the JSON of the model list and where things are served. It
// imports nothing, so that the wasm app can use it without net/http.
package api

// Paths served by package server.
const (
	// ModelsPath answers GET with a JSON array of Model, the default model
	// first.
	ModelsPath = "/api/models"
	// WeightsPrefix is where weight files are served, content-addressed:
	// WeightsPrefix + "<sha256>.safetensors".
	WeightsPrefix = "/weights/"
	// WeightsExt is the file name extension of weight files.
	WeightsExt = ".safetensors"
)

// Model describes one weights file the server offers.
type Model struct {
	// Name is the file name without its extension ("default").
	Name string `json:"name"`
	// URL is the content-addressed address of the file
	// (WeightsPrefix + SHA256 + WeightsExt), relative to the server root.
	URL string `json:"url"`
	// Bytes is the file size.
	Bytes int64 `json:"bytes"`
	// SHA256 is the lower-case hex SHA-256 of the whole file: the browser
	// checks the downloaded bytes against it.
	SHA256 string `json:"sha256"`
	// DevF1 is the labelled F1 on the development set recorded in the
	// file's metadata (0 when not recorded).
	DevF1 float64 `json:"dev_f1"`
}

// WeightsURL returns the content-addressed URL of a weights file with the
// given SHA-256.
func WeightsURL(sha256 string) string { return WeightsPrefix + sha256 + WeightsExt }
