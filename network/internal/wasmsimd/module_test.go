package wasmsimd

import (
	"bytes"
	"testing"
)

// TestModuleSize: both variants are well-formed at the top (magic and
// version) and small enough for Chrome to compile synchronously on a
// page's main thread (4 KB; larger modules must be compiled
// asynchronously there, and loadKernels compiles synchronously).
func TestModuleSize(t *testing.T) {
	for _, relaxed := range []bool{false, true} {
		m := Module(relaxed)
		if !bytes.HasPrefix(m, []byte{0, 'a', 's', 'm', 1, 0, 0, 0}) {
			t.Errorf("relaxed %v: no wasm header: % x", relaxed, m[:8])
		}
		if len(m) > 4096 {
			t.Errorf("relaxed %v: %d bytes, want at most 4096", relaxed, len(m))
		}
		t.Logf("relaxed %v: %d bytes", relaxed, len(m))
	}
}

// TestPack8: panel t, row p of the packed matrix is B[p, 8t:8t+8], the
// last panel padded with zeros.
func TestPack8(t *testing.T) {
	const k, n, ldb = 3, 13, 15
	b := make([]float32, k*ldb)
	for i := range b {
		b[i] = float32(i + 1)
	}
	dst := make([]float32, Pack8Len(k, n))
	if len(dst) != k*16 {
		t.Fatalf("Pack8Len = %d, want %d", len(dst), k*16)
	}
	Pack8(dst, b, k, n, ldb)
	for panel := range 2 {
		for p := range k {
			for j := range 8 {
				var want float32
				if c := panel*8 + j; c < n {
					want = b[p*ldb+c]
				}
				if got := dst[(panel*k+p)*8+j]; got != want {
					t.Fatalf("panel %d row %d column %d: %g, want %g", panel, p, j, got, want)
				}
			}
		}
	}
}

// TestPack32: tile t, row p of the packed matrix is B[p, 32t:32t+32].
func TestPack32(t *testing.T) {
	const k, n, ldb = 3, 64, 70
	b := make([]float32, k*ldb)
	for i := range b {
		b[i] = float32(i)
	}
	dst := make([]float32, k*n)
	Pack32(dst, b, k, n, ldb)
	for tile := range n / 32 {
		for p := range k {
			for j := range 32 {
				if got, want := dst[(tile*k+p)*32+j], b[p*ldb+tile*32+j]; got != want {
					t.Fatalf("tile %d row %d column %d: %g, want %g", tile, p, j, got, want)
				}
			}
		}
	}
}
