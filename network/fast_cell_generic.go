//go:build !amd64 || purego

package network

// lstmCellsFwd runs lstmCell on rows consecutive rows (see the amd64
// version).
func lstmCellsFwd(a, b, cp, c, tc, h []float32, H, rows int) {
	lstmCellsGo(a, b, cp, c, tc, h, H, rows)
}

// lstmCellsBwd runs lstmCellBackward on rows consecutive rows.
func lstmCellsBwd(gt, cp, tc, dh, dc, da []float32, H, rows int) {
	lstmCellsBwdGo(gt, cp, tc, dh, dc, da, H, rows)
}

// expShift sets dst[i] = e^(src[i]-m).
func expShift(dst, src []float32, m float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = expf(v - m)
	}
}

// rowMax0 returns max(0, x...).
func rowMax0(x []float32) float32 {
	var m float32
	for _, v := range x {
		if v > m {
			m = v
		}
	}
	return m
}

// rowSum returns Σ x.
func rowSum(x []float32) float32 {
	var s float32
	for _, v := range x {
		s += v
	}
	return s
}

// scaleRow sets dst = f*src.
func scaleRow(dst, src []float32, f float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = f * v
	}
}

// leakyTo sets dst = LeakyReLU(src) (src if src > 0, else slope*src).
func leakyTo(dst, src []float32, slope float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		if v <= 0 {
			v *= slope
		}
		dst[i] = v
	}
}

// leakyBack multiplies dz by the derivative of LeakyReLU at z (the slope
// for z <= 0).
func leakyBack(dz, z []float32, slope float32) {
	z = z[:len(dz)]
	for i, v := range z {
		if v <= 0 {
			dz[i] *= slope
		}
	}
}

// colSums adds the column sums of the rows×n matrix x to db.
func colSums(db, x []float32, rows, n int) { addColSums(db, x, rows, n) }
