package network

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// Finite-difference gradient checks, in float64, of every layer and of the
// whole model's loss. Each analytic gradient entry a is compared with the
// central difference n = (f(x+h) - f(x-h)) / 2h, h = 1e-5, and must satisfy
//
//	|a - n| <= gradRTol * max(|a|, |n|) + gradATol
//
// with gradRTol = 1e-5 and gradATol = 1e-7 (truncation error is O(h^2) ~
// 1e-10 and rounding error ~ 1e-16*|f|/h ~ 1e-9 for the losses here, so a
// real bug, such as a dropped term or a wrong sign, fails by orders of
// magnitude; TestGradCheckCatchesErrors shows a 0.1% error in one entry
// fails).
const (
	gradH    = 1e-5
	gradRTol = 1e-5
	gradATol = 1e-7
)

// gradVar is one input of a function under check: its values and the
// analytic gradient of the function with respect to them.
type gradVar struct {
	name string
	x    []float64
	grad []float64
}

// gradMismatches returns a description of every entry whose analytic
// gradient disagrees with the central difference of f, which must recompute
// the function from the current values of the vars.
func gradMismatches(f func() float64, vars []gradVar) []string {
	var bad []string
	for _, v := range vars {
		for i := range v.x {
			orig := v.x[i]
			v.x[i] = orig + gradH
			fp := f()
			v.x[i] = orig - gradH
			fm := f()
			v.x[i] = orig
			num := (fp - fm) / (2 * gradH)
			a := v.grad[i]
			if math.Abs(a-num) > gradRTol*math.Max(math.Abs(a), math.Abs(num))+gradATol {
				bad = append(bad, fmt.Sprintf("%s[%d]: analytic %.9g, numeric %.9g", v.name, i, a, num))
			}
		}
	}
	return bad
}

func checkGrads(t *testing.T, f func() float64, vars []gradVar) {
	t.Helper()
	checked := 0
	for _, v := range vars {
		if len(v.x) != len(v.grad) {
			t.Fatalf("%s: %d values, %d gradients", v.name, len(v.x), len(v.grad))
		}
		checked += len(v.x)
	}
	if checked == 0 {
		t.Fatal("nothing to check")
	}
	bad := gradMismatches(f, vars)
	for i, b := range bad {
		if i == 10 {
			t.Errorf("... %d mismatches in all", len(bad))
			break
		}
		t.Error(b)
	}
}

func randVec(rng *rand.Rand, n int, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = scale * (2*rng.Float64() - 1)
	}
	return v
}

// dot returns Σ a_i b_i: the test loss of a layer output a under random
// output weights b (so the output gradient is b).
func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// layerCase builds a layer with random weights and inputs and returns the
// function to check and its vars with analytic gradients.
type layerCase struct {
	name  string
	build func(rng *rand.Rand) (func() float64, []gradVar)
}

func lstmCase(reverse bool) func(rng *rand.Rand) (func() float64, []gradVar) {
	return func(rng *rand.Rand) (func() float64, []gradVar) {
		n, in, h := 5, 3, 4
		l := lstm[float64]{wih: randVec(rng, 4*h*in, 0.8), whh: randVec(rng, 4*h*h, 0.8), b: randVec(rng, 4*h, 0.5), in: in, hid: h}
		x := randVec(rng, n*in, 1)
		r := randVec(rng, n*h, 1)
		f := func() float64 { return dot(l.forward(x, n, reverse).h, r) }
		g := lstm[float64]{wih: make([]float64, len(l.wih)), whh: make([]float64, len(l.whh)), b: make([]float64, len(l.b)), in: in, hid: h}
		dx := make([]float64, len(x))
		l.backward(l.forward(x, n, reverse), r, g, dx)
		return f, []gradVar{{"w_ih", l.wih, g.wih}, {"w_hh", l.whh, g.whh}, {"b", l.b, g.b}, {"x", x, dx}}
	}
}

func linearCase(rng *rand.Rand) (linear[float64], linear[float64]) {
	in, out := 4, 3
	l := linear[float64]{w: randVec(rng, out*in, 1), b: randVec(rng, out, 1), in: in, out: out}
	return l, linear[float64]{w: make([]float64, out*in), b: make([]float64, out), in: in, out: out}
}

