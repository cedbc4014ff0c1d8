//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// Tolerances of the equivalence tests against the CPU reference, on the
// same (float16-rounded where stated) parameters: float32 arithmetic in a
// different summation order.
const (
	tolF32 = 1e-3
	tolF16 = 1e-2
)

// TestEquivalenceRandom compares the WebGPU scorer with the CPU reference
// on a small random model (every parameter non-zero, biaffines included)
// for each weight storage: scores and tags within the tolerance, identical
// n3 trees.
func TestEquivalenceRandom(t *testing.T) {
	c := microConfig()
	batch := []int{3, 0, 1, 7, 12, 2, 40, 5, 33, 9} // LSTMs as one dispatch per step
	// perChunk: the hardware schedule with a staging buffer too small for
	// two chunks' results.
	const perChunk = 1
	cases := []struct {
		name       string
		opt        Options
		lengths    []int
		tol        float64
		stagingCap int // 0: stagingLimit
	}{
		{"f32", Options{Weights: WeightsF32}, batch, tolF32, 0},
		{"f16 unpack", Options{Weights: WeightsF16, NoShaderF16: true}, batch, tolF16, 0},
		{"f16 shader-f16 where supported", Options{Weights: WeightsF16}, batch, tolF16, 0},
		{"f32 one sentence (LSTM loops)", Options{Weights: WeightsF32}, []int{17}, tolF32, 0},
		{"f16 three sentences (LSTM loops)", Options{Weights: WeightsF16}, []int{6, 35, 1}, tolF16, 0},
		{"f32 small chunks, one dispatch per submission", Options{Weights: WeightsF32, MaxWords: 40, ChunkTokens: 50, SubmitWork: 1}, batch, tolF32, 0},
		{"f32 hardware schedule, small chunks in one submission", Options{Weights: WeightsF32, MaxWords: 40, ChunkTokens: 50, asHardware: true}, batch, tolF32, 0},
		{"f16 hardware schedule, a read-back per chunk", Options{Weights: WeightsF16, MaxWords: 40, ChunkTokens: 50, asHardware: true}, batch, tolF16, perChunk},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := randomModel(t, c, 3)
			ref := m
			if tc.opt.Weights == WeightsF16 {
				ref = &network.Model{Params: RoundFloat16(m.Params)}
			}
			s := openScorer(t, m.Params, tc.opt)
			if tc.stagingCap > 0 {
				s.stagingCap = tc.stagingCap
			}
			batch := randomBatch(c, 5, tc.lengths...)
			s.d.calls = callCounts{}
			got, err := s.Score(batch)
			if err != nil {
				t.Fatal(err)
			}
			if tc.opt.asHardware {
				// One submission and one map per group: the batch, or
				// each chunk.
				chunks, groups := len(planChunks(batch, s.lay)), 1
				if tc.stagingCap == perChunk {
					groups = chunks
				}
				if chunks < 2 {
					t.Errorf("%d chunks: the case needs several", chunks)
				}
				if s.d.calls.submits != groups || s.d.calls.maps != groups {
					t.Errorf("device calls %+v for %d chunks, want %d submissions and maps", s.d.calls, chunks, groups)
				}
			}
			want, err := ref.ForwardBatch(batch)
			if err != nil {
				t.Fatal(err)
			}
			d := compare(t, got, want)
			t.Logf("%d sentences: %s", len(batch), d.describe(tc.tol))
			if !d.within(tc.tol) {
				t.Errorf("%s", d.describe(tc.tol))
			}
		})
	}
}

