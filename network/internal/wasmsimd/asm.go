package wasmsimd

import "math"

// A small WebAssembly assembler: just what the kernels need (one memory,
// imported; functions of i32 parameters and no results; structured control
// flow; i32, f32 and v128 instructions). Each method appends one
// instruction to the function's body, in the order of the stack machine.

// Value types.
const (
	tI32  = 0x7f
	tF32  = 0x7d
	tV128 = 0x7b
)

// fn is a function being assembled.
type fn struct {
	name    string // exported under this name; "" for none
	params  []byte // parameter types
	results []byte // result types
	nparams int
	locals  []byte // types of the locals after the parameters
	body    []byte
}

// newFn returns an exported function of nparams i32 parameters and no
// result.
func newFn(name string, nparams int) *fn {
	f := &fn{name: name, nparams: nparams}
	for range nparams {
		f.params = append(f.params, tI32)
	}
	return f
}

// newVecFn returns an internal function from one v128 to one v128.
func newVecFn() *fn {
	return &fn{params: []byte{tV128}, results: []byte{tV128}, nparams: 1}
}

// call emits a call of the function of index i in the module.
func (f *fn) call(i int) { f.op(0x10); f.u32(uint32(i)) }

// local declares a new local of type t and returns its index.
func (f *fn) local(t byte) uint32 {
	f.locals = append(f.locals, t)
	return uint32(f.nparams + len(f.locals) - 1)
}

func (f *fn) op(b ...byte) { f.body = append(f.body, b...) }

func (f *fn) u32(v uint32) { f.body = appendU32(f.body, v) }

