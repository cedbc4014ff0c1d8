//go:build amd64 && !purego

package decode

// maxAddKernel and maxSumKernel are implemented in kernels_amd64.s.

//go:noescape
func maxAddKernel(dst *float32, a float32, src *float32, n int)

//go:noescape
func maxSumKernel(x, y *float32, n int) float32

//go:noescape
func rowMaxKernel(x *float32, n int) (m float32, finite bool)

//go:noescape
func maxPlusRowsKernel(dst, p, rows *float32, stride, nrows, n int)

//go:noescape
func maxSumRowsKernel(out, d, rows *float32, nrows, n int)

//go:noescape
func maxAddTriKernel(dst *float32, dstStep int, a *float32, aStep int, src *float32, srcStep int, rows, len0 int)
