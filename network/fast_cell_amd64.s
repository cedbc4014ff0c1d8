//go:build amd64 && !purego

#include "textflag.h"

// Vectorised LSTM cell and exponentials (8 lanes) for the optimised path:
// the polynomials of fast_math.go evaluated with AVX2/FMA.

DATA cellc<>+0(SB)/4, $0x42b00000
DATA cellc<>+4(SB)/4, $0x42b00000
DATA cellc<>+8(SB)/4, $0x42b00000
DATA cellc<>+12(SB)/4, $0x42b00000
DATA cellc<>+16(SB)/4, $0x42b00000
DATA cellc<>+20(SB)/4, $0x42b00000
DATA cellc<>+24(SB)/4, $0x42b00000
DATA cellc<>+28(SB)/4, $0x42b00000
DATA cellc<>+32(SB)/4, $0xc2aeac50
DATA cellc<>+36(SB)/4, $0xc2aeac50
DATA cellc<>+40(SB)/4, $0xc2aeac50
DATA cellc<>+44(SB)/4, $0xc2aeac50
DATA cellc<>+48(SB)/4, $0xc2aeac50
DATA cellc<>+52(SB)/4, $0xc2aeac50
DATA cellc<>+56(SB)/4, $0xc2aeac50
DATA cellc<>+60(SB)/4, $0xc2aeac50
DATA cellc<>+64(SB)/4, $0x3fb8aa3b
DATA cellc<>+68(SB)/4, $0x3fb8aa3b
DATA cellc<>+72(SB)/4, $0x3fb8aa3b
DATA cellc<>+76(SB)/4, $0x3fb8aa3b
DATA cellc<>+80(SB)/4, $0x3fb8aa3b
DATA cellc<>+84(SB)/4, $0x3fb8aa3b
DATA cellc<>+88(SB)/4, $0x3fb8aa3b
DATA cellc<>+92(SB)/4, $0x3fb8aa3b
DATA cellc<>+96(SB)/4, $0x3f000000
DATA cellc<>+100(SB)/4, $0x3f000000
DATA cellc<>+104(SB)/4, $0x3f000000
DATA cellc<>+108(SB)/4, $0x3f000000
DATA cellc<>+112(SB)/4, $0x3f000000
DATA cellc<>+116(SB)/4, $0x3f000000
DATA cellc<>+120(SB)/4, $0x3f000000
DATA cellc<>+124(SB)/4, $0x3f000000
DATA cellc<>+128(SB)/4, $0x3f318000
DATA cellc<>+132(SB)/4, $0x3f318000
DATA cellc<>+136(SB)/4, $0x3f318000
DATA cellc<>+140(SB)/4, $0x3f318000
DATA cellc<>+144(SB)/4, $0x3f318000
DATA cellc<>+148(SB)/4, $0x3f318000
DATA cellc<>+152(SB)/4, $0x3f318000
DATA cellc<>+156(SB)/4, $0x3f318000
DATA cellc<>+160(SB)/4, $0xb95e8083
DATA cellc<>+164(SB)/4, $0xb95e8083
DATA cellc<>+168(SB)/4, $0xb95e8083
DATA cellc<>+172(SB)/4, $0xb95e8083
DATA cellc<>+176(SB)/4, $0xb95e8083
DATA cellc<>+180(SB)/4, $0xb95e8083
DATA cellc<>+184(SB)/4, $0xb95e8083
DATA cellc<>+188(SB)/4, $0xb95e8083
DATA cellc<>+192(SB)/4, $0x39506967
DATA cellc<>+196(SB)/4, $0x39506967
DATA cellc<>+200(SB)/4, $0x39506967
DATA cellc<>+204(SB)/4, $0x39506967
DATA cellc<>+208(SB)/4, $0x39506967
DATA cellc<>+212(SB)/4, $0x39506967
DATA cellc<>+216(SB)/4, $0x39506967
DATA cellc<>+220(SB)/4, $0x39506967
DATA cellc<>+224(SB)/4, $0x3ab743ce
DATA cellc<>+228(SB)/4, $0x3ab743ce
DATA cellc<>+232(SB)/4, $0x3ab743ce
DATA cellc<>+236(SB)/4, $0x3ab743ce
DATA cellc<>+240(SB)/4, $0x3ab743ce
DATA cellc<>+244(SB)/4, $0x3ab743ce
DATA cellc<>+248(SB)/4, $0x3ab743ce
DATA cellc<>+252(SB)/4, $0x3ab743ce
DATA cellc<>+256(SB)/4, $0x3c088908
DATA cellc<>+260(SB)/4, $0x3c088908
DATA cellc<>+264(SB)/4, $0x3c088908
DATA cellc<>+268(SB)/4, $0x3c088908
DATA cellc<>+272(SB)/4, $0x3c088908
DATA cellc<>+276(SB)/4, $0x3c088908
DATA cellc<>+280(SB)/4, $0x3c088908
DATA cellc<>+284(SB)/4, $0x3c088908
DATA cellc<>+288(SB)/4, $0x3d2aa9c1
DATA cellc<>+292(SB)/4, $0x3d2aa9c1
DATA cellc<>+296(SB)/4, $0x3d2aa9c1
DATA cellc<>+300(SB)/4, $0x3d2aa9c1
DATA cellc<>+304(SB)/4, $0x3d2aa9c1
DATA cellc<>+308(SB)/4, $0x3d2aa9c1
DATA cellc<>+312(SB)/4, $0x3d2aa9c1
DATA cellc<>+316(SB)/4, $0x3d2aa9c1
DATA cellc<>+320(SB)/4, $0x3e2aaaaa
DATA cellc<>+324(SB)/4, $0x3e2aaaaa
DATA cellc<>+328(SB)/4, $0x3e2aaaaa
DATA cellc<>+332(SB)/4, $0x3e2aaaaa
DATA cellc<>+336(SB)/4, $0x3e2aaaaa
DATA cellc<>+340(SB)/4, $0x3e2aaaaa
DATA cellc<>+344(SB)/4, $0x3e2aaaaa
DATA cellc<>+348(SB)/4, $0x3e2aaaaa
DATA cellc<>+352(SB)/4, $0x3f000000
DATA cellc<>+356(SB)/4, $0x3f000000
DATA cellc<>+360(SB)/4, $0x3f000000
DATA cellc<>+364(SB)/4, $0x3f000000
DATA cellc<>+368(SB)/4, $0x3f000000
DATA cellc<>+372(SB)/4, $0x3f000000
DATA cellc<>+376(SB)/4, $0x3f000000
DATA cellc<>+380(SB)/4, $0x3f000000
DATA cellc<>+384(SB)/4, $0x3f800000
DATA cellc<>+388(SB)/4, $0x3f800000
DATA cellc<>+392(SB)/4, $0x3f800000
DATA cellc<>+396(SB)/4, $0x3f800000
DATA cellc<>+400(SB)/4, $0x3f800000
DATA cellc<>+404(SB)/4, $0x3f800000
DATA cellc<>+408(SB)/4, $0x3f800000
DATA cellc<>+412(SB)/4, $0x3f800000
DATA cellc<>+416(SB)/4, $0x7f
DATA cellc<>+420(SB)/4, $0x7f
DATA cellc<>+424(SB)/4, $0x7f
DATA cellc<>+428(SB)/4, $0x7f
DATA cellc<>+432(SB)/4, $0x7f
DATA cellc<>+436(SB)/4, $0x7f
DATA cellc<>+440(SB)/4, $0x7f
DATA cellc<>+444(SB)/4, $0x7f
DATA cellc<>+448(SB)/4, $0x80000000
DATA cellc<>+452(SB)/4, $0x80000000
DATA cellc<>+456(SB)/4, $0x80000000
DATA cellc<>+460(SB)/4, $0x80000000
DATA cellc<>+464(SB)/4, $0x80000000
DATA cellc<>+468(SB)/4, $0x80000000
DATA cellc<>+472(SB)/4, $0x80000000
DATA cellc<>+476(SB)/4, $0x80000000
DATA cellc<>+480(SB)/4, $0x7fffffff
DATA cellc<>+484(SB)/4, $0x7fffffff
DATA cellc<>+488(SB)/4, $0x7fffffff
DATA cellc<>+492(SB)/4, $0x7fffffff
DATA cellc<>+496(SB)/4, $0x7fffffff
DATA cellc<>+500(SB)/4, $0x7fffffff
DATA cellc<>+504(SB)/4, $0x7fffffff
DATA cellc<>+508(SB)/4, $0x7fffffff
DATA cellc<>+512(SB)/4, $0x3f200000
DATA cellc<>+516(SB)/4, $0x3f200000
DATA cellc<>+520(SB)/4, $0x3f200000
DATA cellc<>+524(SB)/4, $0x3f200000
DATA cellc<>+528(SB)/4, $0x3f200000
DATA cellc<>+532(SB)/4, $0x3f200000
DATA cellc<>+536(SB)/4, $0x3f200000
DATA cellc<>+540(SB)/4, $0x3f200000
DATA cellc<>+544(SB)/4, $0xbbbaf0ea
DATA cellc<>+548(SB)/4, $0xbbbaf0ea
DATA cellc<>+552(SB)/4, $0xbbbaf0ea
DATA cellc<>+556(SB)/4, $0xbbbaf0ea
DATA cellc<>+560(SB)/4, $0xbbbaf0ea
DATA cellc<>+564(SB)/4, $0xbbbaf0ea
DATA cellc<>+568(SB)/4, $0xbbbaf0ea
DATA cellc<>+572(SB)/4, $0xbbbaf0ea
DATA cellc<>+576(SB)/4, $0x3ca9134e
DATA cellc<>+580(SB)/4, $0x3ca9134e
DATA cellc<>+584(SB)/4, $0x3ca9134e
DATA cellc<>+588(SB)/4, $0x3ca9134e
DATA cellc<>+592(SB)/4, $0x3ca9134e
DATA cellc<>+596(SB)/4, $0x3ca9134e
DATA cellc<>+600(SB)/4, $0x3ca9134e
DATA cellc<>+604(SB)/4, $0x3ca9134e
DATA cellc<>+608(SB)/4, $0xbd5c1e2d
DATA cellc<>+612(SB)/4, $0xbd5c1e2d
DATA cellc<>+616(SB)/4, $0xbd5c1e2d
DATA cellc<>+620(SB)/4, $0xbd5c1e2d
DATA cellc<>+624(SB)/4, $0xbd5c1e2d
DATA cellc<>+628(SB)/4, $0xbd5c1e2d
DATA cellc<>+632(SB)/4, $0xbd5c1e2d
DATA cellc<>+636(SB)/4, $0xbd5c1e2d
DATA cellc<>+640(SB)/4, $0x3e088393
DATA cellc<>+644(SB)/4, $0x3e088393
DATA cellc<>+648(SB)/4, $0x3e088393
DATA cellc<>+652(SB)/4, $0x3e088393
DATA cellc<>+656(SB)/4, $0x3e088393
DATA cellc<>+660(SB)/4, $0x3e088393
DATA cellc<>+664(SB)/4, $0x3e088393
DATA cellc<>+668(SB)/4, $0x3e088393
DATA cellc<>+672(SB)/4, $0xbeaaaa99
DATA cellc<>+676(SB)/4, $0xbeaaaa99
DATA cellc<>+680(SB)/4, $0xbeaaaa99
DATA cellc<>+684(SB)/4, $0xbeaaaa99
DATA cellc<>+688(SB)/4, $0xbeaaaa99
DATA cellc<>+692(SB)/4, $0xbeaaaa99
DATA cellc<>+696(SB)/4, $0xbeaaaa99
DATA cellc<>+700(SB)/4, $0xbeaaaa99
DATA cellc<>+704(SB)/4, $0x40000000
DATA cellc<>+708(SB)/4, $0x40000000
DATA cellc<>+712(SB)/4, $0x40000000
DATA cellc<>+716(SB)/4, $0x40000000
DATA cellc<>+720(SB)/4, $0x40000000
DATA cellc<>+724(SB)/4, $0x40000000
DATA cellc<>+728(SB)/4, $0x40000000
DATA cellc<>+732(SB)/4, $0x40000000
GLOBL cellc<>(SB), RODATA|NOPTR, $736

