package network

import (
	"slices"
	"sync"
)

// packing describes sequences stored as consecutive row ranges of a matrix
// (the characters of many tokens, the tokens of many sentences), ordered for
// a batched recurrence: at step s the sequences longer than s are the first
// act[s] of order. An LSTM direction keeps its record STEP-MAJOR: step s
// owns rows off[s] .. off[s]+act[s]-1, rank r of the step being sequence
// order[r], so that a step's rows (and the previous step's first act[s]
// rows, its recurrent inputs) are contiguous.
type packing struct {
	starts, lens []int
	order        []int // sequence indices by decreasing length, ties by index
	act          []int // act[s]: number of sequences longer than s
	off          []int // off[s]: first step-major row of step s (len maxLen+1)
	rows, maxLen int
}

func newPacking(lens []int) *packing {
	pk := &packing{lens: lens, starts: make([]int, len(lens)), order: make([]int, len(lens))}
	for i, l := range lens {
		pk.starts[i] = pk.rows
		pk.rows += l
		pk.maxLen = max(pk.maxLen, l)
		pk.order[i] = i
	}
	slices.SortStableFunc(pk.order, func(a, b int) int { return lens[b] - lens[a] })
	pk.act = make([]int, pk.maxLen)
	for _, l := range lens {
		for s := 0; s < l; s++ {
			pk.act[s]++
		}
	}
	pk.off = make([]int, pk.maxLen+1)
	for s, a := range pk.act {
		pk.off[s+1] = pk.off[s] + a
	}
	return pk
}

// row returns the (sequence-major) row read at step s by the r-th sequence
// of order.
func (pk *packing) row(r, s int, rev bool) int {
	q := pk.order[r]
	if rev {
		return pk.starts[q] + pk.lens[q] - 1 - s
	}
	return pk.starts[q] + s
}

// prepLSTM is one LSTM direction with its weights transposed for gemmNN.
type prepLSTM struct {
	w          lstm[float32]
	wihT, whhT []float32 // (in, 4H), (H, 4H); whhT nil where lazy makes it
	whhP       []float32 // whhT packed by wasmsimd.Pack32 for the wasm kernels (inference, 4H a multiple of 32), or nil

	// lazy, where whhP is set, makes whhT on first use (recurrent): the
	// kernels read whhP for steps of fewer than 4 rows, so a single
	// sentence never needs the sentence LSTMs' whhT.
	lazy *lazyTranspose
}

// lazyTranspose is a transposed matrix made once, on first use, by any of
// the goroutines sharing a prepared.
type lazyTranspose struct {
	once sync.Once
	t    []float32
}

// recurrent returns W_hhᵀ (H, 4H).
func (p *prepLSTM) recurrent() []float32 {
	if p.lazy == nil {
		return p.whhT
	}
	p.lazy.once.Do(func() {
		H, G := p.w.hid, 4*p.w.hid
		t := make([]float32, H*G)
		transposeInto(t, G, p.w.whh, H, G, H)
		p.lazy.t = t
	})
	return p.lazy.t
}

// packRecurrent writes W_hhᵀ of whh (4H, H) packed by wasmsimd.Pack32 to
// dst, as Pack32 of the transpose would, without the transpose itself:
// tile t of 32 gate columns, row p (a hidden unit) holds whh[(32t+c)*H+p].
func packRecurrent(dst, whh []float32, H, G int) {
	for t := 0; t < G/32; t++ {
		for p := 0; p < H; p++ {
			row := dst[(t*H+p)*32 : (t*H+p+1)*32]
			for c := range row {
				row[c] = whh[(32*t+c)*H+p]
			}
		}
	}
}

// lstmRun records one direction over a packing, step-major.
type lstmRun struct {
	pk       *packing
	rev      bool
	x        []float32 // (rows, in) inputs
	gates    []float32 // (rows, 4H) activated gates
	c, h, tc []float32 // (rows, H); tc nil without keep
}

