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
// is finite: x*0 is 0 for finite x and NaN otherwise, and NaN sticks in the
// running sum. Two accumulators of each kind hide the instruction latency.
TEXT ·rowMaxKernel(SB), NOSPLIT, $0-21
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVL $0xff800000, AX
	MOVQ AX, X0
	SHUFPS $0, X0, X0
	MOVAPS X0, X4 // second max accumulator
	XORPS X6, X6 // zeros
	XORPS X7, X7 // running sum of x*0
	XORPS X5, X5 // second running sum
loop8:
	CMPQ  CX, $8
	JLT   loop4
	MOVUPS (SI), X1
	MOVUPS 16(SI), X2
	MAXPS X1, X0
	MAXPS X2, X4
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

// func maxAddTriKernel(dst *float32, dstStep int, a *float32, aStep int, src *float32, srcStep int, rows, len0 int)
// For r < rows while len0-r > 0: with d = dst + r*dstStep, s = src + r*srcStep
// and b = a[r*aStep], sets d[x] = max(d[x], b + s[x]) for x < len0-r. Steps
// are in floats. One call updates a whole triangle of chart cells.
TEXT ·maxAddTriKernel(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ dstStep+8(FP), R13
	SHLQ $2, R13
	MOVQ a+16(FP), R8
	MOVQ aStep+24(FP), R9
	SHLQ $2, R9
	MOVQ src+32(FP), SI
	MOVQ srcStep+40(FP), R10
	SHLQ $2, R10
	MOVQ rows+48(FP), R11
	MOVQ len0+56(FP), R12
row:
	TESTQ R11, R11
	JEQ  done
	TESTQ R12, R12
	JLE  done
	MOVSS (R8), X0
	SHUFPS $0, X0, X0
	MOVQ DI, DX
	MOVQ SI, BX
	MOVQ R12, CX
l8:
	CMPQ CX, $8
	JLT  l4
	MOVUPS (BX), X1
	MOVUPS 16(BX), X3
	ADDPS X0, X1
	ADDPS X0, X3
	MOVUPS (DX), X2
	MOVUPS 16(DX), X4
	MAXPS X2, X1
	MAXPS X4, X3
	MOVUPS X1, (DX)
	MOVUPS X3, 16(DX)
	ADDQ $32, BX
	ADDQ $32, DX
	SUBQ $8, CX
	JMP  l8
l4:
	CMPQ CX, $4
	JLT  l1
	MOVUPS (BX), X1
	ADDPS X0, X1
	MOVUPS (DX), X2
	MAXPS X2, X1
	MOVUPS X1, (DX)
	ADDQ $16, BX
	ADDQ $16, DX
	SUBQ $4, CX
l1:
	TESTQ CX, CX
	JEQ  next
	MOVSS (BX), X1
	ADDSS X0, X1
	MOVSS (DX), X2
	MAXSS X2, X1
	MOVSS X1, (DX)
	ADDQ $4, BX
	ADDQ $4, DX
	DECQ CX
	JMP  l1
next:
	ADDQ R13, DI
	ADDQ R10, SI
	ADDQ R9, R8
	DECQ R11
	DECQ R12
	JMP  row
done:
	RET
