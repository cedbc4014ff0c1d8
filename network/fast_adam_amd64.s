//go:build amd64 && !purego

#include "textflag.h"

// func adamAVX(p, gr, m, v *float32, n int, k *[8]float64)
// The Adam update of adam.go for n values (a multiple of 4), 4 at a time
// in float64 with the same operations in the same order (no FMA), so the
// results are those of the scalar code. k holds scale, β1, 1-β1, β2, 1-β2,
// lr/bc1, 1/bc2, eps.
TEXT ·adamAVX(SB), NOSPLIT, $0-48
	MOVQ p+0(FP), DI
	MOVQ gr+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	SHRQ $2, CX
	MOVQ k+40(FP), AX
	VBROADCASTSD 0(AX), Y8
	VBROADCASTSD 8(AX), Y9
	VBROADCASTSD 16(AX), Y10
	VBROADCASTSD 24(AX), Y11
	VBROADCASTSD 32(AX), Y12
	VBROADCASTSD 40(AX), Y13
	VBROADCASTSD 48(AX), Y14
	VBROADCASTSD 56(AX), Y15
adamloop:
	VCVTPS2PD (SI), Y0        // g
	VMULPD Y0, Y8, Y0         // gj = scale*g
	VCVTPS2PD (R8), Y1        // m
	VMULPD Y1, Y9, Y1         // β1*m
	VMULPD Y0, Y10, Y2        // (1-β1)*gj
	VADDPD Y2, Y1, Y1         // mj
	VCVTPS2PD (R9), Y3        // v
	VMULPD Y3, Y11, Y3        // β2*v
	VMULPD Y0, Y12, Y4        // (1-β2)*gj
	VMULPD Y0, Y4, Y4         // *gj
	VADDPD Y4, Y3, Y3         // vj
	VCVTPD2PSY Y1, X5
	VMOVUPS X5, (R8)          // m = float32(mj)
	VCVTPD2PSY Y3, X6
	VMOVUPS X6, (R9)          // v = float32(vj)
	VMULPD Y3, Y14, Y3        // vj/bc2
	VSQRTPD Y3, Y3
	VADDPD Y15, Y3, Y3        // + eps
	VMULPD Y1, Y13, Y1        // lr/bc1 * mj
	VDIVPD Y3, Y1, Y1
	VCVTPD2PSY Y1, X1
	VMOVUPS (DI), X2
	VSUBPS X1, X2, X2         // p -= float32(step)
	VMOVUPS X2, (DI)
	ADDQ $16, DI
	ADDQ $16, SI
	ADDQ $16, R8
	ADDQ $16, R9
	DECQ CX
	JNE adamloop
	VZEROUPPER
	RET

// func sumSquaresAVX(x *float32, n int) float64
// Σ x² in float64 for n a multiple of 16: four vectors of partial sums
// (lane i of vector j takes the values 16t+4j+i), added pairwise at the end.
TEXT ·sumSquaresAVX(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
sqloop:
	VCVTPS2PD (SI), Y4
	VCVTPS2PD 16(SI), Y5
	VCVTPS2PD 32(SI), Y6
	VCVTPS2PD 48(SI), Y7
	VFMADD231PD Y4, Y4, Y0
	VFMADD231PD Y5, Y5, Y1
	VFMADD231PD Y6, Y6, Y2
	VFMADD231PD Y7, Y7, Y3
	ADDQ $64, SI
	DECQ CX
	JNE sqloop
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VPERMILPD $1, X0, X1
	VADDSD X1, X0, X0
	MOVSD X0, ret+16(FP)
	VZEROUPPER
	RET
