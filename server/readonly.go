package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"slices"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/server/api"
)

// ManifestName is the file of a published weights directory that lists its
// models: the JSON array of api.Model that /api/models answers.
const ManifestName = "models.json"

// ReadOnlyOptions configure NewReadOnly.
type ReadOnlyOptions struct {
	// App holds the app's files, as Options.App; nil makes "/" explain
	// how to build the app.
	App fs.FS
	// Weights is a published weights directory (see Publish): ManifestName
	// at its root and each listed model's file under its content-addressed
	// name <sha256>.safetensors. Nil means no model.
	Weights fs.FS
}

// NewReadOnly returns a handler that serves the app, the model list and
// the weight files of a published weights directory, exactly as New's
// handler serves them (the same ETags, Cache-Control, Range and
// conditional requests), and nothing else: no training API, and no file
// access outside the two fs.FS. It suits hosts without a file system or a
// long-lived process, such as a Cloudflare Worker whose fs.FS reads static
// assets. The manifest is read once, here; a weight file is opened per
// request, and its size must match the manifest.
func NewReadOnly(o ReadOnlyOptions) (*Handler, error) {
	p := &published{fsys: o.Weights, bySum: map[string]api.Model{}}
	if o.Weights != nil {
		b, err := fs.ReadFile(o.Weights, ManifestName)
		if err != nil {
			return nil, fmt.Errorf("server: reading the published model list: %w", err)
		}
		if p.list, err = ParseManifest(b); err != nil {
			return nil, err
		}
		for _, m := range p.list {
			p.bySum[m.SHA256] = m
		}
	}
	h := &Handler{static: newStatic(o.App), models: p, mux: http.NewServeMux(), stall: DefaultStallTimeout}
	h.route()
	return h, nil
}

// ParseManifest decodes and checks a published model list (ManifestName):
// every model needs a name, a SHA-256 (64 lower-case hex digits), the URL
// that the SHA-256 gives (api.WeightsURL) and a size of at least zero.
func ParseManifest(b []byte) ([]api.Model, error) {
	var ms []api.Model
	if err := json.Unmarshal(b, &ms); err != nil {
		return nil, fmt.Errorf("server: %s: %w", ManifestName, err)
	}
	for i, m := range ms {
		var problem string
		switch {
		case m.Name == "":
			problem = "has no name"
		case !isHexSHA256(m.SHA256):
			problem = fmt.Sprintf("has sha256 %q, want 64 lower-case hex digits", m.SHA256)
		case m.URL != api.WeightsURL(m.SHA256):
			problem = fmt.Sprintf("has url %q, want %q", m.URL, api.WeightsURL(m.SHA256))
		case m.Bytes < 0:
			problem = fmt.Sprintf("has %d bytes", m.Bytes)
		}
		if problem != "" {
			return nil, fmt.Errorf("server: %s: model %d (%q) %s", ManifestName, i, m.Name, problem)
		}
	}
	if ms == nil {
		ms = []api.Model{}
	}
	return ms, nil
}

// published is the modelSource of NewReadOnly: a fixed model list and an
// fs.FS holding the files under their content-addressed names.
type published struct {
	fsys  fs.FS
	list  []api.Model
	bySum map[string]api.Model
}

func (p *published) models() ([]api.Model, error) { return slices.Clone(p.list), nil }

func (p *published) open(sum string) (*weightsFile, error) {
	m, ok := p.bySum[sum]
	if !ok {
		return nil, errNotFound
	}
	name := sum + api.WeightsExt
	f, err := p.fsys.Open(name)
	if err != nil {
		return nil, errGone
	}
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		f.Close()
		return nil, errGone
	}
	if fi.Size() != m.Bytes {
		f.Close()
		return nil, fmt.Errorf("server: published %s is %d bytes, the model list says %d", name, fi.Size(), m.Bytes)
	}
	if rs, ok := f.(io.ReadSeeker); ok {
		return &weightsFile{content: rs, modTime: fi.ModTime(), close: f.Close}, nil
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("server: reading published %s: %w", name, err)
	}
	return &weightsFile{content: bytes.NewReader(b), modTime: fi.ModTime(), close: func() error { return nil }}, nil
}

// Publish writes a published weights directory for NewReadOnly to dir: the
// weight files of weights (files and directories, as Options.Weights) under
// their content-addressed names <sha256>.safetensors, then ManifestName
// listing them in the order New's handler lists them. Files that are not
// valid weight files are reported through logf (nil: log.Printf) and left
// out, as by New. A file already in dir with the right content is kept;
// files are written atomically and checked against the SHA-256 taken when
// listing. Other files in dir are left alone. It returns the models.
func Publish(dir string, weights []string, logf func(format string, args ...any)) ([]api.Model, error) {
	if logf == nil {
		logf = log.Printf
	}
	es, err := newCatalog(weights, logf).entries()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	ms := make([]api.Model, 0, len(es))
	for _, e := range es {
		if err := publishFile(filepath.Join(dir, e.model.SHA256+api.WeightsExt), e); err != nil {
			return nil, err
		}
		ms = append(ms, e.model)
	}
	b, err := json.MarshalIndent(ms, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	if err := atomicfile.WriteBytes(filepath.Join(dir, ManifestName), append(b, '\n')); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	return ms, nil
}

// publishFile copies e's file to dst unless dst already holds it.
func publishFile(dst string, e entry) error {
	if fi, err := os.Stat(dst); err == nil && fi.Size() == e.size {
		if sum, err := fileSHA256(dst); err == nil && sum == e.model.SHA256 {
			return nil
		}
	}
	src, err := os.Open(e.path)
	if err != nil {
		return fmt.Errorf("server: publishing: %w", err)
	}
	defer src.Close()
	err = atomicfile.Write(dst, func(w io.Writer) error {
		h := sha256.New()
		if _, err := io.Copy(io.MultiWriter(w, h), src); err != nil {
			return err
		}
		if sum := hex.EncodeToString(h.Sum(nil)); sum != e.model.SHA256 {
			return errors.New("changed while publishing: SHA-256 " + sum + ", listed as " + e.model.SHA256)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("server: publishing %s: %w", e.path, err)
	}
	return nil
}
