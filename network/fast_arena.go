package network

import (
	"math"
	"sync"
)

// arena hands out float32 slices from large chunks and takes them all back
// at once (reset), so that the optimised path does not allocate in its hot
// loops. Not safe for concurrent use: one per goroutine.
type arena struct {
	buf  []float32
	off  int
	used int         // total handed out since the last reset
	old  [][]float32 // full chunks still referenced until reset

	// exact makes take allocate every slice on its own, of exactly its
	// size, for data kept for good (the prepared inference weights):
	// chunks that double would leave up to half their memory unused, and
	// such an arena is never reset.
	exact bool

	// poison makes take fill what it hands out with NaNs (set by getArena
	// from the stash's poison, for TestFastNoUninitialisedReads).
	poison bool
}

// take returns n float32 values, not zeroed.
func (a *arena) take(n int) []float32 {
	if a.exact {
		a.used += n
		return make([]float32, n) // zeroed, so never NaN-poisoned
	}
	if a.off+n > len(a.buf) {
		if len(a.buf) > 0 {
			a.old = append(a.old, a.buf)
		}
		size := max(n, 2*len(a.buf), 1<<16)
		a.buf = make([]float32, size)
		a.off = 0
	}
	s := a.buf[a.off : a.off+n : a.off+n]
	a.off += n
	a.used += n
	if a.poison {
		nan := float32(math.NaN())
		for i := range s {
			s[i] = nan
		}
	}
	return s
}

// zeros returns n zeroed float32 values.
func (a *arena) zeros(n int) []float32 {
	s := a.take(n)
	clear(s)
	return s
}

// reset makes every slice handed out reusable. After a call that needed
// several chunks, the next one gets a single chunk large enough.
func (a *arena) reset() {
	if len(a.old) > 0 {
		a.old = nil
		if a.used > len(a.buf) {
			a.buf = make([]float32, a.used+a.used/8)
		}
	}
	a.off, a.used = 0, 0
}

// arenas keeps released arenas for reuse. Unlike a sync.Pool it is not
// emptied by the garbage collector: a training run needs the same large
// arenas at every step, and reallocating them would cost more than the
// work they save. It keeps at most maxStash arenas and maxStashFloats
// values in all; Release empties it. It is the package's one store of
// memory shared by all models, with gradBufs.
var arenas struct {
	sync.Mutex
	free   []*arena
	floats int
	// poison, set by a test only, makes the arenas handed out fill what
	// they hand out with NaNs, so that a read of a value never written
	// shows in the results.
	poison bool
}

const (
	maxStash       = 8
	maxStashFloats = 1 << 28 // 1 GiB
)

func getArena() *arena {
	arenas.Lock()
	defer arenas.Unlock()
	if n := len(arenas.free); n > 0 {
		a := arenas.free[n-1]
		arenas.free = arenas.free[:n-1]
		arenas.floats -= len(a.buf)
		a.poison = arenas.poison
		return a
	}
	return &arena{poison: arenas.poison}
}

func putArena(a *arena) {
	a.reset()
	arenas.Lock()
	defer arenas.Unlock()
	if len(arenas.free) < maxStash && arenas.floats+len(a.buf) <= maxStashFloats {
		arenas.free = append(arenas.free, a)
		arenas.floats += len(a.buf)
	}
}

// Release frees the work memory that the package keeps between calls of
// Forward, ForwardBatch, Loss and LossGrad (scratch arenas and gradient
// buffers; up to a few hundred MB after training). Later calls allocate it
// again. The weights prepared for inference belong to their Params (see
// Params.Changed) and go with them.
func Release() {
	arenas.Lock()
	arenas.free, arenas.floats = nil, 0
	arenas.Unlock()
	gradBufs.Lock()
	gradBufs.free = nil
	gradBufs.Unlock()
}
