package main

import (
	"strings"
	"testing"
)

func TestBenchServeCommand(t *testing.T) {
	out, stderr, status := runCmd("bench", "serve", "--clients", "3", "--max-requests", "6", "--duration", "1m")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for _, want := range []string{"| requests | count | requests/s | MB/s | p50 ms | p99 ms |", "| full (", "| range (", "errors 0, corrupted responses 0", "peak RSS"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, args := range [][]string{
		{"bench", "serve", "--clients", "0"},
		{"bench", "serve", "--range-share", "2"},
		{"bench", "serve", "extra"},
	} {
		if _, stderr, status := runCmd(args...); status != 2 || !strings.Contains(stderr, "usage") {
			t.Errorf("%v: status %d, stderr %q", args, status, stderr)
		}
	}
}
