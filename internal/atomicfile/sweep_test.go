package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSweep: the temporaries a killed writer left (zero-byte .NAME.tmp-*
// files) are removed, for one target or a whole directory; other files
// stay.
func TestSweep(t *testing.T) {
	files := []string{"m.safetensors", ".m.safetensors.tmp-123", ".m.safetensors.ckpt.tmp-9", ".other.tmp-1", "job.json", ".hidden", "x.tmp-2"}
	tests := []struct {
		name  string
		sweep func(dir string) (int, error)
		left  []string
	}{
		{"RemoveTemps", func(dir string) (int, error) { return RemoveTemps(filepath.Join(dir, "m.safetensors")) },
			[]string{".hidden", ".m.safetensors.ckpt.tmp-9", ".other.tmp-1", "job.json", "m.safetensors", "x.tmp-2"}},
		{"SweepDir", SweepDir, []string{".hidden", "job.json", "m.safetensors", "x.tmp-2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			n, err := tc.sweep(dir)
			if err != nil {
				t.Fatal(err)
			}
			ents, _ := os.ReadDir(dir)
			var left []string
			for _, e := range ents {
				left = append(left, e.Name())
			}
			slices.Sort(left)
			if !slices.Equal(left, tc.left) || n != len(files)-len(tc.left) {
				t.Errorf("removed %d, left %v; want %v", n, left, tc.left)
			}
		})
	}
	if n, err := SweepDir(filepath.Join(t.TempDir(), "none")); n != 0 || err != nil {
		t.Errorf("missing directory: %d, %v", n, err)
	}
}

// TestWriteMissingFolder: writing into a folder that does not exist names
// the target and the folder, not the temporary file.
func TestWriteMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "w.safetensors")
	err := WriteBytes(path, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "writing "+path) || strings.Contains(err.Error(), ".tmp-") || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("error %v", err)
	}
}

// TestWriteRemovesStale: a successful Write removes the temporaries of its
// path that are older than StaleAfter (a killed writer's), not fresh ones
// (a writer at work) nor other files'.
func TestWriteRemovesStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.safetensors")
	old := time.Now().Add(-2 * StaleAfter)
	files := map[string]bool{ // name: removed
		".w.safetensors.tmp-1":      true,
		".w.safetensors.tmp-fresh":  false,
		".x.safetensors.tmp-2":      false,
		".w.safetensors.ckpt.tmp-3": false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if name != ".w.safetensors.tmp-fresh" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := WriteBytes(path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := err != nil; gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
}
