//go:build amd64 && !purego

package network

//go:noescape
func adamAVX(p, gr, m, v *float32, n int, k *[8]float64)

//go:noescape
func sumSquaresAVX(x *float32, n int) float64

// adamChunk applies the Adam update to p with gradient g and moments m, v
// (same lengths); k holds scale, β1, 1-β1, β2, 1-β2, lr/bc1, 1/bc2, eps.
func adamChunk(p, g, m, v []float32, k *[8]float64) {
	n4 := 0
	if useAVX2 {
		if n4 = len(p) &^ 3; n4 > 0 {
			_, _, _ = g[n4-1], m[n4-1], v[n4-1]
			adamAVX(&p[0], &g[0], &m[0], &v[0], n4, k)
		}
	}
	adamGo(p[n4:], g[n4:], m[n4:], v[n4:], k)
}

// sumSquares returns Σ x² in float64 (partial sums, deterministic).
func sumSquares(x []float32) float64 {
	n16 := 0
	var s float64
	if useAVX2 {
		if n16 = len(x) &^ 15; n16 > 0 {
			s = sumSquaresAVX(&x[0], n16)
		}
	}
	for _, v := range x[n16:] {
		s += float64(v) * float64(v)
	}
	return s
}
