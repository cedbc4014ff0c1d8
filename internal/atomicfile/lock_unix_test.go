//go:build unix && !solaris && !aix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLock: a second Lock of a path is refused while the first holds it
// (also within one process: flock locks belong to open files), works once
// it is released, and the lock file goes with the last unlock.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.safetensors")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(path); !errors.Is(err, ErrLocked) {
		t.Errorf("second lock: %v, want ErrLocked", err)
	}
	other, err := Lock(filepath.Join(dir, "other.safetensors"))
	if err != nil {
		t.Errorf("lock of another path: %v", err)
	} else {
		other()
	}
	unlock()
	again, err := Lock(path)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	again()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
}