func biaffineCase(outs int) func(rng *rand.Rand) (func() float64, []gradVar) {
	return func(rng *rand.Rand) (func() float64, []gradVar) {
		n, d := 4, 3
		b := biaffine[float64]{w: randVec(rng, outs*(d+1)*(d+1), 1), outs: outs, d: d}
		l, r := randVec(rng, n*d, 1), randVec(rng, n*d, 1)
		ro := randVec(rng, n*n*outs, 1)
		f := func() float64 { s, _ := b.forward(l, r, n); return dot(s, ro) }
		g := biaffine[float64]{w: make([]float64, len(b.w)), outs: outs, d: d}
		dl, dr := make([]float64, len(l)), make([]float64, len(r))
		_, tp := b.forward(l, r, n)
		b.backward(tp, ro, g, dl, dr)
		return f, []gradVar{{"w", b.w, g.w}, {"left", l, dl}, {"right", r, dr}}
	}
}

// spanTargets returns random classes in [0, labels] for n words, null for
// about half of the pairs.
func spanTargets(rng *rand.Rand, n, labels int) []int {
	t := make([]int, n*n)
	for i := range t {
		if rng.IntN(2) == 0 {
			t[i] = 1 + rng.IntN(labels)
		}
	}
	return t
}

var layerCases = []layerCase{
	{"embedding", func(rng *rand.Rand) (func() float64, []gradVar) {
		e := embedding[float64]{w: randVec(rng, 5*4, 1), rows: 5, dim: 4}
		ids := []int{3, 1, 3, 0} // a repeated row accumulates
		r := randVec(rng, len(ids)*4, 1)
		g := embedding[float64]{w: make([]float64, len(e.w)), rows: 5, dim: 4}
		e.backward(ids, r, g)
		return func() float64 { return dot(e.forward(ids), r) }, []gradVar{{"emb", e.w, g.w}}
	}},
	{"lstm forward direction", lstmCase(false)},
	{"lstm backward direction", lstmCase(true)},
	{"bilstm", func(rng *rand.Rand) (func() float64, []gradVar) {
		n, in, h := 4, 3, 2
		mk := func(z bool) lstm[float64] {
			v := func(k int) []float64 {
				if z {
					return make([]float64, k)
				}
				return randVec(rng, k, 0.8)
			}
			return lstm[float64]{wih: v(4 * h * in), whh: v(4 * h * h), b: v(4 * h), in: in, hid: h}
		}
		b := bilstm[float64]{fwd: mk(false), bwd: mk(false)}
		g := bilstm[float64]{fwd: mk(true), bwd: mk(true)}
		x, r := randVec(rng, n*in, 1), randVec(rng, n*2*h, 1)
		f := func() float64 { out, _ := b.forward(x, n); return dot(out, r) }
		_, tp := b.forward(x, n)
		dx := make([]float64, len(x))
		b.backward(tp, r, g, dx)
		return f, []gradVar{{"fwd.w_ih", b.fwd.wih, g.fwd.wih}, {"fwd.w_hh", b.fwd.whh, g.fwd.whh}, {"fwd.b", b.fwd.b, g.fwd.b},
			{"bwd.w_ih", b.bwd.wih, g.bwd.wih}, {"bwd.w_hh", b.bwd.whh, g.bwd.whh}, {"bwd.b", b.bwd.b, g.bwd.b}, {"x", x, dx}}
	}},
	{"char lstm features", func(rng *rand.Rand) (func() float64, []gradVar) {
		c := tinyTestConfig()
		w, gw, vars := randomNet(rng, c)
		seq := []int{BOWChar, 5, 7, 5, EOWChar}
		r := randVec(rng, 2*c.CharHidden, 1)
		seed := rng.Uint64()
		f := func() float64 { feat, _ := w.charForward(seq, rand.New(rand.NewPCG(seed, 0))); return dot(feat, r) }
		_, ct := w.charForward(seq, rand.New(rand.NewPCG(seed, 0)))
		w.charBackward(ct, r, &gw)
		return f, pick(vars, "char.emb", "char_lstm.fwd.w_ih", "char_lstm.fwd.w_hh", "char_lstm.fwd.b",
			"char_lstm.bwd.w_ih", "char_lstm.bwd.w_hh", "char_lstm.bwd.b")
	}},
	{"linear", func(rng *rand.Rand) (func() float64, []gradVar) {
		l, g := linearCase(rng)
		n := 3
		x, r := randVec(rng, n*l.in, 1), randVec(rng, n*l.out, 1)
		dx := make([]float64, len(x))
		l.backward(x, r, n, g, dx)
		return func() float64 { return dot(l.forward(x, n), r) }, []gradVar{{"w", l.w, g.w}, {"b", l.b, g.b}, {"x", x, dx}}
	}},
	{"leaky relu mlp with dropout", func(rng *rand.Rand) (func() float64, []gradVar) {
		l, g := linearCase(rng)
		n := 5
		x, r := randVec(rng, n*l.in, 1), randVec(rng, n*l.out, 1)
		mask := dropoutMask[float64](rng, n*l.out, 0.33)
		f := func() float64 { return dot(l.mlpForward(x, n, 0.1, mask).y, r) }
		dx := make([]float64, len(x))
		l.mlpBackward(l.mlpForward(x, n, 0.1, mask), r, 0.1, g, dx)
		return f, []gradVar{{"w", l.w, g.w}, {"b", l.b, g.b}, {"x", x, dx}}
	}},
	{"biaffine one output", biaffineCase(1)},
	{"biaffine three outputs", biaffineCase(3)},
	{"span softmax-ce with fixed-0 null class", func(rng *rand.Rand) (func() float64, []gradVar) {
		n, labels := 4, 3
		s := randVec(rng, n*n*labels, 3)
		target := spanTargets(rng, n, labels)
		d := make([]float64, len(s))
		spanCE(s, target, &softCursor{}, 0, n, labels, 0.5, d)
		return func() float64 { return 0.5 * spanCE(s, target, &softCursor{}, 0, n, labels, 0, nil) }, []gradVar{{"scores", s, d}}
	}},
	{"span cross-entropy against gold mixed with a teacher", func(rng *rand.Rand) (func() float64, []gradVar) {
		n, labels := 4, 3
		s := randVec(rng, n*n*labels, 3)
		target := spanTargets(rng, n, labels)
		soft := randomSoft(rng, n, labels, 0.6)
		d := make([]float64, len(s))
		spanCE(s, target, &softCursor{cells: soft.Cells[0]}, soft.Weight, n, labels, 0.5, d)
		return func() float64 {
			return 0.5 * spanCE(s, target, &softCursor{cells: soft.Cells[0]}, soft.Weight, n, labels, 0, nil)
		}, []gradVar{{"scores", s, d}}
	}},
	{"pos head (tagger + ce)", func(rng *rand.Rand) (func() float64, []gradVar) {
		l, g := linearCase(rng)
		n := 4
		x := randVec(rng, n*l.in, 1)
		tags := []int{0, 2, 2, 1}
		f := func() float64 { return tagCE(l.forward(x, n), tags, l.out, 0, nil) }
		d := make([]float64, n*l.out)
		tagCE(l.forward(x, n), tags, l.out, 1, d)
		dx := make([]float64, len(x))
		l.backward(x, d, n, g, dx)
		return f, []gradVar{{"w", l.w, g.w}, {"b", l.b, g.b}, {"x", x, dx}}
	}},
}

