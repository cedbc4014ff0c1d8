package kernels

import "github.com/discspan/discspan/network/internal/wasmsimd"

// The float32 constants of network's expf and tanhf (fast_math.go), as
// Go rounds them.
const (
	expHi   = 88.0
	expLo   = -87.3365447504019
	log2e32 = 1.44269504088896341
	ln2Hi32 = 0.693359375
	ln2Lo32 = -2.12194440e-4
)

var (
	expPoly  = []float32{1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1}
	tanhPoly = []float32{-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1}
)

// expFn assembles the internal function exp(x v128) v128: expf lane by
// lane, the operations of network's expf in its order (so the same float32
// results): x clamped above at 88, n = floor(x*log2e + 0.5),
// r = x - n*ln2Hi - n*ln2Lo, the polynomial, times 2^n; 0 below about
// -87.3.
func expFn() *fn {
	f := newVecFn()
	x := uint32(0)
	xc, nf, p, r := f.local(tV128), f.local(tV128), f.local(tV128), f.local(tV128)
	f.get(x) // pmin(x, 88) = 88 < x ? 88 : x
	f.v128F32(expHi)
	f.simd(opF32x4Pmin)
	f.set(xc)
	f.get(xc)
	f.v128F32(log2e32)
	f.simd(opF32x4Mul)
	f.v128F32(0.5)
	f.simd(opF32x4Add)
	f.simd(opF32x4Floor)
	f.set(nf)
	// r = xc - nf*ln2Hi - nf*ln2Lo
	f.get(xc)
	f.get(nf)
	f.v128F32(ln2Hi32)
	f.simd(opF32x4Mul)
	f.simd(opF32x4Sub)
	f.get(nf)
	f.v128F32(ln2Lo32)
	f.simd(opF32x4Mul)
	f.simd(opF32x4Sub)
	f.set(r)
	f.horner(r, expPoly)
	f.set(p)
	// p*r*r + r + 1
	f.get(p)
	f.get(r)
	f.simd(opF32x4Mul)
	f.get(r)
	f.simd(opF32x4Mul)
	f.get(r)
	f.simd(opF32x4Add)
	f.v128F32(1)
	f.simd(opF32x4Add)
	// times 2^n: the bits (n+127) << 23.
	f.get(nf)
	f.simd(opI32x4TruncSatS)
	f.simd(opV128Const)
	for range 4 {
		f.op(127, 0, 0, 0)
	}
	f.simd(opI32x4Add)
	f.i32(23)
	f.simd(opI32x4Shl)
	f.simd(opF32x4Mul)
	// 0 where xc < expLo.
	f.get(xc)
	f.v128F32(expLo)
	f.simd(opF32x4Lt)
	f.simd(opV128Andnot)
	return f
}

// horner emits the polynomial with coefficients c (highest degree first)
// at the local z, by Horner's rule, leaving it on the stack.
func (f *fn) horner(z uint32, c []float32) {
	f.v128F32(c[0])
	for _, c := range c[1:] {
		f.get(z)
		f.simd(opF32x4Mul)
		f.v128F32(c)
		f.simd(opF32x4Add)
	}
}

// expIndex is the index of expFn in the module.
const expIndex = 2

// vexp emits dst = expf(x) (a call of expFn).
func (f *fn) vexp(dst, x uint32) {
	f.get(x)
	f.call(expIndex)
	f.set(dst)
}

// vsigmoid emits dst = 1/(1+expf(-x)), holding -x in the local tmp.
func (f *fn) vsigmoid(dst, x, tmp uint32) {
	f.get(x)
	f.simd(opF32x4Neg)
	f.set(tmp)
	f.vexp(dst, tmp)
	f.v128F32(1)
	f.v128F32(1)
	f.get(dst)
	f.simd(opF32x4Add)
	f.simd(opF32x4Div)
	f.set(dst)
}

// tanhIndex is the index of tanhFn in the module.
const tanhIndex = 3

// tanhFn assembles the internal function tanh(x v128) v128 (see vtanh).
func tanhFn() *fn {
	f := newVecFn()
	var t [5]uint32
	for i := range t {
		t[i] = f.local(tV128)
	}
	dst := f.local(tV128)
	f.vtanh(dst, 0, t)
	f.get(dst)
	return f
}

