package server

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/discspan/discspan/server/api"
)

// serveModels answers the model list as JSON (an empty list when there is
// no model). The list is never cached: a model trained later shows up.
func (h *Handler) serveModels(w http.ResponseWriter, r *http.Request) {
	ms, err := h.models.models()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "listing the models: "+err.Error(), 0)
		return
	}
	if ms == nil {
		ms = []api.Model{}
	}
	b, err := json.Marshal(ms)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "listing the models: "+err.Error(), 0)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(append(b, '\n'))
}

// serveWeights answers /weights/<sha256>.safetensors with the file whose
// SHA-256 that is (from the handler's modelSource). The name never changes
// its content, so it is cached for good ("immutable"); http.ServeContent
// answers Range and conditional requests (the ETag is the SHA-256).
func (h *Handler) serveWeights(w http.ResponseWriter, r *http.Request) {
	// An error is not cached: the file may be back (or published) soon,
	// under the same name.
	fail := func(msg string, code int) {
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, msg, code)
	}
	name := strings.TrimPrefix(r.URL.Path, api.WeightsPrefix)
	sum, ok := strings.CutSuffix(name, api.WeightsExt)
	if !ok || !isHexSHA256(sum) {
		fail("404 page not found", http.StatusNotFound)
		return
	}
	f, err := h.models.open(sum)
	switch {
	case errors.Is(err, errNotFound):
		fail("404 page not found", http.StatusNotFound)
		return
	case errors.Is(err, errGone):
		fail(errGone.Error(), http.StatusNotFound)
		return
	case err != nil:
		fail(err.Error(), http.StatusInternalServerError)
		return
	}
	defer f.close()
	// Content that is fetched when first read (the Worker's assets) is
	// fetched now, unless the answer is 304, so that a missing or changed
	// file is an error status, not a 200 with a short body (nor a HEAD
	// saying it is there).
	if c, ok := f.content.(interface{ Check() error }); ok && r.Header.Get("If-None-Match") != `"`+sum+`"` {
		if err := c.Check(); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				fail(errGone.Error(), http.StatusNotFound)
			} else {
				fail(err.Error(), http.StatusInternalServerError)
			}
			return
		}
	}
	hd := w.Header()
	hd.Set("Content-Type", "application/octet-stream")
	hd.Set("ETag", `"`+sum+`"`)
	hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", f.modTime, f.content)
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

// modelSource is where a Handler's models come from: weight files on disk
// (catalog, for New) or a published weights directory in an fs.FS
// (published, for NewReadOnly).
type modelSource interface {
	// models returns the model list, default first.
	models() ([]api.Model, error)
	// open returns the content of the model whose SHA-256 is sum:
	// errNotFound when there is none, errGone when its file cannot be
	// opened or no longer matches the list.
	open(sum string) (*weightsFile, error)
}

// weightsFile is an opened weights file: its content, its modification
// time (zero when unknown) and what releases it.
type weightsFile struct {
	content io.ReadSeeker
	modTime time.Time
	close   func() error
}
