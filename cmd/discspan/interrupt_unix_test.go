//go:build unix

package main

import (
	"strings"
	"syscall"
	"testing"
)

// TestOnInterrupt: a SIGINT cancels the context instead of ending the
// process, and the note is printed.
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
	if !strings.Contains(stderr.String(), "stopping soon") {
		t.Errorf("stderr %q, want the note", stderr.String())
	}
	// Released without a signal: nothing printed, nothing cancelled.
	var quiet strings.Builder
	ctx, release = onInterrupt(&quiet, "never")
	release()
	if quiet.Len() != 0 {
		t.Errorf("printed %q without a signal", quiet.String())
	}
}
