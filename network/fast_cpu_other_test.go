//go:build !unix

package network

import "time"

func processCPU() time.Duration { return 0 }