// TestEquivalenceLongSentence checks where the LSTM loop (lstm_loop.wgsl)
// runs, and scores long sentences.
//
// The plan, for LSTMs of 768 units and no bound on a submission's work: on
// a software adapter, a sentence whose loop would pass llvmpipe's loop
// limit (softwareLoopLimit: from 111 words at 768 units; on lavapipe a
// 200-word sentence at 192 units once differed by 0.2 through a loop that
// met it) runs the per-step kernel instead, a shorter one the loop; on a
// hardware adapter both run the loop, unless the weights buffer has no
// room for the loop's copy of W_hh (a model near the storage limit).
//
// The scores: sentences of 100 and 200 words with the shipped model's 192
// units, on the adapter at hand with its own plan, are the CPU reference's.
func TestEquivalenceLongSentence(t *testing.T) {
	wide := microConfig()
	wide.LSTM1Hidden, wide.LSTM2Hidden = 768, 768
	pw := randomModel(t, wide, 3).Params
	params := wide.NumParams()
	for _, tc := range []struct {
		name     string
		n        int
		software bool
		budget   int  // elements the weights buffer may hold
		loop     bool // the plan runs lstm_loop.wgsl
	}{
		{"software, 100 words: loop", 100, true, weightBudget(Options{}), true},
		{"software, 120 words: steps", 120, true, weightBudget(Options{}), false},
		{"hardware, 120 words: loop", 120, false, weightBudget(Options{}), true},
		{"hardware, no room for the loop's copy of W_hh: steps", 120, false, params, false},
	} {
		o := Options{MaxWords: 200}.withDefaults(tc.software)
		o.SubmitWork = 0 // the loop limit alone
		l, err := newLayout(wide, o)
		if err != nil {
			t.Fatal(err)
		}
		wm, err := mapWeights(pw, tc.budget)
		if err != nil {
			t.Fatal(err)
		}
		chunks := planChunks(randomBatch(wide, 9, tc.n), l)
		loop := false
		for _, d := range chunkPlan(l, &wm, chunks[0], planLimitsFor(o, tc.software)) {
			loop = loop || d.kernel == kLSTMLoop
		}
		if loop != tc.loop {
			t.Errorf("%s: plan runs the LSTM loop: %v, want %v", tc.name, loop, tc.loop)
		}
	}

	c := microConfig()
	c.LSTM1Hidden, c.LSTM2Hidden = 192, 192
	m := randomModel(t, c, 3)
	s := openScorer(t, m.Params, Options{MaxWords: 200})
	for _, n := range []int{100, 200} {
		d := againstCPU(t, s, m, randomBatch(c, 9, n))
		t.Logf("%d words: max abs diff: scores %.3g, tags %.3g", n, d.scores, d.tags)
		if d.scores > tolF32 || d.tags > tolF32 || d.trees > 0 {
			t.Errorf("%d words: max abs diff scores %.3g, tags %.3g (tolerance %g); %d trees differ", n, d.scores, d.tags, tolF32, d.trees)
		}
	}
}

// TestEquivalenceEnsembleAtOnce scores an ensemble of two models, each on a
// device of its own, with scorer.Mean: the members are Starters, so both
// score at the same time (two goroutines, two devices), and the mean
// equals the CPU ensemble's within tolF32, with the same n3 trees. Run
// several times over, so that the two devices' work interleaves
// differently.
func TestEquivalenceEnsembleAtOnce(t *testing.T) {
	c := microConfig()
	a, b := randomModel(t, c, 3), randomModel(t, c, 4)
	ens := scorer.Mean(openScorer(t, a.Params, Options{Weights: WeightsF32}), openScorer(t, b.Params, Options{Weights: WeightsF32}))
	batch := randomBatch(c, 6, 3, 0, 1, 7, 12, 2, 40, 5, 33, 9)
	want, err := scorer.MeanCPU([]*network.Model{a, b}).Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := scorer.NewCPU(a).Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	if d := compare(t, alone, want); d.scores < 100*tolF32 {
		t.Fatalf("the first model alone is within %.2g of the ensemble: the test cannot see the second", d.scores)
	}
	for round := range 3 {
		got, err := ens.Score(batch)
		if err != nil {
			t.Fatal(err)
		}
		if d := compare(t, got, want); d.scores > tolF32 || d.tags > tolF32 || d.trees > 0 {
			t.Fatalf("round %d: scores differ by %.3g, tags by %.3g, %d trees differ (tolerance %.g)", round, d.scores, d.tags, d.trees, tolF32)
		}
	}
}

// TestPhases checks the scorer's account of where its time went: one call
// per Score, the device's waits and copies counted, and zero after
// ResetPhases.
func TestPhases(t *testing.T) {
	c := microConfig()
	m := randomModel(t, c, 3)
	s := openScorer(t, m.Params, Options{Weights: WeightsF32, asHardware: true})
	s.ResetPhases()
	if p := s.Phases(); p != (Phases{}) {
		t.Fatalf("after ResetPhases: %v", p)
	}
	batch := randomBatch(c, 5, 3, 7, 12)
	for range 2 {
		if _, err := s.Score(batch); err != nil {
			t.Fatal(err)
		}
	}
	p := s.Phases()
	if p.Calls != 2 || p.Plan <= 0 || p.Record <= 0 || p.Alloc < 0 || p.Wait <= 0 || p.Copy < 0 || p.Unpack < 0 {
		t.Errorf("after two Score calls: %+v", p)
	}
	if half := p.Scale(0.5); half.Calls != 2 || p.Wait-2*half.Wait < 0 || p.Wait-2*half.Wait > 1 {
		t.Errorf("Scale(0.5) of %v: %v", p, half)
	}
	t.Logf("%v", p)
}
