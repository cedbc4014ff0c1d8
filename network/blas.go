package network

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// float is the element type of the layer code: float32 for the model,
// float64 for gradient checks.
type float interface{ float32 | float64 }

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// gemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices, where
// op(A) is m×k, op(B) is k×n and C is m×n; tA and tB transpose A and B. It
// calls gonum's Sgemm or Dgemm (which split large products over goroutines).
// Cost O(m*n*k).
func gemm[T float](tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				row[j] *= beta
			}
		}
		return
	}
	var impl gonum.Implementation
	switch cc := any(c).(type) {
	case []float32:
		impl.Sgemm(trans(tA), trans(tB), m, n, k, float32(alpha), any(a).([]float32), lda,
			any(b).([]float32), ldb, float32(beta), cc, ldc)
	case []float64:
		impl.Dgemm(trans(tA), trans(tB), m, n, k, float64(alpha), any(a).([]float64), lda,
			any(b).([]float64), ldb, float64(beta), cc, ldc)
	}
}

// gemv computes y = alpha*op(A)*x + beta*y for a row-major m×n matrix A (op(A)
// is Aᵀ when tA) and contiguous vectors x and y. Cost O(m*n).
func gemv[T float](tA bool, m, n int, alpha T, a []T, lda int, x []T, beta T, y []T) {
	if m == 0 || n == 0 {
		return
	}
	var impl gonum.Implementation
	switch yy := any(y).(type) {
	case []float32:
		impl.Sgemv(trans(tA), m, n, float32(alpha), any(a).([]float32), lda, any(x).([]float32), 1,
			float32(beta), yy, 1)
	case []float64:
		impl.Dgemv(trans(tA), m, n, float64(alpha), any(a).([]float64), lda, any(x).([]float64), 1,
			float64(beta), yy, 1)
	}
}

// addBias adds the vector b (length cols) to every row of the rows×cols
// matrix x.
func addBias[T float](x []T, rows, cols int, b []T) {
	for r := 0; r < rows; r++ {
		row := x[r*cols : (r+1)*cols]
		for j, v := range b {
			row[j] += v
		}
	}
}

// addColSums adds the column sums of the rows×cols matrix x to db.
func addColSums[T float](db []T, x []T, rows, cols int) {
	for r := 0; r < rows; r++ {
		for j, v := range x[r*cols : (r+1)*cols] {
			db[j] += v
		}
	}
}

func sigmoid[T float](x T) T { return T(1 / (1 + math.Exp(-float64(x)))) }

func tanh[T float](x T) T { return T(math.Tanh(float64(x))) }
