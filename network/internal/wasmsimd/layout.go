package wasmsimd

// GEMM parameters: the i32 words of the block whose address gemm takes.
const (
	GemmAcc   = iota // 1: C += A·B, 0: C = A·B
	GemmM            // rows of C
	GemmN            // columns of C
	GemmK            // the inner dimension, at least 1
	GemmA            // address of A[0,0]
	GemmARS          // A's row stride (floats)
	GemmAKS          // A's column stride (floats): op(A)[i,p] = A[i*ars+p*aks]
	GemmB            // address of B[0,0] (row-major, k×n)
	GemmLDB          // B's row stride (floats)
	GemmC            // address of C[0,0] (row-major, m×n)
	GemmLDC          // C's row stride (floats)
	GemmBTS          // fewer than 4 rows: from one 32-column tile of B to the next (floats; 32 unless B is packed, see Pack32)
	GemmPanel        // 4 rows or more: from one 8-column panel of B to the next (floats; 8 unless B is packed by Pack8, which also makes fewer rows go by panels)
	GemmWords        // the size of the block
)

// LSTM cell parameters: the i32 words of the block whose address lstm
// takes (addresses of float32 arrays; see network's lstmCell).
const (
	CellA     = iota // gate pre-activations (rows, 4H): i, f, g, o; activated in place
	CellB            // bias (4H), added first
	CellCP           // previous cell states (rows, H)
	CellC            // cell states (rows, H)
	CellTC           // tanh of the cell states (rows, H)
	CellH            // hidden states (rows, H)
	CellHid          // H, a multiple of 4
	CellRows         // rows, at least 1
	CellWords        // the size of the block
)

// Pack32 writes the k×n matrix b (row stride ldb; n a multiple of 32) to
// dst (k*n values) by tiles of 32 columns, tile after tile, each tile's k
// rows of 32 contiguous: B as gemm reads it with fewer than 4 rows,
// ldb = 32 and bts = 32*k, in one sequential stream (an LSTM step's
// recurrent weights, used at every step, stay in the L2 cache). It panics
// when n is not a multiple of 32.
func Pack32(dst, b []float32, k, n, ldb int) {
	if n%32 != 0 {
		panic("wasmsimd: Pack32 of a width that is not a multiple of 32")
	}
	for t := 0; t < n/32; t++ {
		for p := 0; p < k; p++ {
			copy(dst[(t*k+p)*32:(t*k+p+1)*32], b[p*ldb+t*32:p*ldb+t*32+32])
		}
	}
}

// Pack8Len returns the length of the k×n matrix packed by Pack8.
func Pack8Len(k, n int) int { return k * ((n + 7) &^ 7) }

// Pack8 writes the k×n matrix b (row stride ldb) to dst (Pack8Len(k, n)
// values) by panels of 8 columns, panel after panel, each panel's k rows of
// 8 contiguous (the last panel padded with zeros): B as gemm reads it with
// ldb = 8 and a panel step of 8*k, in one sequential stream per panel.
func Pack8(dst, b []float32, k, n, ldb int) {
	for t := 0; t < (n+7)/8; t++ {
		w := min(8, n-8*t)
		for p := 0; p < k; p++ {
			row := dst[(t*k+p)*8 : (t*k+p+1)*8]
			copy(row, b[p*ldb+8*t:p*ldb+8*t+w])
			clear(row[w:])
		}
	}
}
