package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An output weights file never replaces a treebank or another file that
// is not a weights file: ensemble and train refuse it before any work (an
// audit's ensemble --out victim.export replaced the treebank); an earlier
// weights file may be replaced.
func TestWeightsOutRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	shipped := filepath.Join("..", "..", "weights", "default.safetensors")
	treebankFile := filepath.Join(dir, "victim.export")
	text := filepath.Join(dir, "notes")
	earlier := filepath.Join(dir, "earlier.safetensors")
	content := []byte("#BOS 1\n#EOS 1\n")
	for _, f := range []string{treebankFile, text} {
		if err := os.WriteFile(f, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(earlier, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dev := dataPath(t, "dev.discbracket")
	tests := []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"ensemble over a treebank", []string{"ensemble", "--out", treebankFile, shipped}, 2, "a treebank's name"},
		{"ensemble over a text", []string{"ensemble", "--out", text, shipped}, 2, "exists and is not a weights file"},
		{"ensemble over a new treebank name", []string{"ensemble", "--out", filepath.Join(dir, "new.dbr"), shipped}, 2, "a treebank's name"},
		{"train over a treebank", []string{"train", "--train", dev, "--dev", dev, "--out", treebankFile}, 2, "a treebank's name"},
		{"train over a text", []string{"train", "--train", dev, "--dev", dev, "--out", text}, 2, "exists and is not a weights file"},
		{"ensemble over an earlier model", []string{"ensemble", "--out", earlier, shipped}, 0, "wrote " + earlier},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantRun(t, tc.args, tc.status, tc.want) })
	}
	for _, f := range []string{treebankFile, text} {
		if got, err := os.ReadFile(f); err != nil || !bytes.Equal(got, content) {
			t.Errorf("%s changed: %q, %v", f, got, err)
		}
	}
}

// After "--" every argument is positional, even one that begins with a
// dash (it covered only the first positional argument).
func TestDoubleDash(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(dataPath(t, "dev.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")[:5]
	for _, name := range []string{"-g.dbr", "-p.dbr", "g.dbr"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, args := range [][]string{
		{"eval", "--", "-g.dbr", "-p.dbr"},
		{"eval", "g.dbr", "--", "-p.dbr"},
		{"eval", "--labels", "--", "-g.dbr", "-p.dbr"},
	} {
		out, stderr, status := runCmd(args...)
		if status != 0 || !strings.Contains(out, "100.00") {
			t.Errorf("%q: status %d, stdout %q, stderr %q", args, status, out, stderr)
		}
	}
}
