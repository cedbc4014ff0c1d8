package network

import (
	"hash/fnv"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Init fills p deterministically from seed as model.md prescribes:
// embeddings N(0,1), projection matrices (LSTM w_ih and w_hh, MLP and tagger
// weights) orthogonal, biases and biaffine weights zero. Each tensor draws
// from its own generator, seeded with (seed, FNV-1a hash of its name), so a
// tensor's values do not depend on the other tensors. Cost: one QR
// decomposition per matrix, O(rows*cols*min(rows,cols)): about 0.1 s for
// Tiny, about 30 s for Paper (gonum's LAPACK, 2 cores).
func (p *Params) Init(seed uint64) {
	for _, s := range layout(p.cfg) {
		t := p.Get(s.name)
		rng := tensorRNG(seed, s.name)
		switch s.init {
		case initZero:
			clear(t.Data)
		case initNormal:
			for i := range t.Data {
				t.Data[i] = float32(rng.NormFloat64())
			}
		case initOrthogonal:
			orthogonal(t.Data, s.shape[0], shapeSize(s.shape[1:]), rng)
		}
	}
	p.Changed()
}

func tensorRNG(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// orthogonal fills the rows×cols matrix w with a (semi-)orthogonal matrix,
// as PyTorch's init.orthogonal_ does: the Q factor of the QR decomposition of
// a standard normal max×min matrix, its columns multiplied by the signs of
// R's diagonal, transposed when rows < cols. Afterwards w has orthonormal
// columns (rows >= cols) or orthonormal rows (rows < cols). Cost
// O(rows*cols*min(rows,cols)).
func orthogonal(w []float32, rows, cols int, rng *rand.Rand) {
	m, n := max(rows, cols), min(rows, cols)
	a := blas64.General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)}
	for i := range a.Data {
		a.Data[i] = rng.NormFloat64()
	}
	tau := make([]float64, n)
	work := make([]float64, 1)
	lapack64.Geqrf(a, tau, work, -1)
	work = make([]float64, max(int(work[0]), m))
	lapack64.Geqrf(a, tau, work, len(work))
	sign := make([]float64, n)
	for j := range sign {
		sign[j] = 1
		if a.Data[j*n+j] < 0 {
			sign[j] = -1
		}
	}
	lapack64.Orgqr(a, tau, work[:1], -1)
	work = make([]float64, max(int(work[0]), n))
	lapack64.Orgqr(a, tau, work, len(work))
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			q := a.Data[i*n+j] * sign[j]
			if rows >= cols {
				w[i*cols+j] = float32(q)
			} else {
				w[j*cols+i] = float32(q)
			}
		}
	}
}