// EXP sets X to e^X (X clamped to [-87.34, 88]); T1..T3 are clobbered.
#define EXP(X, T1, T2, T3) \
	VMINPS cellc<>+0(SB), X, X \
	VMAXPS cellc<>+32(SB), X, X \
	VMOVUPS cellc<>+96(SB), T1 \
	VFMADD231PS cellc<>+64(SB), X, T1 \
	VROUNDPS $1, T1, T1 \
	VFNMADD231PS cellc<>+128(SB), T1, X \
	VFNMADD231PS cellc<>+160(SB), T1, X \
	VMOVUPS cellc<>+192(SB), T2 \
	VFMADD213PS cellc<>+224(SB), X, T2 \
	VFMADD213PS cellc<>+256(SB), X, T2 \
	VFMADD213PS cellc<>+288(SB), X, T2 \
	VFMADD213PS cellc<>+320(SB), X, T2 \
	VFMADD213PS cellc<>+352(SB), X, T2 \
	VMULPS X, X, T3 \
	VFMADD213PS X, T3, T2 \
	VADDPS cellc<>+384(SB), T2, T2 \
	VCVTPS2DQ T1, T1 \
	VPADDD cellc<>+416(SB), T1, T1 \
	VPSLLD $23, T1, T1 \
	VMULPS T1, T2, X

