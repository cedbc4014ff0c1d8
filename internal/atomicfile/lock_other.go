//go:build !unix || solaris || aix

package atomicfile

// Lock does nothing where flock is missing (js/wasm, Windows, Solaris,
// AIX): runs there are not kept apart.
func Lock(path string) (unlock func(), err error) { return func() {}, nil }
