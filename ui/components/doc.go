// Package components holds the vugu components of the browser app: small
// .vugu templates, each with a .go file of its struct and helpers, that read
// an *app.App and call its methods from event handlers (vugu holds the
// render lock around them). The generated *_gen.go files come from
// vugugen (go generate); Root is the page, with the Sentence and Treebank
// tabs, the Annotation tab (annotate-*) and the Teaching tab (teach-*).
//
// Elements carry data attributes for tests and tools: the root has
// data-phase (the model load's app.Phase), data-backend, data-gpu and
// data-seq (the number of parses shown); each constituents table row has
// data-view, data-node (index into the tree's nodes), data-label and
// data-cons ("NP[0,2)+[3,5)").
package components

//go:generate go tool vugugen -skip-go-mod -skip-main
//go:generate gofmt -w .
