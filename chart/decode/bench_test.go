package decode

import (
	"fmt"
	"testing"
)

// BenchmarkDecode measures seconds per sentence on random scores with 30
// labels, the setting of the reference C++ figures in decoder.md (n6 and
// n6wn only up to n=40 in short mode).
func BenchmarkDecode(b *testing.B) {
	for _, v := range Variants {
		for _, n := range []int{20, 40, 80} {
			if testing.Short() && n == 80 && v >= N5WN {
				continue
			}
			s := randomScores(uint64(n), n, 30, 1)
			b.Run(fmt.Sprintf("%s_%d", v, n), func(b *testing.B) {
				b.ReportAllocs()
				dec := NewDecoder(nil)
				for b.Loop() {
					if _, err := dec.Decode(v, s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkConstrained measures the overhead of constraints at n=40 with
// 30 labels: each variant decodes the same scores unconstrained and under
// five constraints (three requirements, one relabelling a constituent of
// the unconstrained optimum and one discontinuous, and two forbidden
// yields).
func BenchmarkConstrained(b *testing.B) {
	for _, v := range []Variant{N4, N6} {
		s := randomScores(40, 40, 30, 1)
		free, err := Decode(v, s, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs := free.Constituents()
		c := &Constraints{
			Require: []Required{
				{Label: cs[0].Label, Blocks: cs[0].Blocks},
				{Label: (cs[len(cs)/2].Label + 1) % s.L, Blocks: cs[len(cs)/2].Blocks},
				{Label: 4, Blocks: [][2]int{{5, 9}, {15, 18}}},
			},
			Forbid: []Forbidden{{Blocks: cs[1].Blocks}, {Blocks: [][2]int{{20, 26}, {30, 31}}}},
		}
		for _, run := range []struct {
			name string
			c    *Constraints
		}{{"none", nil}, {"five", c}} {
			b.Run(fmt.Sprintf("%s_40/%s", v, run.name), func(b *testing.B) {
				dec := NewDecoder(nil)
				for b.Loop() {
					if _, err := dec.DecodeConstrained(v, s, run.c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDecodeFresh measures the full-chart variants at n=20 with a
// fresh Decoder per sentence, as Bench and the reference figures do: at
// this length chart allocation is a visible part of the time.
func BenchmarkDecodeFresh(b *testing.B) {
	for _, v := range []Variant{N5WN, N5, N6WN, N6} {
		s := randomScores(20, 20, 30, 1)
		b.Run(fmt.Sprintf("%s_20", v), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewDecoder(nil).Decode(v, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
