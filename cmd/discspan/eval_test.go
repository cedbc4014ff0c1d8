package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalStandardInput: eval reads a GOLD or PRED given as - from
// standard input (in --format), naming it so in errors, and leaves no
// temporary file behind.
func TestEvalStandardInput(t *testing.T) {
	dev, err := os.ReadFile(dataPath(t, "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	gold := strings.Join(strings.SplitAfter(string(dev), "\n")[:20], "")
	dir := t.TempDir()
	goldPath := filepath.Join(dir, "gold.discbracket")
	if err := os.WriteFile(goldPath, []byte(gold), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) (string, string, int) {
		cmd := mainCommand(append([]string{"eval"}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(cmd.Env, "TMPDIR="+dir)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
	}
	if out, stderr, status := run(gold, "--json", goldPath, "-"); status != 0 || !strings.Contains(out, `"f1":100`) {
		t.Errorf("PRED from standard input: status %d, %s%s", status, out, stderr)
	}
	if out, stderr, status := run(gold, "--json", "-", goldPath); status != 0 || !strings.Contains(out, `"f1":100`) {
		t.Errorf("GOLD from standard input: status %d, %s%s", status, out, stderr)
	}
	broken := strings.Join(strings.SplitAfter(gold, "\n")[:19], "") + "(ROOT (bad\n"
	if _, stderr, status := run(broken, goldPath, "-"); status != 2 || !strings.Contains(stderr, "standard input:20:") {
		t.Errorf("a broken tree from standard input: status %d, %q; want it named as standard input:20", status, stderr)
	}
	if _, stderr, status := run("%% word\tlemma\n#BOS 1\n", goldPath, "-"); status != 2 || !strings.Contains(stderr, "add --format export") {
		t.Errorf("export on standard input read as discbracket: status %d, %q; want the flag to add", status, stderr)
	}
	if _, stderr, status := run(gold, "-", "-"); status != 2 || !strings.Contains(stderr, "cannot both be standard input") {
		t.Errorf("both from standard input: status %d, %q", status, stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "discspan-stdin-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}

	// A file named without a treebank extension (parse ... > p) is read
	// in --format's format too, once its first line agrees.
	plain := filepath.Join(dir, "p")
	if err := os.WriteFile(plain, []byte(gold), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, status := run("", "--json", goldPath, plain); status != 0 || !strings.Contains(out, `"f1":100`) {
		t.Errorf("PRED without an extension: status %d, %s%s", status, out, stderr)
	}
	if _, stderr, status := run("", "--format", "export", goldPath, plain); status != 2 || !strings.Contains(stderr, plain+" looks like discbracket") {
		t.Errorf("discbracket without an extension read as export: status %d, %q; want the flag to give", status, stderr)
	}
}