// SIGMOID sets X to 1/(1+e^-X).
#define SIGMOID(X, T1, T2, T3) \
	VXORPS cellc<>+448(SB), X, X \
	EXP(X, T1, T2, T3) \
	VADDPS cellc<>+384(SB), X, X \
	VMOVUPS cellc<>+384(SB), T1 \
	VDIVPS X, T1, X

// TANH sets X to tanh(X): x + x z P(z) (z = x²) below 0.625 in magnitude,
// ±(1 - 2/(e^2|x|+1)) above.
#define TANH(X, A, S, P, E, T1, T2, T3) \
	VANDPS cellc<>+480(SB), X, A \
	VANDPS cellc<>+448(SB), X, S \
	VMULPS X, X, T3 \
	VMOVUPS cellc<>+544(SB), P \
	VFMADD213PS cellc<>+576(SB), T3, P \
	VFMADD213PS cellc<>+608(SB), T3, P \
	VFMADD213PS cellc<>+640(SB), T3, P \
	VFMADD213PS cellc<>+672(SB), T3, P \
	VMULPS T3, P, P \
	VFMADD213PS X, X, P \
	VADDPS A, A, E \
	EXP(E, T1, T2, T3) \
	VADDPS cellc<>+384(SB), E, E \
	VMOVUPS cellc<>+704(SB), T1 \
	VDIVPS E, T1, E \
	VMOVUPS cellc<>+384(SB), T1 \
	VSUBPS E, T1, E \
	VORPS S, E, E \
	VCMPPS $1, cellc<>+512(SB), A, T3 \
	VBLENDVPS T3, P, E, X

