package network

// linear is an affine layer y = x wᵀ + b with w (out, in) and b (out).
type linear[T float] struct {
	w, b    []T
	in, out int
}

// forward returns y (n, out) for x (n, in). Cost O(n*in*out).
func (l linear[T]) forward(x []T, n int) []T {
	y := make([]T, n*l.out)
	gemm(false, true, n, l.out, l.in, 1, x, l.in, l.w, l.in, 0, y, l.out)
	addBias(y, n, l.out, l.b)
	return y
}

// backward adds to g the weight gradients and to dx (n, in) the input
// gradient, given x (n, in) and dy (n, out).
func (l linear[T]) backward(x, dy []T, n int, g linear[T], dx []T) {
	gemm(true, false, l.out, l.in, n, 1, dy, l.out, x, l.in, 1, g.w, l.in) // dW += dyᵀ x
	addColSums(g.b, dy, n, l.out)
	gemm(false, false, n, l.in, l.out, 1, dy, l.out, l.w, l.in, 1, dx, l.in) // dx += dy W
}

// mlpTape records an endpoint MLP's forward pass.
type mlpTape[T float] struct {
	n    int
	x    []T // (n, in) input (not owned)
	z    []T // (n, out) pre-activation
	mask []T // (n, out) dropout mask, nil without dropout
	y    []T // (n, out) output
}

// leaky returns LeakyReLU(z) with the given negative slope.
func leaky[T float](z, slope T) T {
	if z > 0 {
		return z
	}
	return slope * z
}

// mlpForward computes y = dropout(LeakyReLU(x wᵀ + b, slope)) with the given
// mask (nil: no dropout) for x (n, in).
func (l linear[T]) mlpForward(x []T, n int, slope T, mask []T) *mlpTape[T] {
	z := l.forward(x, n)
	y := make([]T, len(z))
	for i, v := range z {
		y[i] = leaky(v, slope)
	}
	applyMask(y, mask)
	return &mlpTape[T]{n: n, x: x, z: z, mask: mask, y: y}
}

// mlpBackward adds to g the weight gradients and to dx (n, in) the input
// gradient, given dy (n, out). The derivative of LeakyReLU at 0 is taken as
// the slope.
func (l linear[T]) mlpBackward(t *mlpTape[T], dy []T, slope T, g linear[T], dx []T) {
	dz := make([]T, len(dy))
	copy(dz, dy)
	applyMask(dz, t.mask)
	for i, v := range t.z {
		if v <= 0 {
			dz[i] *= slope
		}
	}
	l.backward(t.x, dz, t.n, g, dx)
}
