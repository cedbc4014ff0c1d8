//go:build unix

package treebank

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteFileSpecial: WriteFile writes a named pipe in place (its reader
// gets the trees; it stays a pipe) and keeps a symbolic link, replacing
// the file it leads to.
func TestWriteFileSpecial(t *testing.T) {
	trees, err := ReadAll(strings.NewReader("(ROOT (S (NP (LID 0=De) (N 1=kat)) (WW 2=slaapt)))\n"), "in", Discbracket)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.discbracket")
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
	if err := WriteFile(fifo, trees); err != nil {
		t.Fatal(err)
	}
	if s := <-got; !strings.Contains(s, "0=De") {
		t.Errorf("the pipe's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v, %v", fi.Mode(), err)
	}

	target := filepath.Join(dir, "bank.discbracket")
	link := filepath.Join(dir, "current.discbracket")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bank.discbracket", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, trees); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v, %v", fi.Mode(), err)
	}
	if b, err := os.ReadFile(target); err != nil || !strings.Contains(string(b), "0=De") {
		t.Errorf("the link's target holds %q, %v", b, err)
	}
}
