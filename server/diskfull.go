//go:build !windows && !plan9

package server

import (
	"errors"
	"syscall"
)

// diskFull reports whether err says the disk is full.
func diskFull(err error) bool { return errors.Is(err, syscall.ENOSPC) }