// func sigmoidRowsAVX(x *float32, ldx int, b *float32, n, rows int)
// x[r*ldx+j] = σ(x[r*ldx+j] + b[j]) for r < rows, j < n (a multiple of 8).
TEXT ·sigmoidRowsAVX(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ ldx+8(FP), DX
	SHLQ $2, DX
	MOVQ rows+32(FP), BX
sigrow:
	MOVQ b+16(FP), R8
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	MOVQ SI, DI
sigloop:
	VMOVUPS (DI), Y0
	VADDPS (R8), Y0, Y0
	SIGMOID(Y0, Y1, Y2, Y3)
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, R8
	DECQ CX
	JNE sigloop
	ADDQ DX, SI
	DECQ BX
	JNE sigrow
	VZEROUPPER
	RET

// func tanhRowsAVX(x *float32, ldx int, b *float32, n, rows int)
// x[r*ldx+j] = tanh(x[r*ldx+j] + b[j]) for r < rows, j < n (a multiple of 8).
TEXT ·tanhRowsAVX(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ ldx+8(FP), DX
	SHLQ $2, DX
	MOVQ rows+32(FP), BX
tanhrow:
	MOVQ b+16(FP), R8
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	MOVQ SI, DI
tanhloop:
	VMOVUPS (DI), Y0
	VADDPS (R8), Y0, Y0
	TANH(Y0, Y4, Y5, Y6, Y7, Y1, Y2, Y3)
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, R8
	DECQ CX
	JNE tanhloop
	ADDQ DX, SI
	DECQ BX
	JNE tanhrow
	VZEROUPPER
	RET

// func cellOutRowsAVX(a, cp, c, tc, h *float32, hid, rows int)
// For each of rows rows (a: 4*hid per row; cp, c, tc, h: hid per row), with
// the activated gates i, f, g, o of a: c = f*cp + i*g; tc = tanh(c);
// h = o*tc. hid is a multiple of 8.
TEXT ·cellOutRowsAVX(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ cp+8(FP), R8
	MOVQ c+16(FP), R9
	MOVQ tc+24(FP), R10
	MOVQ h+32(FP), R11
	MOVQ hid+40(FP), DX
	SHLQ $2, DX
	MOVQ rows+48(FP), BX
outrow:
	MOVQ hid+40(FP), CX
	SHRQ $3, CX
	LEAQ (SI)(DX*2), R12  // g block
outloop:
	VMOVUPS (SI)(DX*1), Y8    // f
	VMULPS (R8), Y8, Y8       // f*cp
	VMOVUPS (SI), Y9          // i
	VFMADD231PS (R12), Y9, Y8 // + i*g
	VMOVUPS Y8, (R9)
	TANH(Y8, Y4, Y5, Y6, Y7, Y1, Y2, Y3)
	VMOVUPS Y8, (R10)
	VMULPS (R12)(DX*1), Y8, Y8 // o*tc
	VMOVUPS Y8, (R11)
	ADDQ $32, SI
	ADDQ $32, R12
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ CX
	JNE outloop
	LEAQ (SI)(DX*2), SI   // past the g and o blocks to the next row
	ADDQ DX, SI
	DECQ BX
	JNE outrow
	VZEROUPPER
	RET

// func lstmCellBackRowsAVX(gt, cp, tc, dh, dc, da *float32, hid, rows int)
// The gate gradients of lstmCellBackward for rows rows (gt, da: 4*hid per
// row; cp, tc, dh, dc: hid per row), 8 lanes at a time (hid a multiple of
// 8).
TEXT ·lstmCellBackRowsAVX(SB), NOSPLIT, $0-64
	MOVQ gt+0(FP), SI
	MOVQ cp+8(FP), R8
	MOVQ tc+16(FP), R9
	MOVQ dh+24(FP), R10
	MOVQ dc+32(FP), R11
	MOVQ da+40(FP), DI
	MOVQ hid+48(FP), DX
	SHLQ $2, DX
	MOVQ rows+56(FP), BX
	VMOVUPS cellc<>+384(SB), Y15   // 1
backrow:
	MOVQ hid+48(FP), CX
	SHRQ $3, CX
	LEAQ (SI)(DX*2), R12
	LEAQ (DI)(DX*2), R13
backloop:
	VMOVUPS (SI), Y0          // i
	VMOVUPS (SI)(DX*1), Y1    // f
	VMOVUPS (R12), Y2         // g
	VMOVUPS (R12)(DX*1), Y3   // o
	VMOVUPS (R9), Y4          // t
	VMOVUPS (R10), Y5         // dh
	// dc = dh*o*(1-t*t) + dc
	VMULPS Y4, Y4, Y6
	VSUBPS Y6, Y15, Y6        // 1-t*t
	VMULPS Y3, Y5, Y7         // dh*o
	VMULPS Y6, Y7, Y7
	VADDPS (R11), Y7, Y7      // dcj
	VMULPS Y1, Y7, Y8
	VMOVUPS Y8, (R11)         // dc = dcj*f
	// di = dcj*g*i*(1-i)
	VMULPS Y2, Y7, Y8
	VMULPS Y0, Y8, Y8
	VSUBPS Y0, Y15, Y9
	VMULPS Y9, Y8, Y8
	VMOVUPS Y8, (DI)
	// df = dcj*cp*f*(1-f)
	VMULPS (R8), Y7, Y8
	VMULPS Y1, Y8, Y8
	VSUBPS Y1, Y15, Y9
	VMULPS Y9, Y8, Y8
	VMOVUPS Y8, (DI)(DX*1)
	// dg = dcj*i*(1-g*g)
	VMULPS Y0, Y7, Y8
	VMULPS Y2, Y2, Y9
	VSUBPS Y9, Y15, Y9
	VMULPS Y9, Y8, Y8
	VMOVUPS Y8, (R13)
	// do = dh*t*o*(1-o)
	VMULPS Y4, Y5, Y8
	VMULPS Y3, Y8, Y8
	VSUBPS Y3, Y15, Y9
	VMULPS Y9, Y8, Y8
	VMOVUPS Y8, (R13)(DX*1)
	ADDQ $32, SI
	ADDQ $32, R12
	ADDQ $32, DI
	ADDQ $32, R13
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ CX
	JNE backloop
	LEAQ (SI)(DX*2), SI   // past the g and o blocks
	ADDQ DX, SI
	LEAQ (DI)(DX*2), DI
	ADDQ DX, DI
	DECQ BX
	JNE backrow
	VZEROUPPER
	RET

// func expShiftAVX(dst, src *float32, n int, m float32)
// dst[i] = e^(src[i]-m) for i < n (a multiple of 8).
TEXT ·expShiftAVX(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	VBROADCASTSS m+24(FP), Y5
exploop:
	VMOVUPS (SI), Y0
	VSUBPS Y5, Y0, Y0
	EXP(Y0, Y1, Y2, Y3)
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE exploop
	VZEROUPPER
	RET

// func rowMax0AVX(x *float32, n int) (m float32)
// m = max(0, x[0..n)) for n a multiple of 8 (>= 8).
TEXT ·rowMax0AVX(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VXORPS Y0, Y0, Y0
maxloop:
	VMAXPS (SI), Y0, Y0
	ADDQ $32, SI
	DECQ CX
	JNE maxloop
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	MOVSS X0, m+16(FP)
	VZEROUPPER
	RET

// func rowSumAVX(x *float32, n int) (s float32)
// s = Σ x[0..n) for n a multiple of 8 (>= 8), 8 partial sums then a tree.
TEXT ·rowSumAVX(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VXORPS Y0, Y0, Y0
sumloop:
	VADDPS (SI), Y0, Y0
	ADDQ $32, SI
	DECQ CX
	JNE sumloop
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VADDPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VADDPS X1, X0, X0
	MOVSS X0, s+16(FP)
	VZEROUPPER
	RET

// func scaleRowAVX(dst, src *float32, n int, f float32)
// dst = f*src for n a multiple of 8.
TEXT ·scaleRowAVX(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	VBROADCASTSS f+24(FP), Y1
scaleloop:
	VMULPS (SI), Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE scaleloop
	VZEROUPPER
	RET

// func leakyAVX(dst, src *float32, n int, slope float32)
// dst = src if src > 0, else slope*src; n a multiple of 8.
TEXT ·leakyAVX(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	VBROADCASTSS slope+24(FP), Y1
	VXORPS Y2, Y2, Y2
leakyloop:
	VMOVUPS (SI), Y0
	VMULPS Y0, Y1, Y3
	VCMPPS $0x1e, Y2, Y0, Y4   // src > 0 (GT_OQ)
	VBLENDVPS Y4, Y0, Y3, Y0   // src > 0 ? src : slope*src
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE leakyloop
	VZEROUPPER
	RET

// func leakyBackAVX(dz, z *float32, n int, slope float32)
// dz *= slope where z <= 0; n a multiple of 8.
TEXT ·leakyBackAVX(SB), NOSPLIT, $0-28
	MOVQ dz+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	VBROADCASTSS slope+24(FP), Y1
	VXORPS Y2, Y2, Y2
leakybloop:
	VMOVUPS (DI), Y0
	VMULPS Y0, Y1, Y3
	VMOVUPS (SI), Y5
	VCMPPS $0x12, Y2, Y5, Y4    // z <= 0 (LE_OQ)
	VBLENDVPS Y4, Y3, Y0, Y0    // z <= 0 ? slope*dz : dz
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNE leakybloop
	VZEROUPPER
	RET

// func colSumsAVX(db, x *float32, rows, n int)
// db[j] += Σ_r x[r*n+j] for j < n (a multiple of 8), rows >= 1, summing
// the rows in order.
TEXT ·colSumsAVX(SB), NOSPLIT, $0-32
	MOVQ db+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+24(FP), DX
	SHLQ $2, DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
colblock:
	VMOVUPS (DI), Y0
	MOVQ SI, R8
	MOVQ rows+16(FP), BX
colrow:
	VADDPS (R8), Y0, Y0
	ADDQ DX, R8
	DECQ BX
	JNE colrow
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ CX
	JNE colblock
	VZEROUPPER
	RET
