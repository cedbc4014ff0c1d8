package scorer

import (
	"math"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

func TestCompare(t *testing.T) {
	result := func(cont, disc, gap, tags []float32) Result {
		return Result{Scores: &decode.Scores{N: 1, L: len(cont), Cont: cont, Disc: disc, Gap: gap}, Tags: tags}
	}
	nan := float32(math.NaN())
	ref := result([]float32{1, 2}, []float32{-40, 0}, []float32{0, 0}, []float32{3})
	inf := math.Inf(1)
	tests := []struct {
		name                   string
		got, want              Result
		scores, tags, relative float64
		where                  string
	}{
		{"equal", ref, ref, 0, 0, 0, "cont scores"},
		{"a score off by 2, relative to 40", result([]float32{1, 2}, []float32{-38, 0}, []float32{0, 0}, []float32{3}), ref, 2, 0, 0.05, "disc scores"},
		{"a small value off by 0.5 weighs more", result([]float32{1, 2.5}, []float32{-40, 1}, []float32{0, 0}, []float32{3}), ref, 1, 0, 0.25, "cont scores"},
		{"a tag logit", result([]float32{1, 2}, []float32{-40, 0}, []float32{0, 0}, []float32{3.75}), ref, 0, 0.75, 0.25, "tag logits"},
		{"NaN", result([]float32{1, 2}, []float32{-40, 0}, []float32{nan, 0}, []float32{3}), ref, inf, inf, inf, "gap scores (NaN)"},
		{"sizes differ", result([]float32{1, 2}, []float32{-40, 0}, []float32{0, 0}, nil), ref, inf, inf, inf, "tag logits (sizes differ)"},
		{"no scores", Result{Tags: []float32{3}}, ref, inf, inf, inf, "scores (one result has none)"},
		{"neither has scores", Result{Tags: []float32{1}}, Result{Tags: []float32{3}}, 0, 2, 2.0 / 3, "tag logits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(tc.got, tc.want)
			if d.Scores != tc.scores || d.Tags != tc.tags || math.Abs(d.Relative-tc.relative) > 1e-12 && !(math.IsInf(d.Relative, 1) && math.IsInf(tc.relative, 1)) || d.Where != tc.where {
				t.Errorf("got %+v, want scores %v tags %v relative %v at %q", d, tc.scores, tc.tags, tc.relative, tc.where)
			}
		})
	}
	a := Diff{Scores: 1, Tags: 0, Relative: 0.1, Where: "cont scores"}
	b := Diff{Scores: 0.5, Tags: 2, Relative: 0.3, Where: "tag logits"}
	if m := a.Max(b); m != (Diff{Scores: 1, Tags: 2, Relative: 0.3, Where: "tag logits"}) {
		t.Errorf("Max: %+v", m)
	}
	if m := (Diff{}).Max(a); m != a {
		t.Errorf("Max from zero: %+v", m)
	}
}
