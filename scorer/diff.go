package scorer

import "math"

// Diff is how far a result is from a reference result of the same
// sentence (see Compare): the one comparison of backends' scores that the
// WebGPU self-check, bench score and the browser check make.
type Diff struct {
	// Scores and Tags are the largest absolute differences of the span
	// scores (cont, disc and gap) and of the tag logits.
	Scores, Tags float64
	// Relative is the largest difference relative to max(1, the largest
	// |value| of the reference's tensor), and Where names that tensor
	// ("disc scores", ...).
	Relative float64
	Where    string
}

// Compare compares got with the reference want. Where shapes differ, a
// tensor is missing or got holds a NaN, every field is +Inf and Where says
// so.
func Compare(got, want Result) Diff {
	if got.Scores == nil || want.Scores == nil {
		if got.Scores == want.Scores {
			return compareTensors([3][]float32{}, [3][]float32{}, got.Tags, want.Tags)
		}
		return infinite("scores (one result has none)")
	}
	return compareTensors(
		[3][]float32{got.Scores.Cont, got.Scores.Disc, got.Scores.Gap},
		[3][]float32{want.Scores.Cont, want.Scores.Disc, want.Scores.Gap},
		got.Tags, want.Tags)
}

// compareTensors compares the score tensors (cont, disc, gap; nil arrays
// when there are none) and the tag logits.
func compareTensors(got, want [3][]float32, gotTags, wantTags []float32) Diff {
	names := [4]string{"cont scores", "disc scores", "gap scores", "tag logits"}
	var d Diff
	for k := range names {
		g, w := gotTags, wantTags
		if k < 3 {
			g, w = got[k], want[k]
		}
		if len(g) != len(w) {
			return infinite(names[k] + " (sizes differ)")
		}
		scale := 1.0
		for _, v := range w {
			scale = math.Max(scale, math.Abs(float64(v)))
		}
		worst := 0.0
		for j, v := range w {
			diff := math.Abs(float64(g[j]) - float64(v))
			if math.IsNaN(diff) {
				return infinite(names[k] + " (NaN)")
			}
			worst = math.Max(worst, diff)
		}
		if k < 3 {
			d.Scores = math.Max(d.Scores, worst)
		} else {
			d.Tags = worst
		}
		if rel := worst / scale; rel > d.Relative || d.Where == "" {
			d.Relative, d.Where = rel, names[k]
		}
	}
	return d
}

// infinite is the Diff of results that cannot be compared.
func infinite(where string) Diff {
	inf := math.Inf(1)
	return Diff{Scores: inf, Tags: inf, Relative: inf, Where: where}
}

// Max returns the larger of d and o field by field; Where goes with the
// larger Relative.
func (d Diff) Max(o Diff) Diff {
	out := Diff{Scores: math.Max(d.Scores, o.Scores), Tags: math.Max(d.Tags, o.Tags), Relative: d.Relative, Where: d.Where}
	if o.Relative > d.Relative || d.Where == "" {
		out.Relative, out.Where = o.Relative, o.Where
	}
	return out
}
