//go:build !unix

package atomicfile

import "errors"

// ErrLocked is the error of Lock when another process holds the lock.
var ErrLocked = errors.New("another process is writing it")

// Lock does nothing where flock is missing (js/wasm, Windows): runs there
// are not kept apart.
func Lock(path string) (unlock func(), err error) { return func() {}, nil }
