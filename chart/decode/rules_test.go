package decode

import (
	"fmt"
	"testing"
)

// rewardTargets builds scores under which the best tree is exactly the given
// constituents (each worth 1, with a label of its own so that no two
// targets' disc and gap terms recombine), everything else scoring -2.
func rewardTargets(n int, targets [][][2]int) *Scores {
	s := NewScores(n, len(targets))
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for x := range t {
			t[x] = -2
		}
	}
	for c, b := range targets {
		if len(b) == 1 {
			s.Cont[s.Index(b[0][0], b[0][1]-1, c)] = 1
			continue
		}
		s.Disc[s.Index(b[0][0], b[1][1]-1, c)] = 0.5
		s.Gap[s.Index(b[0][1], b[1][0]-1, c)] = 0.5
	}
	return s
}

func blocks(b ...int) [][2]int {
	var out [][2]int
	for x := 0; x+1 < len(b); x += 2 {
		out = append(out, [2]int{b[x], b[x+1]})
	}
	return out
}

// TestEveryRule builds, for each deduction rule, a tree that only variants
// with that rule can build: the smallest such variant recovers every target
// and its derivation uses the rule; the variant below it cannot.
func TestEveryRule(t *testing.T) {
	cases := []struct {
		rule    Rule
		n       int
		targets [][][2]int
		v       Variant // smallest variant with the rule
		lower   []Variant
	}{
		{Combine, 3, [][][2]int{blocks(0, 2), blocks(0, 3)}, Continuous, nil},
		{CreateGap, 3, [][][2]int{blocks(0, 1, 2, 3)}, N4, []Variant{Continuous}},
		{FillGap, 4, [][][2]int{blocks(0, 1, 3, 4), blocks(0, 4)}, N4, []Variant{Continuous}},
		{KeptRight, 5, [][][2]int{blocks(1, 2, 3, 4), blocks(0, 2, 3, 4)}, N5WN, []Variant{N3, N4}},
		{KeptLeft, 5, [][][2]int{blocks(1, 2, 3, 4), blocks(1, 2, 3, 5)}, N5WN, []Variant{N3, N4}},
		{ShrinkLeft, 5, [][][2]int{blocks(0, 1, 3, 4), blocks(0, 2, 3, 4)}, N5WN, []Variant{N3, N4}},
		{ShrinkRight, 5, [][][2]int{blocks(0, 1, 3, 4), blocks(0, 1, 2, 4)}, N5WN, []Variant{N3, N4}},
		{IllNoGap, 4, [][][2]int{blocks(0, 1, 2, 3), blocks(1, 2, 3, 4)}, N5, []Variant{N5WN, N6WN}},
		{Wrapped, 5, [][][2]int{blocks(1, 2, 3, 4), blocks(0, 1, 4, 5), blocks(0, 2, 3, 5)}, N6WN, []Variant{N5WN, N5}},
		{IllGapCentre, 5, [][][2]int{blocks(0, 1, 3, 4), blocks(1, 2, 4, 5), blocks(0, 2, 3, 5)}, N6, []Variant{N6WN, N5}},
		{IllGapRight, 5, [][][2]int{blocks(0, 1, 2, 3), blocks(1, 2, 4, 5), blocks(0, 3, 4, 5)}, N6, []Variant{N6WN, N5}},
		{IllGapLeft, 5, [][][2]int{blocks(0, 1, 3, 4), blocks(2, 3, 4, 5), blocks(0, 1, 2, 5)}, N6, []Variant{N6WN, N5}},
	}
	for _, c := range cases {
		t.Run(c.rule.String(), func(t *testing.T) {
			s := rewardTargets(c.n, c.targets)
			d, err := Decode(c.v, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := float32(len(c.targets)); d.Score != want {
				t.Errorf("%s scores %v, want %v (every target)", c.v, d.Score, want)
			}
			used := false
			for _, it := range d.Items {
				used = used || it.Rule == c.rule
			}
			if !used {
				t.Errorf("%s derivation does not use %q: %+v", c.v, c.rule, d.Items)
			}
			got := map[string]bool{}
			for _, k := range d.Constituents() {
				got[fmt.Sprint(k.Blocks)] = true
			}
			for _, b := range c.targets {
				if !got[fmt.Sprint(b)] {
					t.Errorf("target %v missing from %v", b, d.Constituents())
				}
			}
			for _, lower := range c.lower {
				dl, err := Decode(lower, s, nil)
				if err != nil {
					t.Fatal(err)
				}
				if dl.Score >= d.Score {
					t.Errorf("%s, without %q, still scores %v", lower, c.rule, dl.Score)
				}
			}
		})
	}
}

// TestDecoderReuseAllocates: a reused Decoder allocates only the returned
// derivation, whatever the sentence length.
func TestDecoderReuseAllocates(t *testing.T) {
	for _, v := range Variants {
		dec := NewDecoder(nil)
		s := RandomScores(1, 24, 8)
		if _, err := dec.Decode(v, s); err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(5, func() {
			if _, err := dec.Decode(v, s); err != nil {
				t.Fatal(err)
			}
		})
		// Derivation, its item slice, weights and chart headers: a handful,
		// never one per cell.
		if allocs > 8 {
			t.Errorf("%s: %v allocations per decode with a reused decoder", v, allocs)
		}
	}
}
