package server

import (
	"errors"
	"syscall"
)

// Windows' codes for a full disk (ERROR_HANDLE_DISK_FULL, ERROR_DISK_FULL).
const (
	errorHandleDiskFull syscall.Errno = 39
	errorDiskFull       syscall.Errno = 112
)

// diskFull reports whether err says the disk is full.
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, errorDiskFull) || errors.Is(err, errorHandleDiskFull)
}
