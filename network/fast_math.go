package network

import "math"

// float32 versions of exp, sigmoid and tanh for the optimised path: within
// about 2 ulp of the float64 functions rounded to float32 (Cephes'
// polynomials), several times cheaper than math.Exp and math.Tanh.

const (
	expHi   = 88.0
	expLo   = -87.3365447504019
	log2e32 = 1.44269504088896341
	ln2Hi32 = 0.693359375
	ln2Lo32 = -2.12194440e-4
)

// expf returns e^x in float32 (0 below about -87.3, clamped above 88.4).
func expf(x float32) float32 {
	if x > expHi {
		x = expHi
	}
	if x < expLo {
		return 0
	}
	// x = n*ln2 + r, |r| <= ln2/2.
	fn := x*log2e32 + 0.5
	n := int32(fn)
	if fn < 0 && float32(n) != fn {
		n-- // floor
	}
	nf := float32(n)
	r := x - nf*ln2Hi32 - nf*ln2Lo32
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	p = p*r*r + r + 1
	return p * math.Float32frombits(uint32(n+127)<<23)
}

// sigmoidf returns 1/(1+e^-x).
func sigmoidf(x float32) float32 { return 1 / (1 + expf(-x)) }

// tanhf returns tanh(x): a polynomial below 0.625 in magnitude, 1-2/(e^2x+1)
// above.
func tanhf(x float32) float32 {
	ax := x
	if ax < 0 {
		ax = -ax
	}
	if ax < 0.625 {
		z := x * x
		p := float32(-5.70498872745e-3)
		p = p*z + 2.06390887954e-2
		p = p*z - 5.37397155531e-2
		p = p*z + 1.33314422036e-1
		p = p*z - 3.33332819422e-1
		return x + x*z*p
	}
	if ax > 9.1 {
		if x < 0 {
			return -1
		}
		return 1
	}
	t := 1 - 2/(expf(2*ax)+1)
	if x < 0 {
		return -t
	}
	return t
}
