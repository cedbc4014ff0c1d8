package network

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// paramChunk is a fixed range of one tensor: the unit of the parallel loops
// over parameters. The partition depends only on the layout, so results
// that combine per-chunk values in chunk order do not depend on the number
// of goroutines.
type paramChunk struct{ t, lo, hi int }

const paramChunkSize = 1 << 15

func (p *Params) chunks() []paramChunk {
	var out []paramChunk
	for i, t := range p.tensors {
		for lo := 0; lo < len(t.Data); lo += paramChunkSize {
			out = append(out, paramChunk{i, lo, min(len(t.Data), lo+paramChunkSize)})
		}
	}
	return out
}

// parallelFor calls f(i) for every i in [0, n) on up to w goroutines (w <=
// 0: GOMAXPROCS), handing out indices in order.
func parallelFor(n, w int, f func(i int)) {
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	w = max(1, min(w, n))
	if w == 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}
