//go:build !amd64 || purego

package network

// adamChunk applies the Adam update to p with gradient g and moments m, v
// (same lengths); k holds scale, β1, 1-β1, β2, 1-β2, lr/bc1, 1/bc2, eps.
func adamChunk(p, g, m, v []float32, k *[8]float64) { adamGo(p, g, m, v, k) }

// sumSquares returns Σ x² in float64.
func sumSquares(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return s
}
