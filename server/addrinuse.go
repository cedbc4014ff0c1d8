//go:build !plan9

package server

import (
	"errors"
	"syscall"
)

// addrInUse reports whether a listen failed for another program listening
// on the address.
func addrInUse(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }
