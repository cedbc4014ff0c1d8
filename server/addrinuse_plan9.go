package server

import "strings"

// addrInUse reports whether a listen failed for another program listening
// on the address (Plan 9 says so in words).
func addrInUse(err error) bool { return err != nil && strings.Contains(err.Error(), "in use") }
