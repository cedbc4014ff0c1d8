//go:build linux || darwin || freebsd || dragonfly

package server

import "syscall"

// freeDisk returns the bytes free to this process on the disk of dir;
// ok is false when the system does not say.
func freeDisk(dir string) (free int64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
