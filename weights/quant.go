package weights

import "math"

// Int8 scheme: a tensor of shape (d0, ..., dk) is viewed as R rows of
// C = dk values (R = d0*...*d(k-1); R = 1 for a vector). Row r has the
// float32 scale s[r] = max_j |x[r,j]| / 127 (0 for an all-zero row; when the
// float32 rounding of that quotient leaves max_j |x[r,j]| / s[r] above 127,
// s[r] is raised to the next float32 until it does not), and its values are
// stored as q[r,j] = round(x[r,j] / s[r]), rounding half away from zero, in
// [-127, 127] (-128 is never written). The dequantised value
// float32(q) * s[r] is within s[r]/2 (plus one float32 rounding) of x[r,j].

// rows returns the number of rows and the row length of a tensor shape for
// the int8 scheme.
func rows(shape []int) (r, c int) {
	if len(shape) == 0 {
		return 1, 1
	}
	r = 1
	for _, d := range shape[:len(shape)-1] {
		r *= d
	}
	return r, shape[len(shape)-1]
}

// rowScales returns the float32 scale of every row of data.
func rowScales(data []float32, r, c int) []float32 {
	s := make([]float32, r)
	for i := range s {
		var m float64
		for _, v := range data[i*c : (i+1)*c] {
			m = max(m, math.Abs(float64(v)))
		}
		si := float32(m / 127)
		if m > 0 && si == 0 {
			si = math.SmallestNonzeroFloat32
		}
		// Make sure max|x|/s <= 127, so that no value is clamped and every
		// error is at most s/2 (float32 rounding of m/127 may go below).
		for m/float64(si) > 127 {
			si = math.Nextafter32(si, float32(math.Inf(1)))
		}
		s[i] = si
	}
	return s
}

// quantize returns q = round(x / s) clamped to [-127, 127] (0 when s is 0).
func quantize(x, s float32) int8 {
	if s == 0 {
		return 0
	}
	q := math.Round(float64(x) / float64(s))
	return int8(max(-127, min(127, q)))
}
