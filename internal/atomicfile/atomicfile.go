// Package atomicfile replaces files so that readers see either the old or
// the new content, never a half-written file: weights, checkpoints, logs and
// job records all go through it. (chart/treebank keeps its own copy, since
// chart/ depends on nothing else in the project.)
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Write replaces path with what write produces: a hidden temporary file in
// the same directory is written (buffered), given mode 0644, synced, closed
// and renamed over path, and the directory is synced (best effort). When
// anything fails the temporary file is removed, path is left as it was, and
// the error names path. A path that is a folder is refused before anything
// is written. A symbolic link to a regular file is kept: the file it
// leads to is replaced. A path that is no regular file (a named pipe, a
// device such as /dev/stdout or /dev/null, /dev/fd/N) cannot be replaced
// and is written in place, as os.Create would.
func Write(path string, write func(w io.Writer) error) (err error) {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if target, err := filepath.EvalSymlinks(path); err == nil {
			if tfi, err := os.Stat(target); err == nil && (tfi.Mode().IsRegular() || tfi.IsDir()) {
				path, fi = target, tfi
			}
		}
	}
	switch {
	case err != nil: // no such file yet (or unreadable: CreateTemp says why)
	case fi.IsDir():
		return fmt.Errorf("writing %s: it is a folder", path)
	case !fi.Mode().IsRegular():
		return writeInPlace(path, write)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		// Name the target, not the temporary file the caller never chose.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("cannot create a file in %s: %w", dir, pe.Err)
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	removeStale(path, time.Now().Add(-StaleAfter))
	return nil
}

// writeInPlace writes to path, which is not a regular file, through a
// buffer.
func writeInPlace(path string, write func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// StaleAfter is the age after which a temporary file of Write is taken for
// the leftover of a killed writer: Write removes such temporaries of the
// path it has just written (best effort), so that commands run again and
// again (weights, treebanks, annotation projects) do not pile them up.
const StaleAfter = time.Hour

// removeStale removes the temporaries of path last modified before
// cutoff, best effort.
func removeStale(path string, cutoff time.Time) {
	prefix := tempPrefix(path)
	_, _ = sweep(filepath.Dir(path), func(e os.DirEntry) bool {
		if !strings.HasPrefix(e.Name(), prefix) {
			return false
		}
		fi, err := e.Info()
		return err == nil && fi.ModTime().Before(cutoff)
	})
}

// tempPrefix is how the names of Write's temporary files for path begin.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// WriteBytes replaces path with b (see Write).
func WriteBytes(path string, b []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// syncDir makes a rename in dir durable, as far as the file system allows
// (not every file system can sync a directory).
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}

// RemoveTemps removes the temporary files that Write left for path when a
// process writing it was killed (".NAME.tmp-*" beside it) and returns how
// many it removed. Call it only while nothing else writes path.
func RemoveTemps(path string) (int, error) {
	prefix := tempPrefix(path)
	return sweep(filepath.Dir(path), func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), prefix) })
}

// SweepDir removes every temporary file of Write in dir (".*.tmp-*") and
// returns how many it removed. Call it only while nothing writes in dir.
func SweepDir(dir string) (int, error) {
	return sweep(dir, func(e os.DirEntry) bool {
		return strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-")
	})
}

// sweep removes the regular files of dir that match and returns how many
// it removed; it stops at the first error.
func sweep(dir string, match func(os.DirEntry) bool) (int, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range ents {
		if e.Type().IsRegular() && match(e) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// SameFile reports whether two paths name the same file: the same path
// once cleaned, or two existing names of one file (a link, another
// spelling). Writers use it to refuse to overwrite one of their inputs.
func SameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
