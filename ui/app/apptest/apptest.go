// Package apptest provides what tests of the browser app need on the host:
// a fake Platform (fetches from a map, an in-memory cache, a
// parser.Engine, saved files kept), an Env, a way to wait for the app's state, and
// small random models written as weight files.
package apptest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/parser/parsertest"
	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu/js"
)

// Platform is a fake app.Platform. Its fields may be changed between
// loads (under no lock: tests change them while the app is idle).
type Platform struct {
	mu     sync.Mutex
	yields atomic.Int64
	// PageMemory is what Memory reports (0: unknown).
	PageMemory int64
	// Files answers Fetch by URL.
	Files map[string][]byte
	// Offline makes every Fetch fail.
	Offline bool
	// Fetches counts the Fetch calls by URL.
	Fetches map[string]int
	// Cache is the browser cache.
	Cache map[string][]byte
	// Saved holds the files offered for download by name.
	Saved map[string][]byte
	// Engine, when set, replaces the parser.Engine NewEngine returns.
	Engine app.Engine
	// Picked is what ReadFile returns; PickedSize, when set, is the size
	// the file claims (a large file without the bytes).
	PickedName string
	Picked     []byte
	PickedSize int64
	start      time.Time
}

// NewPlatform returns a platform with no files.
func NewPlatform() *Platform {
	return &Platform{Files: map[string][]byte{}, Fetches: map[string]int{}, Cache: map[string][]byte{}, Saved: map[string][]byte{}, start: time.Now()}
}

// AddModel serves a weights file under its content-addressed URL and adds
// it to the model list.
func (p *Platform) AddModel(name string, data []byte, devF1 float64) api.Model {
	p.mu.Lock()
	defer p.mu.Unlock()
	sum := sha256.Sum256(data)
	m := api.Model{Name: name, Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), DevF1: devF1}
	m.URL = api.WeightsURL(m.SHA256)
	p.Files[m.URL] = data
	var list []api.Model
	_ = json.Unmarshal(p.Files[api.ModelsPath], &list)
	list = append(list, m)
	p.Files[api.ModelsPath], _ = json.Marshal(list)
	return m
}

// FetchCount returns the number of Fetch calls, all URLs together.
func (p *Platform) FetchCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.Fetches {
		n += c
	}
	return n
}

// Fetch implements app.Platform.
func (p *Platform) Fetch(ctx context.Context, url string, progress func(done, total int64)) ([]byte, error) {
	p.mu.Lock()
	p.Fetches[url]++
	b, ok := p.Files[url]
	offline := p.Offline
	p.mu.Unlock()
	switch {
	case offline:
		return nil, errors.New("offline")
	case !ok:
		return nil, fmt.Errorf("%s: 404 Not Found", url)
	}
	if progress != nil {
		progress(int64(len(b)/2), int64(len(b)))
		progress(int64(len(b)), int64(len(b)))
	}
	return append([]byte(nil), b...), nil
}

// CacheLoad implements app.Platform.
func (p *Platform) CacheLoad(url string) ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.Cache[url]
	return b, ok
}

// CacheStore implements app.Platform.
func (p *Platform) CacheStore(url string, data []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Cache[url] = append([]byte(nil), data...)
	return nil
}

// CacheRetain implements app.Platform.
func (p *Platform) CacheRetain(keep []string) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for url := range p.Cache {
		if !slices.Contains(keep, url) {
			delete(p.Cache, url)
			n++
		}
	}
	return n, nil
}

// SHA256 implements app.Platform.
func (p *Platform) SHA256(data []byte) (string, error) {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:]), nil
}

// NewEngine implements app.Platform.
func (p *Platform) NewEngine() app.Engine {
	if p.Engine != nil {
		return p.Engine
	}
	return &parser.Engine{}
}

// Save implements app.Platform.
func (p *Platform) Save(name, mime string, data []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Saved[name] = data
	return nil
}

// SavedNames lists the saved files.
func (p *Platform) SavedNames() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for n := range p.Saved {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// PNG implements app.Platform with a fake PNG: the signature and the SVG.
func (p *Platform) PNG(svg string, width, height, scale float64) ([]byte, error) {
	return append([]byte("\x89PNG\r\n\x1a\n"), svg...), nil
}

// ReadFile implements app.Platform: it returns Picked, refusing it as the
// browser's does when it (or PickedSize) is over maxBytes.
func (p *Platform) ReadFile(_ js.Value, maxBytes int64) (string, []byte, error) {
	if p.Picked == nil {
		return "", nil, errors.New("no file")
	}
	if size := max(p.PickedSize, int64(len(p.Picked))); size > maxBytes {
		return "", nil, &app.FileTooLargeError{Name: p.PickedName, Size: size, Max: maxBytes}
	}
	return p.PickedName, p.Picked, nil
}

// Since implements app.Platform.
func (p *Platform) Since() time.Duration { return time.Since(p.start) }

// Memory implements app.Platform: PageMemory.
func (p *Platform) Memory() int64 { return p.PageMemory }

// Yield lets other goroutines run, and counts (Yields).
func (p *Platform) Yield() {
	p.yields.Add(1)
	runtime.Gosched()
}

// Yields counts the Yield calls.
func (p *Platform) Yields() int64 { return p.yields.Load() }

// Env is an app.Env: a mutex, and a count of renders asked for.
type Env struct {
	mu      sync.Mutex
	renders int
}

// Lock implements app.Env.
func (e *Env) Lock() { e.mu.Lock() }

// UnlockRender implements app.Env.
func (e *Env) UnlockRender() { e.renders++; e.mu.Unlock() }

// Wait polls cond, with the lock held, until it holds. After timeout (what
// a quiet machine needs, many times over) it logs that it is still
// waiting, but it fails the test only shortly before the test binary's
// deadline: a wall-clock limit would fail on a busy machine.
func (e *Env) Wait(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	start := time.Now()
	deadline, limited := time.Time{}, false
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		deadline, limited = d.Deadline()
	}
	logged := false
	for {
		e.mu.Lock()
		ok := cond()
		e.mu.Unlock()
		if ok {
			return
		}
		if !logged && time.Since(start) > timeout {
			logged = true
			t.Logf("still waiting for %s after %v (a busy machine?)", what, timeout)
		}
		if limited && time.Until(deadline) < 5*time.Second {
			t.Fatalf("gave up waiting for %s after %v, at the test's deadline", what, time.Since(start).Round(time.Millisecond))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Do runs f with the lock held (as vugu runs event handlers).
func (e *Env) Do(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}

// Sentences are the sentences the test models' vocabulary is built from
// (parsertest.Sentences).
var Sentences = parsertest.Sentences

// Labels and Tags are the test models' label and tag sets.
var (
	Labels = parsertest.Labels
	Tags   = parsertest.Tags
)

// Model returns a small random model (see parsertest.Model) as the bytes of
// a float16 weights file.
func Model(t testing.TB, seed uint64, extra ...[]string) []byte {
	t.Helper()
	return parsertest.Model(t, seed, extra...)
}

// Ensemble is Model for several models (see parsertest.Ensemble).
func Ensemble(t testing.TB, seeds []uint64, extra ...[]string) []byte {
	t.Helper()
	return parsertest.Ensemble(t, seeds, extra...)
}
