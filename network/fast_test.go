package network

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// The optimised float32 path (fast_*.go) against the float64 reference (the
// generic code of net.go, whose gradients the finite-difference tests
// check): scores, tag logits, losses and every parameter's gradient must
// agree to 1e-4 relative.

// net64 returns the float64 reference network on a copy of p's weights.
func net64(p *Params) net[float64] {
	return bindNet(p.cfg, func(name string) []float64 {
		d := p.Get(name).Data
		out := make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v)
		}
		return out
	})
}

// fastTestCase is a configuration and a batch: random weights (biaffines
// included), sentences of the given lengths, some words repeated (so that
// the character deduplication of inference is exercised) and some longer
// than MaxChars.
type fastTestCase struct {
	name    string
	cfg     Config
	lengths []int
}

func fastTestCases() []fastTestCase {
	tiny := Tiny()
	tiny.WordVocab, tiny.CharVocab, tiny.Labels, tiny.Tags = 60, 40, 7, 5
	odd := smallConfig()
	odd.CharHidden, odd.LSTM1Hidden, odd.LSTM2Hidden, odd.LabelMLP, odd.SpanMLP, odd.Labels = 5, 7, 9, 11, 13, 3
	return []fastTestCase{
		{"small", smallConfig(), []int{1, 5, 2, 9, 17, 3}},
		{"grad-check sizes", tinyTestConfig(), []int{4, 2, 1, 6}},
		{"odd sizes", odd, []int{7, 1, 20, 33}},
		{"tiny preset", tiny, []int{12, 3, 25, 40, 1}},
	}
}

func (tc fastTestCase) model(t *testing.T, seed uint64) (*Model, []Example) {
	t.Helper()
	m := randomModel(t, tc.cfg, seed)
	for _, ts := range m.Params.Tensors() { // smaller weights for the wide preset
		if tc.cfg.LSTM1Hidden > 64 {
			for i := range ts.Data {
				ts.Data[i] *= 0.3
			}
		}
	}
	batch := randomBatch(tc.cfg, seed, tc.lengths...)
	rng := rand.New(rand.NewPCG(seed, 5))
	for i := range batch {
		in := &batch[i].Input
		for w := range in.WordIDs {
			if w > 0 && rng.IntN(3) == 0 { // a repeated word
				j := rng.IntN(w)
				in.WordIDs[w], in.CharIDs[w] = in.WordIDs[j], in.CharIDs[j]
			}
		}
	}
	return m, batch
}

func relClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// TestFastForwardMatchesReference compares scores and tag logits.
func TestFastForwardMatchesReference(t *testing.T) {
	for ci, tc := range fastTestCases() {
		t.Run(tc.name, func(t *testing.T) {
			m, batch := tc.model(t, uint64(20+ci))
			n64 := net64(m.Params)
			ins := make([]Input, len(batch))
			for i := range batch {
				ins[i] = batch[i].Input
			}
			outs, err := m.ForwardBatch(ins)
			if err != nil {
				t.Fatal(err)
			}
			for i, in := range ins {
				ref := n64.forward(in, nil)
				got := outs[i]
				for k, s := range [][]float32{got.Scores.Cont, got.Scores.Disc, got.Scores.Gap} {
					if len(s) != len(ref.scores[k]) {
						t.Fatalf("sentence %d %s: %d scores, want %d", i, kindNames[k], len(s), len(ref.scores[k]))
					}
					for j, v := range s {
						if !relClose(float64(v), ref.scores[k][j], 1e-4) {
							t.Fatalf("sentence %d %s[%d]: fast %g, reference %g", i, kindNames[k], j, v, ref.scores[k][j])
						}
					}
				}
				for j, v := range got.Tags {
					if !relClose(float64(v), ref.tagLogits[j], 1e-4) {
						t.Fatalf("sentence %d tag logit %d: fast %g, reference %g", i, j, v, ref.tagLogits[j])
					}
				}
			}
		})
	}
}

