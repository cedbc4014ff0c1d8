//go:build unix

package server

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestCatalogSkipsSpecialFiles: a named pipe named like a weights file in
// a weights folder is skipped, said once, instead of blocking the model
// list (and every request after it) on its reading.
func TestCatalogSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	sum := writeModel(t, filepath.Join(dir, "default.safetensors"), 0, 1)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.safetensors"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logged []string
	c := newCatalog([]string{dir}, func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	})
	for range 2 {
		ms, err := c.models()
		if err != nil || len(ms) != 1 || ms[0].SHA256 != sum {
			t.Fatalf("models: %+v, %v; want the default model only", ms, err)
		}
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "pipe.safetensors: not a regular file") {
		t.Errorf("logged %q; want the pipe named once as not a regular file", logged)
	}
}
