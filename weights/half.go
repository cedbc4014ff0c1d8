package weights

import "github.com/x448/float16"

// Largest finite float16 value.
const maxHalf = 65504

// toHalf returns the IEEE 754 binary16 bits nearest to f, ties to even
// (github.com/x448/float16). Values whose magnitude rounds above maxHalf
// become ±Inf; NaN stays a NaN.
func toHalf(f float32) uint16 { return float16.Fromfloat32(f).Bits() }

// fromHalf returns the float32 value of binary16 bits (exact).
func fromHalf(h uint16) float32 { return float16.Frombits(h).Float32() }