// TestFastLossGradMatchesReference compares losses and gradients, with and
// without dropout (same masks: same generators, same order of draws).
func TestFastLossGradMatchesReference(t *testing.T) {
	for ci, tc := range fastTestCases() {
		for _, mode := range []string{"no dropout", "dropout", "dropout and soft targets", "dropout and hinge"} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				if mode == "no dropout" {
					tc.cfg = tc.cfg.NoDropout()
				}
				m, batch := tc.model(t, uint64(40+ci))
				if mode == "dropout and soft targets" {
					rng := rand.New(rand.NewPCG(uint64(ci), 9))
					for i := range batch {
						batch[i].Targets.Soft = randomSoft(rng, batch[i].Input.Len(), tc.cfg.Labels, 0.5)
					}
				}
				if mode == "dropout and hinge" {
					for i := range batch {
						batch[i].Targets.Hinge = &Hinge{Weight: 0.7, Variant: decode.N3}
					}
				}
				m.Workers = 2
				const seed = 77
				g := m.Params.ZeroClone()
				loss, err := m.LossGrad(batch, seed, g)
				if err != nil {
					t.Fatal(err)
				}
				// Reference: float64, sentence by sentence.
				n64 := net64(m.Params)
				g64 := make(map[string][]float64)
				gnet := bindNet(tc.cfg, func(name string) []float64 {
					v := make([]float64, len(m.Params.Get(name).Data))
					g64[name] = v
					return v
				})
				scale := 1 / float64(len(batch))
				var parts [][numParts]float64
				for i := range batch {
					parts = append(parts, sentenceLoss(&n64, &batch[i], sentenceRNG(seed, i), &gnet, scale))
				}
				want := sumLoss(parts, batch)
				if mode == "dropout and hinge" && !(loss.Hinge > 0) {
					t.Fatalf("hinge term %g, want > 0", loss.Hinge)
				}
				for _, f := range [][3]any{{"total", loss.Total, want.Total}, {"cont", loss.Cont, want.Cont},
					{"disc", loss.Disc, want.Disc}, {"gap", loss.Gap, want.Gap}, {"tag", loss.Tag, want.Tag}, {"hinge", loss.Hinge, want.Hinge}} {
					if !relClose(f[1].(float64), f[2].(float64), 1e-4) {
						t.Errorf("%s loss: fast %g, reference %g", f[0], f[1], f[2])
					}
				}
				for _, ts := range g.Tensors() {
					ref := g64[ts.Name]
					var maxRef, maxDiff float64
					for j, v := range ts.Data {
						maxRef = math.Max(maxRef, math.Abs(ref[j]))
						maxDiff = math.Max(maxDiff, math.Abs(float64(v)-ref[j]))
					}
					if testing.Verbose() && maxRef > 0 && maxDiff/maxRef > 1e-6 {
						t.Logf("%s: relative gradient difference %.2g", ts.Name, maxDiff/maxRef)
					}
					if maxDiff > 1e-4*maxRef+1e-7 {
						t.Errorf("%s: gradients differ by %g (largest reference entry %g)", ts.Name, maxDiff, maxRef)
					}
				}
				// Evaluation loss (no dropout) against the reference too.
				ev, err := m.Loss(batch)
				if err != nil {
					t.Fatal(err)
				}
				parts = parts[:0]
				for i := range batch {
					parts = append(parts, sentenceLoss(&n64, &batch[i], nil, nil, 0))
				}
				if w := sumLoss(parts, batch); !relClose(ev.Total, w.Total, 1e-4) {
					t.Errorf("evaluation loss: fast %g, reference %g", ev.Total, w.Total)
				}
			})
		}
	}
}

// TestFastBatchInvariance: a sentence's scores do not depend on the other
// sentences of the batch, nor on the worker count, nor on training-time
// batching (the loss of LossGrad is the same with 1 or 3 workers).
func TestFastBatchInvariance(t *testing.T) {
	tc := fastTestCases()[3]
	m, batch := tc.model(t, 3)
	ins := make([]Input, len(batch))
	for i := range batch {
		ins[i] = batch[i].Input
	}
	m.Workers = 1
	all, err := m.ForwardBatch(ins)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ins {
		one, _ := m.Forward(ins[i])
		if !slices.Equal(one.Scores.Cont, all[i].Scores.Cont) || !slices.Equal(one.Scores.Gap, all[i].Scores.Gap) ||
			!slices.Equal(one.Tags, all[i].Tags) {
			t.Errorf("sentence %d: Forward differs from ForwardBatch", i)
		}
	}
	var losses []Loss
	for _, w := range []int{1, 3} {
		m.Workers = w
		l, err := m.LossGrad(batch, 9, m.Params.ZeroClone())
		if err != nil {
			t.Fatal(err)
		}
		losses = append(losses, l)
	}
	if losses[0] != losses[1] {
		t.Errorf("loss with 1 and 3 workers: %v, %v", losses[0], losses[1])
	}
}

