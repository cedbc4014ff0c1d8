package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
