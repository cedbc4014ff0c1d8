package app

import (
	"context"
	"fmt"
	"time"

	"github.com/vugu/vugu/js"
)

// Env synchronises the state with the renderer: Lock before changing the
// state from a goroutine, UnlockRender after (vugu.EventEnv is one).
type Env interface {
	Lock()
	UnlockRender()
}

// Platform is what the app needs from the browser (ui/browser implements
// it; tests fake it).
type Platform interface {
	// Fetch GETs url (relative to the page), reporting progress (total is
	// -1 when unknown). Non-2xx statuses are errors.
	Fetch(ctx context.Context, url string, progress func(done, total int64)) ([]byte, error)
	// CacheLoad returns the bytes stored for url by CacheStore, if any
	// (Cache Storage in the browser, so that weights survive reloads and
	// work offline).
	CacheLoad(url string) ([]byte, bool)
	// CacheStore keeps data for url.
	CacheStore(url string, data []byte) error
	// CacheRetain drops what CacheStore kept for every URL but keep's,
	// and returns how many it dropped.
	CacheRetain(keep []string) (int, error)
	// SHA256 returns the lower-case hex SHA-256 of data.
	SHA256(data []byte) (string, error)
	// NewEngine returns the engine that parses (a Web Worker in the
	// browser).
	NewEngine() Engine
	// Save offers data to the user as a file download.
	Save(name, mime string, data []byte) error
	// PNG rasterises an SVG document of the given size in CSS pixels at
	// scale (2 for sharp prints) and returns the PNG bytes.
	PNG(svg string, width, height, scale float64) ([]byte, error)
	// ReadFile reads the first file of a FileList (an <input type=file>'s
	// files or a drop's dataTransfer.files); a file of more than maxBytes
	// is refused before it is read, with a FileTooLargeError.
	ReadFile(files js.Value, maxBytes int64) (name string, data []byte, err error)
	// Since returns the time since the page started loading.
	Since() time.Duration
	// Memory returns the page's own memory in bytes (its wasm memory, the
	// most it has held), 0 when unknown.
	Memory() int64
	// Yield returns once the page has had a turn: in the browser, where
	// Go runs on the page's one thread, the browser first runs the tasks
	// waiting (input, painting). Elsewhere it returns at once. The caller
	// must not hold a lock that the page's event handlers take (the
	// Env's): they run before Yield returns.
	Yield()
}

// MaxFileBytes bounds the treebank files the treebank and annotation tabs
// open: a file is held in the page while it is read into trees that take
// about four times its size, within a tab's memory (the Alpino training
// set is 6 MB).
const MaxFileBytes = 64 << 20

// FileTooLargeError refuses a file of more than MaxFileBytes.
type FileTooLargeError struct {
	Name      string
	Size, Max int64
}

func (e *FileTooLargeError) Error() string {
	return fmt.Sprintf("%s is %.1f MiB, more than the %d MiB the app opens: split it, or use the command line (discspan parse, eval, convert)",
		e.Name, float64(e.Size)/(1<<20), e.Max>>20)
}
