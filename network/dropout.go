package network

import "math/rand/v2"

// dropoutMask returns an inverted-dropout mask of n values: 0 with
// probability p, 1/(1-p) otherwise, drawing one Float64 from rng per value.
// It returns nil (no dropout) when rng is nil (inference) or p is 0.
func dropoutMask[T float](rng *rand.Rand, n int, p float64) []T {
	if rng == nil || p == 0 {
		return nil
	}
	keep := T(1 / (1 - p))
	m := make([]T, n)
	for i := range m {
		if rng.Float64() >= p {
			m[i] = keep
		}
	}
	return m
}

// applyMask multiplies x by mask element-wise in place; a nil mask is the
// identity. The same call is the backward pass on the gradient.
func applyMask[T float](x, mask []T) {
	if mask == nil {
		return
	}
	for i, m := range mask {
		x[i] *= m
	}
}
