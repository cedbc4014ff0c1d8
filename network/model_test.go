package network

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// smallConfig is a small but not degenerate network for model-level tests.
func smallConfig() Config {
	return Config{
		WordDim: 16, CharDim: 8, CharHidden: 8, MaxChars: 20, LSTM1Hidden: 24, LSTM2Hidden: 24,
		LabelMLP: 16, SpanMLP: 16, Labels: 5, Tags: 4, WordVocab: 50, CharVocab: 30,
		DropChar: 0.3, DropFeat: 0.3, DropLSTM: 0.3, DropMLP: 0.33, LeakySlope: 0.1,
	}
}

// randomModel returns a model whose every parameter (biaffines included) is
// random, so that scores are not all zero.
func randomModel(t *testing.T, c Config, seed uint64) *Model {
	t.Helper()
	m, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	for _, ts := range m.Params.Tensors() {
		for i := range ts.Data {
			ts.Data[i] = float32(0.5 * (2*rng.Float64() - 1))
		}
	}
	return m
}

func randomBatch(c Config, seed uint64, lengths ...int) []Example {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b []Example
	for _, n := range lengths {
		b = append(b, randomExample(rng, c, n))
	}
	return b
}

func TestInitDeterministic(t *testing.T) {
	c := smallConfig()
	a, _ := New(c, 1)
	b, _ := New(c, 1)
	d, _ := New(c, 2)
	for i, ta := range a.Params.Tensors() {
		tb, td := b.Params.Tensors()[i], d.Params.Tensors()[i]
		if !slices.Equal(ta.Data, tb.Data) {
			t.Errorf("%s: differs between two inits with the same seed", ta.Name)
		}
		nonzero := slices.ContainsFunc(ta.Data, func(v float32) bool { return v != 0 })
		if nonzero && slices.Equal(ta.Data, td.Data) {
			t.Errorf("%s: same values for seeds 1 and 2", ta.Name)
		}
	}
}

func TestInitKinds(t *testing.T) {
	c := smallConfig()
	m, _ := New(c, 3)
	for _, s := range layout(c) {
		data := m.Params.Get(s.name).Data
		switch s.init {
		case initZero:
			if slices.ContainsFunc(data, func(v float32) bool { return v != 0 }) {
				t.Errorf("%s: want zeros", s.name)
			}
		case initOrthogonal:
			// Orthonormal columns (rows >= cols) or rows (rows < cols).
			rows, cols := s.shape[0], shapeSize(s.shape[1:])
			r, c := rows, cols // view as an r×c matrix with r >= c
			at := func(i, j int) float64 { return float64(data[i*cols+j]) }
			if rows < cols {
				at = func(i, j int) float64 { return float64(data[j*cols+i]) }
				r, c = cols, rows
			}
			for a := 0; a < c; a++ {
				for b := 0; b < c; b++ {
					var dot float64
					for i := 0; i < r; i++ {
						dot += at(i, a) * at(i, b)
					}
					want := 0.0
					if a == b {
						want = 1
					}
					if math.Abs(dot-want) > 1e-5 {
						t.Fatalf("%s: columns %d·%d = %g, want %g", s.name, a, b, dot, want)
					}
				}
			}
		case initNormal:
			var sum, sq float64
			for _, v := range data {
				sum += float64(v)
				sq += float64(v) * float64(v)
			}
			mean, std := sum/float64(len(data)), math.Sqrt(sq/float64(len(data)))
			if math.Abs(mean) > 0.2 || math.Abs(std-1) > 0.2 {
				t.Errorf("%s: mean %g std %g, want about N(0,1)", s.name, mean, std)
			}
		}
	}
}

func TestScoresLayout(t *testing.T) {
	c := smallConfig()
	m := randomModel(t, c, 5)
	ex := randomBatch(c, 5, 6)[0]
	out, err := m.Forward(ex.Input)
	if err != nil {
		t.Fatal(err)
	}
	s := out.Scores
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if s.N != 6 || s.L != c.Labels || len(out.Tags) != 6*c.Tags {
		t.Fatalf("got n=%d labels=%d tags=%d, want 6, %d, %d", s.N, s.L, len(out.Tags), c.Labels, 6*c.Tags)
	}
	for x := 0; x < s.N; x++ {
		for y := 0; y < s.N; y++ {
			for a := 0; a < s.L; a++ {
				i := s.Index(x, y, a)
				zero := s.Cont[i] == 0 && s.Disc[i] == 0 && s.Gap[i] == 0
				if x > y && !zero {
					t.Errorf("(%d,%d,%d): x > y but scores are not 0", x, y, a)
				}
				if x <= y && zero {
					t.Errorf("(%d,%d,%d): all three scores are 0", x, y, a)
				}
			}
		}
	}
	if got := m.Scores(ex.Input); !slices.Equal(got.Cont, s.Cont) {
		t.Error("Scores differs from Forward")
	}
}

