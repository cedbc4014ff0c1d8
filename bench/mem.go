package bench

import (
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() int64 {
	runtime.GC()
	return heapObjects()
}

// heapObjects returns the bytes of heap objects now (live or not yet
// swept).
func heapObjects() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// startHeapSampler samples the heap every 50 ms until the returned function
// is called, which returns the peak.
func startHeapSampler() func() int64 {
	done := make(chan struct{})
	peak := make(chan int64)
	go func() {
		var p int64
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			p = max(p, heapObjects())
			select {
			case <-done:
				peak <- p
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		return <-peak
	}
}

// peakRSS returns the peak resident set size of the process (VmHWM of
// /proc/self/status), 0 where that is not available.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}