func TestLayerGradients(t *testing.T) {
	for i, tc := range layerCases {
		t.Run(tc.name, func(t *testing.T) {
			f, vars := tc.build(rand.New(rand.NewPCG(7, uint64(i))))
			checkGrads(t, f, vars)
		})
	}
}

// TestGradCheckCatchesErrors makes sure the checker is sharp: a 0.1% error
// in a single gradient entry of each layer must be reported.
func TestGradCheckCatchesErrors(t *testing.T) {
	for i, tc := range layerCases {
		t.Run(tc.name, func(t *testing.T) {
			f, vars := tc.build(rand.New(rand.NewPCG(7, uint64(i))))
			v := vars[0]
			j := 0
			for k := range v.grad { // the largest entry
				if math.Abs(v.grad[k]) > math.Abs(v.grad[j]) {
					j = k
				}
			}
			v.grad[j] *= 1.001
			if bad := gradMismatches(f, []gradVar{v}); len(bad) != 1 {
				t.Errorf("corrupted %s[%d]: got %d mismatches, want 1", v.name, j, len(bad))
			}
		})
	}
}

// tinyTestConfig is a network small enough to check every parameter.
func tinyTestConfig() Config {
	return Config{
		WordDim: 3, CharDim: 2, CharHidden: 2, MaxChars: 4, LSTM1Hidden: 3, LSTM2Hidden: 3,
		LabelMLP: 3, SpanMLP: 2, Labels: 3, Tags: 3, WordVocab: 8, CharVocab: 9,
		DropChar: 0.3, DropFeat: 0.3, DropLSTM: 0.3, DropMLP: 0.33, LeakySlope: 0.1,
	}
}

