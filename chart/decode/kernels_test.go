package decode

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsMatchScalar checks the (assembly) kernels against plain loops
// for every length up to 40, bit for bit.
func TestKernelsMatchScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 0; n <= 40; n++ {
		x := make([]float32, n)
		y := make([]float32, n)
		d := make([]float32, n)
		for i := range x {
			x[i], y[i], d[i] = rng.Float32()*4-2, rng.Float32()*4-2, rng.Float32()*4-2
		}
		a := rng.Float32()*4 - 2
		want := append([]float32(nil), d...)
		for i := range want {
			want[i] = max(want[i], a+x[i])
		}
		maxAdd(d, a, x)
		for i := range d {
			if d[i] != want[i] {
				t.Fatalf("maxAdd n=%d lane %d: got %v want %v", n, i, d[i], want[i])
			}
		}
		wantSum := negInf
		for i := range x {
			wantSum = max(wantSum, x[i]+y[i])
		}
		if got := maxSum(x, y); got != wantSum {
			t.Fatalf("maxSum n=%d: got %v want %v", n, got, wantSum)
		}
	}
}

func TestRowMax(t *testing.T) {
	inf := -negInf
	cases := []struct {
		name       string
		x          []float32
		wantMax    float32
		wantFinite bool
	}{
		{"empty", nil, negInf, true},
		{"one", []float32{3}, 3, true},
		{"five", []float32{1, -2, 7, 3, 5}, 7, true},
		{"nine with max in tail", []float32{1, 1, 1, 1, 1, 1, 1, 1, 9}, 9, true},
		{"inf in body", []float32{1, inf, 2, 3}, inf, false},
		{"nan in tail", []float32{1, 2, 3, 4, 5, float32(nanValue())}, 5, false},
		{"-inf", []float32{negInf, 0, 0, 0, 0}, 0, false},
		// Scores beyond ±MaxScore count as not finite, in each part of the
		// kernel (blocks of 8, of 4, the tail); MaxScore itself is within.
		{"MaxScore", []float32{MaxScore, -MaxScore, 1, 1, 1, 1, 1, 1, -MaxScore}, MaxScore, true},
		{"beyond in a block of 8", []float32{1, 1, 1, 1, 1, 1, 1, -3e38, 1}, 1, false},
		{"beyond in a block of 4", []float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2e30, 1, 1}, 2e30, false},
		{"beyond in the tail", []float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.3e30}, 1.3e30, false},
		{"just beyond MaxScore", []float32{math.Nextafter32(MaxScore, inf)}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, fin := rowMax(c.x)
			// With a non-finite value the maximum is unspecified.
			if fin != c.wantFinite || (fin && m != c.wantMax) {
				t.Errorf("got (%v, %v), want (%v, %v)", m, fin, c.wantMax, c.wantFinite)
			}
		})
	}
}

func nanValue() float64 { return math.NaN() }

func TestMaxPlusRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, c := range []struct{ nrows, n, stride int }{{1, 1, 1}, {1, 7, 9}, {3, 30, 40}, {5, 4, 4}, {7, 33, 35}, {2, 3, 100}} {
		p := make([]float32, c.nrows)
		rows := make([]float32, (c.nrows-1)*c.stride+c.n)
		for i := range p {
			p[i] = rng.Float32()*4 - 2
		}
		for i := range rows {
			rows[i] = rng.Float32()*4 - 2
		}
		dst := make([]float32, c.n)
		maxPlusRows(dst, p, rows, c.stride)
		for x := range dst {
			want := negInf
			for r := range p {
				want = max(want, p[r]+rows[r*c.stride+x])
			}
			if dst[x] != want {
				t.Fatalf("%+v lane %d: got %v want %v", c, x, dst[x], want)
			}
		}
	}
}

func TestMaxSumRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, c := range []struct{ nrows, n int }{{1, 1}, {3, 30}, {5, 4}, {2, 9}, {7, 33}, {4, 7}} {
		d := make([]float32, c.n)
		rows := make([]float32, c.nrows*c.n)
		for i := range d {
			d[i] = rng.Float32()*4 - 3
		}
		for i := range rows {
			rows[i] = rng.Float32()*4 - 3
		}
		out := make([]float32, c.nrows)
		maxSumRows(out, d, rows)
		for r := range out {
			want := float32(0)
			for a := range d {
				want = max(want, d[a]+rows[r*c.n+a])
			}
			if out[r] != want {
				t.Fatalf("%+v row %d: got %v want %v", c, r, out[r], want)
			}
		}
	}
}

// kernelValue draws a chart value for the kernel tests: uniform, or from a
// small set with -Inf so that sums tie and -Inf propagates.
func kernelValue(rng *rand.Rand, ties bool) float32 {
	if !ties {
		return rng.Float32()*4 - 2
	}
	switch rng.IntN(8) {
	case 0:
		return negInf
	case 1, 2:
		return 0
	case 3, 4:
		return 1
	default:
		return -1
	}
}

// validCell reports whether cell x of a block of size s holds an item:
// row k-i in 1..s-2, column l-i in row+1..s-1 (see fullChart).
func validCell(x, s int) bool {
	r, c := x/s, x%s
	return r >= 1 && r <= s-2 && c > r && c < s
}

