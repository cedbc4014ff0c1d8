package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// TestWriteFailureKeepsOld: a write that fails after more than the
// buffer reached the temporary file keeps the old file, names the path,
// and leaves no temporary file.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	if err := os.WriteFile(path, []byte("old checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := Write(path, func(w io.Writer) error {
		if _, err := w.Write(make([]byte, 3<<20)); err != nil { // more than the buffer: reaches the file
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want the write error naming the file", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old checkpoint" {
		t.Errorf("old file now holds %d bytes", len(got))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// A directory that does not exist: an error, nothing written.
	if err := WriteBytes(filepath.Join(dir, "no", "such"), []byte("x")); err == nil {
		t.Error("no error for a missing directory")
	}
}

// TestWriteFolder: writing to a path that is a folder is refused before
// anything is written, naming the path, and leaves no temporary file.
func TestWriteFolder(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.safetensors")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	called := false
	err := Write(target, func(io.Writer) error { called = true; return nil })
	if err == nil || !strings.Contains(err.Error(), target+": it is a folder") || called {
		t.Fatalf("error %v, write called %v", err, called)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("folder after the refusal: %v", ents)
	}
}

// TestWriteKeepsMode: a replaced file keeps its permissions; a new file
// gets those os.Create gives (0666 less the umask).
func TestWriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private.txt")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(private, 0o600); err != nil {
		t.Fatal(err)
	}
	fresh, reference := filepath.Join(dir, "new.txt"), filepath.Join(dir, "reference.txt")
	f, err := os.Create(reference)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, path := range []string{private, fresh} {
		if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
			t.Fatal(err)
		}
	}
	mode := func(path string) os.FileMode {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if got := mode(private); got != 0o600 {
		t.Errorf("replaced file has mode %v, want -rw-------", got)
	}
	if got, want := mode(fresh), mode(reference); got != want {
		t.Errorf("new file has mode %v, os.Create gives %v", got, want)
	}
}

// TestCheck: Check refuses what Write would fail on at once (a folder, a
// missing folder), accepts a new or existing file and a path written in
// place, and leaves nothing behind.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.txt")
	if err := os.WriteFile(existing, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string // want: part of the error; "" for none
	}{
		{filepath.Join(dir, "new.txt"), ""},
		{existing, ""},
		{dir, "it is a folder"},
		{dir + string(filepath.Separator), "it is a folder"},
		{filepath.Join(dir, "missing", "new.txt"), "does not exist"},
		{os.DevNull, ""},
	} {
		err := Check(tc.path)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}
