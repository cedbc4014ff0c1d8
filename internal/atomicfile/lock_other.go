//go:build !unix

package atomicfile

// Lock does nothing where flock is missing (js/wasm, Windows): runs there
// are not kept apart.
func Lock(path string) (unlock func(), err error) { return func() {}, nil }