// forward runs the direction over every sequence of pk at once: GEMMs for
// the input projections of chunks of steps, then per step one GEMM, added
// to them, for the recurrence. x holds the inputs by sequence-major row (row
// stride in). It writes h of every row to out (sequence-major, row stride
// ldo; nil: not written) and the last state of sequence q to fin[q*ldf:]
// (nil: not written). keep records what backward needs. The products go
// through k (nil: the Go code).
func (p *prepLSTM) forward(k *wasmKernels, ar *arena, pk *packing, x []float32, rev, keep bool, out []float32, ldo int, fin []float32, ldf int) *lstmRun {
	H, G, in := p.w.hid, 4*p.w.hid, p.w.in
	R := pk.rows
	run := &lstmRun{pk: pk, rev: rev, x: ar.take(R * in), gates: ar.take(R * G), c: ar.take(R * H), h: ar.take(R * H)}
	if R == 0 {
		return run
	}
	for s := 0; s < pk.maxLen; s++ {
		for r := 0; r < pk.act[s]; r++ {
			src := pk.row(r, s, rev) * in
			copy(run.x[(pk.off[s]+r)*in:(pk.off[s]+r+1)*in], x[src:src+in])
		}
	}
	if keep {
		run.tc = ar.take(R * H)
	}
	zero := ar.zeros(pk.act[0] * H)
	tcl := ar.take(pk.act[0] * H)
	// The input projections (by chunks of steps of at least projRows rows,
	// just before they are needed: large GEMMs, recent data), then per step
	// the recurrent part added to them (the same sums in the same order as
	// one GEMM per step over [x h]).
	const projRows = 96
	projected := 0 // steps whose rows are projected
	for s := 0; s < pk.maxLen; s++ {
		a, o := pk.act[s], pk.off[s]
		if s == projected {
			e := s + 1
			for e < pk.maxLen && pk.off[e]-o < projRows {
				e++
			}
			k.gemmNN(false, pk.off[e]-o, G, in, run.x[o*in:], in, p.wihT, G, run.gates[o*G:], G)
			projected = e
		}
		gt := run.gates[o*G:]
		cp := zero
		if s > 0 {
			hp := run.h[pk.off[s-1]*H:]
			if p.whhP == nil || !k.gemmPacked(true, a, G, H, hp, H, p.whhP, gt, G) {
				k.gemmNN(true, a, G, H, hp, H, p.recurrent(), G, gt, G)
			}
			cp = run.c[pk.off[s-1]*H:]
		}
		tc := tcl
		if keep {
			tc = run.tc[o*H:]
		}
		if !k.lstmCells(gt, p.w.b, cp, run.c[o*H:], tc, run.h[o*H:], H, a) {
			lstmCellsFwd(gt, p.w.b, cp, run.c[o*H:], tc, run.h[o*H:], H, a)
		}
		for r := 0; r < a; r++ {
			h := run.h[(o+r)*H : (o+r+1)*H]
			if out != nil {
				pr := pk.row(r, s, rev)
				copy(out[pr*ldo:pr*ldo+H], h)
			}
			if fin != nil {
				if q := pk.order[r]; s == pk.lens[q]-1 {
					copy(fin[q*ldf:q*ldf+H], h)
				}
			}
		}
	}
	return run
}

// lstmCellsGo is the portable lstmCellsFwd.
func lstmCellsGo(a, b, cp, c, tc, h []float32, H, rows int) {
	G := 4 * H
	for r := 0; r < rows; r++ {
		g := a[r*G : (r+1)*G]
		addTo(g, b)
		lstmCell(g, cp[r*H:(r+1)*H], c[r*H:(r+1)*H], tc[r*H:(r+1)*H], h[r*H:(r+1)*H])
	}
}

// lstmCellsBwdGo is the portable lstmCellsBwd.
func lstmCellsBwdGo(gt, cp, tc, dh, dc, da []float32, H, rows int) {
	G := 4 * H
	for r := 0; r < rows; r++ {
		lstmCellBackward(gt[r*G:(r+1)*G], cp[r*H:(r+1)*H], tc[r*H:(r+1)*H], dh[r*H:(r+1)*H], dc[r*H:(r+1)*H], da[r*G:(r+1)*G])
	}
}

// addTo adds y to x.
func addTo(x, y []float32) {
	y = y[:len(x)]
	for i, v := range y {
		x[i] += v
	}
}

// lstmCell activates the gate pre-activations a (4H, in place) and computes
// c = f*cp + i*g, tc = tanh(c), h = o*tc.
func lstmCell(a, cp, c, tc, h []float32) {
	H := len(cp)
	ai, af, ag, ao := a[:H], a[H:2*H], a[2*H:3*H], a[3*H:4*H]
	c, tc, h = c[:H], tc[:H], h[:H]
	for j := range cp {
		i, f, g, o := sigmoidf(ai[j]), sigmoidf(af[j]), tanhf(ag[j]), sigmoidf(ao[j])
		ai[j], af[j], ag[j], ao[j] = i, f, g, o
		cj := f*cp[j] + i*g
		c[j] = cj
		t := tanhf(cj)
		tc[j] = t
		h[j] = o * t
	}
}

