package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"

	"github.com/discspan/discspan/server/api"
)

// serveModels answers the model list as JSON (an empty list when there is
// no model). The list is never cached: a model trained later shows up.
func (h *Handler) serveModels(w http.ResponseWriter, r *http.Request) {
	ms, err := h.catalog.models()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if ms == nil {
		ms = []api.Model{}
	}
	b, err := json.Marshal(ms)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(append(b, '\n'))
}

// serveWeights answers /weights/<sha256>.safetensors with the file whose
// SHA-256 that is. The name never changes its content, so it is cached for
// good ("immutable"); http.ServeContent answers Range and conditional
// requests (the ETag is the SHA-256).
func (h *Handler) serveWeights(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, api.WeightsPrefix)
	sum, ok := strings.CutSuffix(name, api.WeightsExt)
	if !ok || !isHexSHA256(sum) {
		http.NotFound(w, r)
		return
	}
	e, err := h.catalog.bySHA(sum)
	if errors.Is(err, errNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	f, err := os.Open(e.path)
	if err != nil {
		http.Error(w, "weights file went away", http.StatusNotFound)
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() != e.size || !fi.ModTime().Equal(e.modTime) {
		// Replaced between the lookup and the open: its name no longer
		// matches its content.
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "application/octet-stream")
	hd.Set("ETag", `"`+sum+`"`)
	hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", e.modTime, f)
}

// isHexSHA256 reports whether s is 64 lower-case hex digits.
func isHexSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
