package network

// biaffine is a deep-biaffine scorer with weights w of shape (O, d+1, d+1):
// s[x,y,o] = [l(x);1]ᵀ w[o] [r(y);1], no separate bias (the appended 1s give
// the linear and constant terms).
type biaffine[T float] struct {
	w       []T
	outs, d int
}

// biaffineTape records a biaffine forward pass over n words.
type biaffineTape[T float] struct {
	n      int
	l1, r1 []T // (n, d+1) inputs with a 1 appended
	t      []T // (n, O, d+1): t[x,o,j] = Σ_i l1[x,i] w[o,i,j]
}

// appendOne returns the (n, d+1) matrix [x, 1] for x (n, d).
func appendOne[T float](x []T, n, d int) []T {
	out := make([]T, n*(d+1))
	for i := 0; i < n; i++ {
		copy(out[i*(d+1):], x[i*d:(i+1)*d])
		out[i*(d+1)+d] = 1
	}
	return out
}

// forward returns s (n, n, O), laid out like decode.Scores ((x*n+y)*O+o), for
// left endpoint features l (n, d) and right endpoint features r (n, d). It
// computes every pair, x > y included. Cost O(n*O*(d+1)*(d+1+n)).
func (b biaffine[T]) forward(l, r []T, n int) ([]T, *biaffineTape[T]) {
	D, O := b.d+1, b.outs
	tp := &biaffineTape[T]{n: n, l1: appendOne(l, n, b.d), r1: appendOne(r, n, b.d), t: make([]T, n*O*D)}
	for o := 0; o < O; o++ {
		// t[:, o, :] = l1 w[o]
		gemm(false, false, n, D, D, 1, tp.l1, D, b.w[o*D*D:(o+1)*D*D], D, 0, tp.t[o*D:], O*D)
	}
	s := make([]T, n*n*O)
	for x := 0; x < n; x++ {
		// s[x, :, :] = r1 t[x]ᵀ, where t[x] is (O, d+1)
		gemm(false, true, n, O, D, 1, tp.r1, D, tp.t[x*O*D:(x+1)*O*D], D, 0, s[x*n*O:], O)
	}
	return s, tp
}

// backward adds to g the weight gradient and to dl and dr (n, d) the
// gradients of the endpoint features, given ds (n, n, O).
func (b biaffine[T]) backward(tp *biaffineTape[T], ds []T, g biaffine[T], dl, dr []T) {
	n, D, O := tp.n, b.d+1, b.outs
	dt := make([]T, n*O*D)
	dr1 := make([]T, n*D)
	for x := 0; x < n; x++ {
		dsx := ds[x*n*O : (x+1)*n*O]                                                // (n, O)
		gemm(true, false, O, D, n, 1, dsx, O, tp.r1, D, 0, dt[x*O*D:], D)           // dt[x] = dsxᵀ r1
		gemm(false, false, n, D, O, 1, dsx, O, tp.t[x*O*D:(x+1)*O*D], D, 1, dr1, D) // dr1 += dsx t[x]
	}
	dl1 := make([]T, n*D)
	for o := 0; o < O; o++ {
		wo := b.w[o*D*D : (o+1)*D*D]
		gemm(true, false, D, D, n, 1, tp.l1, D, dt[o*D:], O*D, 1, g.w[o*D*D:(o+1)*D*D], D) // dw[o] += l1ᵀ dt[:,o,:]
		gemm(false, true, n, D, D, 1, dt[o*D:], O*D, wo, D, 1, dl1, D)                     // dl1 += dt[:,o,:] w[o]ᵀ
	}
	for i := 0; i < n; i++ {
		for j := 0; j < b.d; j++ {
			dl[i*b.d+j] += dl1[i*D+j]
			dr[i*b.d+j] += dr1[i*D+j]
		}
	}
}
