package kernels

import "github.com/discspan/discspan/network/internal/wasmsimd"

// The register tiles: 4 rows by 8 columns (8 accumulators, 2 vectors of
// B and a broadcast: 11 of the 16 vector registers of x86-64), then 4
// columns, then one; single rows (below 4, or the last of a panel) by 32
// columns when fewer than 4 rows (a matrix-vector product, as an LSTM
// step is, streams B once), else by the panel's width.

// gemmFn assembles gemm(p): C (+)= op(A)·B with the parameters at p (see
// wasmsimd.GemmAcc...). Every element is accumulated in the order of k from C or
// 0, one product and one addition (or, relaxed, one multiply-add) at a
// time: without relaxed, exactly the float32 sums of the portable Go
// kernel (goTile), whatever the tile an element falls in.
func gemmFn(relaxed bool) *fn {
	f := newFn("gemm", 1)
	var prm [wasmsimd.GemmWords]uint32
	for i := range prm {
		prm[i] = f.local(tI32)
		f.get(0)
		f.i32Load(uint32(4 * i))
		f.set(prm[i])
	}
	// Strides in bytes.
	for _, s := range []int{wasmsimd.GemmARS, wasmsimd.GemmAKS, wasmsimd.GemmLDB, wasmsimd.GemmLDC, wasmsimd.GemmBTS, wasmsimd.GemmPanel} {
		f.get(prm[s])
		f.i32(2)
		f.i32Shl()
		f.set(prm[s])
	}
	var (
		i               = f.local(tI32) // rows left
		rowA            = f.local(tI32) // A's row i
		rowC            = f.local(tI32) // C's row i
		j               = f.local(tI32) // columns left
		colB            = f.local(tI32)
		colC            = f.local(tI32) // C at the tile's first row and column
		colC0           = f.local(tI32) // C at row 0 of the panel
		pb              = f.local(tI32)
		cnt             = f.local(tI32)
		pa              [4]uint32 // A's rows in the inner loop
		pc              [4]uint32 // C's rows of the tile
		accV            [4][8]uint32
		bv              [8]uint32
		accS            [4]uint32
		splat, zero, bs uint32 // zero: locals start at 0
	)
	// By type, as runs of locals of one type are declared together.
	for r := range 4 {
		pa[r], pc[r] = f.local(tI32), f.local(tI32)
	}
	bs = f.local(tF32)
	for r := range 4 {
		accS[r] = f.local(tF32)
	}
	splat, zero = f.local(tV128), f.local(tV128)
	for r := range 4 {
		for v := range 8 {
			accV[r][v] = f.local(tV128)
		}
	}
	for v := range 8 {
		bv[v] = f.local(tV128)
	}
	// setRows points pa and pc at the tile's rows.
	setRows := func(rows int) {
		f.get(rowA)
		f.set(pa[0])
		f.get(colC)
		f.set(pc[0])
		for r := 1; r < rows; r++ {
			f.get(pa[r-1])
			f.get(prm[wasmsimd.GemmARS])
			f.i32Add()
			f.set(pa[r])
			f.get(pc[r-1])
			f.get(prm[wasmsimd.GemmLDC])
			f.i32Add()
			f.set(pc[r])
		}
	}
	// kLoop emits the loop over the k rows of B from colB: body, then pb
	// steps to the next row.
	kLoop := func(body func()) {
		f.get(colB)
		f.set(pb)
		f.get(prm[wasmsimd.GemmK])
		f.set(cnt)
		f.loop()
		body()
		f.addLocal(pb, prm[wasmsimd.GemmLDB])
		f.addTo(cnt, -1)
		f.get(cnt)
		f.brIf(0)
		f.end()
	}
	// tile emits one rows × 4*vecs tile at colB, colC.
	tile := func(rows, vecs int) {
		setRows(rows)
		f.get(prm[wasmsimd.GemmAcc])
		f.ifThen()
		for r := range rows {
			for v := range vecs {
				f.get(pc[r])
				f.v128Load(uint32(16 * v))
				f.set(accV[r][v])
			}
		}
		f.orElse()
		for r := range rows {
			for v := range vecs {
				f.get(zero)
				f.set(accV[r][v])
			}
		}
		f.end()
		// One row: each vector of B used once, straight from memory
		// (fewer live registers); several: loaded once for all rows.
		loadB := func(v int) {
			if rows == 1 {
				f.get(pb)
				f.v128Load(uint32(16 * v))
			} else {
				f.get(bv[v])
			}
		}
		kLoop(func() {
			if rows > 1 {
				for v := range vecs {
					f.get(pb)
					f.v128Load(uint32(16 * v))
					f.set(bv[v])
				}
			}
			for r := range rows {
				f.get(pa[r])
				f.v128Load32Splat()
				f.set(splat)
				for v := range vecs {
					if relaxed {
						f.get(splat)
						loadB(v)
						f.get(accV[r][v])
						f.simd(opF32x4RelaxMadd)
					} else {
						f.get(accV[r][v])
						f.get(splat)
						loadB(v)
						f.simd(opF32x4Mul)
						f.simd(opF32x4Add)
					}
					f.set(accV[r][v])
				}
				f.addLocal(pa[r], prm[wasmsimd.GemmAKS])
			}
		})
		for r := range rows {
			for v := range vecs {
				f.get(pc[r])
				f.get(accV[r][v])
				f.v128Store(uint32(16 * v))
			}
		}
	}
	// column emits one column of rows rows at colB, colC (scalar).
	column := func(rows int) {
		setRows(rows)
		for r := range rows {
			f.get(prm[wasmsimd.GemmAcc])
			f.ifThen()
			f.get(pc[r])
			f.f32Load(0)
			f.set(accS[r])
			f.orElse()
			f.f32(0)
			f.set(accS[r])
			f.end()
		}
		kLoop(func() {
			f.get(pb)
			f.f32Load(0)
			f.set(bs)
			for r := range rows {
				f.get(accS[r])
				f.get(pa[r])
				f.f32Load(0)
				f.get(bs)
				f.f32Mul()
				f.f32Add()
				f.set(accS[r])
				f.addLocal(pa[r], prm[wasmsimd.GemmAKS])
			}
		})
		for r := range rows {
			f.get(pc[r])
			f.get(accS[r])
			f.f32Store(0)
		}
	}

	// Fewer than 4 rows (matrix-vector products, as in an LSTM step):
	// row after row, each streaming B once, by tiles of 32 columns.
	f.get(prm[wasmsimd.GemmM])
	f.i32(4)
	f.i32LtS()
	f.get(prm[wasmsimd.GemmPanel])
	f.i32(32)
	f.op(0x46) // i32.eq: B not packed by panels
	f.op(0x71) // i32.and
	f.ifThen()
	f.get(prm[wasmsimd.GemmM])
	f.set(i)
	f.get(prm[wasmsimd.GemmA])
	f.set(rowA)
	f.get(prm[wasmsimd.GemmC])
	f.set(rowC)
	f.whileGE(i, 1, func() {
		f.get(prm[wasmsimd.GemmN])
		f.set(j)
		f.get(prm[wasmsimd.GemmB])
		f.set(colB)
		f.get(rowC)
		f.set(colC)
		for _, vecs := range []int{8, 1, 0} {
			w := int32(max(1, 4*vecs))
			f.whileGE(j, w, func() {
				if vecs == 0 {
					column(1)
				} else {
					tile(1, vecs)
				}
				if vecs == 8 {
					f.addLocal(colB, prm[wasmsimd.GemmBTS])
				} else {
					f.addTo(colB, 4*w)
				}
				f.addTo(colC, 4*w)
				f.addTo(j, -w)
			})
		}
		f.addTo(i, -1)
		f.addLocal(rowA, prm[wasmsimd.GemmARS])
		f.addLocal(rowC, prm[wasmsimd.GemmLDC])
	})
	f.orElse()
	// Otherwise by panels of 8 columns (then 4, then 1), each panel of B
	// (k×8) staying in the L1 cache while every row of A passes over it, by
	// tiles of 4 rows and then single rows.
	f.get(prm[wasmsimd.GemmN])
	f.set(j)
	f.get(prm[wasmsimd.GemmB])
	f.set(colB)
	f.get(prm[wasmsimd.GemmC])
	f.set(colC0)
	for _, vecs := range []int{2, 1, 0} {
		w := int32(max(1, 4*vecs))
		f.whileGE(j, w, func() {
			f.get(prm[wasmsimd.GemmM])
			f.set(i)
			f.get(prm[wasmsimd.GemmA])
			f.set(rowA)
			f.get(colC0)
			f.set(colC)
			for _, rows := range []int{4, 1} {
				f.whileGE(i, int32(rows), func() {
					if vecs == 0 {
						column(rows)
					} else {
						tile(rows, vecs)
					}
					f.addTo(i, -int32(rows))
					for range rows {
						f.addLocal(rowA, prm[wasmsimd.GemmARS])
						f.addLocal(colC, prm[wasmsimd.GemmLDC])
					}
				})
			}
			if vecs == 2 {
				f.addLocal(colB, prm[wasmsimd.GemmPanel])
			} else {
				f.addTo(colB, 4*w)
			}
			f.addTo(colC0, 4*w)
			f.addTo(j, -w)
		})
	}
	f.end()
	return f
}

// Assemble returns the kernels' module (see wasmsimd.Module, which holds
// its bytes as generated by Assemble): the plain variant, or with relaxed
// the one whose products use relaxed-SIMD's multiply-add.
func Assemble(relaxed bool) []byte {
	return module([]*fn{gemmFn(relaxed), cellFn(), expFn(), tanhFn()}) // expIndex, tanhIndex
}
