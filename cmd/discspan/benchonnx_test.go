package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchONNXExport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "model.onnx")
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		want   string // in stdout (status 0) or stderr
	}{
		{"default model", []string{"--out", out}, 0, "model 1 of 2 of"},
		{"second member", []string{"--out", out, "--member", "2"}, 0, "model 2 of 2 of"},
		{"member 0", []string{"--out", out, "--member", "0"}, 2, "has 2 model(s), counted from 1"},
		{"no --out", nil, 2, "--out is required"},
		{"member out of range", []string{"--out", out, "--member", "3"}, 2, "has 2 model(s)"},
		{"positional argument", []string{"--out", out, "x"}, 2, "no positional arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(out)
			stdout, stderr, status := runCmd(append([]string{"bench", "onnx-export"}, tc.args...)...)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s%s", status, tc.status, stdout, stderr)
			}
			got := stdout
			if tc.status != 0 {
				got = stderr
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("output %q, want it to contain %q", got, tc.want)
			}
			fi, err := os.Stat(out)
			if tc.status == 0 && (err != nil || fi.Size() < 1<<20) {
				t.Errorf("no ONNX file of at least 1 MiB written: %v", err)
			}
			if tc.status != 0 && err == nil {
				t.Errorf("a file was written despite the error")
			}
		})
	}
}
