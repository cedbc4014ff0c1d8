package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"sync"
	"time"
)

// static serves the app's files from an fs.FS, preferring precompressed
// variants (X.br, X.gz) the client accepts, unless older than X. Every response carries an ETag
// (a hash of the bytes sent) and "Cache-Control: no-cache", so browsers
// revalidate and the service worker sees new builds.
//
// The app's files are of one build (make wasm names it in index.html,
// <html data-build>), and its pages ask for them with ?b=<build>: a
// request naming another build gets 404, saying so, rather than a file of
// this build, which would not work with the rest of that page. (The
// service worker then uses its copy of that build's file, if it has one.)
type static struct {
	fsys fs.FS

	mu    sync.Mutex
	etags map[string]etag // by file name
	build appBuild        // the build index.html names, as last read
}

// appBuild is the build index.html named when it had this size and
// modification time.
type appBuild struct {
	size    int64
	modTime time.Time
	name    string // "": index.html names none (or is missing)
	read    bool
}

// buildName matches a build's name: 12 hexadecimal digits (wasm/stamp).
var buildName = regexp.MustCompile(`^[0-9a-f]{12}$`)

// pageBuild finds the build a page names.
var pageBuild = regexp.MustCompile(`<html[^>]*\sdata-build="([0-9a-f]{12})"`)

// maxPage is the most of index.html read for its build's name.
const maxPage = 1 << 20

// etag is the ETag of a file as it was when hashed.
type etag struct {
	size    int64
	modTime time.Time
	tag     string
}

func newStatic(fsys fs.FS) *static { return &static{fsys: fsys, etags: map[string]etag{}} }

// variantSlack is how much older than its file a precompressed variant
// may be and still be served (see serve).
const variantSlack = 2 * time.Second

// encodings are the precompressed variants, best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

func (s *static) serve(w http.ResponseWriter, r *http.Request) {
	name := path.Clean("/" + r.URL.Path)[1:]
	if name == "" {
		name = "index.html"
	}
	if isHidden(name) || s.fsys == nil {
		s.missing(w, r, name)
		return
	}
	// plain is the file itself (a precompressed variant may stand alone).
	plain, plainErr := fs.Stat(s.fsys, name)
	if b := r.URL.Query().Get("b"); name != "index.html" && plainErr == nil && buildName.MatchString(b) {
		if now := s.currentBuild(); now != "" && now != b {
			w.Header().Set("Cache-Control", "no-cache")
			http.Error(w, fmt.Sprintf("%s of build %s is not here: the app is build %s now; reload the page", name, b, now), http.StatusNotFound)
			return
		}
	}
	w.Header().Set("Vary", "Accept-Encoding")
	for _, enc := range encodings {
		if !accepts(r.Header.Get("Accept-Encoding"), enc.name) {
			continue
		}
		// A variant older than the file (the file replaced, the variant
		// not made again yet) is another version: the file is served
		// instead. Two seconds are allowed for tools and file systems
		// that keep times to the second or two.
		if v, err := fs.Stat(s.fsys, name+enc.ext); plainErr == nil && err == nil && v.ModTime().Add(variantSlack).Before(plain.ModTime()) {
			continue
		}
		if s.try(w, r, name, name+enc.ext, enc.name) {
			return
		}
	}
	if !s.try(w, r, name, name, "") {
		s.missing(w, r, name)
	}
}

// try serves file (the content of name, in encoding enc) and reports
// whether it exists.
func (s *static) try(w http.ResponseWriter, r *http.Request, name, file, enc string) bool {
	f, err := s.fsys.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		return false
	}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return true
		}
		content = bytes.NewReader(b)
	}
	tag, err := s.etag(file, fi, content)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return true
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", tag)
	if enc != "" {
		h.Set("Content-Encoding", enc)
	}
	http.ServeContent(w, r, "", fi.ModTime(), content)
	return true
}

// currentBuild returns the build index.html names ("" for none), read
// again whenever index.html changes.
func (s *static) currentBuild() string {
	fi, err := fs.Stat(s.fsys, "index.html")
	if err != nil {
		return ""
	}
	s.mu.Lock()
	b := s.build
	s.mu.Unlock()
	if b.read && b.size == fi.Size() && b.modTime.Equal(fi.ModTime()) {
		return b.name
	}
	b = appBuild{size: fi.Size(), modTime: fi.ModTime(), read: true}
	if f, err := s.fsys.Open("index.html"); err == nil {
		page, _ := io.ReadAll(io.LimitReader(f, maxPage))
		_ = f.Close()
		if m := pageBuild.FindSubmatch(page); m != nil {
			b.name = string(m[1])
		}
	}
	s.mu.Lock()
	s.build = b
	s.mu.Unlock()
	return b.name
}

// etag returns the ETag of file, hashing content (and seeking it back to
// its start) the first time and whenever the file changed.
func (s *static) etag(file string, fi fs.FileInfo, content io.ReadSeeker) (string, error) {
	s.mu.Lock()
	e, ok := s.etags[file]
	s.mu.Unlock()
	if ok && e.size == fi.Size() && e.modTime.Equal(fi.ModTime()) {
		return e.tag, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, content); err != nil {
		return "", err
	}
	if _, err := content.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	e = etag{size: fi.Size(), modTime: fi.ModTime(), tag: `"` + hex.EncodeToString(h.Sum(nil))[:20] + `"`}
	s.mu.Lock()
	s.etags[file] = e
	s.mu.Unlock()
	return e.tag, nil
}

// missing answers a file that is not there; for the page itself it
// explains how to build the app.
func (s *static) missing(w http.ResponseWriter, r *http.Request, name string) {
	if name != "index.html" {
		w.Header().Set("Cache-Control", "no-store") // the file may come with the next build
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = io.WriteString(w, notBuilt)
}

// notBuilt is the page served when the app's files are missing.
const notBuilt = `<!doctype html>
<meta charset="utf-8"><title>discspan: app not built</title>
<h1>The discspan browser app is not built</h1>
<p>Run <code>make wasm</code> (or <code>make demo</code>, which builds and serves it) in the
discspan repository, then start the server again with <code>--app build/web</code>.</p>
`
