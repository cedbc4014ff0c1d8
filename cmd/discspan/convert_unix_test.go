//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fifo makes a named pipe in dir and, in the background, writes content to
// it once (as `cat file > pipe` does); the returned channel gives the
// writer's error.
func fifo(t *testing.T, dir, name string, content []byte) (string, <-chan error) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			done <- err
			return
		}
		_, err = f.Write(content)
		done <- errors.Join(err, f.Close())
	}()
	return p, done
}

// TestNamedPipeInputs: convert and eval read their inputs twice; a named
// pipe (a process substitution, `mkfifo`) is kept in a temporary file
// meanwhile, instead of waiting for a second writer for ever, and the
// temporary file is removed.
func TestNamedPipeInputs(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	gold := dataPath(t, "dev.discbracket")
	content, err := os.ReadFile(gold)
	if err != nil {
		t.Fatal(err)
	}
	in, wrote := fifo(t, dir, "in.discbracket", content)
	out := filepath.Join(dir, "out.export")
	if _, stderr, status := runCmd("convert", in, out); status != 0 || !strings.Contains(stderr, "wrote 714 trees") {
		t.Errorf("convert from a named pipe: status %d, %s", status, stderr)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	pred, wrote := fifo(t, dir, "pred.discbracket", content)
	if report, stderr, status := runCmd("eval", gold, pred); status != 0 || !strings.Contains(report, "100.00") {
		t.Errorf("eval of a named pipe: status %d, %s %s", status, stderr, report)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	// A pipe without an extension (a process substitution, /dev/fd/63)
	// is read in eval's --format.
	bare, wrote := fifo(t, dir, "bare", content)
	if report, stderr, status := runCmd("eval", "--format", "discbracket", gold, bare); status != 0 || !strings.Contains(report, "100.00") {
		t.Errorf("eval of a pipe without extension: status %d, %s %s", status, stderr, report)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "discspan-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestConvertWritesNothingOnBadTree: a tree the output format cannot hold
// (a word "#500" reads as a node number in export) is found by the first
// pass, so that an output written in place (a pipe, /dev/stdout) gets
// nothing, not the trees before it.
func TestConvertWritesNothingOnBadTree(t *testing.T) {
	dir := t.TempDir()
	content, err := os.ReadFile(dataPath(t, "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.discbracket")
	if err := os.WriteFile(in, append(content, "(S (A 0=a) (B 1=#500))\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.export")
	if err := syscall.Mkfifo(out, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(out) // waits for convert to open it, if it does
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	_, stderr, status := runCmd("convert", in, out)
	if status != 2 || !strings.Contains(stderr, "tree 715") || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("status %d, %s; want 2 naming tree 715", status, stderr)
	}
	for {
		select {
		case b := <-got:
			if len(b) != 0 {
				t.Errorf("%d bytes written to the pipe before the error", len(b))
			}
			return
		default:
		}
		// convert never opened the pipe: open it for the waiting reader,
		// which then reads nothing.
		if f, err := os.OpenFile(out, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		time.Sleep(time.Millisecond)
	}
}

// TestConvertInterrupted: SIGTERM while convert writes leaves OUT as it
// was, removes the temporary file beside it (and the copy of a named pipe
// input) and exits with status 143.
func TestConvertInterrupted(t *testing.T) {
	for _, pipe := range []bool{false, true} {
		t.Run(map[bool]string{false: "file", true: "named pipe"}[pipe], func(t *testing.T) { convertInterrupted(t, pipe) })
	}
}

func convertInterrupted(t *testing.T, pipe bool) {
	dir, tmp := t.TempDir(), t.TempDir()
	content, err := os.ReadFile(dataPath(t, "train.export"))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.export")
	if pipe {
		var wrote <-chan error
		in, wrote = fifo(t, dir, "in.export", bytes.Repeat(content, 4))
		defer func() { <-wrote }()
	} else if err := os.WriteFile(in, bytes.Repeat(content, 4), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.discbracket")
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := mainCommand("convert", in, out)
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for { // the second pass writes the temporary file
		if tmp, _ := filepath.Glob(filepath.Join(dir, ".out.discbracket.tmp-*")); len(tmp) > 0 {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 143 {
		t.Errorf("exit %v, want status 143 (stderr %s)", err, stderr.String())
	}
	if b, _ := os.ReadFile(out); string(b) != "old\n" {
		t.Errorf("OUT changed: %.40q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".out.discbracket.tmp-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) != 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}
