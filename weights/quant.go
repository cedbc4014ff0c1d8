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

// Int4 scheme (matrices of Int4 files): the int8 scheme with 7 for 127,
// one float32 scale per row, q in [-7, 7], stored as the nibble q+8 (1..15;
// 0, read as -8, is never written), two a byte, value j of a row in byte
// j/2 of the row's ceil(C/2) bytes, the low nibble for even j. A row of
// odd length ends with a high nibble of 0. (Scales per group of 32 values
// instead of per row made the file of the 6.8 M-parameter model L 21%
// larger and scored no better on dev: 80.48 against 80.61 F1; int8 80.91.)

// Levels of the two schemes: the largest |q|.
const (
	int8Levels = 127
	int4Levels = 7
)

// rowScales returns the float32 scale of every row of data for the int8
// scheme.
func rowScales(data []float32, r, c int) []float32 { return levelScales(data, r, c, int8Levels) }

// levelScales returns the float32 scale of every row of data for values
// quantised to [-levels, levels].
func levelScales(data []float32, r, c int, levels float64) []float32 {
	s := make([]float32, r)
	for i := range s {
		var m float64
		for _, v := range data[i*c : (i+1)*c] {
			m = max(m, math.Abs(float64(v)))
		}
		si := float32(m / levels)
		if m > 0 && si == 0 {
			si = math.SmallestNonzeroFloat32
		}
		// Make sure max|x|/s <= levels, so that no value is clamped and
		// every error is at most s/2 (float32 rounding of m/levels may go
		// below).
		for m/float64(si) > levels {
			si = math.Nextafter32(si, float32(math.Inf(1)))
		}
		s[i] = si
	}
	return s
}

// quantize returns q = round(x / s) clamped to [-127, 127] (0 when s is 0).
func quantize(x, s float32) int8 { return quantizeLevels(x, s, int8Levels) }

// quantizeLevels returns q = round(x / s), rounding half away from zero,
// clamped to [-levels, levels] (0 when s is 0).
func quantizeLevels(x, s float32, levels float64) int8 {
	if s == 0 {
		return 0
	}
	q := math.Round(float64(x) / float64(s))
	return int8(max(-levels, min(levels, q)))
}

// packInt4 appends the int4 bytes of the r rows of c values of data with
// the row scales s.
func packInt4(dst []byte, data, s []float32, r, c int) []byte {
	for i := range r {
		row := data[i*c : (i+1)*c]
		for j := 0; j < c; j += 2 {
			b := byte(quantizeLevels(row[j], s[i], int4Levels) + 8)
			if j+1 < c {
				b |= byte(quantizeLevels(row[j+1], s[i], int4Levels)+8) << 4
			}
			dst = append(dst, b)
		}
	}
	return dst
}

// unpackInt4 writes the values of the rows of c values packed in raw
// (ceil(c/2) bytes a row) with the row scales s to dst.
func unpackInt4(dst []float32, raw []byte, s []float32, c int) {
	stride := (c + 1) / 2
	for i, si := range s {
		row, out := raw[i*stride:(i+1)*stride], dst[i*c:(i+1)*c]
		for j := range out {
			out[j] = float32(int(row[j/2]>>(4*(j%2))&15)-8) * si
		}
	}
}

// int4Matrix says whether a tensor of shape is stored in 4 bits in an Int4
// file (a matrix, rank 2 or more) rather than in 8 (a vector).
func int4Matrix(shape []int) bool { return len(shape) >= 2 }

// int4Shape returns the stored shape of an Int4 matrix: its rows, and
// ceil(row length/2) bytes each.
func int4Shape(shape []int) []int {
	r, c := rows(shape)
	return []int{r, (c + 1) / 2}
}
