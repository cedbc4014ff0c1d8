// Package atomicfile replaces files so that readers see either the old or
// the new content, never a half-written file: weights, checkpoints, logs,
// job records and treebanks (through internal/bankfile) all go through it.
// It imports only the standard library.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrLocked is the error of Lock when another process holds the lock.
var ErrLocked = errors.New("another process is writing it")

// Write replaces path with what write produces: a hidden temporary file in
// the same directory is written (buffered), given the mode of the file it
// replaces (a new file: 0666 less the umask, as os.Create), synced, closed
// and renamed over path, and the directory is synced (best effort). When
// anything fails the temporary file is removed, path is left as it was, and
// the error names path. A path that is a folder is refused before anything
// is written. A symbolic link is kept: the file it leads to is replaced.
// A path that is no regular file (a named pipe, a device), or that names a
// descriptor or lies in /proc, or leads there (/dev/stdout, /dev/fd/N:
// standard output may be a file the shell has open, or appends to), cannot
// be replaced and is written in place, like os.Create; a named pipe waits
// for a reader.
func Write(path string, write func(w io.Writer) error) (err error) {
	target, fi, special, std := resolve(path)
	switch {
	case special:
		return writeInPlace(path, std, write)
	case fi != nil && fi.IsDir():
		return fmt.Errorf("writing %s: it is a folder", path)
	}
	path = target
	tmp, err := createTemp(path)
	if err != nil {
		return err
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
	mode := 0o666 &^ umask()
	if fi != nil {
		mode = fi.Mode().Perm()
	}
	if err := tmp.Chmod(mode); err != nil {
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
	SyncDir(filepath.Dir(path))
	removeStale(path, time.Now().Add(-StaleAfter))
	return nil
}

// createTemp creates the hidden temporary file that is renamed over path,
// in path's folder; an error names path and the folder.
func createTemp(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		// Name the target, not the temporary file the caller never chose.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("cannot create a file in %s: %w", dir, pe.Err)
		}
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return tmp, nil
}

// Check reports, before any work, what would make Write fail at once: a
// path that is a folder, or whose folder is missing or refuses a new
// file (a temporary file is created and removed to find out). A path
// written in place (a pipe, a device, /dev/stdout) is not opened.
func Check(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("writing %s: it is a folder", path)
	}
	target, fi, special, _ := resolve(path)
	switch {
	case special:
		if dir := filepath.Dir(path); !exists(dir) {
			return fmt.Errorf("writing %s: folder %s does not exist", path, dir)
		}
		return nil
	case fi != nil && fi.IsDir():
		return fmt.Errorf("writing %s: it is a folder", path)
	}
	tmp, err := createTemp(target)
	if err != nil {
		return err
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// exists reports whether path names something (following links).
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// resolve returns the file that writing path replaces: path itself or
// where its chain of symbolic links leads, with its FileInfo (nil when it
// does not exist yet). special is true when path must be written in place
// instead: the file is not a regular file or a folder, or the path or a
// link on the way is a system path (see systemPath); std is then os.Stdout or
// os.Stderr for a path that names one (/dev/stdout, /dev/fd/2, ...), to be
// written through, sharing the shell's offset (after "echo header", or
// at the end of a file opened with ">>").
func resolve(path string) (target string, fi os.FileInfo, special bool, std *os.File) {
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

// writeInPlace writes to path, which cannot be replaced, through a
// buffer: to std when it is not nil.
func writeInPlace(path string, std *os.File, write func(w io.Writer) error) error {
	f := std
	if f == nil {
		var err error
		if f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC|os.O_CREATE, 0o644); err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is named once
			}
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if std == nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
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

// SyncDir makes the files created and renamed in dir durable, as far as
// the file system allows (not every file system can sync a directory: it
// does nothing there).
func SyncDir(dir string) {
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
// A terminal, a pipe or another device is no file that could be
// overwritten: reading /dev/stdin and writing /dev/stdout on one terminal
// is not reported.
func SameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	if errA == nil && !fa.Mode().IsRegular() && !fa.IsDir() {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// umask returns the process's file mode creation mask, from
// /proc/self/status where Linux gives it (reading it so, unlike setting
// it, changes nothing), else the usual 022.
func umask() os.FileMode {
	data, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return os.FileMode(m) & os.ModePerm
				}
			}
		}
	}
	return 0o022
}
