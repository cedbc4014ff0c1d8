// Package server serves the discspan browser app: its static files (with
// precompressed gzip and brotli variants and the right MIME types, among
// them application/wasm), the model list at api.ModelsPath (JSON, read from
// the weight files' metadata with weights.ReadMeta) and the weight files
// themselves under content-addressed names (api.WeightsURL) with an ETag,
// "Cache-Control: immutable" and Range requests.
//
// New builds the whole thing as one http.Handler from Options, so that a
// local server (discspan serve) and other hosts (a Cloudflare Worker build)
// share it. Nothing here parses: the app parses in the browser tab.
//
// Costs: the model list stats every weight file per request and reads and
// hashes a file (SHA-256 of the whole file) only when its size or
// modification time changed; a static file is hashed once for its ETag.
package server
