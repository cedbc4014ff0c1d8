package webgpu

import (
	"math"
	"testing"
)

func TestHalfRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   float32
		want float32
	}{
		{"one", 1, 1},
		{"minus two", -2, -2},
		{"zero", 0, 0},
		{"max half", 65504, 65504},
		{"overflow", 70000, float32(math.Inf(1))},
		{"smallest subnormal", 1.0 / (1 << 24), 1.0 / (1 << 24)},
		{"below half subnormal", 1.0 / (1 << 26), 0},
		{"tie to even down", 1 + 1.0/2048, 1},
		{"tie to even up", 1 + 3.0/2048, 1 + 2.0/1024},
		{"third", 1.0 / 3, 0.333251953125},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fromHalf(toHalf(c.in)); got != c.want {
				t.Errorf("fromHalf(toHalf(%g)) = %g, want %g", c.in, got, c.want)
			}
		})
	}
	// Every finite half converts back to itself.
	for h := 0; h < 1<<16; h++ {
		if h&0x7c00 == 0x7c00 {
			continue
		}
		if got := toHalf(fromHalf(uint16(h))); got != uint16(h) {
			t.Fatalf("toHalf(fromHalf(%#04x)) = %#04x", h, got)
		}
	}
}
