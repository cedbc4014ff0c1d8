//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io"
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

// TestWriteStdout: writing /dev/stdout, or a link to /dev/fd joined with
// "1", when standard output is a file opened for appending (discspan parse
// --output /dev/stdout >> log) appends to that file through the shell's
// descriptor; the file is not replaced. A child process (this test binary
// again) does the write.
func TestWriteStdout(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_WRITE_STDOUT"); path != "" {
		if err := WriteBytes(path, []byte("new\n")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		return
	}
	if _, err := os.Stat("/dev/fd/1"); err != nil {
		t.Skipf("no /dev/fd here: %v", err)
	}
	dir := t.TempDir()
	if err := os.Symlink("/dev/fd", filepath.Join(dir, "fds")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/stdout", filepath.Join(dir, "fds", "1")} {
		log := filepath.Join(dir, "log.txt")
		if err := os.WriteFile(log, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(log)
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteStdout$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_WRITE_STDOUT="+path)
		cmd.Stdout = out
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		out.Close()
		if err != nil {
			t.Fatalf("%s: the child: %v: %s", path, err, stderr.String())
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		// The child's test framework prints PASS after the write.
		if !strings.HasPrefix(string(b), "old\nnew\n") {
			t.Errorf("%s: the log holds %q, want old then new", path, b)
		}
		if after, err := os.Stat(log); err != nil || !os.SameFile(before, after) {
			t.Errorf("%s: the log was replaced by another file", path)
		}
	}
}

// TestWriteThroughLinkedFolder: a link reached through a linked folder,
// whose target climbs with "..", leads where the system says (up from the
// folder the link leads to), not where the text of the path says.
func TestWriteThroughLinkedFolder(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"real/sub", "work"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := [][2]string{{filepath.Join(root, "real", "sub"), filepath.Join(root, "work", "ld")}, {"../result.txt", filepath.Join(root, "real", "sub", "out.txt")}}
	for _, l := range links {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	precious := filepath.Join(root, "work", "result.txt")
	if err := os.WriteFile(precious, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(filepath.Join(root, "work", "ld", "out.txt"), []byte("parses")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "precious" {
		t.Errorf("an unrelated file was written: %q", b)
	}
	if b, err := os.ReadFile(filepath.Join(root, "real", "result.txt")); err != nil || string(b) != "parses" {
		t.Errorf("the link's target holds %q, %v", b, err)
	}
}

// TestWriteDevShm: a regular file under /dev (a tmpfs such as /dev/shm) is
// still replaced whole or not at all: a failed write leaves it as it was.
func TestWriteDevShm(t *testing.T) {
	dir, err := os.MkdirTemp("/dev/shm", "atomicfile-test-")
	if err != nil {
		t.Skipf("no writable /dev/shm here: %v", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "x.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	failed := errors.New("failed midway")
	if err := Write(path, func(w io.Writer) error { w.Write([]byte("half")); return failed }); !errors.Is(err, failed) {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q", b)
	}
}

// TestSameFile: two names of one regular file are the same file (the same
// path, another spelling, a link); two files are not, and neither is a
// device or pipe named twice (/dev/stdin and /dev/stdout on one terminal).
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b, link := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt"), filepath.Join(dir, "link.txt")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.txt", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		x, y string
		want bool
	}{
		{a, a, true},
		{a, filepath.Join(dir, ".", "a.txt"), true},
		{link, a, true},
		{a, b, false},
		{a, filepath.Join(dir, "missing.txt"), false},
		{fifo, fifo, false},
		{"/dev/null", "/dev/null", false},
	}
	for _, tc := range tests {
		if got := SameFile(tc.x, tc.y); got != tc.want {
			t.Errorf("SameFile(%s, %s) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestWriteResolvesLikeTheSystem: paths whose text says one thing and whose
// links say another are written where the system would open them: a
// "dev/stdout" reached by ".." after a linked folder, or from a current
// folder reached through a link, is a file of that name, not standard
// output (".." goes up from where the link leads); a path
// ending in a separator is not taken for the file before it.
func TestWriteResolvesLikeTheSystem(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkdir := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// l leads n folders below p; as text, root/l and n ".." reach /, while
	// the system climbs from where l leads to p.
	n := strings.Count(root, string(filepath.Separator)) + 1
	deep := "p" + strings.Repeat("/d", n)
	mkdir(deep)
	mkdir("p/dev")
	if err := os.Symlink(filepath.Join(root, deep), filepath.Join(root, "l")); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(root, "l") + "/" + strings.Repeat("../", n) + "dev/stdout"
	if err := WriteBytes(fake, []byte("data")); err != nil {
		t.Fatalf("%s: %v", fake, err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "p/dev/stdout")); err != nil || string(b) != "data" {
		t.Errorf("p/dev/stdout holds %q, %v; want data", b, err)
	}

	t.Chdir(filepath.Join(root, "l")) // $PWD spells the link
	t.Setenv("PWD", filepath.Join(root, "l"))
	if err := WriteBytes(strings.Repeat("../", n)+"dev/stdout", []byte("up")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "p/dev/stdout")); err != nil || string(b) != "up" {
		t.Errorf("p/dev/stdout holds %q, %v; want up", b, err)
	}

	file := filepath.Join(root, "f.txt")
	if err := os.WriteFile(file, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file + "/", file + "/."} {
		if err := WriteBytes(p, []byte("x")); err == nil {
			t.Errorf("%s: no error", p)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "kept" {
		t.Errorf("f.txt holds %q after writes to f.txt/", b)
	}
}
