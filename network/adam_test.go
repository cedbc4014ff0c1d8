package network

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randomParams(t *testing.T, seed uint64, scale float64) *Params {
	t.Helper()
	p, err := NewParams(tinyTestConfig())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	for _, ts := range p.Tensors() {
		for i := range ts.Data {
			ts.Data[i] = float32(scale * (2*rng.Float64() - 1))
		}
	}
	return p
}

// TestAdamFirstStep: at step 1 the bias-corrected update is lr*g/(|g|+eps),
// i.e. lr*sign(g), whatever the clipping.
func TestAdamFirstStep(t *testing.T) {
	for _, tc := range []struct {
		name      string
		gradScale float64
	}{{"unclipped", 0.01}, {"clipped", 10}} {
		t.Run(tc.name, func(t *testing.T) {
			p := randomParams(t, 1, 1)
			g := randomParams(t, 2, tc.gradScale)
			g.Tensors()[0].Data[0] = 0 // no gradient, no move
			before := p.Clone()
			opt := NewAdam(DefaultAdam(), p)
			norm, err := opt.Update(p, g)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(norm-g.Norm()) > 1e-9 {
				t.Errorf("norm %g, want %g", norm, g.Norm())
			}
			scale := 1.0
			if norm > 5 {
				scale = 5 / (norm + 1e-6)
			}
			for i, ts := range p.Tensors() {
				for j, v := range ts.Data {
					gj := float64(g.Tensors()[i].Data[j])
					want := float64(before.Tensors()[i].Data[j]) - 1e-3*sign(gj)
					if math.Abs(float64(v)-want) > 1e-6 {
						t.Fatalf("%s[%d] = %g, want %g", ts.Name, j, v, want)
					}
					if m := float64(opt.M.Tensors()[i].Data[j]); math.Abs(m-0.1*scale*gj) > 1e-6*math.Abs(gj)+1e-12 {
						t.Fatalf("%s[%d]: m = %g, want %g", ts.Name, j, m, 0.1*scale*gj)
					}
				}
			}
		})
	}
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func TestAdamLearningRate(t *testing.T) {
	c := DefaultAdam()
	for _, tc := range []struct {
		step int
		want float64
	}{{1, 1e-3}, {5000, 1e-3}, {5001, 7.5e-4}, {10000, 7.5e-4}, {10001, 5.625e-4}} {
		if got := c.LearningRate(tc.step); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("step %d: lr %g, want %g", tc.step, got, tc.want)
		}
	}
}

// TestAdamStateRoundTrip: an optimiser restored from a gob- or
// JSON-encoded checkpoint continues exactly like the original.
func TestAdamStateRoundTrip(t *testing.T) {
	codecs := []struct {
		name string
		code func(AdamState) (AdamState, error)
	}{
		{"gob", func(s AdamState) (AdamState, error) {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(s); err != nil {
				return AdamState{}, err
			}
			var out AdamState
			return out, gob.NewDecoder(&buf).Decode(&out)
		}},
		{"json", func(s AdamState) (AdamState, error) {
			b, err := json.Marshal(s)
			if err != nil {
				return AdamState{}, err
			}
			var out AdamState
			return out, json.Unmarshal(b, &out)
		}},
	}
	for _, tc := range codecs {
		t.Run(tc.name, func(t *testing.T) {
			p := randomParams(t, 3, 1)
			opt := NewAdam(DefaultAdam(), p)
			grad := func(k uint64) *Params { return randomParams(t, 100+k, 1) }
			for k := range uint64(3) {
				opt.Update(p, grad(k))
			}
			state, err := tc.code(opt.State())
			if err != nil {
				t.Fatal(err)
			}
			q := p.Clone()
			opt2, err := RestoreAdam(state, q)
			if err != nil {
				t.Fatal(err)
			}
			for k := uint64(3); k < 5; k++ {
				opt.Update(p, grad(k))
				opt2.Update(q, grad(k))
			}
			if opt2.Step != 5 {
				t.Errorf("step %d, want 5", opt2.Step)
			}
			for i, ts := range p.Tensors() {
				if !slices.Equal(ts.Data, q.Tensors()[i].Data) {
					t.Errorf("%s: restored optimiser diverged", ts.Name)
				}
			}
		})
	}
}

func TestAdamRejectsMismatch(t *testing.T) {
	p := randomParams(t, 4, 1)
	other, _ := NewParams(smallConfig())
	if _, err := NewAdam(DefaultAdam(), p).Update(p, other); err == nil {
		t.Error("Update: no error for a gradient of another shape")
	}
	state := NewAdam(DefaultAdam(), other).State()
	if _, err := RestoreAdam(state, p); err == nil {
		t.Error("RestoreAdam: no error for moments of another shape")
	}
}