// TestFastMath checks the float32 exp, sigmoid and tanh against math.
func TestFastMath(t *testing.T) {
	for x := -100.0; x <= 100; x += 0.001 {
		f := float32(x)
		if got, want := float64(sigmoidf(f)), 1/(1+math.Exp(-float64(f))); math.Abs(got-want) > 3e-7*want+1e-37 {
			t.Fatalf("sigmoid(%g) = %g, want %g", f, got, want)
		}
		if got, want := float64(tanhf(f)), math.Tanh(float64(f)); math.Abs(got-want) > 3e-7*math.Abs(want) {
			t.Fatalf("tanh(%g) = %g, want %g", f, got, want)
		}
		if x < 88 {
			if got, want := float64(expf(f)), math.Exp(float64(f)); math.Abs(got-want) > 3e-7*want+1e-37 {
				t.Fatalf("exp(%g) = %g, want %g", f, got, want)
			}
		}
	}
}

// TestFastCell checks the (vectorised, where available) LSTM cells and
// exponentials against the scalar float32 code.
func TestFastCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, H := range []int{8, 64, 5} {
		for trial := 0; trial < 20; trial++ {
			rows := 1 + trial%4
			G := 4 * H
			scale := []float64{0.01, 1, 5, 40}[trial%4]
			a, bias := randF32(rng, rows*G), randF32(rng, G)
			for i := range a {
				a[i] *= float32(scale)
			}
			cp := randF32(rng, rows*H)
			a2 := slices.Clone(a)
			c1, tc1, h1 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
			c2, tc2, h2 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
			lstmCellsFwd(a, bias, cp, c1, tc1, h1, H, rows)
			for r := 0; r < rows; r++ {
				g := a2[r*G : (r+1)*G]
				addTo(g, bias)
				lstmCell(g, cp[r*H:(r+1)*H], c2[r*H:(r+1)*H], tc2[r*H:(r+1)*H], h2[r*H:(r+1)*H])
			}
			for _, p := range [][2][]float32{{a, a2}, {c1, c2}, {tc1, tc2}, {h1, h2}} {
				for i := range p[0] {
					if d := math.Abs(float64(p[0][i] - p[1][i])); d > 1e-6*math.Max(1, math.Abs(float64(p[1][i]))) {
						t.Fatalf("H=%d scale %g: cell forward %g vs %g", H, scale, p[0][i], p[1][i])
					}
				}
			}
			dh, dc := randF32(rng, rows*H), randF32(rng, rows*H)
			dc2 := slices.Clone(dc)
			da1, da2 := make([]float32, rows*G), make([]float32, rows*G)
			lstmCellsBwd(a, cp, tc1, dh, dc, da1, H, rows)
			lstmCellsBwdGo(a, cp, tc1, dh, dc2, da2, H, rows)
			for _, p := range [][2][]float32{{dc, dc2}, {da1, da2}} {
				for i := range p[0] {
					if d := math.Abs(float64(p[0][i] - p[1][i])); d > 1e-6*math.Max(1, math.Abs(float64(p[1][i]))) {
						t.Fatalf("H=%d: cell backward %g vs %g", H, p[0][i], p[1][i])
					}
				}
			}
		}
	}
	// LeakyReLU, its derivative (the slope at 0, -0 included) and column sums.
	for _, n := range []int{3, 8, 21, 64} {
		z := randF32(rng, n)
		z[0], z[n-1] = 0, float32(math.Copysign(0, -1))
		dz := randF32(rng, n)
		y, dz2 := make([]float32, n), slices.Clone(dz)
		leakyTo(y, z, 0.1)
		leakyBack(dz2, z, 0.1)
		for i, v := range z {
			if want := leaky(v, 0.1); y[i] != want {
				t.Fatalf("leaky(%g) = %g, want %g", v, y[i], want)
			}
			want := dz[i]
			if v <= 0 {
				want *= 0.1
			}
			if dz2[i] != want {
				t.Fatalf("leaky derivative at %g: %g, want %g", v, dz2[i], want)
			}
		}
		rows := 1 + n%5
		x := randF32(rng, rows*n)
		db, want := randF32(rng, n), []float32(nil)
		want = slices.Clone(db)
		addColSums(want, x, rows, n)
		colSums(db, x, rows, n)
		for j := range db {
			if math.Abs(float64(db[j]-want[j])) > 1e-6 {
				t.Fatalf("column sums: %g, want %g", db[j], want[j])
			}
		}
	}
	src := make([]float32, 0, 4000)
	for x := float32(-95); x < 95; x += 0.05 {
		src = append(src, x)
	}
	dst := make([]float32, len(src)+3)
	for _, m := range []float32{0, 3.5} {
		expShift(dst[3:], src, m)
		for i, v := range src {
			want := math.Exp(float64(v - m))
			got := float64(dst[3+i])
			if want > 1.6e38 {
				want = math.Exp(88)
			}
			if want < 1.2e-38 {
				if got > 1.2e-38 {
					t.Fatalf("exp(%g) = %g, want about 0", v-m, got)
				}
				continue
			}
			if math.Abs(got-want) > 3e-7*want {
				t.Fatalf("exp(%g) = %g, want %g", v-m, got, want)
			}
		}
	}
}

