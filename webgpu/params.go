package webgpu

import "unsafe"

// The uniform parameter structs of the kernels, field for field the WGSL
// structs of the same names (TestUniformLayouts checks names, types and
// offsets against the .wgsl files). Every field is a 4-byte scalar, so the
// Go and WGSL layouts are both packed and the bytes of a value are its
// uniform contents.

// gatherParams is GatherParams of gather.wgsl.
type gatherParams struct {
	Rows, Dim, Ids, IDStride, Src, Dst, Ldd uint32
	SrcM, DstM                              uint32 // an ensemble's models at once (grid z)
}

// matmulParams is MatmulParams of matmul.wgsl.
type matmulParams struct {
	Rows, Cols, Inner    uint32
	A, Lda, ACols        uint32
	W, Wz, Ldw, TransW   uint32
	Bias, BiasZ, HasBias uint32
	C, Ldc, Cz           uint32
	Leaky                uint32
	Slope                float32
	Accum, Mean          uint32
	Az                   uint32
	ZIn, AM, WM, BiasM   uint32 // an ensemble's models at once: grid z = model*ZIn + z
	CM                   uint32
	Split, KPer          uint32 // Split > 1: the inner dimension in slices of KPer (see planner.innerSlices)
	Part, PartM          uint32 // the slices' sums: arena offset for model 0, step per model
}

// lstmParams is LSTMParams of lstm.wgsl.
type lstmParams struct {
	Hid, Step, Rows, Seqs, TokTable uint32
	X, Ldx                          uint32
	Whh, WhhZ                       uint32
	HIn, HOut, C                    uint32
	Out, Ldo, Col                   uint32
	WhhM, XM, OutM                  uint32 // lstm_loop.wgsl: steps per model (grid z)
	Interleaved                     uint32 // lstm_loop.wgsl: 1 reads lstm.wgsl's interleaved W_hhᵀ four gates a load
	Slices, SliceLen                uint32 // lstm_loop.wgsl split: invocations per unit, rows of W_hhᵀ each
}

// pairParams is PairParams of biaffine_pair.wgsl.
type pairParams struct {
	Outs, Dim, SentTable, T, R, Ldr, Out, Tile0 uint32
	KindSents, TKind, RKind, OutKind            uint32
	RM                                          uint32
}

// assembleParams is AssembleParams of assemble.wgsl.
type assembleParams struct {
	Labels, SentTable, Out, Spans, Kind, Mean uint32
	Lab, Accum                                uint32
	KindSents, LabKind, SpanKind              uint32
	Models, LabM, SpanM                       uint32
}

// uniformSlot is the byte distance between the parameter blocks of two
// dispatches in the uniform buffer (WebGPU's largest
// minUniformBufferOffsetAlignment).
const uniformSlot = 256

// paramBytes returns a copy of the bytes of *v (a parameter struct).
func paramBytes[T any](v *T) []byte {
	n := unsafe.Sizeof(*v)
	if n > uniformSlot {
		panic("webgpu: parameter struct larger than a uniform slot")
	}
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(v)), n)...)
}

// paramsOf decodes the uniform bytes of a parameter struct (paramBytes'
// inverse).
func paramsOf[T any](b []byte) T {
	var v T
	if len(b) != int(unsafe.Sizeof(v)) {
		panic("webgpu: parameter size mismatch")
	}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&v)), len(b)), b)
	return v
}
