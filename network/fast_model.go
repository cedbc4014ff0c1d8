package network

import (
	"slices"
	"sync"
	"unsafe"
)

// Groups (the unit of batched work of a goroutine) hold at most
// maxGroupWords words, and fewer when their record would exceed
// groupFloats values (about 130 KB a word for training the Tiny preset).
const (
	maxGroupWords = 1024
	groupFloats   = 1 << 26 // 256 MB
)

// groupWords returns the largest group size for c: groupFloats over a
// rough count of the values a word's training record holds.
func groupWords(c Config) int {
	perWord := 0
	for mod := range 2 {
		d, o := c.moduleDims(mod)
		perWord += numKinds * (2*o*(d+1) + 8*(d+1)) // t, its gradient, MLPs
	}
	perToken := 0
	for _, l := range [][2]int{{c.featDim(), c.LSTM1Hidden}, {2 * c.LSTM1Hidden, c.LSTM2Hidden}} {
		perToken += 2 * (2*l[0] + 11*l[1]) // x, dx; gates, dA, c, h, tc, h_prev
	}
	perToken += (c.MaxChars/2 + 2) * 2 * (2*c.CharDim + 11*c.CharHidden)
	return max(1, min(maxGroupWords, groupFloats/(perWord+perToken*3/2)))
}

// split assigns the sentences idx to w workers, longest first to the worker
// with the fewest tokens so far (ties: the lowest worker), then cuts each
// worker's sentences, in index order, into groups of at most limit words.
// The result depends only on the lengths, w and limit.
func split(idx []int, length func(int) int, w, limit int) [][][]int {
	order := slices.Clone(idx)
	slices.SortStableFunc(order, func(a, b int) int { return length(b) - length(a) })
	load := make([]int, w)
	per := make([][]int, w)
	for _, i := range order {
		k := 0
		for j := 1; j < w; j++ {
			if load[j] < load[k] {
				k = j
			}
		}
		load[k] += length(i) + 2
		per[k] = append(per[k], i)
	}
	out := make([][][]int, w)
	for k, list := range per {
		slices.Sort(list)
		var cur []int
		words := 0
		for _, i := range list {
			if len(cur) > 0 && words+length(i) > limit {
				out[k] = append(out[k], cur)
				cur, words = nil, 0
			}
			cur = append(cur, i)
			words += length(i)
		}
		if len(cur) > 0 {
			out[k] = append(out[k], cur)
		}
	}
	return out
}

// runWorkers calls f(k) for k in [0, w) on w goroutines (inline when w is 1).
func runWorkers(w int, f func(k int)) {
	if w == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Go(func() { f(k) })
	}
	wg.Wait()
}

// fastForward scores the non-empty inputs ins[i], i in idx, into outs, on
// at most maxWorkers goroutines (see Model.workers).
func (m *Model) fastForward(ins []Input, idx []int, outs []Output, maxWorkers int) {
	if len(idx) == 0 {
		return
	}
	c := m.Config()
	w := min(maxWorkers, m.workers(len(idx)))
	p := preparedFor(m.Params, w)
	kern := kernelsFor(m.portable)
	groups := split(idx, func(i int) int { return ins[i].Len() }, w, groupWords(c))
	ws := m.work()
	runWorkers(w, func(k int) {
		ar := ws.getArena()
		defer ws.putArena(ar)
		for _, gi := range groups[k] {
			gin := make([]Input, len(gi))
			for j, i := range gi {
				gin[j] = ins[i]
			}
			g := newGroup(p, ar, gin, nil, 1)
			ar.reserve(int(g.inferenceWork()))
			g.k = kern
			g.forward(true)
			for j, i := range gi {
				s := &g.sents[j]
				outs[i] = Output{
					Scores: decodeScores(s.n, c.Labels, s.scores),
					Tags:   s.tags,
				}
			}
			ar.reset()
		}
	})
}

