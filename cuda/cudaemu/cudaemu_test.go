package cudaemu_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/cuda/cudaemu"
)

// The tests run on the stand-in where there is no NVIDIA driver, and on the
// GPU where there is one: the stand-in must behave as the GPU does.
func TestMain(m *testing.M) { os.Exit(cudaemu.RunTests(m)) }

func open(t *testing.T) *cuda.Device {
	t.Helper()
	d, err := cuda.Open(0)
	var u *cuda.Unavailable
	if errors.As(err, &u) {
		t.Skipf("no CUDA device and no stand-in: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("device: %s", d.Describe())
	t.Cleanup(func() { d.Close() })
	unbind, err := d.Bind()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unbind)
	return d
}

const kernels = `
// Every thread of a 3-D grid of 3-D blocks writes its flat index where its
// flat index says: each runs once, with its own indices.
extern "C" __global__ void indices(int *out) {
	long block = ((long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
	long thread = ((long)threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
	long i = block * blockDim.x * blockDim.y * blockDim.z + thread;
	out[i] += (int)i + 1;
}

// Each block reverses its slice through shared memory: right only if no
// thread reads before every thread has written (the barrier).
extern "C" __global__ void reverse_blocks(const int *in, int *out) {
	__shared__ int buf[256];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	buf[threadIdx.x] = in[i];
	__syncthreads();
	out[i] = buf[blockDim.x - 1 - threadIdx.x];
}
`

func TestLaunch(t *testing.T) {
	d := open(t)
	mod, err := d.Compile("kernels.cu", kernels)
	if err != nil {
		t.Fatal(err)
	}
	indices, err := mod.Function("indices")
	if err != nil {
		t.Fatal(err)
	}
	grid, block := [3]int{3, 2, 2}, [3]int{4, 3, 2}
	n := 3 * 2 * 2 * 4 * 3 * 2
	p, err := d.Alloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free(p)
	if err := d.Zero(p, n); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(indices, grid, block, 0, cuda.P(p)); err != nil {
		t.Fatal(err)
	}
	got := make([]int32, n)
	if err := cuda.Download(d, got, p); err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		if v != int32(i+1) {
			t.Fatalf("thread %d wrote %d (want %d: every thread once, with its own indices)", i, v, i+1)
		}
	}

	reverse, err := mod.Function("reverse_blocks")
	if err != nil {
		t.Fatal(err)
	}
	const blocks, threads = 5, 256
	in := make([]int32, blocks*threads)
	for i := range in {
		in[i] = int32(i)
	}
	pin, _ := d.Alloc(4 * len(in))
	pout, _ := d.Alloc(4 * len(in))
	defer d.Free(pin)
	defer d.Free(pout)
	if err := cuda.Upload(d, pin, in); err != nil {
		t.Fatal(err)
	}
	if err := d.Launch(reverse, [3]int{blocks, 1, 1}, [3]int{threads, 1, 1}, 0, cuda.P(pin), cuda.P(pout)); err != nil {
		t.Fatal(err)
	}
	out := make([]int32, len(in))
	if err := cuda.Download(d, out, pout); err != nil {
		t.Fatal(err)
	}
	for b := range blocks {
		for j := range threads {
			if want := in[b*threads+threads-1-j]; out[b*threads+j] != want {
				t.Fatalf("block %d, thread %d: %d, want %d (the barrier did not hold)", b, j, out[b*threads+j], want)
			}
		}
	}
}

