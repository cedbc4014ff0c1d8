package weights

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refHalf rounds x to binary16 by float64 arithmetic (an independent
// reference): the nearest multiple of the binary16 spacing at x's binade,
// ties to even, Inf beyond the largest finite value's rounding range.
func refHalf(x float32) float64 {
	f := float64(x)
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	_, e := math.Frexp(math.Abs(f)) // |f| = m * 2^e, m in [0.5, 1)
	ulp := math.Ldexp(1, max(e-11, -24))
	r := math.RoundToEven(f/ulp) * ulp
	if math.Abs(r) > maxHalf {
		return math.Copysign(math.Inf(1), f)
	}
	if r == 0 {
		return math.Copysign(0, f)
	}
	return r
}

func TestHalfExhaustive(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := fromHalf(uint16(h))
		if math.IsNaN(float64(f)) {
			if h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
				t.Fatalf("%#04x decodes to NaN", h)
			}
			continue
		}
		if got := toHalf(f); got != uint16(h) {
			t.Fatalf("%#04x -> %v -> %#04x", h, f, got)
		}
	}
}

func TestHalfRounding(t *testing.T) {
	cases := []struct {
		name string
		x    float32
		want uint16
	}{
		{"zero", 0, 0},
		{"negative zero", float32(math.Copysign(0, -1)), 0x8000},
		{"one", 1, 0x3c00},
		{"minus two", -2, 0xc000},
		{"max", 65504, 0x7bff},
		{"below overflow tie", 65519.99, 0x7bff},
		{"overflow tie to even", 65520, 0x7c00},
		{"overflow", 1e6, 0x7c00},
		{"negative overflow", -1e6, 0xfc00},
		{"inf", float32(math.Inf(1)), 0x7c00},
		{"smallest normal", 0x1p-14, 0x0400},
		{"largest subnormal", 0x3ffp-24, 0x03ff},
		{"subnormal rounds up to normal", 0x3ff.8p-24, 0x0400},
		{"smallest subnormal", 0x1p-24, 0x0001},
		{"half smallest subnormal ties to zero", 0x1p-25, 0x0000},
		{"just above half smallest subnormal", 0x1.000002p-25, 0x0001},
		{"1.5 smallest subnormal ties to even", 0x1.8p-24, 0x0002},
		{"underflow", 1e-10, 0},
		{"tie to even down", 1 + 0x1p-11, 0x3c00},
		{"tie to even up", 1 + 3*0x1p-11, 0x3c02},
		{"above tie", 1 + 0x1p-11 + 0x1p-23, 0x3c01},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := toHalf(tc.x); got != tc.want {
				t.Errorf("toHalf(%v) = %#04x, want %#04x", tc.x, got, tc.want)
			}
		})
	}
	if h := toHalf(float32(math.NaN())); h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
		t.Errorf("NaN -> %#04x", h)
	}
}

func TestHalfAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2_000_000; i++ {
		var x float32
		switch i % 3 {
		case 0: // any float32 bit pattern in the half range and around it
			x = math.Float32frombits(uint32(rng.IntN(0x47900000-0x32000000)+0x32000000) | rng.Uint32()&0x80000000)
		case 1:
			x = float32(rng.NormFloat64())
		case 2: // subnormal range
			x = float32(rng.Float64() * 0x1p-13)
		}
		got := float64(fromHalf(toHalf(x)))
		if want := refHalf(x); got != want || math.Signbit(got) != math.Signbit(want) {
			t.Fatalf("%v (%#08x): got %v, want %v", x, math.Float32bits(x), got, want)
		}
		if a := math.Abs(float64(x)); a >= 0x1p-14 && a <= maxHalf {
			if rel := math.Abs(got-float64(x)) / a; rel > 0x1p-11 {
				t.Fatalf("%v: relative error %g > 2^-11", x, rel)
			}
		}
	}
}