// TestZeroBiaffineScores: a freshly initialised model has zero biaffine
// weights, hence all-zero scores (every label ties with the null class).
func TestZeroBiaffineScores(t *testing.T) {
	c := smallConfig()
	m, _ := New(c, 8)
	s := m.Scores(randomBatch(c, 8, 5)[0].Input)
	for _, v := range slices.Concat(s.Cont, s.Disc, s.Gap) {
		if v != 0 {
			t.Fatalf("score %g, want 0", v)
		}
	}
}

func TestForwardBatchMatchesForward(t *testing.T) {
	c := smallConfig()
	m := randomModel(t, c, 6)
	batch := randomBatch(c, 6, 5, 1, 9, 0, 3)
	var ins []Input
	for _, ex := range batch {
		ins = append(ins, ex.Input)
	}
	for _, workers := range []int{1, 2, 3} {
		m.Workers = workers
		outs, err := m.ForwardBatch(ins)
		if err != nil {
			t.Fatal(err)
		}
		for i, in := range ins {
			want, _ := m.Forward(in)
			if !slices.Equal(outs[i].Scores.Cont, want.Scores.Cont) || !slices.Equal(outs[i].Scores.Gap, want.Scores.Gap) ||
				!slices.Equal(outs[i].Tags, want.Tags) {
				t.Errorf("workers=%d sentence %d: batch output differs", workers, i)
			}
		}
	}
}

// TestFloat32MatchesFloat64: the model's float32 path agrees with the
// float64 instantiation of the same code to a relative 1e-4.
func TestFloat32MatchesFloat64(t *testing.T) {
	c := smallConfig()
	m := randomModel(t, c, 9)
	ex := randomBatch(c, 9, 7)[0]
	got := m.Scores(ex.Input)
	n64 := bindNet(c, func(name string) []float64 {
		d := m.Params.Get(name).Data
		out := make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v)
		}
		return out
	})
	tp := n64.forward(ex.Input, nil)
	for k, s := range [][]float32{got.Cont, got.Disc, got.Gap} {
		for i, v := range s {
			want := tp.scores[k][i]
			if math.Abs(float64(v)-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Fatalf("%s[%d]: float32 %g, float64 %g", kindNames[k], i, v, want)
			}
		}
	}
}

func TestLossGradDeterministic(t *testing.T) {
	c := smallConfig()
	m := randomModel(t, c, 10)
	batch := randomBatch(c, 10, 4, 7, 2, 5)
	run := func(workers int, seed uint64) (Loss, *Params) {
		m.Workers = workers
		g := m.Params.ZeroClone()
		l, err := m.LossGrad(batch, seed, g)
		if err != nil {
			t.Fatal(err)
		}
		return l, g
	}
	l1, g1 := run(2, 42)
	l2, g2 := run(2, 42)
	if l1 != l2 {
		t.Errorf("same seed, same workers: loss %v then %v", l1, l2)
	}
	for i, ta := range g1.Tensors() {
		if !slices.Equal(ta.Data, g2.Tensors()[i].Data) {
			t.Errorf("%s: gradient differs between identical runs", ta.Name)
		}
	}
	l3, g3 := run(1, 42)
	if l3 != l1 {
		t.Errorf("loss depends on the worker count: %v vs %v", l3, l1)
	}
	if d := maxRelDiff(g1, g3); d > 1e-4 {
		t.Errorf("gradients with 1 and 2 workers differ by %g relative", d)
	}
	if l4, _ := run(2, 43); l4.Total == l1.Total {
		t.Error("a different seed gave the same loss: dropout not seeded?")
	}
	eval1, _ := m.Loss(batch)
	eval2, _ := m.Loss(batch)
	if eval1 != eval2 || eval1.Total == l1.Total {
		t.Errorf("evaluation loss %v, %v (training loss %v)", eval1, eval2, l1)
	}
}

func maxRelDiff(a, b *Params) float64 {
	var num, den float64
	for i, ta := range a.Tensors() {
		for j, v := range ta.Data {
			w := b.Tensors()[i].Data[j]
			num = math.Max(num, math.Abs(float64(v-w)))
			den = math.Max(den, math.Abs(float64(v)))
		}
	}
	return num / math.Max(den, 1e-30)
}

func TestLossComponents(t *testing.T) {
	c := smallConfig()
	m, _ := New(c, 12) // zero biaffines: every span CE is log(L+1)
	batch := randomBatch(c, 12, 4, 6)
	l, err := m.Loss(batch)
	if err != nil {
		t.Fatal(err)
	}
	pairs := (4*5/2 + 6*7/2) / 2.0
	want := pairs * math.Log(float64(c.Labels+1))
	for _, got := range []float64{l.Cont, l.Disc, l.Gap} {
		if math.Abs(got-want) > 1e-4 {
			t.Errorf("span loss %g, want %g (mean over sentences of sums over pairs)", got, want)
		}
	}
	if l.Sentences != 2 || l.Words != 10 || math.Abs(l.Total-(l.Cont+l.Disc+l.Gap+l.Tag)) > 1e-9 {
		t.Errorf("loss %+v", l)
	}
}

