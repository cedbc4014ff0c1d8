package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// app writes the files of an app build into a new directory, with
// boot.js's bytes given, and returns the directory.
func app(t *testing.T, boot string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range hashed {
		body := "bytes of " + name
		switch name {
		case "boot.js":
			body = boot
		case "index.html":
			body = `<html data-build="@BUILD@"><script src="boot.js?b=@BUILD@"></script></html>`
		case "sw.js":
			body = `const BUILD = "@BUILD@";`
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStamp(t *testing.T) {
	one, err := stamp(app(t, "boot 1"))
	if err != nil {
		t.Fatal(err)
	}
	dir := app(t, "boot 1")
	again, err := stamp(dir)
	if err != nil {
		t.Fatal(err)
	}
	other, err := stamp(app(t, "boot 2"))
	if err != nil {
		t.Fatal(err)
	}
	if one != again || one == other || len(one) != 12 {
		t.Errorf("builds %q, %q (same files) and %q (another boot.js); want two equal names of 12 digits and a third one", one, again, other)
	}
	if got, want := read(t, filepath.Join(dir, "index.html")), `<html data-build="`+one+`"><script src="boot.js?b=`+one+`"></script></html>`; got != want {
		t.Errorf("index.html: %s, want %s", got, want)
	}
	if got, want := read(t, filepath.Join(dir, "sw.js")), `const BUILD = "`+one+`";`; got != want {
		t.Errorf("sw.js: %s, want %s", got, want)
	}
	// Stamped already: refused, the files left as they are.
	if _, err := stamp(dir); err == nil || !strings.Contains(err.Error(), "stamped already") {
		t.Errorf("stamping twice: %v; want it refused", err)
	}
	if got := read(t, filepath.Join(dir, "sw.js")); !strings.Contains(got, one) {
		t.Errorf("sw.js after the refusal: %s", got)
	}
	// A file missing: refused, naming it.
	if err := os.Remove(filepath.Join(dir, "main.wasm")); err != nil {
		t.Fatal(err)
	}
	if _, err := stamp(dir); err == nil || !strings.Contains(err.Error(), "main.wasm") {
		t.Errorf("without main.wasm: %v; want it named", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(hashed)-1 {
		t.Errorf("%d files left in the directory; want %d (no temporary file)", len(entries), len(hashed)-1)
	}
}