// randomNet returns a float64 net with every parameter uniform in [-0.7,
// 0.7] (biaffines included, unlike Init, so that every gradient is
// exercised), a zero gradient net, and one gradVar per tensor.
func randomNet(rng *rand.Rand, c Config) (net[float64], net[float64], []gradVar) {
	w, g := map[string][]float64{}, map[string][]float64{}
	var vars []gradVar
	for _, s := range layout(c) {
		w[s.name] = randVec(rng, shapeSize(s.shape), 0.7)
		g[s.name] = make([]float64, shapeSize(s.shape))
		vars = append(vars, gradVar{s.name, w[s.name], g[s.name]})
	}
	get := func(m map[string][]float64) func(string) []float64 {
		return func(name string) []float64 { return m[name] }
	}
	return bindNet(c, get(w)), bindNet(c, get(g)), vars
}

func pick(vars []gradVar, names ...string) []gradVar {
	var out []gradVar
	for _, n := range names {
		for _, v := range vars {
			if v.name == n {
				out = append(out, v)
			}
		}
	}
	return out
}

// randomExample returns a sentence of n words with random ids (some words
// longer than MaxChars) and random targets.
func randomExample(rng *rand.Rand, c Config, n int) Example {
	in := Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}
	for i := range n {
		in.WordIDs[i] = rng.IntN(c.WordVocab)
		chars := make([]int, 1+rng.IntN(c.MaxChars+2))
		for j := range chars {
			chars[j] = rng.IntN(c.CharVocab)
		}
		in.CharIDs[i] = chars
	}
	t := Targets{Cont: spanTargets(rng, n, c.Labels), Disc: spanTargets(rng, n, c.Labels), Gap: spanTargets(rng, n, c.Labels), Tags: make([]int, n)}
	for i := range t.Tags {
		t.Tags[i] = rng.IntN(c.Tags)
	}
	return Example{Input: in, Targets: t}
}

// randomSoft returns teacher distributions over about half the cells x <= y
// of a sentence of n words, for each kind.
func randomSoft(rng *rand.Rand, n, labels int, weight float64) *Soft {
	s := &Soft{Weight: weight}
	for k := range s.Cells {
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				if rng.IntN(2) == 0 {
					continue
				}
				probs := make([]float32, labels)
				rest := 1.0
				for a := range probs {
					p := rng.Float64() * rest
					probs[a], rest = float32(p), rest-p
				}
				s.Cells[k] = append(s.Cells[k], SoftCell{Cell: int32(x*n + y), Probs: probs})
			}
		}
	}
	return s
}

// TestModelGradient checks the gradient of the whole batch loss with
// respect to every parameter of a tiny random network.
func TestModelGradient(t *testing.T) {
	cases := []struct {
		name    string
		dropout bool
		lengths []int
	}{
		{"no dropout", false, []int{4, 2}},
		{"dropout", true, []int{3, 4}},
		{"one-word sentence", true, []int{1}},
		{"soft targets", true, []int{3, 4}},
		{"hinge n3", true, []int{3, 4}},
		{"hinge n6", false, []int{5}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(i)))
			c := tinyTestConfig()
			if !tc.dropout {
				c = c.NoDropout()
			}
			w, g, vars := randomNet(rng, c)
			var batch []Example
			for _, n := range tc.lengths {
				ex := randomExample(rng, c, n)
				switch tc.name {
				case "soft targets":
					ex.Targets.Soft = randomSoft(rng, n, c.Labels, 0.7)
				case "hinge n3":
					ex.Targets.Hinge = &Hinge{Weight: 0.8, Variant: decode.N3}
				case "hinge n6":
					ex.Targets.Hinge = &Hinge{Weight: 1.3, Variant: decode.N6}
				}
				batch = append(batch, ex)
			}
			seed := rng.Uint64()
			scale := 1 / float64(len(batch))
			loss := func(g *net[float64]) float64 {
				var total float64
				for j := range batch {
					for _, p := range sentenceLoss(&w, &batch[j], sentenceRNG(seed, j), g, scale) {
						total += p
					}
				}
				return total * scale
			}
			loss(&g)
			if batch[0].Targets.Hinge != nil {
				// The hinge must be active, or its gradient goes unchecked.
				for j := range batch {
					if p := sentenceLoss(&w, &batch[j], sentenceRNG(seed, j), nil, scale); !(p[4] > 0) {
						t.Fatalf("sentence %d: hinge term %g, want > 0", j, p[4])
					}
				}
			}
			checkGrads(t, func() float64 { return loss(nil) }, vars)
		})
	}
}