// TestBlockKernels checks blockOuter and blockRows, with and without the
// wrapped rule (the assembly kernels in the amd64 build), against their
// pure-Go references on every block of random charts: the block's items bit
// for bit, and every cell outside the block untouched (the kernels may only
// scribble on the block's unused cells).
func TestBlockKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	for trial := 0; trial < 40; trial++ {
		n := 3 + trial%14
		ties := trial%2 == 1
		f := newFullChart(&arena{}, N5WN, NewScores(n, 1), nil)
		n1 := f.n1
		for _, v := range [][]float32{f.C, f.CT, f.D, f.weight} {
			for x := range v {
				v[x] = kernelValue(rng, ties)
			}
		}
		for i := 0; i <= n; i++ {
			for j := i + 3; j <= n; j++ {
				s, o := j-i, f.off[i*n1+j]
				W := f.weight[:s*s]
				offA := f.off[i*n1+i+3 : i*n1+j]
				want := append([]float32(nil), f.D...)
				blockOuterRef(want, o, s, f.C, f.CT, n1, i, offA)
				got := append([]float32(nil), f.D...)
				blockOuter(got, o, s, f.C, f.CT, n1, i, offA)
				compareBlock(t, "blockOuter", n, i, j, o, got, want)
				wrapped := rng.IntN(2) == 0
				wantFill := blockRowsRef(want, o, s, W, f.C, n1, i, f.off, wrapped)
				gotFill := blockRows(got, o, s, W, f.C, n1, i, f.off, wrapped)
				if gotFill != wantFill {
					t.Fatalf("n=%d [%d,%d] wrapped=%v blockRows fill: got %v want %v", n, i, j, wrapped, gotFill, wantFill)
				}
				compareBlock(t, "blockRows", n, i, j, o, got, want)
				copy(f.D, want) // later blocks read this one
			}
		}
	}
}

// compareBlock compares the items of the block at o (size s) bit for bit
// and the cells outside it exactly.
func compareBlock(t *testing.T, what string, n, i, j, o int, got, want []float32) {
	t.Helper()
	s := j - i
	for x := range got {
		inside := x >= o && x < o+s*s
		if inside && !validCell(x-o, s) {
			continue
		}
		if math.Float32bits(got[x]) != math.Float32bits(want[x]) {
			if inside {
				t.Fatalf("%s n=%d [%d,%d] cell (%d,%d): got %v want %v", what, n, i, j, (x-o)/s, (x-o)%s, got[x], want[x])
			}
			t.Fatalf("%s n=%d [%d,%d] wrote cell %d outside its block", what, n, i, j, x)
		}
	}
}

// TestMaxSumRowsTri checks the label-weight triangle against plain loops
// for label counts around the AVX2 kernel's range (8..32), on the AVX2 path
// where the CPU has it and on the SSE path.
func TestMaxSumRowsTri(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, avx2 := range []bool{saved, false} {
		useAVX2 = avx2
		for L := 1; L <= 40; L++ {
			for kind := 0; kind < 3; kind++ {
				ties := kind == 1
				nrows, len0 := 1+rng.IntN(6), 6
				oStep, rStep := 9, (len0+3)*L
				d := make([]float32, L)
				rows := make([]float32, (nrows-1)*rStep+len0*L)
				out := make([]float32, (nrows-1)*oStep+len0+1)
				for _, v := range [][]float32{d, rows, out} {
					for x := range v {
						v[x] = kernelValue(rng, ties)
						if kind == 2 { // every sum negative: the null label wins
							v[x] = -1 - rng.Float32()
						}
					}
				}
				want := append([]float32(nil), out...)
				for r := 0; r < nrows; r++ {
					for x := 0; x < len0-r; x++ {
						best := float32(0)
						for a := range d {
							best = max(best, d[a]+rows[r*rStep+x*L+a])
						}
						want[1+r*oStep+x] = best
					}
				}
				maxSumRowsTri(out, 1, oStep, d, rows, 0, rStep, nrows, len0)
				for x := range out {
					if math.Float32bits(out[x]) != math.Float32bits(want[x]) {
						t.Fatalf("avx2=%v L=%d kind=%d cell %d: got %v want %v", avx2, L, kind, x, out[x], want[x])
					}
				}
			}
		}
	}
}

// TestMaxAddTriEnd checks maxAddTriEnd (the assembly kernel in the amd64
// build) against its pure-Go reference: the rows bit for bit, and nothing
// written outside the rows but their triPad cells of slack.
func TestMaxAddTriEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 23))
	for trial := 0; trial < 400; trial++ {
		ties := trial%2 == 1
		len0 := 1 + rng.IntN(13)
		rows := 1 + rng.IntN(len0)
		dStep, aStep, sStep := len0+triPad+rng.IntN(5), rng.IntN(3), rng.IntN(2)*(len0+triPad)
		dEnd, aOff, sEnd := len0+triPad+rng.IntN(4), rng.IntN(3), len0+triPad+rng.IntN(4)
		dst := make([]float32, dEnd+(rows-1)*dStep+rng.IntN(3))
		src := make([]float32, sEnd+(rows-1)*sStep+rng.IntN(3))
		a := make([]float32, aOff+(rows-1)*aStep+1)
		for _, v := range [][]float32{dst, src, a} {
			for x := range v {
				v[x] = kernelValue(rng, ties)
			}
		}
		want := append([]float32(nil), dst...)
		addTriEndRef(false, want, dEnd, dStep, a, aOff, aStep, src, sEnd, sStep, rows, len0)
		slack := make([]bool, len(dst))
		for r := 0; r < rows; r++ {
			start := dEnd + r*dStep - (len0 - r)
			for x := start - triPad; x < start; x++ {
				slack[x] = true
			}
		}
		maxAddTriEnd(dst, dEnd, dStep, a, aOff, aStep, src, sEnd, sStep, rows, len0)
		for x := range dst {
			if !slack[x] && math.Float32bits(dst[x]) != math.Float32bits(want[x]) {
				t.Fatalf("trial %d cell %d: got %v want %v", trial, x, dst[x], want[x])
			}
		}
	}
}
