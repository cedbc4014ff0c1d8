package cuda

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// openOrSkip returns the first GPU, or skips (saying why) where there is
// none: CI has no GPU.
func openOrSkip(t *testing.T) *Device {
	t.Helper()
	d, err := Open(0)
	var u *Unavailable
	if errors.As(err, &u) {
		t.Skipf("no CUDA GPU here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("device: %s", d.Describe())
	t.Cleanup(func() { d.Close() })
	return d
}

func TestUnavailableIsAnError(t *testing.T) {
	_, err := Open(99)
	if err == nil {
		t.Fatal("Open(99) found a 100th GPU")
	}
	if !strings.Contains(err.Error(), "cuda: ") {
		t.Errorf("error %q does not say it is from cuda", err)
	}
}

const testKernels = `
extern "C" __global__ void axpy(float *y, const float *x, float a, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] += a * x[i];
}
`

func TestKernelAndGemm(t *testing.T) {
	d := openOrSkip(t)
	unbind, err := d.Bind()
	if err != nil {
		t.Fatal(err)
	}
	defer unbind()
	if _, err := d.Compile("broken.cu", "extern \"C\" __global__ void f() { undefined_name(); }"); err == nil || !strings.Contains(err.Error(), "undefined_name") {
		t.Errorf("a compilation error should carry NVRTC's log, got %v", err)
	}
	mod, err := d.Compile("axpy.cu", testKernels)
	if err != nil {
		t.Fatal(err)
	}
	f, err := mod.Function("axpy")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mod.Function("missing"); err == nil {
		t.Error("a missing kernel was found")
	}
	const n = 1000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	px, _ := d.Alloc(4 * n)
	py, _ := d.Alloc(4 * n)
	defer d.Free(px)
	defer d.Free(py)
	if err := Upload(d, px, x); err != nil {
		t.Fatal(err)
	}
	if err := Upload(d, py, y); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(f, [3]int{(n + 127) / 128, 1, 1}, [3]int{128, 1, 1}, 0, P(py), P(px), F(0.5), I(n)); err != nil {
		t.Fatal(err)
	}
	if err := Download(d, y, py); err != nil {
		t.Fatal(err)
	}
	for i, v := range y {
		if v != 1+0.5*float32(i) {
			t.Fatalf("y[%d] = %g, want %g", i, v, 1+0.5*float32(i))
		}
	}
	// C (2x3) = A (2x4) B (4x3), column-major.
	a := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	b := []float32{1, 0, 2, 1, 0, 1, 1, 1, 1, 1, 1, 1}
	pa, _ := d.Alloc(4 * len(a))
	pb, _ := d.Alloc(4 * len(b))
	pc, _ := d.Alloc(4 * 6)
	defer d.Free(pa)
	defer d.Free(pb)
	defer d.Free(pc)
	Upload(d, pa, a)
	Upload(d, pb, b)
	if err := d.Sgemm(false, false, 2, 3, 4, 1, pa, 2, pb, 4, 0, pc, 2); err != nil {
		t.Fatal(err)
	}
	c := make([]float32, 6)
	if err := Download(d, c, pc); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			var want float32
			for k := 0; k < 4; k++ {
				want += a[k*2+i] * b[j*4+k]
			}
			if math.Abs(float64(c[j*2+i]-want)) > 1e-5 {
				t.Errorf("C[%d,%d] = %g, want %g", i, j, c[j*2+i], want)
			}
		}
	}
	if _, err := d.Alloc(1 << 62); !OutOfMemory(err) {
		t.Errorf("allocating 4 EiB: %v, want an out-of-memory error", err)
	}
}
