package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/discspan/discspan/chart/treebank"
)

// isStream reports whether path names something that can be read only
// once: a named pipe, a device (/dev/stdin), a process substitution.
func isStream(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// spoolStreams is for a command that reads its inputs twice: every input
// that can be read only once ("-" for standard input; a named pipe, a
// process substitution such as /dev/fd/63) is copied into a temporary
// file, named with its own extension where that names a format, else with
// format f's (eval's --format). It returns the paths to read, the names to
// give them in messages (the inputs as given, "standard input" for "-"),
// and cleanup, which removes the temporary files.
//
// A signal (Ctrl-C in a pipeline) while it copies removes them and ends
// the process with 128+N. With signalled nil, spoolStreams takes the
// signals itself (printing note) and a signal later does the same; a
// caller that handles the signals itself (convert, which stops between
// trees and removes its own temporary files) passes its context, and
// after the copies the temporary files go with cleanup, which it defers.
func spoolStreams(inputs []string, f treebank.Format, signalled context.Context, stderr io.Writer, note string) (paths, names []string, cleanup func(), err error) {
	paths, names = append([]string(nil), inputs...), append([]string(nil), inputs...)
	var removes []func()
	cleanup = func() {
		for _, r := range removes {
			r()
		}
	}
	own := signalled == nil
	for k, name := range inputs {
		if name != "-" && !isStream(name) {
			continue
		}
		if signalled == nil {
			var release func()
			signalled, release = onInterrupt(stderr, note)
			removes = append(removes, release)
		}
		r, ext := io.Reader(os.Stdin), formatExtension[f]
		if name == "-" {
			names[k] = "standard input"
		} else {
			file, err := os.Open(name)
			if err != nil {
				cleanup()
				return nil, nil, nil, err
			}
			defer file.Close()
			r = file
			if _, err := treebank.FormatOf(name); err == nil {
				ext = filepath.Ext(name)
			}
		}
		path, remove, err := spool(r, names[k], ext, signalled, own)
		if err != nil {
			cleanup()
			return nil, nil, nil, err
		}
		removes = append([]func(){remove}, removes...) // before release
		paths[k] = path
	}
	return paths, names, cleanup, nil
}

// renamePaths returns err with every temporary path replaced by the name
// of the input it holds.
func renamePaths(err error, paths, names []string) error {
	msg := err.Error()
	for k := range paths {
		if paths[k] != names[k] {
			msg = strings.ReplaceAll(msg, paths[k], names[k])
		}
	}
	if msg == err.Error() {
		return err
	}
	return &renamedError{msg, err}
}

// renamedError is an error with another message, its chain kept
// (errors.Is, errors.As: a signal's exit status).
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

// spool copies r (what names it in errors) into a temporary file with
// extension ext and returns its path and a function that removes it. A
// signal (signalled done) while it copies removes the file and ends the
// process with 128+N; with exitLater, so does a signal after the copy.
func spool(r io.Reader, what, ext string, signalled context.Context, exitLater bool) (path string, remove func(), err error) {
	tmp, err := os.CreateTemp("", "discspan-stdin-*"+ext)
	if err != nil {
		return "", nil, fmt.Errorf("keeping %s: %w", what, err)
	}
	stop := context.AfterFunc(signalled, func() {
		sig, ok := context.Cause(signalled).(*signalError)
		if !ok {
			return // released: no signal came
		}
		_ = os.Remove(tmp.Name())
		os.Exit(sig.exitStatus())
	})
	remove = func() {
		stop()
		_ = os.Remove(tmp.Name())
	}
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		remove()
		return "", nil, fmt.Errorf("reading %s: %w", what, err)
	}
	if err := tmp.Close(); err != nil {
		remove()
		return "", nil, fmt.Errorf("keeping %s: %w", what, err)
	}
	if !exitLater && !stop() {
		// The signal came as the copy ended: its exit runs (or ran).
		select {}
	}
	return tmp.Name(), remove, nil
}