// TestPCGStream: the mask generator yields math/rand/v2's PCG stream, and
// fillMask the masks of dropoutMask.
func TestPCGStream(t *testing.T) {
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {77, 5}, {^uint64(0), 12345}} {
		ref := rand.NewPCG(seed[0], seed[1])
		p := pcg{seed[0], seed[1]}
		for i := 0; i < 1000; i++ {
			if a, b := p.uint64(), ref.Uint64(); a != b {
				t.Fatalf("seed %v draw %d: %#x, want %#x", seed, i, a, b)
			}
		}
		for _, rate := range []float64{0.3, 0.33, 0.5, 1e-9} {
			want := dropoutMask[float32](rand.New(rand.NewPCG(seed[0], seed[1])), 500, rate)
			got := make([]float32, 500)
			p := pcg{seed[0], seed[1]}
			fillMask(&p, got, rate)
			if !slices.Equal(got, want) {
				t.Fatalf("seed %v rate %g: fillMask differs from dropoutMask", seed, rate)
			}
		}
	}
}

// TestFastTrainInferScores: the training record (biaffine scores through
// t = [l;1]W' by output, then transposed) and inference (t by feature,
// scores written in place) compute bit-identical scores without dropout.
// Both in Go: the wasm kernels are checked against the Go code apart
// (kernels_js_test.go), relaxed SIMD's fused products differing in the
// last bits.
func TestFastTrainInferScores(t *testing.T) {
	tc := fastTestCases()[3]
	tc.cfg = tc.cfg.NoDropout()
	m, batch := tc.model(t, 8)
	m.portable = true
	ins := make([]Input, len(batch))
	rngs := make([]pcg, len(batch))
	for i := range batch {
		ins[i] = batch[i].Input
	}
	ar := m.work().getArena()
	defer m.work().putArena(ar)
	p := prepare(ar, bind32(m.Params), true, 1)
	g := newGroup(p, ar, ins, rngs, 1)
	g.forward(false)
	outs, err := m.ForwardBatch(ins)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range g.sents {
		n, L := s.n, tc.cfg.Labels
		for k, got := range [][]float32{outs[i].Scores.Cont, outs[i].Scores.Disc, outs[i].Scores.Gap} {
			for x := 0; x < n; x++ {
				for j := x * n * L; j < (x+1)*n*L; j++ {
					if j >= (x*n+x)*L && got[j] != s.scores[k][j] {
						t.Fatalf("sentence %d %s[%d]: inference %g, training %g", i, kindNames[k], j, got[j], s.scores[k][j])
					}
				}
			}
		}
	}
}

// TestFastPreparedCache: inference reuses the weights it prepared only
// while the parameters are unchanged: changes made through Params' methods,
// in place followed by Changed, or by replacing a tensor's slice are seen,
// and another model's calls do not disturb the first's.
func TestFastPreparedCache(t *testing.T) {
	c := smallConfig()
	m := randomModel(t, c, 21)
	in := randomBatch(c, 21, 6)[0].Input
	check := func(what string) {
		t.Helper()
		got, err := m.Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		n64 := net64(m.Params)
		ref := n64.forward(in, nil)
		for j, v := range got.Scores.Cont {
			if !relClose(float64(v), ref.scores[kindCont][j], 1e-4) {
				t.Fatalf("%s: cont[%d] = %g, reference %g", what, j, v, ref.scores[kindCont][j])
			}
		}
	}
	check("first call")
	check("cached")
	m.Params.Get("cont.label.biaffine").Data[3] += 0.5
	m.Params.Changed()
	check("biaffine changed in place")
	m.Params.Get("lstm1.fwd.w_hh").Data[0] -= 0.25
	m.Params.Changed()
	check("lstm weight changed in place")
	m.Params.Get("char.emb").Data[40] += 1 // read in place, never prepared
	check("embedding changed in place")
	tb := m.Params.Get("tagger.b")
	if err := m.Params.Set(tb.Name, tb.Shape, make([]float32, len(tb.Data))); err != nil {
		t.Fatal(err)
	}
	check("Set")
	g := m.Params.ZeroClone()
	g.Get("cont.span.right.w").Data[2] = 1
	m.Params.Add(g)
	check("Add")
	ts := m.Params.Get("cont.span.left.w")
	ts.Data = slices.Clone(ts.Data)
	ts.Data[1] *= -1
	check("tensor data replaced")
	other := randomModel(t, c, 22)
	if _, err := other.Forward(in); err != nil {
		t.Fatal(err)
	}
	check("after another model")
}

