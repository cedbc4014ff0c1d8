package server

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/weights"
)

// catalog is the list of weight files, refreshed on demand: a file is
// verified (weights.Verify: its header, and its data against the SHA-256
// the header states) and hashed (whole file) again only when its size or
// modification time changed. A file that fails verification is left out,
// and not read again until it changes either.
type catalog struct {
	paths []string
	logf  func(string, ...any)

	mu     sync.Mutex
	known  map[string]entry // by file path
	warned map[string]string
	// reading is held while a file is verified and hashed: requests that
	// come meanwhile wait for that result instead of reading it again.
	reading sync.Mutex
}

// entry is one weights file as last seen.
type entry struct {
	path    string
	size    int64
	modTime time.Time
	model   api.Model
	err     error // why the file is not offered; nil when it is
}

func newCatalog(paths []string, logf func(string, ...any)) *catalog {
	return &catalog{paths: paths, logf: logf, known: map[string]entry{}, warned: map[string]string{}}
}

// files returns the weight files of the configured paths, default first.
// A configured path that does not exist is reported once and skipped; one
// that cannot be read is an error.
func (c *catalog) files() ([]string, error) {
	var out []string
	for _, p := range c.paths {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			c.warnOnce(p, fmt.Sprintf("server: %s does not exist: no model from there (train one with 'discspan train', or pass --weights DIR)", p))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), api.WeightsExt) && !strings.HasPrefix(e.Name(), ".") {
				out = append(out, filepath.Join(p, e.Name()))
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		da, db := modelName(a) == "default", modelName(b) == "default"
		switch {
		case da && !db:
			return -1
		case db && !da:
			return 1
		}
		return naturalCompare(modelName(a), modelName(b))
	})
	return slices.Compact(out), nil
}

// naturalCompare orders names with numbers by their numbers' values, so
// that job-2 comes before job-10; equal runs of digits with different
// leading zeros fall back to the bytes.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			i0, j0 := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			x, y := strings.TrimLeft(a[i0:i], "0"), strings.TrimLeft(b[j0:j], "0")
			if c := cmp.Compare(len(x), len(y)); c != 0 {
				return c
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(a[i], b[j]); c != 0 {
			return c
		}
		i, j = i+1, j+1
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// warnOnce logs msg for key unless the same message was logged before.
func (c *catalog) warnOnce(key, msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.warned[key] != msg {
		c.warned[key] = msg
		c.logf("%s", msg)
	}
}

// modelName is the file name of path without its extension.
func modelName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), api.WeightsExt)
}

// models returns the current model list. Files that are not valid weight
// files are reported through logf and left out.
func (c *catalog) models() ([]api.Model, error) {
	es, err := c.entries()
	if err != nil {
		return nil, err
	}
	out := make([]api.Model, len(es))
	for i, e := range es {
		out[i] = e.model
	}
	return out, nil
}

// entries returns the current entries, in the order of files.
func (c *catalog) entries() ([]entry, error) {
	paths, err := c.files()
	if err != nil {
		return nil, err
	}
	out := make([]entry, 0, len(paths))
	for _, p := range paths {
		e, err := c.entry(p)
		if err != nil {
			c.warnOnce(p, fmt.Sprintf("server: skipping %s: %v", p, err))
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// entry returns the entry of the file at path, reading the file again only
// when it changed.
func (c *catalog) entry(path string) (entry, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return entry{}, err
	}
	if !fi.Mode().IsRegular() {
		// A named pipe would block the reading (every request after it),
		// a device would be read for ever.
		return entry{}, fmt.Errorf("not a regular file (%v)", fi.Mode().Type())
	}
	known := func() (entry, bool) {
		c.mu.Lock()
		defer c.mu.Unlock()
		e, ok := c.known[path]
		return e, ok && e.size == fi.Size() && e.modTime.Equal(fi.ModTime())
	}
	if e, ok := known(); ok {
		return e, e.err
	}
	c.reading.Lock()
	defer c.reading.Unlock()
	if e, ok := known(); ok { // read meanwhile
		return e, e.err
	}
	fail := func(err error) (entry, error) {
		c.mu.Lock()
		c.known[path] = entry{path: path, size: fi.Size(), modTime: fi.ModTime(), err: err}
		c.mu.Unlock()
		return entry{}, err
	}
	meta, err := weights.Verify(path)
	if err != nil {
		return fail(err)
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return entry{}, err
	}
	e := entry{path: path, size: fi.Size(), modTime: fi.ModTime(), model: api.Model{
		Name:   modelName(path),
		URL:    api.WeightsURL(sum),
		Bytes:  fi.Size(),
		SHA256: sum,
		DevF1:  meta.Meta.DevF1,
	}}
	c.mu.Lock()
	c.known[path] = e
	c.mu.Unlock()
	return e, nil
}

// bySHA returns the entry of the file whose SHA-256 is sum.
func (c *catalog) bySHA(sum string) (entry, error) {
	es, err := c.entries()
	if err != nil {
		return entry{}, err
	}
	for _, e := range es {
		if e.model.SHA256 == sum {
			return e, nil
		}
	}
	return entry{}, errNotFound
}

// open opens the file of the model whose SHA-256 is sum, checking that it
// was not replaced since it was hashed (its name would no longer match its
// content).
func (c *catalog) open(sum string) (*weightsFile, error) {
	e, err := c.bySHA(sum)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(e.path)
	if err != nil {
		return nil, errGone
	}
	if fi, err := f.Stat(); err != nil || fi.Size() != e.size || !fi.ModTime().Equal(e.modTime) {
		// Replaced between the lookup and the open.
		f.Close()
		return nil, errNotFound
	}
	return &weightsFile{content: f, modTime: e.modTime, close: f.Close}, nil
}

// fileSHA256 returns the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
