// Package app is the state and logic of the discspan browser app, in plain
// Go: loading a model (model list, cached or downloaded weights checked
// against their SHA-256, progress and retry), parsing typed sentences with
// an Engine (tokenize, score, decode), laying trees out and drawing them
// with ui/treedraw, node details from the decoder's derivation, side-by-side
// comparison of two variants, and treebanks (open, browse, parse, evaluate
// with chart/eval, export), annotation (an annotate.Corpus edited with
// undoable commands and re-parsed exactly around fixed constituents through
// the Engine, validation, search, diffs against the parser or imported
// files, a project saved through the Platform's store) and teaching (rule
// diagrams, the chart stepper, variant comparison, gallery and exercises
// from package teach, and shareable links in the URL fragment).
//
// Nothing here touches the browser: the components (ui/components) read an
// App and call its methods, and the browser's facilities (fetch, Cache
// Storage, Web Workers, WebGPU, downloads, canvas) come in through the
// Platform interface (ui/browser implements it for js/wasm). Tests run the
// whole app on the host with a parser.Engine and a fake Platform.
//
// Concurrency: methods that change the state are called with the Env's
// lock held (vugu holds it around event handlers); work that takes time
// runs in a goroutine that takes the lock to publish its results and asks
// for a render (Env.UnlockRender).
package app
