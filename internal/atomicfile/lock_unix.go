//go:build unix && !solaris && !aix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Lock takes an exclusive lock on path for this process, so that two
// processes that replace the same files (two trainings with one output)
// cannot run at once: the second is refused with ErrLocked, before it
// touches anything. The lock is a hidden file beside path (".NAME.lock"),
// removed by unlock; the kernel releases it when the process ends, so a
// killed process leaves no stale lock, only the file, which the next Lock
// takes.
func Lock(path string) (unlock func(), err error) {
	name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s: %w (lock %s)", path, ErrLocked, name)
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		// The holder before may have removed the file between our open and
		// our lock: then the lock is on a file no one else will find.
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() {
				os.Remove(name) // while locked: a waiting Lock then retries
				f.Close()
			}, nil
		}
		f.Close()
	}
}
