//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/treebank"
)

// TestOnInterrupt: a SIGINT cancels the context instead of ending the
// process, with the signal as its cause, and the note is printed.
func TestOnInterrupt(t *testing.T) {
	var stderr strings.Builder
	ctx, release := onInterrupt(&stderr, "stopping soon")
	if ctx.Err() != nil {
		t.Fatal("cancelled before any signal")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	release()
	var sig *signalError
	if !errors.As(context.Cause(ctx), &sig) || sig.exitStatus() != 130 {
		t.Errorf("cause %v, want SIGINT (exit status 130)", context.Cause(ctx))
	}
	if !strings.Contains(stderr.String(), "stopping soon") {
		t.Errorf("stderr %q, want the note", stderr.String())
	}
	// Released without a signal: nothing printed, nothing cancelled.
	var quiet strings.Builder
	ctx, release = onInterrupt(&quiet, "never")
	if ctx.Err() != nil {
		t.Error("cancelled without a signal")
	}
	release()
	if quiet.Len() != 0 {
		t.Errorf("printed %q without a signal", quiet.String())
	}
}

// TestParseStreams runs `discspan parse` on a pipe: each line's tree comes
// out while the pipe is still open (the input is not read whole first),
// and a Ctrl-C while parse waits for more input stops it at once with
// exit status 130, its output ending with the last whole tree.
func TestParseStreams(t *testing.T) {
	cmd := mainCommand("parse")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(stdout)
	for _, sentence := range []string{"De kat slaapt.", "Wat heb je gisteren gekocht?"} {
		if _, err := io.WriteString(stdin, sentence+"\n"); err != nil {
			t.Fatal(err)
		}
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("no tree for %q while the input is open: %v (stderr %s)", sentence, err, stderr.String())
		}
		tr, err := treebank.ReadDiscbracket(strings.NewReader(line), "out")
		if err != nil || len(tr) != 1 || strings.Join(tr[0].Words(), "") != strings.ReplaceAll(sentence, " ", "") {
			t.Fatalf("for %q: %q, %v", sentence, line, err)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(out)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit %v, want status 130 (stderr %s)", err, stderr.String())
	}
	if len(rest) != 0 || !strings.Contains(stderr.String(), "interrupted (interrupt) after 2 sentences") {
		t.Errorf("after Ctrl-C: stdout %q, stderr %q", rest, stderr.String())
	}
}

// TestParseInterruptedInTheLastBatch: a Ctrl-C while the input's last
// batch is parsed still exits with status 130 (it exited 0 once the batch
// was written, so a script went on as if nothing had happened); standard
// output holds whole trees only: the batches written before the signal,
// and the last one when it was parsed within parseGrace.
func TestParseInterruptedInTheLastBatch(t *testing.T) {
	dev, err := os.ReadFile(dataPath(t, "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(dev), "\n"), "\n")
	// Two batches: the first (written once parsed, when the test sends
	// the signal) of short sentences, the last of the 60 longest, which
	// take seconds with n6 (the signal comes while they are parsed).
	const last = 60
	const total = parseChunk + last
	longest := slices.Clone(lines)
	slices.SortStableFunc(longest, func(a, b string) int { return strings.Count(b, "=") - strings.Count(a, "=") })
	in := filepath.Join(t.TempDir(), "in.discbracket")
	if err := os.WriteFile(in, []byte(strings.Join(lines[:parseChunk], "")+strings.Join(longest[:last], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := mainCommand("parse", "--variant", "n6", "--workers", "1", "--input", in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(stdout)
	var trees []string
	for len(trees) < parseChunk { // the first batch is written: the last one is being parsed
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("after %d trees: %v (stderr %s)", len(trees), err, stderr.String())
		}
		trees = append(trees, line)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(out)
	err = cmd.Wait()
	if !strings.Contains(stderr.String(), "discspan parse: interrupted: ") {
		// The signal came once the parse was over (the test ran late on
		// a busy machine): there is nothing to check.
		t.Logf("the signal came after the parse ended (%v, %d more trees): not checked", err, len(rest))
		return
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Errorf("exit %v, want status 130 (stderr %s)", err, stderr.String())
	}
	if len(rest) > 0 {
		trees = append(trees, strings.SplitAfter(strings.TrimSuffix(string(rest), "\n"), "\n")...)
	}
	// The reader may cut the input into batches a little smaller than
	// parseChunk (a batch ends with the input read so far): the output
	// holds at least the trees the test read before the signal, at most
	// all of them.
	if len(trees) < parseChunk || len(trees) > total {
		t.Errorf("%d trees written; want from the %d read before the signal to all %d", len(trees), parseChunk, total)
	}
	for k, line := range trees {
		if tr, err := treebank.ReadDiscbracket(strings.NewReader(line), "out"); err != nil || len(tr) != 1 {
			t.Fatalf("tree %d: %q: %v", k+1, line, err)
		}
	}
	t.Logf("%d trees; %s", len(trees), strings.TrimSpace(stderr.String()))
}

// TestEvalInterruptedRemovesStandardInput: a signal while eval keeps its
// standard input in a temporary file (a Ctrl-C in parse | eval GOLD -)
// removes the file and exits with 128+N.
func TestEvalInterruptedRemovesStandardInput(t *testing.T) {
	dir := t.TempDir()
	gold := filepath.Join(dir, "gold.discbracket")
	if err := os.WriteFile(gold, []byte("(ROOT (S (NN 0=a) (NN 1=b)))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := mainCommand("eval", gold, "-")
	cmd.Env = append(cmd.Env, "TMPDIR="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if _, err := io.WriteString(stdin, "(ROOT (S (NN 0=a) (NN 1=b)))\n"); err != nil {
		t.Fatal(err)
	}
	for { // eval is keeping standard input (the pipe stays open)
		if kept, _ := filepath.Glob(filepath.Join(dir, "discspan-stdin-*")); len(kept) == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 143 {
		t.Errorf("exit %v, want status 143 (stderr %s)", err, stderr.String())
	}
	if kept, _ := filepath.Glob(filepath.Join(dir, "discspan-stdin-*")); len(kept) != 0 {
		t.Errorf("left behind: %v", kept)
	}
}
