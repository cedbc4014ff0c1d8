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

func TestMaxAddTri(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	cases := []struct{ dstStep, aStep, srcStep, rows, len0 int }{
		{7, 1, 1, 5, 5}, {11, 0, 9, 3, 9}, {21, 20, 1, 4, 17}, {1, 1, 1, 1, 1}, {5, 2, 5, 8, 4}, {0, 0, 0, 3, 3},
	}
	for _, c := range cases {
		ext := triExtent(c.dstStep, min(c.rows, c.len0), c.len0)
		dst := make([]float32, ext)
		src := make([]float32, triExtent(c.srcStep, min(c.rows, c.len0), c.len0))
		a := make([]float32, c.rows*max(c.aStep, 1)+1)
		for _, v := range [][]float32{dst, src, a} {
			for i := range v {
				v[i] = rng.Float32()*4 - 2
			}
		}
		want := append([]float32(nil), dst...)
		for r := 0; r < c.rows && c.len0-r > 0; r++ {
			for x := 0; x < c.len0-r; x++ {
				want[r*c.dstStep+x] = max(want[r*c.dstStep+x], a[r*c.aStep]+src[r*c.srcStep+x])
			}
		}
		maxAddTri(dst, c.dstStep, a, c.aStep, src, c.srcStep, c.rows, c.len0)
		for i := range dst {
			if dst[i] != want[i] {
				t.Fatalf("%+v cell %d: got %v want %v", c, i, dst[i], want[i])
			}
		}
	}
}
