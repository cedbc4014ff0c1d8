package server

// diskFull reports whether err says the disk is full: Plan 9's errors are
// strings of each file server's own, so none is known for one.
func diskFull(err error) bool { return false }
