package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	cases := []struct {
		name    string
		write   func(io.Writer) error
		want    string
		wantErr bool
	}{
		{"new file", func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }, "one", false},
		{"replace", func(w io.Writer) error { _, err := io.WriteString(w, "two"); return err }, "two", false},
		{"failure keeps the old content", func(w io.Writer) error {
			io.WriteString(w, "half")
			return errors.New("disk full")
		}, "two", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Write(path, c.write)
			if (err != nil) != c.wantErr {
				t.Fatalf("error %v, want error %v", err, c.wantErr)
			}
			got, _ := os.ReadFile(path)
			if string(got) != c.want {
				t.Errorf("content %q, want %q", got, c.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("%d entries in the directory, want only the file (no temporary left)", len(entries))
			}
		})
	}
	if err := WriteBytes(filepath.Join(dir, "no", "such"), []byte("x")); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
