// Command stamp names a build of the browser app: it hashes the app's
// files in a directory (the output of make wasm) and writes the hash, the
// build's name, where index.html and sw.js hold the placeholder @BUILD@.
//
// The page then asks for its files with ?b=<build> and the service worker
// keeps each build's files apart, so that a page never runs files of two
// builds (see wasm/web/sw.js).
//
// Usage:
//
//	go run ./wasm/stamp DIR
//
// It prints the build's name.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// placeholder is what the build's name replaces in stamped files.
const placeholder = "@BUILD@"

// hashed are the files whose bytes make the build's name: every file the
// page or its workers run or show.
var hashed = []string{"main.wasm", "wasm_exec.js", "worker.js", "boot.js", "vugu.js", "app.css", "index.html", "sw.js"}

// stamped are the files that name their build.
var stamped = []string{"index.html", "sw.js"}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: stamp DIR (the app's files, as make wasm writes them)")
		os.Exit(2)
	}
	build, err := stamp(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "stamp:", err)
		os.Exit(1)
	}
	fmt.Println(build)
}

// stamp names the build in dir and writes its name into the stamped files,
// which must still hold the placeholder (it refuses a directory stamped
// before, whose name would no longer be its files' hash).
func stamp(dir string) (string, error) {
	contents := map[string][]byte{}
	for _, name := range hashed {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", fmt.Errorf("the app's files: %w", err)
		}
		contents[name] = b
	}
	for _, name := range stamped {
		if !bytes.Contains(contents[name], []byte(placeholder)) {
			return "", fmt.Errorf("%s: no %s to replace (stamped already? copy it from wasm/web again)", filepath.Join(dir, name), placeholder)
		}
	}
	build := buildName(hashed, contents)
	for _, name := range stamped {
		path := filepath.Join(dir, name)
		if err := writeFile(path, bytes.ReplaceAll(contents[name], []byte(placeholder), []byte(build))); err != nil {
			return "", err
		}
	}
	return build, nil
}

// buildName is the first 12 hexadecimal digits of the SHA-256 of the
// files' names, lengths and bytes, in the order of names.
func buildName(names []string, contents map[string][]byte) string {
	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s %d\n", name, len(contents[name]))
		h.Write(contents[name])
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// writeFile replaces path with b through a temporary file beside it, so
// that a failed write leaves the file as it was.
func writeFile(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := io.Copy(f, bytes.NewReader(b)); err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