func appendU32(b []byte, v uint32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendS32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// Variables.
func (f *fn) get(l uint32) { f.op(0x20); f.u32(l) }
func (f *fn) set(l uint32) { f.op(0x21); f.u32(l) }

// Constants.
func (f *fn) i32(v int32) { f.op(0x41); f.body = appendS32(f.body, v) }
func (f *fn) f32(v float32) {
	b := math.Float32bits(v)
	f.op(0x43, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
}

// Control: block, loop and if take no values and leave none.
func (f *fn) block()   { f.op(0x02, 0x40) }
func (f *fn) loop()    { f.op(0x03, 0x40) }
func (f *fn) ifThen()  { f.op(0x04, 0x40) }
func (f *fn) orElse()  { f.op(0x05) }
func (f *fn) end()     { f.op(0x0b) }
func (f *fn) br(d int) { f.op(0x0c); f.u32(uint32(d)) }
func (f *fn) brIf(d int) {
	f.op(0x0d)
	f.u32(uint32(d))
}

// i32 arithmetic and comparisons.
func (f *fn) i32Add()            { f.op(0x6a) }
func (f *fn) i32Sub()            { f.op(0x6b) }
func (f *fn) i32Mul()            { f.op(0x6c) }
func (f *fn) i32Shl()            { f.op(0x74) }
func (f *fn) i32Eqz()            { f.op(0x45) }
func (f *fn) i32Ne()             { f.op(0x47) }
func (f *fn) i32LtS()            { f.op(0x48) }
func (f *fn) i32Load(off uint32) { f.mem(0x28, 2, off) }

// f32 scalars.
func (f *fn) f32Add() { f.op(0x92) }
func (f *fn) f32Mul() { f.op(0x94) }
func (f *fn) f32Load(off uint32) {
	f.mem(0x2a, 2, off)
}
func (f *fn) f32Store(off uint32) { f.mem(0x38, 2, off) }

// mem emits a memory instruction with its alignment (log2) and offset.
func (f *fn) mem(op byte, align, off uint32) {
	f.op(op)
	f.u32(align)
	f.u32(off)
}

// SIMD instructions (prefix 0xfd, then the opcode as a LEB128 u32).
func (f *fn) simd(op uint32) { f.op(0xfd); f.u32(op) }

const (
	opV128Load        = 0x00
	opV128Load32Splat = 0x09
	opV128Store       = 0x0b
	opV128Const       = 0x0c
	opF32x4Splat      = 0x13
	opF32x4Lt         = 0x43
	opF32x4Gt         = 0x44
	opV128Andnot      = 0x4f
	opV128Bitselect   = 0x52
	opF32x4Floor      = 0x68
	opI32x4Shl        = 0xab
	opI32x4Add        = 0xae
	opF32x4Abs        = 0xe0
	opF32x4Neg        = 0xe1
	opF32x4Add        = 0xe4
	opF32x4Sub        = 0xe5
	opF32x4Mul        = 0xe6
	opF32x4Div        = 0xe7
	opF32x4Pmin       = 0xea // b < a ? b : a
	opI32x4TruncSatS  = 0xf8
	opF32x4RelaxMadd  = 0x105 // relaxed-SIMD: a*b+c, fused or not
)

// v128F32 pushes the vector of four copies of v.
func (f *fn) v128F32(v float32) {
	f.simd(opV128Const)
	b := math.Float32bits(v)
	for range 4 {
		f.op(byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
	}
}

func (f *fn) v128Load(off uint32) {
	f.simd(opV128Load)
	f.u32(4)
	f.u32(off)
}

func (f *fn) v128Store(off uint32) {
	f.simd(opV128Store)
	f.u32(4)
	f.u32(off)
}

// v128Load32Splat pushes the vector of four copies of the float32 at the
// address on the stack (one broadcast load).
func (f *fn) v128Load32Splat() {
	f.simd(opV128Load32Splat)
	f.u32(2)
	f.u32(0)
}

// v128Zero pushes a zero vector.
func (f *fn) v128Zero() {
	f.simd(opV128Const)
	f.op(make([]byte, 16)...)
}

// addTo emits l += v for an i32 local l and constant v.
func (f *fn) addTo(l uint32, v int32) {
	f.get(l)
	f.i32(v)
	f.i32Add()
	f.set(l)
}

// addLocal emits l += m for i32 locals.
func (f *fn) addLocal(l, m uint32) {
	f.get(l)
	f.get(m)
	f.i32Add()
	f.set(l)
}

// whileGE emits `while l >= v { body }` for an i32 local l.
func (f *fn) whileGE(l uint32, v int32, body func()) {
	f.block()
	f.loop()
	f.get(l)
	f.i32(v)
	f.i32LtS()
	f.brIf(1)
	body()
	f.br(0)
	f.end()
	f.end()
}

// module assembles a module that imports its memory as env.memory and
// holds the functions fns (function i of the module is fns[i]), exporting
// the named ones.
func module(fns []*fn) []byte {
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	section := func(id byte, body []byte) {
		out = append(out, id)
		out = appendU32(out, uint32(len(body)))
		out = append(out, body...)
	}
	name := func(b []byte, s string) []byte {
		return append(appendU32(b, uint32(len(s))), s...)
	}
	// Types: one per function (duplicates are allowed).
	var b []byte
	b = appendU32(b, uint32(len(fns)))
	for _, f := range fns {
		b = append(b, 0x60)
		b = appendU32(b, uint32(len(f.params)))
		b = append(b, f.params...)
		b = appendU32(b, uint32(len(f.results)))
		b = append(b, f.results...)
	}
	section(1, b)
	// Import: the memory, at least 0 pages, no maximum.
	b = appendU32(nil, 1)
	b = name(b, "env")
	b = name(b, "memory")
	b = append(b, 0x02, 0x00, 0x00)
	section(2, b)
	b = appendU32(nil, uint32(len(fns)))
	for i := range fns {
		b = appendU32(b, uint32(i))
	}
	section(3, b)
	exported := 0
	for _, f := range fns {
		if f.name != "" {
			exported++
		}
	}
	b = appendU32(nil, uint32(exported))
	for i, f := range fns {
		if f.name != "" {
			b = name(b, f.name)
			b = append(b, 0x00)
			b = appendU32(b, uint32(i))
		}
	}
	section(7, b)
	b = appendU32(nil, uint32(len(fns)))
	for _, f := range fns {
		var c []byte
		// The locals as runs of one type.
		var runs [][2]int
		for _, t := range f.locals {
			if n := len(runs); n > 0 && runs[n-1][1] == int(t) {
				runs[n-1][0]++
			} else {
				runs = append(runs, [2]int{1, int(t)})
			}
		}
		c = appendU32(c, uint32(len(runs)))
		for _, r := range runs {
			c = appendU32(c, uint32(r[0]))
			c = append(c, byte(r[1]))
		}
		c = append(c, f.body...)
		c = append(c, 0x0b)
		b = appendU32(b, uint32(len(c)))
		b = append(b, c...)
	}
	section(10, b)
	return out
}
