package webgpu

import (
	"math"

	"github.com/discspan/discspan/network"
)

// toHalf returns the IEEE 754 binary16 bits nearest to f, ties to even;
// magnitudes beyond the largest half (65504) become ±Inf, NaN stays NaN.
func toHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	var m, rem, half uint32
	if e <= 0 {
		if e < -10 {
			return sign
		}
		full := mant | 0x800000
		shift := uint(14 - e)
		m, rem, half = full>>shift, full&(1<<shift-1), 1<<(shift-1)
		e = 0
	} else {
		m, rem, half = mant>>13, mant&0x1fff, 0x1000
	}
	h := sign | uint16(e)<<10 | uint16(m)
	if rem > half || rem == half && m&1 == 1 {
		h++ // a carry into the exponent is the correct rounding
	}
	return h
}

// fromHalf returns the float32 value of binary16 bits (exact).
func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case 0:
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// RoundFloat16 returns a copy of p with every value rounded to the nearest
// float16: the parameters a scorer built with WeightsF16 computes with. A
// CPU model over the result is the reference for such a scorer. Cost
// O(parameters).
func RoundFloat16(p *network.Params) *network.Params {
	q := p.Clone()
	for _, t := range q.Tensors() {
		for i, v := range t.Data {
			t.Data[i] = fromHalf(toHalf(v))
		}
	}
	return q
}
