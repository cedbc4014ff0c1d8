package treebank

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/tree"
)

// ReadFile reads a treebank file; the format comes from the extension (see
// FormatOf). Errors are as for ReadAll; parse errors name the file.
func ReadFile(path string) ([]*tree.Tree, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("treebank: %w", err)
	}
	defer fh.Close()
	return ReadAll(bufio.NewReaderSize(fh, 1<<16), path, f)
}

// WriteOptions adjust how WriteFileOptions writes.
type WriteOptions struct {
	// PTBParens writes discbracket parentheses as -LRB- and -RRB- (see
	// Writer.PTBParens).
	PTBParens bool
}

// WriteFile writes trees to a file whose format comes from the extension
// (see FormatOf; export files get version 4). It writes a temporary file in
// the same directory and renames it, so that the file is replaced whole or
// not at all. A symbolic link is kept (the file it leads to is replaced);
// a path that is no regular file (a named pipe, a device), or that names a
// descriptor or lies in /proc, or leads there (/dev/stdout), is written in
// place.
func WriteFile(path string, trees []*tree.Tree) error {
	return WriteFileOptions(path, trees, WriteOptions{})
}

// WriteFileOptions is WriteFile with options.
func WriteFileOptions(path string, trees []*tree.Tree, o WriteOptions) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	if f == PTB {
		return fmt.Errorf("treebank: %s: cannot write format %v", path, f)
	}
	target, fi, special, std := resolveOutput(path)
	switch {
	case special:
		return writeInPlace(path, std, trees, f, o)
	case fi != nil && fi.IsDir():
		return fmt.Errorf("treebank: writing %s: it is a folder", path)
	}
	path = target
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		// Name the target, not the temporary file.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("treebank: writing %s: cannot create a file in %s: %w", path, filepath.Dir(path), err)
	}
	if err := writeTemp(tmp, trees, f, o); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("treebank: %w", err)
	}
	removeStaleTemps(path, time.Now().Add(-staleAfter))
	return nil
}

// staleAfter is the age after which a temporary file of WriteFile is taken
// for the leftover of a killed writer (as in internal/atomicfile).
const staleAfter = time.Hour

// removeStaleTemps removes the temporaries of path (".NAME.tmp*") last
// modified before cutoff, best effort.
func removeStaleTemps(path string, cutoff time.Time) {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+".tmp"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// resolveOutput is internal/atomicfile's resolve (chart depends on
// nothing else in the project): the file that writing path replaces, its
// FileInfo (nil when missing), whether path must be written in place, and
// the standard output or error it names, if any.
func resolveOutput(path string) (target string, fi os.FileInfo, special bool, std *os.File) {
	p := path
	if !filepath.IsAbs(p) {
		// From the current folder as the system has it, not as $PWD
		// spells it through links.
		if wd, err := os.Getwd(); err == nil {
			if real, err := filepath.EvalSymlinks(wd); err == nil {
				wd = real
			}
			p = wd + string(filepath.Separator) + p
		}
	}
	for hops := 0; hops < 40; hops++ {
		if p == filepath.Clean(p) { // no "." or ".." to take by the text
			if special, std := systemPath(p); special {
				return p, nil, true, std
			}
		}
		// The folder resolved as the system does: a ".." after a link
		// goes up from where the link leads.
		dir, base := splitLast(p)
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || base == "" || base == "." || base == ".." {
			return path, nil, true, nil // written in place: the system says what is wrong
		}
		p = filepath.Join(real, base)
		if special, std := systemPath(p); special {
			return p, nil, true, std
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return p, nil, false, nil // created by the write
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			return p, fi, !fi.Mode().IsRegular() && !fi.IsDir(), nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(link) {
			link = real + string(filepath.Separator) + link // not cleaned: the next hop resolves it
		}
		p = link
	}
	return path, nil, true, nil // a loop: the write in place reports it
}

// splitLast splits p at its last separator without cleaning it (Dir
// would resolve a ".." by the text, not by the links).
func splitLast(p string) (dir, base string) {
	i := strings.LastIndexByte(p, filepath.Separator)
	switch {
	case i < 0:
		return ".", p
	case i == 0:
		return string(filepath.Separator), p[1:]
	}
	return p[:i], p[i+1:]
}

// systemPath reports whether p names a file of the system that must be
// written in place (/dev/stdout, /dev/fd/N, /proc/...), and the standard
// output or error it names, if any. Other files in /dev are judged by
// their kind (a device is written in place; a file in /dev/shm is not).
func systemPath(p string) (special bool, std *os.File) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false, nil
	}
	self := "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"
	switch abs {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", self + "1":
		return true, os.Stdout
	case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2", self + "2":
		return true, os.Stderr
	}
	return abs == "/dev/stdin" || strings.HasPrefix(abs, "/dev/fd/") || strings.HasPrefix(abs, "/proc/"), nil
}

// writeInPlace writes trees to path, which cannot be replaced: to std
// when it is not nil.
func writeInPlace(path string, std *os.File, trees []*tree.Tree, f Format, o WriteOptions) error {
	fh := std
	if fh == nil {
		var err error
		if fh, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC|os.O_CREATE, 0o644); err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is named once
			}
			return fmt.Errorf("treebank: writing %s: %w", path, err)
		}
	}
	w := NewWriter(fh, f)
	if o.PTBParens {
		w.PTBParens()
	}
	err := writeAll(w, trees)
	if std == nil {
		if cerr := fh.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("treebank: %w", cerr)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// writeTemp writes trees to the temporary file and closes it.
func writeTemp(tmp *os.File, trees []*tree.Tree, f Format, o WriteOptions) error {
	w := NewWriter(tmp, f)
	if o.PTBParens {
		w.PTBParens()
	}
	if err := writeAll(w, trees); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("treebank: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("treebank: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("treebank: %w", err)
	}
	return nil
}