// backward backpropagates through time over every sequence at once, given
// dout (the gradient of every row's h, sequence-major, row stride ldo; nil:
// none) and dfin (the gradient of the last states, as fin; nil: none). It
// adds the weight gradients to g and the input gradient to dx (rows, in;
// sequence-major).
func (p *prepLSTM) backward(ar *arena, run *lstmRun, dout []float32, ldo int, dfin []float32, ldf int, g lstm[float32], dx []float32) {
	pk := run.pk
	H, G, in := p.w.hid, 4*p.w.hid, p.w.in
	R := pk.rows
	if R == 0 {
		return
	}
	dA := ar.take(R * G)
	A := pk.act[0]
	dhn := ar.take(A * H)  // gradient reaching step s from step s+1, by rank
	dcn := ar.zeros(A * H) // the same for the cell state
	zero := ar.zeros(A * H)
	dh := ar.take(A * H)
	for s := pk.maxLen - 1; s >= 0; s-- {
		a, an, o := pk.act[s], 0, pk.off[s]
		if s+1 < pk.maxLen {
			an = pk.act[s+1]
		}
		// dh of the step's rows: from the outputs, the next step and the
		// last states; dc from the next step only.
		copy(dh[:an*H], dhn[:an*H])
		clear(dh[an*H : a*H])
		clear(dcn[an*H : a*H])
		for r := 0; r < a; r++ {
			if dout != nil {
				pr := pk.row(r, s, run.rev)
				addTo(dh[r*H:(r+1)*H], dout[pr*ldo:pr*ldo+H])
			}
			if q := pk.order[r]; dfin != nil && s == pk.lens[q]-1 {
				addTo(dh[r*H:(r+1)*H], dfin[q*ldf:q*ldf+H])
			}
		}
		cp := zero
		if s > 0 {
			cp = run.c[pk.off[s-1]*H:]
		}
		lstmCellsBwd(run.gates[o*G:], cp, run.tc[o*H:], dh, dcn, dA[o*G:], H, a)
		if s > 0 {
			gemmNN(false, a, H, G, dA[o*G:], G, p.w.whh, H, dhn, H) // dh_prev = da W_hh
		}
	}
	// dW_hh += dAᵀ h_prev over the steps after the first (h_prev = 0 at
	// the first), h_prev aligned with dA by one copy per step.
	if a0 := pk.act[0]; R > a0 {
		hp := ar.take((R - a0) * H)
		for s := 1; s < pk.maxLen; s++ {
			copy(hp[(pk.off[s]-a0)*H:(pk.off[s+1]-a0)*H], run.h[pk.off[s-1]*H:(pk.off[s-1]+pk.act[s])*H])
		}
		gemmTN(true, G, H, R-a0, dA[a0*G:], G, hp, H, g.whh, H)
	}
	gemmTN(true, G, in, R, dA, G, run.x, in, g.wih, in) // dW_ih += dAᵀ x
	colSums(g.b, dA, R, G)
	dxs := ar.take(R * in)
	gemmNN(false, R, in, G, dA, G, p.w.wih, in, dxs, in) // dx = dA W_ih, step-major
	for s := 0; s < pk.maxLen; s++ {
		for r := 0; r < pk.act[s]; r++ {
			pr := pk.row(r, s, run.rev)
			addTo(dx[pr*in:(pr+1)*in], dxs[(pk.off[s]+r)*in:(pk.off[s]+r+1)*in])
		}
	}
}

// lstmCellBackward computes the gradient da (4H) of the gate
// pre-activations from gt (activated gates), cp (previous cell), tc
// (tanh(c)), dh (gradient of h) and dc (in: gradient of c from the next
// step; out: gradient of the previous cell).
func lstmCellBackward(gt, cp, tc, dh, dc, da []float32) {
	H := len(cp)
	gi, gf, gg, gout := gt[:H], gt[H:2*H], gt[2*H:3*H], gt[3*H:4*H]
	di, df, dg, do := da[:H], da[H:2*H], da[2*H:3*H], da[3*H:4*H]
	tc, dh, dc = tc[:H], dh[:H], dc[:H]
	for j := range cp {
		i, f, g, o := gi[j], gf[j], gg[j], gout[j]
		t := tc[j]
		dhj := dh[j]
		dcj := dhj*o*(1-t*t) + dc[j]
		dc[j] = dcj * f
		di[j] = dcj * g * i * (1 - i)
		df[j] = dcj * cp[j] * f * (1 - f)
		dg[j] = dcj * i * (1 - g*g)
		do[j] = dhj * t * o * (1 - o)
	}
}
