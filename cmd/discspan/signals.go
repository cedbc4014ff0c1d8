//go:build !plan9

package main

import (
	"os"
	"syscall"
)

// stopSignals are the signals that stop a command's work: Ctrl-C, SIGTERM
// and SIGHUP (a closed terminal).
func stopSignals() []os.Signal { return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} }

// signalNumber returns sig's number, where it has one.
func signalNumber(sig os.Signal) (int, bool) {
	s, ok := sig.(syscall.Signal)
	return int(s), ok
}
