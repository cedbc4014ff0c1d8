//go:build !amd64 || purego

package network

const useAVX2 = false

func kernel16(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, tiles int, acc bool, bts int) {
	goKernel16(k, a, ars, aks, b, ldb, c, ldc, tiles, acc, bts)
}

func kernel8(k int, a []float32, ars, aks int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	goKernel8(k, a, ars, aks, b, ldb, c, ldc, acc)
}

func kernelRow(k int, a []float32, aks int, b []float32, ldb int, c []float32, tiles int, acc bool) {
	goKernelRow(k, a, aks, b, ldb, c, tiles, acc)
}

// packB copies the 16-column tiles of the k×(16*tiles) matrix src (row
// stride ldb) to dst, tile after tile.
func packB(dst, src []float32, k, ldb, tiles int) { goPackB(dst, src, k, ldb, tiles) }

// transpose8 reports false: no vectorised transpose.
func transpose8(dst []float32, ldd int, src []float32, lds int) bool { return false }
