// Package browser is the app's link to the browser, for GOOS=js: it
// implements app.Platform over fetch (with progress), Cache Storage,
// crypto.subtle, Blob downloads, an OffscreenCanvas (PNG export) and
// FileReader, and runs the parsing engine in a Web Worker: a second
// instance of the same wasm binary, started by worker.js, that serves
// load and parse requests (ServeWorker) while the page stays responsive.
// Cancelling a parse terminates the worker and starts a fresh one, which
// reloads the model from the bytes the page keeps.
//
// Scoring in the worker uses WebGPU (package webgpu) where an adapter is
// there and chosen (see parser.Engine), else the CPU.
//
// The URL options (options.go) and the worker protocol's Go side
// (protocol.go) build, and are tested, everywhere; the rest is js-only,
// with stubs (stub_other.go) so that the packages that import it build on
// the host.
package browser
