package kernels

import (
	"bytes"
	"testing"

	"github.com/discspan/discspan/network/internal/wasmsimd"
)

// TestGeneratedModulesCurrent: the bytes that package wasmsimd ships
// (modules_gen.go) are those this package assembles; after changing a
// kernel, run go generate ./network/internal/wasmsimd (make wasm does).
func TestGeneratedModulesCurrent(t *testing.T) {
	for _, relaxed := range []bool{false, true} {
		if !bytes.Equal(Assemble(relaxed), wasmsimd.Module(relaxed)) {
			t.Errorf("relaxed %v: modules_gen.go is out of date: run go generate ./network/internal/wasmsimd", relaxed)
		}
	}
}

// TestRelaxedDiffers: the relaxed variant uses f32x4.relaxed_madd (0xfd
// 0x85 0x02), the plain one never does.
func TestRelaxedDiffers(t *testing.T) {
	madd := []byte{0xfd, 0x85, 0x02}
	if bytes.Contains(Assemble(false), madd) {
		t.Error("the plain module contains relaxed_madd")
	}
	if !bytes.Contains(Assemble(true), madd) {
		t.Error("the relaxed module has no relaxed_madd")
	}
}