// TestFastNoUninitialisedReads: results do not change when every recycled
// arena is filled with NaNs first (no value is read before it is written).
func TestFastNoUninitialisedReads(t *testing.T) {
	tc := fastTestCases()[3]
	m, batch := tc.model(t, 12)
	m.Workers = 2
	ins := make([]Input, len(batch))
	for i := range batch {
		ins[i] = batch[i].Input
	}
	run := func() (Loss, *Params, []Output) {
		g := m.Params.ZeroClone()
		l, err := m.LossGrad(batch, 5, g)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := m.ForwardBatch(ins)
		if err != nil {
			t.Fatal(err)
		}
		return l, g, outs
	}
	l1, g1, o1 := run()
	nan := float32(math.NaN())
	ws := m.work()
	ws.mu.Lock()
	for _, a := range ws.arenas {
		for i := range a.buf {
			a.buf[i] = nan
		}
	}
	ws.mu.Unlock()
	m.Release() // fresh arenas too: poison those of the next run as they grow
	ws.mu.Lock()
	ws.poison = true
	ws.mu.Unlock()
	l2, g2, o2 := run()
	if l1 != l2 {
		t.Errorf("loss %v, then %v with poisoned arenas", l1, l2)
	}
	for i, ts := range g1.Tensors() {
		if !slices.Equal(ts.Data, g2.Tensors()[i].Data) {
			t.Errorf("%s: gradient differs with poisoned arenas", ts.Name)
		}
	}
	for i := range o1 {
		if !slices.Equal(o1[i].Scores.Cont, o2[i].Scores.Cont) || !slices.Equal(o1[i].Tags, o2[i].Tags) {
			t.Errorf("sentence %d: scores differ with poisoned arenas", i)
		}
	}
}

// TestFastAdamChunk: the vectorised Adam update equals the scalar one bit
// for bit, and the chunked norm the plain sum of squares.
func TestFastAdamChunk(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, n := range []int{1, 4, 7, 64, 1001} {
		p, g, m, v := randF32(rng, n), randF32(rng, n), randF32(rng, n), randF32(rng, n)
		for i := range v {
			v[i] = v[i] * v[i]
		}
		p2, m2, v2 := slices.Clone(p), slices.Clone(m), slices.Clone(v)
		k := [8]float64{0.7, 0.9, 1 - 0.9, 0.9, 1 - 0.9, 1e-3 / 0.19, 1 / 0.19, 1e-12}
		adamChunk(p, g, m, v, &k)
		adamGo(p2, g, m2, v2, &k)
		if !slices.Equal(p, p2) || !slices.Equal(m, m2) || !slices.Equal(v, v2) {
			t.Fatalf("n=%d: vectorised Adam differs from the scalar code", n)
		}
		var want float64
		for _, x := range g {
			want += float64(x) * float64(x)
		}
		if got := sumSquares(g); math.Abs(got-want) > 1e-12*want {
			t.Fatalf("n=%d: sum of squares %g, want %g", n, got, want)
		}
	}
}

