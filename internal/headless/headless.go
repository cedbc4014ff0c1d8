// Package headless starts headless Chromium for the benchmarks that
// measure the browser (network's in-tab scoring, bench/onnxexport's
// comparison with ONNX Runtime Web): where Chromium is, a browser with a
// throwaway profile, and the lines the pages log to the console; and
// gives every browser test and benchmark the Go toolchain's wasm_exec.js.
package headless

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ErrNoChromium is returned by Path when Chromium is not installed.
var ErrNoChromium = errors.New("no Chromium ($CHROMIUM or /usr/bin/chromium; make chromium installs it)")

// Path returns Chromium's executable: $CHROMIUM, else /usr/bin/chromium.
func Path() (string, error) {
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// Browser is a headless Chromium and the console lines of its pages.
type Browser struct {
	// Ctx runs chromedp actions in the browser's tab.
	Ctx     context.Context
	cancel  []func()
	profile string

	mu    sync.Mutex
	lines []string
}

// Start starts headless Chromium (the executable at path) with a
// throwaway profile.
func Start(path string) (*Browser, error) {
	profile, err := os.MkdirTemp("", "discspan-bench-chromium-")
	if err != nil {
		return nil, fmt.Errorf("headless: %w", err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		// 20 s by default: Chromium took longer to start from a cold disk.
		chromedp.WSURLReadTimeout(5*time.Minute))
	ctx, cancelC := chromedp.NewContext(actx)
	b := &Browser{Ctx: ctx, cancel: []func(){cancelC, cancelA}, profile: profile}
	chromedp.ListenTarget(ctx, func(ev any) {
		e, ok := ev.(*cdpruntime.EventConsoleAPICalled)
		if !ok {
			return
		}
		var parts []string
		for _, a := range e.Args {
			s, err := strconv.Unquote(string(a.Value))
			if err != nil {
				s = string(a.Value)
			}
			parts = append(parts, s)
		}
		b.mu.Lock()
		b.lines = append(b.lines, strings.Join(parts, " "))
		b.mu.Unlock()
	})
	if err := chromedp.Run(ctx); err != nil {
		b.Close()
		return nil, fmt.Errorf("headless: starting %s: %w", path, err)
	}
	return b, nil
}

// Lines returns the console lines logged since the start or the last
// ClearLines.
func (b *Browser) Lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.lines)
}

// ClearLines forgets the console lines logged so far.
func (b *Browser) ClearLines() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = nil
}

// Close stops the browser and removes its profile.
func (b *Browser) Close() {
	for _, c := range b.cancel {
		c()
	}
	os.RemoveAll(b.profile)
}

// WasmExecPath returns the wasm_exec.js of the Go toolchain on PATH (`go
// env GOROOT`), the loader a page needs to run a js/wasm binary that
// toolchain builds.
func WasmExecPath() (string, error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("headless: go env GOROOT: %w", err)
	}
	return filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), nil
}