// TestGemm compares Sgemm and SgemmStridedBatched with a float64 product,
// every transposition, alpha and beta not 1 or 0, leading dimensions larger
// than the matrices (column-major, as cuBLAS). Tolerance 1e-5 relative to
// the largest product.
func TestGemm(t *testing.T) {
	d := open(t)
	rng := rand.New(rand.NewPCG(1, 2))
	const m, n, k, batch = 7, 5, 9, 3
	const alpha, beta = float32(0.5), float32(-2)
	for _, tc := range []struct{ ta, tb bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		rowsA, colsA := m, k
		if tc.ta {
			rowsA, colsA = k, m
		}
		rowsB, colsB := k, n
		if tc.tb {
			rowsB, colsB = n, k
		}
		lda, ldb, ldc := rowsA+2, rowsB+1, m+3
		sa, sb, sc := lda*colsA+4, ldb*colsB, ldc*n+1
		random := func(size int) []float32 {
			x := make([]float32, size)
			for i := range x {
				x[i] = float32(2*rng.Float64() - 1)
			}
			return x
		}
		a, b, c := random(sa*batch), random(sb*batch), random(sc*batch)
		want := make([]float64, len(c))
		var largest float64
		for q := range batch {
			for j := range n {
				for i := range m {
					var s float64
					for l := range k {
						ai, bi := q*sa+i+l*lda, q*sb+l+j*ldb
						if tc.ta {
							ai = q*sa + l + i*lda
						}
						if tc.tb {
							bi = q*sb + j + l*ldb
						}
						av, bv := a[ai], b[bi]
						s += float64(av) * float64(bv)
					}
					at := q*sc + i + j*ldc
					want[at] = float64(alpha)*s + float64(beta)*float64(c[at])
					largest = math.Max(largest, math.Abs(want[at]))
				}
			}
		}
		pa, _ := d.Alloc(4 * len(a))
		pb, _ := d.Alloc(4 * len(b))
		pc, _ := d.Alloc(4 * len(c))
		cuda.Upload(d, pa, a)
		cuda.Upload(d, pb, b)
		for _, batched := range []bool{false, true} {
			if err := cuda.Upload(d, pc, c); err != nil {
				t.Fatal(err)
			}
			var err error
			if batched {
				err = d.SgemmStridedBatched(tc.ta, tc.tb, m, n, k, alpha, pa, lda, sa, pb, ldb, sb, beta, pc, ldc, sc, batch)
			} else {
				err = d.Sgemm(tc.ta, tc.tb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)
			}
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float32, len(c))
			if err := cuda.Download(d, got, pc); err != nil {
				t.Fatal(err)
			}
			products := 1
			if batched {
				products = batch
			}
			for at := range got {
				w := float64(c[at]) // untouched: padding, and the other products when not batched
				if q, r := at/sc, at%sc; q < products && r%ldc < m && r/ldc < n {
					w = want[at]
				}
				if math.Abs(float64(got[at])-w) > 1e-5*largest {
					t.Fatalf("transposed %v/%v, batched %v: C value %d = %g, want %g", tc.ta, tc.tb, batched, at, got[at], w)
				}
			}
		}
		d.Free(pa)
		d.Free(pb)
		d.Free(pc)
	}
}

// TestMemory checks that freed memory can be allocated again and that an
// allocation beyond what is free is an out-of-memory error.
func TestMemory(t *testing.T) {
	d := open(t)
	free, total, err := d.MemoryInfo()
	if err != nil {
		t.Fatal(err)
	}
	if free > total || total != d.TotalMemory() {
		t.Fatalf("free %d, total %d, device memory %d", free, total, d.TotalMemory())
	}
	if _, err := d.Alloc(int(min(total+total/2, math.MaxInt/2))); !cuda.OutOfMemory(err) {
		t.Fatalf("allocating 1.5 times the device's memory: %v, want an out-of-memory error", err)
	}
	size := int(free / 3)
	for round := range 3 {
		p, err := d.Alloc(size)
		if err != nil {
			t.Fatalf("round %d: allocating a third of the free memory: %v", round, err)
		}
		if err := d.Free(p); err != nil {
			t.Fatal(err)
		}
	}
	if after, _, _ := d.MemoryInfo(); after+(1<<20) < free {
		t.Errorf("free memory %d after freeing everything, %d before", after, free)
	}
}
