package network

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSoftTargetsLimits: the mixed target reduces to the gold loss when the
// teacher has no weight, or when the teacher is the gold one-hot itself; a
// teacher that differs from gold changes the loss.
func TestSoftTargetsLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	c := smallConfig().NoDropout()
	m := randomModel(t, c, 5)
	batch := randomBatch(c, 6, 5, 8, 2)
	gold, err := m.Loss(batch)
	if err != nil {
		t.Fatal(err)
	}
	// oneHot returns the gold classes of every cell as a teacher.
	oneHot := func(ex Example, weight float64) *Soft {
		n := ex.Input.Len()
		s := &Soft{Weight: weight}
		for k, target := range [numKinds][]int{ex.Targets.Cont, ex.Targets.Disc, ex.Targets.Gap} {
			for x := 0; x < n; x++ {
				for y := x; y < n; y++ {
					if cl := target[x*n+y]; cl > 0 {
						probs := make([]float32, c.Labels)
						probs[cl-1] = 1
						s.Cells[k] = append(s.Cells[k], SoftCell{Cell: int32(x*n + y), Probs: probs})
					}
				}
			}
		}
		return s
	}
	cases := []struct {
		name  string
		soft  func(ex Example) *Soft
		equal bool
	}{
		{"random teacher, weight 0", func(ex Example) *Soft { return randomSoft(rng, ex.Input.Len(), c.Labels, 0) }, true},
		{"one-hot gold teacher, weight 1", func(ex Example) *Soft { return oneHot(ex, 1) }, true},
		{"one-hot gold teacher, weight 0.4", func(ex Example) *Soft { return oneHot(ex, 0.4) }, true},
		{"random teacher, weight 0.4", func(ex Example) *Soft { return randomSoft(rng, ex.Input.Len(), c.Labels, 0.4) }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := make([]Example, len(batch))
			copy(b, batch)
			for i := range b {
				b[i].Targets.Soft = tc.soft(b[i])
			}
			got, err := m.Loss(b)
			if err != nil {
				t.Fatal(err)
			}
			same := math.Abs(got.Total-gold.Total) <= 1e-5*gold.Total
			if same != tc.equal {
				t.Errorf("loss %g, gold-only loss %g: equal = %v, want %v", got.Total, gold.Total, same, tc.equal)
			}
		})
	}
}

func TestSoftTargetsChecked(t *testing.T) {
	c := smallConfig()
	probs := func(ps ...float32) []float32 {
		out := make([]float32, c.Labels)
		copy(out, ps)
		return out
	}
	cases := []struct {
		name string
		soft Soft
		want string
	}{
		{"weight above 1", Soft{Weight: 1.5}, "weight 1.5"},
		{"weight NaN", Soft{Weight: math.NaN()}, "weight NaN"},
		{"cell below the diagonal", Soft{Weight: 0.5, Cells: [numKinds][]SoftCell{{{Cell: 1*3 + 0, Probs: probs(0.5)}}}}, "cont soft targets: cell 3"},
		{"cells out of order", Soft{Weight: 0.5, Cells: [numKinds][]SoftCell{nil, {{Cell: 2, Probs: probs(0.5)}, {Cell: 1, Probs: probs(0.5)}}}}, "disc soft targets: cell 1 out of order"},
		{"cell past the sentence", Soft{Weight: 0.5, Cells: [numKinds][]SoftCell{nil, nil, {{Cell: 9, Probs: probs(0.5)}}}}, "gap soft targets: cell 9"},
		{"wrong label count", Soft{Weight: 0.5, Cells: [numKinds][]SoftCell{{{Cell: 0, Probs: []float32{0.5}}}}}, "1 probabilities, want"},
		{"negative probability", Soft{Weight: 0.5, Cells: [numKinds][]SoftCell{{{Cell: 0, Probs: probs(-0.1)}}}}, "probability -0.1"},
		{"sum above 1", Soft{Weight: 0.5, Cells: [numKinds][]SoftCell{{{Cell: 4, Probs: probs(0.7, 0.6)}}}}, "(1,1): probabilities sum to 1.3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex := randomBatch(c, 1, 3)[0]
			ex.Targets.Soft = &tc.soft
			_, err := (&Model{Params: randomModel(t, c, 1).Params}).Loss([]Example{ex})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestLabelProbs(t *testing.T) {
	row := []float32{1, -2, 0}
	probs := make([]float32, len(row))
	mass := LabelProbs(row, probs)
	z := 1 + math.Exp(1) + math.Exp(-2) + 1 // the null class (logit 0) first
	for a, v := range row {
		if want := math.Exp(float64(v)) / z; math.Abs(float64(probs[a])-want) > 1e-7 {
			t.Errorf("label %d: %g, want %g", a, probs[a], want)
		}
	}
	if want := 1 - 1/z; math.Abs(mass-want) > 1e-12 {
		t.Errorf("mass %g, want %g", mass, want)
	}
}
