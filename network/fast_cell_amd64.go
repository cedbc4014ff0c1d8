//go:build amd64 && !purego

package network

//go:noescape
func sigmoidRowsAVX(x *float32, ldx int, b *float32, n, rows int)

//go:noescape
func tanhRowsAVX(x *float32, ldx int, b *float32, n, rows int)

//go:noescape
func cellOutRowsAVX(a, cp, c, tc, h *float32, hid, rows int)

//go:noescape
func lstmCellBackRowsAVX(gt, cp, tc, dh, dc, da *float32, hid, rows int)

//go:noescape
func expShiftAVX(dst, src *float32, n int, m float32)

// lstmCellsFwd runs lstmCell on rows consecutive rows: gates a (rows×4H,
// pre-activations without the bias b), previous cells cp, and c, tc, h
// (rows×H each).
func lstmCellsFwd(a, b, cp, c, tc, h []float32, H, rows int) {
	if rows == 0 {
		return
	}
	if useAVX2 && H%8 == 0 {
		G := 4 * H
		_, _, _, _, _, _ = a[rows*G-1], b[G-1], cp[rows*H-1], c[rows*H-1], tc[rows*H-1], h[rows*H-1]
		sigmoidRowsAVX(&a[0], G, &b[0], 2*H, rows)
		tanhRowsAVX(&a[2*H], G, &b[2*H], H, rows)
		sigmoidRowsAVX(&a[3*H], G, &b[3*H], H, rows)
		cellOutRowsAVX(&a[0], &cp[0], &c[0], &tc[0], &h[0], H, rows)
		return
	}
	lstmCellsGo(a, b, cp, c, tc, h, H, rows)
}

// lstmCellsBwd runs lstmCellBackward on rows consecutive rows.
func lstmCellsBwd(gt, cp, tc, dh, dc, da []float32, H, rows int) {
	if rows == 0 {
		return
	}
	if useAVX2 && H%8 == 0 {
		G := 4 * H
		_, _, _, _, _, _ = gt[rows*G-1], cp[rows*H-1], tc[rows*H-1], dh[rows*H-1], dc[rows*H-1], da[rows*G-1]
		lstmCellBackRowsAVX(&gt[0], &cp[0], &tc[0], &dh[0], &dc[0], &da[0], H, rows)
		return
	}
	lstmCellsBwdGo(gt, cp, tc, dh, dc, da, H, rows)
}

// expShift sets dst[i] = e^(src[i]-m).
func expShift(dst, src []float32, m float32) {
	n := len(src)
	dst = dst[:n]
	n8 := 0
	if useAVX2 {
		n8 = n &^ 7
		if n8 > 0 {
			expShiftAVX(&dst[0], &src[0], n8, m)
		}
	}
	for i := n8; i < n; i++ {
		dst[i] = expf(src[i] - m)
	}
}

//go:noescape
func rowMax0AVX(x *float32, n int) (m float32)

//go:noescape
func rowSumAVX(x *float32, n int) (s float32)

//go:noescape
func scaleRowAVX(dst, src *float32, n int, f float32)

// rowMax0 returns max(0, x...).
func rowMax0(x []float32) float32 {
	var m float32
	n8 := 0
	if useAVX2 {
		if n8 = len(x) &^ 7; n8 > 0 {
			m = rowMax0AVX(&x[0], n8)
		}
	}
	for _, v := range x[n8:] {
		if v > m {
			m = v
		}
	}
	return m
}

// rowSum returns Σ x (in float32: 8 partial sums, then the rest).
func rowSum(x []float32) float32 {
	var s float32
	n8 := 0
	if useAVX2 {
		if n8 = len(x) &^ 7; n8 > 0 {
			s = rowSumAVX(&x[0], n8)
		}
	}
	for _, v := range x[n8:] {
		s += v
	}
	return s
}

// scaleRow sets dst = f*src.
func scaleRow(dst, src []float32, f float32) {
	dst = dst[:len(src)]
	n8 := 0
	if useAVX2 {
		if n8 = len(src) &^ 7; n8 > 0 {
			scaleRowAVX(&dst[0], &src[0], n8, f)
		}
	}
	for i := n8; i < len(src); i++ {
		dst[i] = f * src[i]
	}
}

//go:noescape
func leakyAVX(dst, src *float32, n int, slope float32)

//go:noescape
func leakyBackAVX(dz, z *float32, n int, slope float32)

//go:noescape
func colSumsAVX(db, x *float32, rows, n int)

// leakyTo sets dst = LeakyReLU(src) (src if src > 0, else slope*src).
func leakyTo(dst, src []float32, slope float32) {
	dst = dst[:len(src)]
	n8 := 0
	if useAVX2 {
		if n8 = len(src) &^ 7; n8 > 0 {
			leakyAVX(&dst[0], &src[0], n8, slope)
		}
	}
	for i := n8; i < len(src); i++ {
		v := src[i]
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
	n8 := 0
	if useAVX2 {
		if n8 = len(dz) &^ 7; n8 > 0 {
			leakyBackAVX(&dz[0], &z[0], n8, slope)
		}
	}
	for i := n8; i < len(dz); i++ {
		if z[i] <= 0 {
			dz[i] *= slope
		}
	}
}

// colSums adds the column sums of the rows×n matrix x to db.
func colSums(db, x []float32, rows, n int) {
	if rows == 0 || n == 0 {
		return
	}
	_, _ = db[n-1], x[rows*n-1]
	n8 := 0
	if useAVX2 {
		if n8 = n &^ 7; n8 > 0 {
			colSumsAVX(&db[0], &x[0], rows, n)
		}
	}
	if n8 < n {
		for r := 0; r < rows; r++ {
			for j, v := range x[r*n+n8 : (r+1)*n] {
				db[n8+j] += v
			}
		}
	}
}