// fastLossGrad computes the loss terms of every sentence of batch (parts)
// and, when grads is not nil, adds the gradient of the batch loss to grads.
// With train, sentence i's dropout masks are drawn from sentenceRNG(seed,
// i); without, there is no dropout.
func (m *Model) fastLossGrad(batch []Example, train bool, seed uint64, grads *Params, parts [][numParts]float64) {
	var idx []int
	for i := range batch {
		if batch[i].Input.Len() > 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	w := m.workers(len(idx))
	ws := m.work()
	var p *prepared
	if grads != nil {
		par := ws.getArena()
		defer ws.putArena(par)
		p = prepare(par, bind32(m.Params), true, w)
	} else {
		p = preparedFor(m.Params, w)
	}
	groups := split(idx, func(i int) int { return batch[i].Input.Len() }, w, groupWords(m.Config()))
	bufs := make([]*Params, w)
	if grads != nil {
		bufs[0] = grads
		for k := 1; k < w; k++ {
			bufs[k] = ws.getGradBuf(grads)
		}
	}
	scale := 1 / float64(len(batch))
	runWorkers(w, func(k int) {
		ar := ws.getArena()
		defer ws.putArena(ar)
		var gn net[float32]
		if grads != nil {
			gn = bind32(bufs[k])
		}
		for _, gi := range groups[k] {
			gin := make([]Input, len(gi))
			exs := make([]*Example, len(gi))
			var rs []pcg
			if train {
				rs = make([]pcg, len(gi))
			}
			for j, i := range gi {
				gin[j], exs[j] = batch[i].Input, &batch[i]
				if train {
					rs[j] = pcg{seed, uint64(i)} // the source of sentenceRNG(seed, i)
				}
			}
			g := newGroup(p, ar, gin, rs, 1)
			g.forward(false)
			gp := make([][numParts]float64, len(gi))
			g.loss(exs, scale, grads != nil, gp)
			for j, i := range gi {
				parts[i] = gp[j]
			}
			if grads != nil {
				g.backward(&gn)
			}
			ar.reset()
		}
	})
	if grads != nil && w > 1 {
		// grads += bufs[1] + bufs[2] + ... (in worker order for every
		// value), leaving the buffers zero for their next use.
		chunks := grads.chunks()
		parallelFor(len(chunks), w, func(ci int) {
			ch := chunks[ci]
			dst := grads.tensors[ch.t].Data[ch.lo:ch.hi]
			for _, b := range bufs[1:] {
				src := b.tensors[ch.t].Data[ch.lo:ch.hi]
				addTo(dst, src)
				clear(src)
			}
		})
		for _, b := range bufs[1:] {
			ws.putGradBuf(b)
		}
	}
}

// preparedFor returns the inference weights of p: those p keeps while its
// values are unchanged (same version, see Params.Changed, and the same
// tensor slices), else freshly prepared ones, which p then keeps. Checking
// costs O(number of tensors), preparing O(number of weights). The result
// is read-only and never recycled; it lives as long as p or until p changes.
func preparedFor(p *Params, workers int) *prepared {
	v := p.version.Load()
	if e := p.infer.Load(); e != nil && e.preparedFrom(p, v) {
		return e
	}
	p.prepMu.Lock()
	defer p.prepMu.Unlock()
	if e := p.infer.Load(); e != nil && e.preparedFrom(p, v) {
		return e
	}
	data := make([]tensorID, len(p.tensors))
	for i, t := range p.tensors {
		data[i] = tensorID{unsafe.SliceData(t.Data), len(t.Data)}
	}
	ar := &arena{exact: true} // owned by the result
	prep := prepare(ar, bind32(p), false, workers)
	prep.version, prep.data = v, data
	p.infer.Store(prep)
	return prep
}

// tensorID identifies a tensor's Data slice.
type tensorID struct {
	first *float32
	n     int
}

// preparedFrom reports whether e holds the inference weights of version v
// of p, with p's tensors still the slices they were prepared from.
func (e *prepared) preparedFrom(p *Params, v uint64) bool {
	if e.version != v || len(e.data) != len(p.tensors) {
		return false
	}
	for i, t := range p.tensors {
		if e.data[i] != (tensorID{unsafe.SliceData(t.Data), len(t.Data)}) {
			return false
		}
	}
	return true
}
