package server

import (
	"errors"
	"io/fs"
	"log"
	"net/http"
	"strings"

	"github.com/discspan/discspan/server/api"
)

// Options configure the handler. The zero value serves an explanation
// instead of the app and no models.
type Options struct {
	// App holds the app's files: index.html at its root, main.wasm,
	// wasm_exec.js, the service worker and the style sheet. A file X is
	// served from X.br or X.gz instead when that exists and the client
	// accepts the encoding. Nil, or a tree without index.html, makes "/"
	// explain how to build the app.
	App fs.FS
	// Weights lists weight files (*.safetensors) and directories, whose
	// *.safetensors files are offered. The list is read again on every
	// request for the model list, so that a model written later shows up.
	// A file named default.safetensors comes first, the others by name.
	Weights []string
	// Logf reports unreadable weight files; nil means log.Printf.
	Logf func(format string, args ...any)
}

// Handler serves the app, the model list and the weight files.
type Handler struct {
	static  *static
	catalog *catalog
	mux     *http.ServeMux
}

// New returns the handler for o. It fails when a path of o.Weights cannot
// be read (a missing file is not an error: the model list says why it is
// empty through Logf).
func New(o Options) (*Handler, error) {
	logf := o.Logf
	if logf == nil {
		logf = log.Printf
	}
	h := &Handler{static: newStatic(o.App), catalog: newCatalog(o.Weights, logf), mux: http.NewServeMux()}
	if _, err := h.catalog.models(); err != nil {
		return nil, err
	}
	h.mux.HandleFunc(api.ModelsPath, h.serveModels)
	h.mux.HandleFunc(api.WeightsPrefix, h.serveWeights)
	h.mux.HandleFunc("/", h.static.serve)
	return h, nil
}

// ServeHTTP answers GET and HEAD requests; other methods get 405.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	h.mux.ServeHTTP(w, r)
}

// Models returns the models the handler offers now (see Options.Weights).
func (h *Handler) Models() ([]api.Model, error) { return h.catalog.models() }

// errNotFound marks a request for something that is not there.
var errNotFound = errors.New("not found")

// isHidden reports whether a cleaned request path names a dot file or
// directory, which are never served.
func isHidden(name string) bool {
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}
