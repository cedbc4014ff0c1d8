//go:build amd64 && !purego

#include "textflag.h"

// func maxAddKernel(dst *float32, a float32, src *float32, n int)
// dst[i] = max(dst[i], a + src[i]) for i < n, four lanes at a time.
TEXT ·maxAddKernel(SB), NOSPLIT, $0-32
	MOVQ  dst+0(FP), DI
	MOVSS a+8(FP), X0
	SHUFPS $0, X0, X0
	MOVQ  src+16(FP), SI
	MOVQ  n+24(FP), CX
loop8:
	CMPQ  CX, $8
	JLT   loop4
	MOVUPS (SI), X1
	MOVUPS 16(SI), X3
	ADDPS X0, X1
	ADDPS X0, X3
	MOVUPS (DI), X2
	MOVUPS 16(DI), X4
	MAXPS X2, X1
	MAXPS X4, X3
	MOVUPS X1, (DI)
	MOVUPS X3, 16(DI)
	ADDQ  $32, SI
	ADDQ  $32, DI
	SUBQ  $8, CX
	JMP   loop8
loop4:
	CMPQ  CX, $4
	JLT   tail
	MOVUPS (SI), X1
	ADDPS X0, X1
	MOVUPS (DI), X2
	MAXPS X2, X1
	MOVUPS X1, (DI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	SUBQ  $4, CX
	JMP   loop4
tail:
	TESTQ CX, CX
	JEQ   done
	MOVSS (SI), X1
	ADDSS X0, X1
	MOVSS (DI), X2
	MAXSS X2, X1
	MOVSS X1, (DI)
	ADDQ  $4, SI
	ADDQ  $4, DI
	DECQ  CX
	JMP   tail
done:
	RET

// func maxSumKernel(x, y *float32, n int) float32
// Returns max over i < n of x[i] + y[i], or -Inf when n is 0.
TEXT ·maxSumKernel(SB), NOSPLIT, $0-28
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	MOVL $0xff800000, AX
	MOVQ AX, X0
	SHUFPS $0, X0, X0
	MOVAPS X0, X5
loop8:
	CMPQ  CX, $8
	JLT   loop4
	MOVUPS (SI), X1
	MOVUPS 16(SI), X3
	MOVUPS (DI), X2
	MOVUPS 16(DI), X4
	ADDPS X2, X1
	ADDPS X4, X3
	MAXPS X1, X0
	MAXPS X3, X5
	ADDQ  $32, SI
	ADDQ  $32, DI
	SUBQ  $8, CX
	JMP   loop8
loop4:
	MAXPS X5, X0
	CMPQ  CX, $4
	JLT   reduce
	MOVUPS (SI), X1
	MOVUPS (DI), X2
	ADDPS X2, X1
	MAXPS X1, X0
	ADDQ  $16, SI
	ADDQ  $16, DI
	SUBQ  $4, CX
reduce:
	MOVHLPS X0, X1
	MAXPS X1, X0
	MOVAPS X0, X1
	SHUFPS $0x55, X1, X1
	MAXSS X1, X0
tail:
	TESTQ CX, CX
	JEQ   done
	MOVSS (SI), X1
	ADDSS (DI), X1
	MAXSS X1, X0
	ADDQ  $4, SI
	ADDQ  $4, DI
	DECQ  CX
	JMP   tail
done:
	MOVSS X0, ret+24(FP)
	RET

// func rowMaxKernel(x *float32, n int) (m float32, finite bool)
// Returns max over i < n of x[i] (-Inf when n is 0) and whether every x[i]
// is finite and within ±MaxScore: x*2^28 is exact, and infinite for x
// beyond; (x*2^28)*0 is 0 for such finite x and NaN otherwise, and NaN
// sticks in the running sum. Two accumulators of each kind hide the
// instruction latency.
TEXT ·rowMaxKernel(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVL $0xff800000, AX
	MOVQ AX, X0
	SHUFPS $0, X0, X0
	MOVAPS X0, X4 // second max accumulator
	XORPS X6, X6 // zeros
	MOVL $0x4d800000, AX // 2^28
	MOVQ AX, X3
	SHUFPS $0, X3, X3
	XORPS X7, X7 // running sum of x*2^28*0
	XORPS X5, X5 // second running sum
loop8:
	CMPQ  CX, $8
	JLT   loop4
	MOVUPS (SI), X1
	MOVUPS 16(SI), X2
	MAXPS X1, X0
	MAXPS X2, X4
	MULPS X3, X1
	MULPS X3, X2
	MULPS X6, X1
	MULPS X6, X2
	ADDPS X1, X7
	ADDPS X2, X5
	ADDQ  $32, SI
	SUBQ  $8, CX
	JMP   loop8
loop4:
	MAXPS X4, X0
	ADDPS X5, X7
	CMPQ  CX, $4
	JLT   reduce
	MOVUPS (SI), X1
	MAXPS X1, X0
	MULPS X3, X1
	MULPS X6, X1
	ADDPS X1, X7
	ADDQ  $16, SI
	SUBQ  $4, CX
reduce:
	MOVHLPS X0, X1
	MAXPS X1, X0
	MOVAPS X0, X1
	SHUFPS $0x55, X1, X1
	MAXSS X1, X0
	MOVHLPS X7, X1
	ADDPS X1, X7
	MOVAPS X7, X1
	SHUFPS $0x55, X1, X1
	ADDSS X1, X7
tail:
	TESTQ CX, CX
	JEQ   done
	MOVSS (SI), X1
	MAXSS X1, X0
	MULSS X3, X1
	MULSS X6, X1
	ADDSS X1, X7
	ADDQ  $4, SI
	DECQ  CX
	JMP   tail
done:
	MOVSS X0, m+16(FP)
	UCOMISS X6, X7
	SETEQ AX
	SETPC BX
	ANDB BX, AX
	MOVB AX, finite+20(FP)
	RET

// func maxPlusRowsKernel(dst, p, rows *float32, stride, nrows, n int)
// dst[x] = max over r < nrows of p[r] + rows[r*stride + x], for x < n
// (nrows >= 1; stride in floats). Columns are processed in chunks of 16
// held in four registers across all rows, then 4, then 1.
TEXT ·maxPlusRowsKernel(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), R8
	MOVQ rows+16(FP), R9
	MOVQ stride+24(FP), R10
	SHLQ $2, R10
	MOVQ nrows+32(FP), R11
	MOVQ n+40(FP), R12
col16:
	CMPQ R12, $16
	JLT  col4
	MOVSS (R8), X0
	SHUFPS $0, X0, X0
	MOVUPS (R9), X1
	MOVUPS 16(R9), X2
	MOVUPS 32(R9), X3
	MOVUPS 48(R9), X4
	ADDPS X0, X1
	ADDPS X0, X2
	ADDPS X0, X3
	ADDPS X0, X4
	MOVQ R9, SI
	MOVQ $1, R13
r16:
	CMPQ R13, R11
	JGE  s16
	ADDQ R10, SI
	MOVSS (R8)(R13*4), X0
	SHUFPS $0, X0, X0
	MOVUPS (SI), X5
	MOVUPS 16(SI), X6
	MOVUPS 32(SI), X7
	MOVUPS 48(SI), X8
	ADDPS X0, X5
	ADDPS X0, X6
	ADDPS X0, X7
	ADDPS X0, X8
	MAXPS X5, X1
	MAXPS X6, X2
	MAXPS X7, X3
	MAXPS X8, X4
	INCQ R13
	JMP  r16
s16:
	MOVUPS X1, (DI)
	MOVUPS X2, 16(DI)
	MOVUPS X3, 32(DI)
	MOVUPS X4, 48(DI)
	ADDQ $64, DI
	ADDQ $64, R9
	SUBQ $16, R12
	JMP  col16
col4:
	CMPQ R12, $4
	JLT  col1
	MOVSS (R8), X0
	SHUFPS $0, X0, X0
	MOVUPS (R9), X1
	ADDPS X0, X1
	MOVQ R9, SI
	MOVQ $1, R13
r4:
	CMPQ R13, R11
	JGE  s4
	ADDQ R10, SI
	MOVSS (R8)(R13*4), X0
	SHUFPS $0, X0, X0
	MOVUPS (SI), X5
	ADDPS X0, X5
	MAXPS X5, X1
	INCQ R13
	JMP  r4
s4:
	MOVUPS X1, (DI)
	ADDQ $16, DI
	ADDQ $16, R9
	SUBQ $4, R12
	JMP  col4
col1:
	TESTQ R12, R12
	JEQ  done
	MOVSS (R8), X1
	ADDSS (R9), X1
	MOVQ R9, SI
	MOVQ $1, R13
r1:
	CMPQ R13, R11
	JGE  s1
	ADDQ R10, SI
	MOVSS (R8)(R13*4), X5
	ADDSS (SI), X5
	MAXSS X5, X1
	INCQ R13
	JMP  r1
s1:
	MOVSS X1, (DI)
	ADDQ $4, DI
	ADDQ $4, R9
	DECQ R12
	JMP  col1
done:
	RET

// func maxSumRowsKernel(out, d, rows *float32, nrows, n int)
// out[r] = max(0, max over a < n of d[a] + rows[r*n + a]) for r < nrows:
// the best-label weight of nrows discontinuous items that share their outer
// extent (d = disc scores) and whose gap rows are consecutive.
TEXT ·maxSumRowsKernel(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ d+8(FP), R8
	MOVQ rows+16(FP), SI
	MOVQ nrows+24(FP), R11
	MOVQ n+32(FP), R12
	XORPS X7, X7 // zero, the null label's weight
rowloop:
	TESTQ R11, R11
	JEQ  done
	MOVAPS X7, X0 // running max starts at 0: max(0, ...)
	MOVAPS X7, X5
	MOVQ R8, DX
	MOVQ R12, CX
l8:
	CMPQ CX, $8
	JLT  l4
	MOVUPS (DX), X1
	MOVUPS 16(DX), X3
	MOVUPS (SI), X2
	MOVUPS 16(SI), X4
	ADDPS X2, X1
	ADDPS X4, X3
	MAXPS X1, X0
	MAXPS X3, X5
	ADDQ $32, DX
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  l8
l4:
	MAXPS X5, X0
	CMPQ CX, $4
	JLT  red
	MOVUPS (DX), X1
	MOVUPS (SI), X2
	ADDPS X2, X1
	MAXPS X1, X0
	ADDQ $16, DX
	ADDQ $16, SI
	SUBQ $4, CX
red:
	MOVHLPS X0, X1
	MAXPS X1, X0
	MOVAPS X0, X1
	SHUFPS $0x55, X1, X1
	MAXSS X1, X0
l1:
	TESTQ CX, CX
	JEQ  store
	MOVSS (DX), X1
	ADDSS (SI), X1
	MAXSS X1, X0
	ADDQ $4, DX
	ADDQ $4, SI
	DECQ CX
	JMP  l1
store:
	MOVSS X0, (DI)
	ADDQ $4, DI
	DECQ R11
	JMP  rowloop
done:
	RET

// func maxSumRowsTriAVX2(out *float32, oStep int, d, rows *float32, rStep, nrows, len0, L int)
// For r < nrows and x < len0-r (nrows <= len0, 8 <= L <= 32):
// out[r*oStep+x] = max(0, max over a < L of d[a] + rows[r*rStep+x*L+a]).
// The labels are covered by four 8-float chunks at 0, 8, 16, 24, each
// clamped to start at most at L-8.
TEXT ·maxSumRowsTriAVX2(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ oStep+8(FP), R8
	SHLQ $2, R8
	MOVQ d+16(FP), AX
	MOVQ rows+24(FP), SI
	MOVQ rStep+32(FP), R9
	SHLQ $2, R9
	MOVQ nrows+40(FP), R10
	MOVQ len0+48(FP), R11
	MOVQ L+56(FP), DX
	LEAQ -8(DX), CX
	MOVQ $8, BX
	CMPQ BX, CX
	CMOVQGT CX, BX
	MOVQ $16, R12
	CMPQ R12, CX
	CMOVQGT CX, R12
	MOVQ $24, R13
	CMPQ R13, CX
	CMOVQGT CX, R13
	SHLQ $2, BX
	SHLQ $2, R12
	SHLQ $2, R13
	SHLQ $2, DX
	VMOVUPS (AX), Y4
	VMOVUPS (AX)(BX*1), Y5
	VMOVUPS (AX)(R12*1), Y6
	VMOVUPS (AX)(R13*1), Y7
	VXORPS Y8, Y8, Y8
row:
	MOVQ SI, AX
	XORQ CX, CX
item:
	VADDPS (AX), Y4, Y0
	VADDPS (AX)(BX*1), Y5, Y1
	VADDPS (AX)(R12*1), Y6, Y2
	VADDPS (AX)(R13*1), Y7, Y3
	VMAXPS Y1, Y0, Y0
	VMAXPS Y3, Y2, Y2
	VMAXPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x0e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x01, X0, X1
	VMAXSS X1, X0, X0
	VMAXSS X8, X0, X0
	VMOVSS X0, (DI)(CX*4)
	ADDQ DX, AX
	INCQ CX
	CMPQ CX, R11
	JLT  item
	ADDQ R8, DI
	ADDQ R9, SI
	DECQ R11
	DECQ R10
	JNE  row
	VZEROUPPER
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
// XCR0, the OS-enabled state components.
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func blockOuterAsm(D *float32, o, s int, C, CT *float32, n1, i int, offA *int)
// blockOuterRef in assembly (see blockOuter): create gap sets rows
// r = 1..s-2 of the block at D+o (row r ends at o+(r+1)*s, length s-1-r)
// to C[i][i+r] + CT[j][i+r+1..j-1]; then for sa = 3..s-1 (m = i+sa) kept
// left takes the maximum with C[m][j] + rows 1..sa-2 of block [i,m] (at
// offA[sa-3], row r ending at +(r+1)*sa, length sa-1-r) into the first
// sa-1-r cells of row r. Rows are done in vectors aligned to their ends.
TEXT ·blockOuterAsm(SB), NOSPLIT, $0-64
	MOVQ s+16(FP), R11
	MOVQ i+48(FP), AX
	MOVQ n1+40(FP), R9
	// create gap
	MOVQ R11, R13
	SHLQ $2, R13 // 4s: row step of the block
	LEAQ (R11)(R11*1), CX
	ADDQ o+8(FP), CX
	MOVQ D+0(FP), DI
	LEAQ (DI)(CX*4), DI // end of row 1: D + 4(o+2s)
	MOVQ AX, CX
	IMULQ R9, CX
	ADDQ AX, CX
	MOVQ C+24(FP), R8
	LEAQ 4(R8)(CX*4), R8 // &C[i][i+1]
	LEAQ (AX)(R11*1), CX // j
	MOVQ CX, DX
	IMULQ R9, DX
	ADDQ CX, DX
	MOVQ CT+32(FP), SI
	LEAQ (SI)(DX*4), SI // end of CT[j][..j-1]
	LEAQ -2(R11), R12 // rows and first length: s-2
setrow:
	MOVSS (R8), X0
	SHUFPS $0, X0, X0
	LEAQ 3(R12), CX
	SHRQ $2, CX
	MOVQ $-16, AX
setvec:
	MOVUPS (SI)(AX*1), X1
	ADDPS X0, X1
	MOVUPS X1, (DI)(AX*1)
	SUBQ $16, AX
	DECQ CX
	JNE  setvec
	ADDQ R13, DI
	ADDQ $4, R8
	DECQ R12
	JNE  setrow
	// kept left, sa = 3..s-1
	MOVQ $3, BX
	MOVQ offA+56(FP), R9
	MOVQ i+48(FP), AX
	LEAQ 3(AX), CX
	IMULQ n1+40(FP), CX
	ADDQ AX, CX
	ADDQ s+16(FP), CX
	MOVQ C+24(FP), R8
	LEAQ (R8)(CX*4), R8 // &C[i+3][j]
	MOVQ s+16(FP), DX
	ADDQ o+8(FP), DX
	MOVQ D+0(FP), CX
	LEAQ (CX)(DX*4), DX // D + 4(o+s)
klblock:
	CMPQ BX, s+16(FP)
	JGE  done
	MOVSS (R8), X0
	SHUFPS $0, X0, X0
	LEAQ (DX)(BX*4), DI // end of row 1 of the prefix: D + 4(o+s+sa)
	MOVQ (R9), CX
	LEAQ (CX)(BX*2), CX
	MOVQ D+0(FP), SI
	LEAQ (SI)(CX*4), SI // end of row 1 of block [i,m]: D + 4(offA+2sa)
	MOVQ BX, R10
	SHLQ $2, R10 // 4sa: row step of block [i,m]
	LEAQ -2(BX), R12 // rows and first length: sa-2
klrow:
	LEAQ 3(R12), CX
	SHRQ $2, CX
	MOVQ $-16, AX
klvec:
	MOVUPS (SI)(AX*1), X1
	ADDPS X0, X1
	MOVUPS (DI)(AX*1), X2
	MAXPS X2, X1
	MOVUPS X1, (DI)(AX*1)
	SUBQ $16, AX
	DECQ CX
	JNE  klvec
	ADDQ R13, DI
	ADDQ R10, SI
	DECQ R12
	JNE  klrow
	INCQ BX
	ADDQ $8, R9
	MOVQ n1+40(FP), CX
	LEAQ (R8)(CX*4), R8
	JMP  klblock
done:
	RET

// func blockRowsAsm(D *float32, o, s int, W, C *float32, n1, i int, off *int, wrapped bool) float32
// blockRowsRef in assembly (see blockRows). For each row r = 1..s-2
// (k = i+r, n = s-1-r items, j = i+s): items x = n-1..0 (l = k+1+x) get
// t[x] = max(t[x], max over y of t[x+1+y] + C[l][l+1+y]) + W[x], scalar
// (the operands were just stored), and the fill-gap maximum takes
// t[x] + C[k][l]; with wrapped, for l = k+3..j-1 the prefixes of rows
// r+1.. ending at column l take the maximum with t[l] + the rows of block
// [k,l]; then rows r+1..s-2 take the maximum with C[i][k] + the rows of
// block [k,j] and C[k][k2] + the end of row r. Scatters use vectors
// aligned to row ends.
TEXT ·blockRowsAsm(SB), NOSPLIT, $0-76
	MOVQ $1, BX
	MOVL $0xff800000, AX
	MOVQ AX, X10 // fill-gap maximum
rowtop:
	MOVQ s+16(FP), R11
	MOVQ i+48(FP), R12
	MOVQ n1+40(FP), R13
	LEAQ (R12)(BX*1), AX // k
	LEAQ 1(BX), CX
	IMULQ R11, CX // (r+1)s
	MOVQ W+24(FP), SI
	LEAQ -4(SI)(CX*4), SI // &W[last item of row r]
	ADDQ o+8(FP), CX
	MOVQ D+0(FP), DI
	LEAQ -4(DI)(CX*4), DI // &t[last item]
	MOVQ AX, CX
	IMULQ R13, CX
	ADDQ R12, CX
	ADDQ R11, CX // k*n1 + j
	MOVQ C+32(FP), R10
	LEAQ -4(R10)(CX*4), R9 // &C[k][j-1]
	LEAQ (R12)(R11*1), CX // j
	LEAQ -1(CX), DX
	IMULQ R13, DX
	ADDQ CX, DX
	LEAQ (R10)(DX*4), DX // &C[j-1][j]: end of the (empty) C row of the last item
	MOVQ R13, R8
	SHLQ $2, R8 // 4n1: from the end of C[l][l+1..j-1] to that of C[l-1][l..j-1]
	LEAQ 4(DI), R12 // end of the row
	MOVQ R11, R10
	SUBQ BX, R10
	DECQ R10 // items: s-1-r
	XORQ CX, CX // gather length
item:
	MOVSS (DI), X1
	MOVQ CX, AX
	NEGQ AX // cells -len..-1 from the ends
	JEQ  fin
	BTQ  $0, AX
	JCC  pair
	MOVSS (R12)(AX*4), X2
	ADDSS (DX)(AX*4), X2
	MAXSS X2, X1
	INCQ AX
	JEQ  fin
pair:
	MOVSS (R12)(AX*4), X2
	ADDSS (DX)(AX*4), X2
	MOVSS 4(R12)(AX*4), X3
	ADDSS 4(DX)(AX*4), X3
	MAXSS X2, X1
	MAXSS X3, X1
	ADDQ $2, AX
	JNE  pair
fin:
	ADDSS (SI), X1
	MOVSS X1, (DI)
	ADDSS (R9), X1
	MAXSS X1, X10
	SUBQ $4, DI
	SUBQ $4, SI
	SUBQ $4, R9
	SUBQ R8, DX
	INCQ CX
	DECQ R10
	JNE  item
	// rows r+1..s-2 below, if any
	MOVQ s+16(FP), R11
	LEAQ -2(R11), CX
	CMPQ BX, CX
	JGE  next
	MOVBLZX wrapped+64(FP), AX
	TESTQ AX, AX
	JEQ  scatter
	// wrapped, l = k+3..j-1 (g = l-k = 3..s-r-1)
	MOVQ i+48(FP), R12
	LEAQ (R12)(BX*1), AX // k
	MOVQ AX, CX
	IMULQ n1+40(FP), CX
	ADDQ AX, CX
	MOVQ off+56(FP), R9
	LEAQ 24(R9)(CX*8), R9 // &off[k*n1+k+3]
	MOVQ BX, CX
	IMULQ R11, CX
	ADDQ BX, CX
	ADDQ o+8(FP), CX // o + r*s + r
	MOVQ D+0(FP), R8
	LEAQ 12(R8)(CX*4), R8 // &t[l = k+3]
	MOVQ R11, R13
	SHLQ $2, R13 // 4s
	LEAQ (R8)(R13*1), DX // end of the prefix of row r+1 for l = k+3
	MOVQ $3, R12
wl:
	MOVQ s+16(FP), CX
	SUBQ BX, CX
	CMPQ R12, CX
	JGE  scatter
	MOVSS (R8), X0
	SHUFPS $0, X0, X0
	MOVQ DX, DI
	MOVQ (R9), CX
	LEAQ (CX)(R12*2), CX
	MOVQ D+0(FP), SI
	LEAQ (SI)(CX*4), SI // end of row 1 of block [k,l]
	MOVQ R12, R10
	SHLQ $2, R10 // its row step
	LEAQ -2(R12), R11 // rows and first length: g-2
wrow:
	LEAQ 3(R11), CX
	SHRQ $2, CX
	MOVQ $-16, AX
wvec:
	MOVUPS (SI)(AX*1), X1
	ADDPS X0, X1
	MOVUPS (DI)(AX*1), X2
	MAXPS X2, X1
	MOVUPS X1, (DI)(AX*1)
	SUBQ $16, AX
	DECQ CX
	JNE  wvec
	ADDQ R13, DI
	ADDQ R10, SI
	DECQ R11
	JNE  wrow
	INCQ R12
	ADDQ $4, R8
	ADDQ $8, R9
	ADDQ $4, DX
	JMP  wl
scatter:
	MOVQ s+16(FP), R11
	MOVQ i+48(FP), R12
	MOVQ n1+40(FP), R13
	LEAQ (R12)(BX*1), AX // k
	MOVQ R12, CX
	IMULQ R13, CX
	ADDQ AX, CX
	MOVQ C+32(FP), R9
	MOVSS (R9)(CX*4), X8
	SHUFPS $0, X8, X8 // C[i][k]
	MOVQ AX, CX
	IMULQ R13, CX
	ADDQ AX, CX
	LEAQ 4(R9)(CX*4), R8 // &C[k][k+1]
	MOVQ AX, CX
	IMULQ R13, CX
	ADDQ R12, CX
	ADDQ R11, CX // k*n1 + j
	MOVQ off+56(FP), SI
	MOVQ (SI)(CX*8), CX // offset of block [k,j]
	MOVQ R11, R10
	SUBQ BX, R10 // its size j-k
	LEAQ (CX)(R10*2), CX
	MOVQ D+0(FP), SI
	LEAQ (SI)(CX*4), SI // end of its row 1
	SHLQ $2, R10
	LEAQ 2(BX), CX
	IMULQ R11, CX
	ADDQ o+8(FP), CX
	MOVQ D+0(FP), DI
	LEAQ (DI)(CX*4), DI // end of row r+1
	MOVQ R11, R13
	SHLQ $2, R13 // 4s
	MOVQ DI, DX
	SUBQ R13, DX // end of row r
	LEAQ -2(R11), R12
	SUBQ BX, R12 // rows and first length: s-2-r
srow:
	MOVSS (R8), X9
	SHUFPS $0, X9, X9
	LEAQ 3(R12), CX
	SHRQ $2, CX
	MOVQ $-16, AX
svec:
	MOVUPS (SI)(AX*1), X1
	ADDPS X8, X1
	MOVUPS (DX)(AX*1), X2
	ADDPS X9, X2
	MOVUPS (DI)(AX*1), X3
	MAXPS X3, X1
	MAXPS X2, X1
	MOVUPS X1, (DI)(AX*1)
	SUBQ $16, AX
	DECQ CX
	JNE  svec
	ADDQ R13, DI
	ADDQ R10, SI
	ADDQ $4, R8
	DECQ R12
	JNE  srow
next:
	INCQ BX
	MOVQ s+16(FP), CX
	SUBQ $2, CX
	CMPQ BX, CX
	JLE  rowtop
	MOVSS X10, ret+72(FP)
	RET

// func maxAddTriEndAsm(dst *float32, dEnd, dStep int, a *float32, aStep int, src *float32, sEnd, sStep, rows, len0 int)
// For r < rows, with n = len0-r >= 1 and b = a[r*aStep], the n cells of
// dst ending at dEnd+r*dStep take the maximum of themselves and b + the n
// cells of src ending at sEnd+r*sStep, in ceil(n/4) vectors aligned to the
// row's end (the leftmost one reaching up to three cells before the row,
// see triPad).
TEXT ·maxAddTriEndAsm(SB), NOSPLIT, $0-80
	MOVQ dst+0(FP), DI
	MOVQ dEnd+8(FP), AX
	LEAQ (DI)(AX*4), DI
	MOVQ dStep+16(FP), R13
	SHLQ $2, R13
	MOVQ a+24(FP), R8
	MOVQ aStep+32(FP), R9
	SHLQ $2, R9
	MOVQ src+40(FP), SI
	MOVQ sEnd+48(FP), AX
	LEAQ (SI)(AX*4), SI
	MOVQ sStep+56(FP), R10
	SHLQ $2, R10
	MOVQ rows+64(FP), R11
	MOVQ len0+72(FP), R12
row:
	MOVSS (R8), X0
	SHUFPS $0, X0, X0
	LEAQ 3(R12), CX
	SHRQ $2, CX
	MOVQ $-16, AX
vec:
	MOVUPS (SI)(AX*1), X1
	ADDPS X0, X1
	MOVUPS (DI)(AX*1), X2
	MAXPS X2, X1
	MOVUPS X1, (DI)(AX*1)
	SUBQ $16, AX
	DECQ CX
	JNE  vec
	ADDQ R13, DI
	ADDQ R10, SI
	ADDQ R9, R8
	DECQ R12
	DECQ R11
	JNE  row
	RET
