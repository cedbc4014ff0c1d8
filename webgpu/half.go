package webgpu

import (
	"github.com/x448/float16"

	"github.com/discspan/discspan/network"
)

// toHalf returns the IEEE 754 binary16 bits nearest to f, ties to even
// (github.com/x448/float16); magnitudes beyond the largest half (65504)
// become ±Inf, NaN stays NaN.
func toHalf(f float32) uint16 { return float16.Fromfloat32(f).Bits() }

// fromHalf returns the float32 value of binary16 bits (exact).
func fromHalf(h uint16) float32 { return float16.Frombits(h).Float32() }

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
	q.Changed()
	return q
}