// vtanh emits dst = tanhf(x): x + x*z*p(z) (z = x*x) where |x| < 0.625,
// ±1 where |x| > 9.1, else ±(1 - 2/(expf(2|x|)+1)).
func (f *fn) vtanh(dst, x uint32, t [5]uint32) {
	ax, small := t[3], t[4]
	f.get(x)
	f.simd(opF32x4Abs)
	f.set(ax)
	// small = x + x*z*p with z = x*x (dst holds z).
	f.get(x)
	f.get(x)
	f.simd(opF32x4Mul)
	f.set(dst)
	f.horner(dst, tanhPoly)
	f.set(small)
	f.get(x)
	f.get(x)
	f.get(dst)
	f.simd(opF32x4Mul)
	f.get(small)
	f.simd(opF32x4Mul)
	f.simd(opF32x4Add)
	f.set(small)
	// big = 1 - 2/(expf(2|x|)+1), or 1 above 9.1; then the sign of x.
	f.v128F32(2)
	f.get(ax)
	f.simd(opF32x4Mul)
	f.set(t[0])
	f.vexp(dst, t[0])
	f.v128F32(1)
	f.v128F32(2)
	f.get(dst)
	f.v128F32(1)
	f.simd(opF32x4Add)
	f.simd(opF32x4Div)
	f.simd(opF32x4Sub)
	f.set(dst)
	f.v128F32(1)
	f.get(dst)
	f.get(ax)
	f.v128F32(9.1)
	f.simd(opF32x4Gt)
	f.simd(opV128Bitselect) // ax > 9.1 ? 1 : big
	f.set(dst)
	f.get(dst)
	f.simd(opF32x4Neg)
	f.get(dst)
	f.get(x)
	f.v128Zero()
	f.simd(opF32x4Lt)
	f.simd(opV128Bitselect) // x < 0 ? -big : big
	f.set(dst)
	f.get(small)
	f.get(dst)
	f.get(ax)
	f.v128F32(0.625)
	f.simd(opF32x4Lt)
	f.simd(opV128Bitselect) // ax < 0.625 ? small : big
	f.set(dst)
}

// gateAddr emits the address of gate q's column: the local p plus q times
// the local hb (H in bytes).
func (f *fn) gateAddr(p, hb uint32, q int) {
	f.get(p)
	if q > 0 {
		f.get(hb)
		f.i32(int32(q))
		f.i32Mul()
		f.i32Add()
	}
}

// cellFn assembles lstm(p): for every row and every column j (4 at a
// time), with the parameters at p (see wasmsimd.CellA...), the operations of
// network's lstmCell after the bias: a += b; i, f, o = sigmoid, g = tanh
// (written back to a); c = f*cp + i*g; tc = tanh(c); h = o*tc.
func cellFn() *fn {
	f := newFn("lstm", 1)
	var prm [wasmsimd.CellWords]uint32
	for i := range prm {
		prm[i] = f.local(tI32)
		f.get(0)
		f.i32Load(uint32(4 * i))
		f.set(prm[i])
	}
	var (
		j, rowA, rowH, hb, gb = f.local(tI32), f.local(tI32), f.local(tI32), f.local(tI32), f.local(tI32)
		pa, pb, ph            = f.local(tI32), f.local(tI32), f.local(tI32)
		gate                  [4]uint32
		x, c                  = f.local(tV128), f.local(tV128)
		t                     [5]uint32
	)
	for q := range gate {
		gate[q] = f.local(tV128)
	}
	for q := range t {
		t[q] = f.local(tV128)
	}
	f.get(prm[wasmsimd.CellHid])
	f.i32(2)
	f.i32Shl()
	f.set(hb) // H in bytes: from one gate to the next
	f.get(hb)
	f.i32(2)
	f.i32Shl()
	f.set(gb) // 4H in bytes: a row of gates
	f.get(prm[wasmsimd.CellA])
	f.set(rowA)
	f.i32(0)
	f.set(rowH)
	f.loop()
	f.get(rowA)
	f.set(pa)
	f.get(prm[wasmsimd.CellB])
	f.set(pb)
	f.get(rowH)
	f.set(ph)
	f.get(prm[wasmsimd.CellHid])
	f.set(j)
	f.loop()
	for q := range 4 {
		// x = a[q*H+j] + b[q*H+j]
		f.gateAddr(pa, hb, q)
		f.v128Load(0)
		f.gateAddr(pb, hb, q)
		f.v128Load(0)
		f.simd(opF32x4Add)
		f.set(x)
		if q == 2 {
			f.get(x)
			f.call(tanhIndex)
			f.set(gate[q])
		} else {
			f.vsigmoid(gate[q], x, t[3])
		}
		f.gateAddr(pa, hb, q)
		f.get(gate[q])
		f.v128Store(0)
	}
	// c = f*cp + i*g
	f.get(gate[1])
	f.get(ph)
	f.get(prm[wasmsimd.CellCP])
	f.i32Add()
	f.v128Load(0)
	f.simd(opF32x4Mul)
	f.get(gate[0])
	f.get(gate[2])
	f.simd(opF32x4Mul)
	f.simd(opF32x4Add)
	f.set(c)
	f.get(ph)
	f.get(prm[wasmsimd.CellC])
	f.i32Add()
	f.get(c)
	f.v128Store(0)
	f.get(c)
	f.call(tanhIndex)
	f.set(x)
	f.get(ph)
	f.get(prm[wasmsimd.CellTC])
	f.i32Add()
	f.get(x)
	f.v128Store(0)
	f.get(ph)
	f.get(prm[wasmsimd.CellH])
	f.i32Add()
	f.get(gate[3])
	f.get(x)
	f.simd(opF32x4Mul)
	f.v128Store(0)
	f.addTo(pa, 16)
	f.addTo(pb, 16)
	f.addTo(ph, 16)
	f.addTo(j, -4)
	f.get(j)
	f.brIf(0)
	f.end()
	f.addLocal(rowA, gb)
	f.addLocal(rowH, hb)
	f.addTo(prm[wasmsimd.CellRows], -1)
	f.get(prm[wasmsimd.CellRows])
	f.brIf(0)
	f.end()
	return f
}
