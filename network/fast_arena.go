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
	peak int         // the most handed out between two resets
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

// reserve makes sure the next takes of n values in all come from one
// chunk: when the current chunk has less room, it is replaced by one of
// n values and a quarter more (kept until reset when some of it is handed
// out), so that batches a little larger each time do not each allocate
// anew. The forward pass reserves what it will take (inferenceWork), so a
// sentence longer than any before allocates its work memory once, not by
// chunks that double and then one chunk holding them all.
func (a *arena) reserve(n int) {
	if a.exact || len(a.buf)-a.off >= n {
		return
	}
	if a.off > 0 {
		a.old = append(a.old, a.buf)
	}
	a.buf, a.off = make([]float32, n+n/reserveSlack), 0
}

// reserveSlack is the inverse of the share of room reserve adds.
const reserveSlack = 4

// zeros returns n zeroed float32 values.
func (a *arena) zeros(n int) []float32 {
	s := a.take(n)
	clear(s)
	return s
}

// reset makes every slice handed out reusable. After a call that needed
// several chunks, the next one gets a single chunk large enough.
func (a *arena) reset() {
	a.peak = max(a.peak, a.used)
	if len(a.old) > 0 {
		a.old = nil
		if a.used > len(a.buf) {
			a.buf = make([]float32, a.used+a.used/8)
		}
	}
	a.off, a.used = 0, 0
}

// workspace is the work memory a Model reuses between its calls: released
// scratch arenas and LossGrad's per-worker gradient buffers. Unlike a
// sync.Pool it is not emptied by the garbage collector: a training run
// needs the same large arenas at every step, and reallocating them would
// cost more than the work they save. It keeps at most maxStash arenas and
// maxStashFloats values in all, and at most maxStash gradient buffers. It
// goes with its Model; Model.Release empties it sooner.
type workspace struct {
	mu     sync.Mutex
	arenas []*arena
	floats int
	grads  []*Params // all zero
	// poison, set by a test only, makes the arenas handed out fill what
	// they hand out with NaNs, so that a read of a value never written
	// shows in the results.
	poison bool
	// peaks, when not nil (set by a test), gets the most float32 values
	// each arena given back handed out between two resets, in the order
	// they are given back: what trainingWork bounds.
	peaks *[]int
}

const (
	maxStash       = 8
	maxStashFloats = 1 << 28 // 1 GiB
)

// work returns m's workspace, made on first use.
func (m *Model) work() *workspace {
	m.workOnce.Do(func() { m.ws = new(workspace) })
	return m.ws
}

func (w *workspace) getArena() *arena {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := len(w.arenas); n > 0 {
		a := w.arenas[n-1]
		w.arenas = w.arenas[:n-1]
		w.floats -= len(a.buf)
		a.poison = w.poison
		return a
	}
	return &arena{poison: w.poison}
}

func (w *workspace) putArena(a *arena) {
	a.reset()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.peaks != nil {
		*w.peaks = append(*w.peaks, a.peak)
	}
	a.peak = 0
	if len(w.arenas) < maxStash && w.floats+len(a.buf) <= maxStashFloats {
		w.arenas = append(w.arenas, a)
		w.floats += len(a.buf)
	}
}

// getGradBuf returns a zero gradient buffer laid out like like.
func (w *workspace) getGradBuf(like *Params) *Params {
	w.mu.Lock()
	for i := len(w.grads) - 1; i >= 0; i-- {
		q := w.grads[i]
		if q.cfg == like.cfg && like.sameLayout(q) == nil {
			w.grads = append(w.grads[:i], w.grads[i+1:]...)
			w.mu.Unlock()
			return q // zeroed by the reduction that released it
		}
	}
	w.mu.Unlock()
	return like.ZeroClone()
}

// putGradBuf keeps q, which must be all zero, for a later getGradBuf.
func (w *workspace) putGradBuf(q *Params) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.grads) >= maxStash {
		w.grads = w.grads[1:]
	}
	w.grads = append(w.grads, q)
}

// Release frees the work memory that m keeps between calls of Forward,
// ForwardBatch, Loss and LossGrad (scratch arenas and gradient buffers; up
// to a few hundred MB after training). Later calls allocate it again; it
// also goes when m does. The weights prepared for inference belong to m's
// Params (see Params.Changed) and go with them.
func (m *Model) Release() {
	w := m.work()
	w.mu.Lock()
	w.arenas, w.floats, w.grads = nil, 0, nil
	w.mu.Unlock()
}
