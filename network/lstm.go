package network

// lstm is one direction of a one-layer LSTM: wih (4H, in), whh (4H, H) and
// one bias b (4H), gate blocks in the order i, f, g, o (see the package doc).
type lstm[T float] struct {
	wih, whh, b []T
	in, hid     int
}

// lstmTape records one direction's forward pass over n positions; every
// matrix is indexed by position (not by step), so the two directions share
// the layout.
type lstmTape[T float] struct {
	n       int
	reverse bool
	x       []T // (n, in) input (not owned)
	gates   []T // (n, 4H) activated gates i, f, g, o
	cprev   []T // (n, H) cell state before the step (0 at the first step)
	hprev   []T // (n, H) hidden state before the step (0 at the first step)
	tc      []T // (n, H) tanh of the cell state after the step
	h       []T // (n, H) outputs
}

// position returns the position read at step s.
func (t *lstmTape[T]) position(s int) int {
	if t.reverse {
		return t.n - 1 - s
	}
	return s
}

// forward runs the LSTM over the (n, in) matrix x, from position 0 up, or
// from n-1 down when reverse. Cost O(n*4H*(in+H)).
func (l lstm[T]) forward(x []T, n int, reverse bool) *lstmTape[T] {
	H, G := l.hid, 4*l.hid
	t := &lstmTape[T]{
		n: n, reverse: reverse, x: x,
		gates: make([]T, n*G), cprev: make([]T, n*H), hprev: make([]T, n*H),
		tc: make([]T, n*H), h: make([]T, n*H),
	}
	// Input contributions of every position at once: A = x W_ihᵀ + b.
	gemm(false, true, n, G, l.in, 1, x, l.in, l.wih, l.in, 0, t.gates, G)
	addBias(t.gates, n, G, l.b)
	zero := make([]T, H)
	hPrev, cPrev := zero, zero
	cells := make([]T, n*H)
	for s := 0; s < n; s++ {
		p := t.position(s)
		a := t.gates[p*G : (p+1)*G]
		gemv(false, G, H, 1, l.whh, H, hPrev, 1, a) // a += W_hh h_prev
		copy(t.hprev[p*H:(p+1)*H], hPrev)
		copy(t.cprev[p*H:(p+1)*H], cPrev)
		h := t.h[p*H : (p+1)*H]
		tc := t.tc[p*H : (p+1)*H]
		c := cells[p*H : (p+1)*H]
		for j := 0; j < H; j++ {
			i, f, g, o := sigmoid(a[j]), sigmoid(a[H+j]), tanh(a[2*H+j]), sigmoid(a[3*H+j])
			a[j], a[H+j], a[2*H+j], a[3*H+j] = i, f, g, o
			c[j] = f*cPrev[j] + i*g
			tc[j] = tanh(c[j])
			h[j] = o * tc[j]
		}
		hPrev, cPrev = h, c
	}
	return t
}

// backward backpropagates through time: given dh (n, H), the gradient of
// the loss with respect to the outputs, it adds the weight gradients to g and
// the input gradient to dx (n, in). Cost O(n*4H*(in+H)).
func (l lstm[T]) backward(t *lstmTape[T], dh []T, g lstm[T], dx []T) {
	n, H, G := t.n, l.hid, 4*l.hid
	dA := make([]T, n*G) // gradient of the gate pre-activations
	dhNext := make([]T, H)
	dcNext := make([]T, H)
	for s := n - 1; s >= 0; s-- {
		p := t.position(s)
		gt := t.gates[p*G : (p+1)*G]
		da := dA[p*G : (p+1)*G]
		for j := 0; j < H; j++ {
			i, f, gg, o := gt[j], gt[H+j], gt[2*H+j], gt[3*H+j]
			tc := t.tc[p*H+j]
			dhj := dh[p*H+j] + dhNext[j]
			do := dhj * tc
			dc := dhj*o*(1-tc*tc) + dcNext[j]
			di, dg, df := dc*gg, dc*i, dc*t.cprev[p*H+j]
			dcNext[j] = dc * f
			da[j] = di * i * (1 - i)
			da[H+j] = df * f * (1 - f)
			da[2*H+j] = dg * (1 - gg*gg)
			da[3*H+j] = do * o * (1 - o)
		}
		gemv(true, G, H, 1, l.whh, H, da, 0, dhNext) // dh_prev = W_hhᵀ da
	}
	gemm(true, false, G, l.in, n, 1, dA, G, t.x, l.in, 1, g.wih, l.in) // dW_ih += dAᵀ x
	gemm(true, false, G, H, n, 1, dA, G, t.hprev, H, 1, g.whh, H)      // dW_hh += dAᵀ h_prev
	addColSums(g.b, dA, n, G)
	gemm(false, false, n, l.in, G, 1, dA, G, l.wih, l.in, 1, dx, l.in) // dx += dA W_ih
}

// bilstm is a bidirectional one-layer LSTM.
type bilstm[T float] struct{ fwd, bwd lstm[T] }

// bilstmTape records both directions.
type bilstmTape[T float] struct{ fwd, bwd *lstmTape[T] }

// forward returns the (n, 2H) matrix whose row t is [fwd h_t; bwd h_t].
func (b bilstm[T]) forward(x []T, n int) ([]T, bilstmTape[T]) {
	H := b.fwd.hid
	tp := bilstmTape[T]{fwd: b.fwd.forward(x, n, false), bwd: b.bwd.forward(x, n, true)}
	out := make([]T, n*2*H)
	for t := 0; t < n; t++ {
		copy(out[t*2*H:], tp.fwd.h[t*H:(t+1)*H])
		copy(out[t*2*H+H:], tp.bwd.h[t*H:(t+1)*H])
	}
	return out, tp
}

// backward adds the weight gradients to g and the input gradient to dx, given
// dout (n, 2H).
func (b bilstm[T]) backward(tp bilstmTape[T], dout []T, g bilstm[T], dx []T) {
	n, H := tp.fwd.n, b.fwd.hid
	df, db := make([]T, n*H), make([]T, n*H)
	for t := 0; t < n; t++ {
		copy(df[t*H:(t+1)*H], dout[t*2*H:])
		copy(db[t*H:(t+1)*H], dout[t*2*H+H:(t+1)*2*H])
	}
	b.fwd.backward(tp.fwd, df, g.fwd, dx)
	b.bwd.backward(tp.bwd, db, g.bwd, dx)
}
