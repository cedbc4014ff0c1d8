//go:build !js

package browser

import (
	"context"
	"errors"
	"time"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/ui/app"
	vjs "github.com/vugu/vugu/js"
)

// errNotBrowser is returned by the stubs that stand in for the browser on
// other systems.
var errNotBrowser = errors.New("browser: only in a browser (GOOS=js)")

// Platform is app.Platform in a browser; on other systems every method
// fails (use apptest.Platform in tests).
type Platform struct{ Worker bool }

var _ app.Platform = (*Platform)(nil)

// Fetch fails: not in a browser.
func (*Platform) Fetch(context.Context, string, func(int64, int64)) ([]byte, error) {
	return nil, errNotBrowser
}

// CacheLoad finds nothing: not in a browser.
func (*Platform) CacheLoad(string) ([]byte, bool) { return nil, false }

// CacheStore fails: not in a browser.
func (*Platform) CacheStore(string, []byte) error { return errNotBrowser }

// CacheRetain fails: not in a browser.
func (*Platform) CacheRetain([]string) (int, error) { return 0, errNotBrowser }

// SHA256 fails: not in a browser.
func (*Platform) SHA256([]byte) (string, error) { return "", errNotBrowser }

// NewEngine returns a parser.Engine.
func (*Platform) NewEngine() app.Engine { return &parser.Engine{} }

// Save fails: not in a browser.
func (*Platform) Save(string, string, []byte) error { return errNotBrowser }

// PNG fails: not in a browser.
func (*Platform) PNG(string, float64, float64, float64) ([]byte, error) { return nil, errNotBrowser }

// ReadFile fails: not in a browser.
func (*Platform) ReadFile(vjs.Value, int64) (string, []byte, error) { return "", nil, errNotBrowser }

// Since returns 0.
func (*Platform) Since() time.Duration { return 0 }

// Memory returns 0: there is no page here.
func (*Platform) Memory() int64 { return 0 }

// Yield returns at once.
func (*Platform) Yield() {}

// Page returns the defaults.
func Page() PageOptions { return ParseQuery("") }

// InWorker is false.
func InWorker() bool { return false }

// ServeWorker panics: there are no workers here.
func ServeWorker(app.Engine) { panic("browser: ServeWorker outside a browser") }

// GPU fails: no WebGPU here.
func GPU(func() ([]*network.Params, error), bool, bool) (scorer.Scorer, bool, error) {
	return nil, false, errNotBrowser
}

// Member fails: no Web Workers here.
func Member(context.Context, []byte, string, int, scorer.Scorer, bool) (scorer.Scorer, error) {
	return nil, errNotBrowser
}