// TestFastForwardAllocations: once a model's weights are prepared, scoring
// a sentence allocates about what its outputs need, nothing proportional
// to the model, also when two models (an ensemble) take turns.
func TestFastForwardAllocations(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's own allocations are not the code's: checked without it")
	}
	tiny := Tiny()
	tiny.WordVocab, tiny.CharVocab, tiny.Labels, tiny.Tags = 200, 60, 20, 8
	in := randomBatch(tiny, 31, 20)[0].Input
	outBytes := 4 * (numKinds*in.Len()*in.Len()*tiny.Labels + in.Len()*tiny.Tags)
	for _, tc := range []struct {
		name   string
		models int
	}{{"one model", 1}, {"two models in turn", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			var ms []*Model
			for i := range tc.models {
				ms = append(ms, randomModel(t, tiny, uint64(40+i)))
			}
			modelBytes := 4 * ms[0].Params.NumParams()
			score := func() {
				for _, m := range ms {
					if _, err := m.Forward(in); err != nil {
						t.Fatal(err)
					}
				}
			}
			score() // prepares
			var before, after runtime.MemStats
			const runs = 5
			runtime.ReadMemStats(&before)
			for range runs {
				score()
			}
			runtime.ReadMemStats(&after)
			got := int(after.TotalAlloc-before.TotalAlloc) / (runs * tc.models)
			if limit := 2*outBytes + 64<<10; got > limit {
				t.Errorf("%d bytes allocated per call (outputs %d bytes, model %d bytes), want at most %d", got, outBytes, modelBytes, limit)
			}
		})
	}
}

// TestFastPreparedMemory checks that the inference weights a model keeps
// (preparedFor) hold no more memory than their own values: they live as
// long as the model, so memory handed out by chunks that double (the
// working arenas' policy) would stay unused for good. With such chunks the
// small preset's prepared weights took 62 MiB of heap for 35 MiB of values
// in the tab.
func TestFastPreparedMemory(t *testing.T) {
	m := randomModel(t, Small(), 5)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p := preparedFor(m.Params, 1)
	runtime.GC()
	runtime.ReadMemStats(&after)
	values := 0
	for _, s := range p.slices() {
		values += 4 * len(s)
	}
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("prepared weights: %.1f MiB of values, the heap grew by %.1f MiB", float64(values)/(1<<20), float64(grew)/(1<<20))
	if limit := int64(values) + int64(values)/20 + 1<<20; grew > limit {
		t.Errorf("the prepared weights took %d bytes of heap for %d bytes of values (limit %d)", grew, values, limit)
	}
	runtime.KeepAlive(p)
}

// slices returns every weight slice of p.
func (p *prepared) slices() [][]float32 {
	out := [][]float32{p.tagT}
	for _, ls := range [][2]prepLSTM{p.char, p.l1, p.l2} {
		for _, l := range ls {
			out = append(out, l.wihT, l.whhT, l.whhP)
		}
	}
	for k := range numKinds {
		for mod := range 2 {
			out = append(out, p.mlpT[k][mod][0], p.mlpT[k][mod][1], p.biQ[k][mod], p.biR[k][mod], p.biQP[k][mod])
		}
	}
	return out
}

// TestWorkspaceBelongsToModel: the work memory a model keeps after LossGrad
// (arenas and per-worker gradient buffers) is its own, not another model's,
// Release empties it, and the model still gives the same results after.
func TestWorkspaceBelongsToModel(t *testing.T) {
	tc := fastTestCases()[3]
	tc.cfg = tc.cfg.NoDropout()
	m, batch := tc.model(t, 8)
	m.Workers = 2
	other := &Model{Params: m.Params, Workers: 2}
	kept := func(m *Model) (arenas, grads int) {
		ws := m.work()
		ws.mu.Lock()
		defer ws.mu.Unlock()
		return len(ws.arenas), len(ws.grads)
	}
	g1 := m.Params.ZeroClone()
	l1, err := m.LossGrad(batch, 3, g1)
	if err != nil {
		t.Fatal(err)
	}
	if a, g := kept(m); a == 0 || g != 1 {
		t.Errorf("after LossGrad on 2 workers the model keeps %d arenas and %d gradient buffers, want > 0 and 1", a, g)
	}
	if a, g := kept(other); a != 0 || g != 0 {
		t.Errorf("another model on the same parameters keeps %d arenas and %d gradient buffers, want none", a, g)
	}
	m.Release()
	if a, g := kept(m); a != 0 || g != 0 {
		t.Errorf("after Release the model keeps %d arenas and %d gradient buffers", a, g)
	}
	g2 := m.Params.ZeroClone()
	l2, err := m.LossGrad(batch, 3, g2)
	if err != nil {
		t.Fatal(err)
	}
	if l1 != l2 {
		t.Errorf("loss %v before Release, %v after", l1, l2)
	}
	for i, ts := range g1.Tensors() {
		if !slices.Equal(ts.Data, g2.Tensors()[i].Data) {
			t.Errorf("%s: gradient differs after Release", ts.Name)
		}
	}
}
