package main

import "os"

// stopSignals are the notes that stop a command's work: an interrupt.
func stopSignals() []os.Signal { return []os.Signal{os.Interrupt} }

// signalNumber returns sig's number: Plan 9's notes are strings.
func signalNumber(sig os.Signal) (int, bool) { return 0, false }