func TestBadInputs(t *testing.T) {
	c := smallConfig()
	m, _ := New(c, 13)
	good := randomBatch(c, 13, 3)[0]
	cases := []struct {
		name string
		edit func(ex *Example)
	}{
		{"word id too large", func(ex *Example) { ex.Input.WordIDs[1] = c.WordVocab }},
		{"negative char id", func(ex *Example) { ex.Input.CharIDs[0] = []int{-1} }},
		{"missing char sequence", func(ex *Example) { ex.Input.CharIDs = ex.Input.CharIDs[:2] }},
		{"short targets", func(ex *Example) { ex.Targets.Cont = ex.Targets.Cont[:4] }},
		{"class too large", func(ex *Example) { ex.Targets.Gap[1] = c.Labels + 1 }},
		{"tag too large", func(ex *Example) { ex.Targets.Tags[2] = c.Tags }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex := good
			ex.Input.WordIDs = slices.Clone(good.Input.WordIDs)
			ex.Input.CharIDs = slices.Clone(good.Input.CharIDs)
			ex.Targets.Cont, ex.Targets.Gap = slices.Clone(good.Targets.Cont), slices.Clone(good.Targets.Gap)
			ex.Targets.Tags = slices.Clone(good.Targets.Tags)
			tc.edit(&ex)
			if _, err := m.LossGrad([]Example{ex}, 1, m.Params.ZeroClone()); err == nil {
				t.Error("LossGrad: no error")
			}
		})
	}
	if _, err := m.Forward(Input{WordIDs: []int{c.WordVocab}, CharIDs: [][]int{{}}}); err == nil {
		t.Error("Forward: no error for a bad word id")
	}
	if out, err := m.Forward(Input{}); err != nil || out.Scores.N != 0 {
		t.Errorf("empty sentence: %v, %v", out.Scores, err)
	}
}

// TestOverfit trains a small model on three sentences with the default Adam
// settings (lr 1e-3): the training loss, measured without dropout, must fall
// by 90%. Without dropout that takes 300 updates (it reaches ~0.03% of the
// start); with the preset dropout rates, 500.
func TestOverfit(t *testing.T) {
	cases := []struct {
		name    string
		dropout bool
		steps   int
	}{
		{"no dropout", false, 300},
		{"dropout", true, 500},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := smallConfig()
			if !tc.dropout {
				c = c.NoDropout()
			}
			m, err := New(c, 14)
			if err != nil {
				t.Fatal(err)
			}
			batch := overfitBatch(c)
			start, _ := m.Loss(batch)
			opt := NewAdam(DefaultAdam(), m.Params)
			g := m.Params.ZeroClone()
			for step := range tc.steps {
				if _, err := m.LossGrad(batch, uint64(step), g); err != nil {
					t.Fatal(err)
				}
				if _, err := opt.Update(m.Params, g); err != nil {
					t.Fatal(err)
				}
			}
			end, _ := m.Loss(batch)
			t.Logf("loss %.3f -> %.3f after %d steps (%.1f%% down)", start.Total, end.Total, tc.steps, 100*(1-end.Total/start.Total))
			if end.Total > 0.1*start.Total {
				t.Errorf("loss %.3f -> %.3f: want a 90%% drop", start.Total, end.Total)
			}
		})
	}
}

// overfitBatch returns three sentences (6, 8 and 5 words) with sparse,
// tree-like targets: a few labelled spans per kind, the rest null.
func overfitBatch(c Config) []Example {
	batch := randomBatch(c, 14, 6, 8, 5)
	rng := rand.New(rand.NewPCG(14, 2))
	for i := range batch {
		n := batch[i].Input.Len()
		tg := NewTargets(n)
		tg.Tags = batch[i].Targets.Tags
		for _, tgt := range [][]int{tg.Cont, tg.Disc, tg.Gap} {
			for range n / 2 {
				x := rng.IntN(n)
				y := x + rng.IntN(n-x)
				tgt[x*n+y] = 1 + rng.IntN(c.Labels)
			}
		}
		batch[i].Targets = tg
	}
	return batch
}

// TestWarmUp: after WarmUp the model's weights are prepared (the next
// call prepares nothing), and a model too small for the synthetic
// sentence is left alone.
func TestWarmUp(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      func() Config
		prepared bool
	}{
		{"small", smallConfig, true},
		{"no word beyond the reserved", func() Config {
			c := smallConfig()
			c.WordVocab = numReservedWords
			return c
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(tc.cfg(), 3)
			if err != nil {
				t.Fatal(err)
			}
			m.WarmUp()
			if got := m.Params.infer.Load() != nil; got != tc.prepared {
				t.Errorf("prepared after WarmUp: %v, want %v", got, tc.prepared)
			}
		})
	}
}
