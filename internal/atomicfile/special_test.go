//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteSpecial: a named pipe is written in place (a reader on it gets
// the content; it stays a pipe), and a symbolic link to a regular file
// stays a link while the file it leads to is replaced.
func TestWriteSpecial(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		b, err := os.ReadFile(fifo)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(b)
	}()
	if err := WriteBytes(fifo, []byte("through the pipe\n")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe\n" {
		t.Errorf("the pipe's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v, %v", fi.Mode(), err)
	}

	target := filepath.Join(dir, "weights.bin")
	link := filepath.Join(dir, "current.bin")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("weights.bin", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v, %v", fi.Mode(), err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "new" {
		t.Errorf("the link's target holds %q, %v; want new", b, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files left: %q", names)
	}
}

// TestWriteStdout: writing /dev/stdout when standard output is a file
// opened for appending (discspan parse --output /dev/stdout >> log)
// appends to that file through the shell's descriptor; the file is not
// replaced. A child process (this test binary again) does the write.
func TestWriteStdout(t *testing.T) {
	if os.Getenv("ATOMICFILE_WRITE_STDOUT") == "1" {
		if err := WriteBytes("/dev/stdout", []byte("new\n")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		return
	}
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skipf("no /dev/stdout here: %v", err)
	}
	log := filepath.Join(t.TempDir(), "log.txt")
	if err := os.WriteFile(log, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	before, _ := os.Stat(log)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteStdout$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_WRITE_STDOUT=1")
	cmd.Stdout = out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the child: %v: %s", err, stderr.String())
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// The child's test framework prints PASS after the write.
	if !strings.HasPrefix(string(b), "old\nnew\n") {
		t.Errorf("the log holds %q, want old then new", b)
	}
	if after, err := os.Stat(log); err != nil || !os.SameFile(before, after) {
		t.Errorf("the log was replaced by another file")
	}
}
