//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// randomModels returns n random models of c (seeds 3, 4, ...) and their
// parameters.
func randomModels(tb testing.TB, c network.Config, n int) ([]*network.Model, []*network.Params) {
	ms := make([]*network.Model, n)
	ps := make([]*network.Params, n)
	for k := range ms {
		ms[k] = randomModel(tb, c, uint64(3+k))
		ps[k] = ms[k].Params
	}
	return ms, ps
}

// modelsShare is the dispatches that an ensemble's models share where a
// chunk fits the rows once per model (loopsTogether): the char LSTM's and
// both sentence LSTMs' loops, the word gather, both input projections and
// the endpoint MLPs; scoresShare those they share more where each model
// has its biaffine scratch (scoresTogether): two left and two pair
// products (span and label, the three kinds each) and the assembly.
const (
	modelsShare = 7
	scoresShare = 5
)

// sharedDispatches returns the dispatches that models models share over
// chunk ch (see modelsShare), one dispatch each instead of one per model,
// where their LSTMs loop (loops: always on the hardware schedule).
func sharedDispatches(l *layout, ch *chunk, lim planLimits, models int, loops bool) int {
	if !loops || models < 2 || ch.tokens > l.tokCap/models || lim.inTurn {
		return 0
	}
	shared := modelsShare + splitShared(l, ch, lim, models)
	if scoresTogether(l, ch, lim, models) {
		return shared + scoresShare
	}
	return shared
}

// reductions returns the reductions of split products (planner.innerSlices)
// in the plan of a later model of models over chunk ch: all of them, and
// those that add to the earlier models' results in turn (the tagger's:
// addsInTurn), which the models cannot share.
func reductions(l *layout, ch *chunk, lim planLimits, models int) (all, inTurn int) {
	for _, st := range memberStages(l, &weightMap{off: map[string]int{}}, ch, lim, models-1, models, 0, 0) {
		for _, d := range st {
			if d.kernel == kMatmulReduce {
				all++
				if addsInTurn(d) {
					inTurn++
				}
			}
		}
	}
	return all, inTurn
}

// splitProducts returns the products split over their inner dimension in
// the plan of models models (one model's plan, times models) over chunks.
func splitProducts(l *layout, chunks []*chunk, lim planLimits, models int) int {
	n := 0
	for _, ch := range chunks {
		all, _ := reductions(l, ch, lim, models)
		n += all
	}
	return n * models
}

// splitShared returns the reductions that models models share over chunk
// ch where their products are split over the inner dimension: all but the
// tagger's, which add model after model.
func splitShared(l *layout, ch *chunk, lim planLimits, models int) int {
	all, inTurn := reductions(l, ch, lim, models)
	return all - inTurn
}

// longInnerConfig is microConfig with sentence LSTMs wide enough (inner
// dimensions of 144 and 134: 9 of matmul.wgsl's 16-wide steps) for the
// planner to split the tagger's, the second input projection's and the
// MLPs' products over their inner dimension on a hardware schedule, into
// uneven slices (the last one shorter, 134 not a multiple of 16).
func longInnerConfig() network.Config {
	c := microConfig()
	c.LSTM1Hidden, c.LSTM2Hidden = 72, 67
	return c
}

// TestEnsembleOneDevice scores ensembles on one device (NewEnsemble) and
// compares them with scorer.Mean over the CPU reference of each model:
// scores and tags within the tolerance, the same n3 trees, for both weight
// storages, both LSTM paths, the hardware schedule (the whole batch in one
// submission and one read-back, whatever the number of models, and each
// model's dispatches, the loops of small chunks shared) and the software
// one cut into submissions between and within models. The first model alone is far from the mean, so the
// test sees every model's contribution.
func TestEnsembleOneDevice(t *testing.T) {
	steps := []int{3, 0, 1, 7, 12, 2, 40, 5, 33, 9}
	cases := []struct {
		name    string
		models  int
		opt     Options
		lengths []int
		tol     float64
		long    bool // longInnerConfig: products split on the hardware schedule
	}{
		{"2 models f32", 2, Options{Weights: WeightsF32}, steps, tolF32, false},
		{"3 models f32, hardware schedule, small chunks", 3, Options{Weights: WeightsF32, MaxWords: 40, ChunkTokens: 50, asHardware: true}, steps, tolF32, false},
		{"2 models f16, LSTM loops", 2, Options{Weights: WeightsF16}, []int{6, 35, 1}, tolF16, false},
		{"2 models f32, one dispatch per submission", 2, Options{Weights: WeightsF32, MaxWords: 40, ChunkTokens: 50, SubmitWork: 1}, []int{3, 11, 0, 7}, tolF32, false},
		{"2 models f32, hardware schedule, one sentence: the loops of both in one dispatch", 2, Options{Weights: WeightsF32, asHardware: true}, []int{17}, tolF32, false},
		{"3 models f16, hardware schedule, 5 sentences: the loops of all in one dispatch", 3, Options{Weights: WeightsF16, asHardware: true}, []int{4, 9, 1, 22, 6}, tolF16, false},
		{"2 models f32, hardware schedule, one sentence, the loops model after model", 2, Options{Weights: WeightsF32, asHardware: true, modelsInTurn: true}, []int{17}, tolF32, false},
		{"2 models f32, hardware schedule, interleaved W_hh: the loops of both in one dispatch", 2, Options{Weights: WeightsF32, asHardware: true, loopInterleaved: true}, []int{17, 3}, tolF32, false},
		{"3 models f16 unpacked, hardware schedule, interleaved W_hh, small chunks", 3, Options{Weights: WeightsF16, NoShaderF16: true, MaxWords: 40, ChunkTokens: 50, asHardware: true, loopInterleaved: true}, steps, tolF16, false},
		{"2 models f32, hardware schedule, one sentence, products split over their inner dimension", 2, Options{Weights: WeightsF32, asHardware: true}, []int{17}, tolF32, true},
		{"3 models f16, hardware schedule, small chunks, products split over their inner dimension", 3, Options{Weights: WeightsF16, MaxWords: 40, ChunkTokens: 50, asHardware: true}, steps, tolF16, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := microConfig()
			if tc.long {
				c = longInnerConfig()
			}
			ms, ps := randomModels(t, c, tc.models)
			refs := ms
			if tc.opt.Weights == WeightsF16 {
				refs = make([]*network.Model, len(ms))
				for k, m := range ms {
					refs[k] = &network.Model{Params: RoundFloat16(m.Params)}
				}
			}
			s := openEnsemble(t, ps, tc.opt)
			if s.Models() != tc.models || !strings.Contains(s.Backend(), "models averaged on the device") {
				t.Errorf("Models() %d, Backend %q", s.Models(), s.Backend())
			}
			batch := randomBatch(c, 6, tc.lengths...)
			s.d.calls = callCounts{}
			got, err := s.Score(batch)
			if err != nil {
				t.Fatal(err)
			}
			if tc.opt.asHardware {
				// Each model's dispatches, but for chunks that fit the
				// rows once per model: their loops (char LSTM, both
				// sentence LSTMs) and more run for all models at once.
				single := planBatch(t, ps[0], tc.opt, false, batch)
				together, shared := 0, 0
				for _, ch := range planChunks(batch, s.lay) {
					if n := sharedDispatches(s.lay, ch, s.limits(), tc.models, true); n > 0 {
						together++
						shared += n
					}
				}
				want := callCounts{submits: 1, maps: 1, writes: 1, dispatches: tc.models*single.dispatches - (tc.models-1)*shared}
				if s.d.calls != want {
					t.Errorf("device calls %+v for %d chunks (%d of them with the models' loops together) and %d models, want %+v",
						s.d.calls, single.chunks, together, tc.models, want)
				}
				t.Logf("%d chunks, %d with the models' loops together", single.chunks, together)
				if strings.Contains(tc.name, "loops of") && together == 0 {
					t.Errorf("no chunk with the models' loops together: the case does not test them")
				}
				if split := splitProducts(s.lay, planChunks(batch, s.lay), s.limits(), tc.models); (split > 0) != tc.long {
					t.Errorf("%d products split over their inner dimension: want some %v", split, tc.long)
				}
				// Where the device allows workgroups of 1024 invocations
				// (lavapipe does), the loops of these small chunks split
				// each unit's sum (lstm_loop.wgsl split).
				splitLoops := 0
				for _, ch := range planChunks(batch, s.lay) {
					for _, d := range ensemblePlan(s.lay, s.wms, ch, s.limits()) {
						if d.kernel == kLSTMSplit {
							splitLoops++
						}
					}
				}
				if wide := s.opts.workgroupLimit >= splitLoopWidth; (splitLoops > 0) != wide {
					t.Errorf("%d LSTM loops with the units' sums split, on a device of %d invocations a workgroup", splitLoops, s.opts.workgroupLimit)
				}
				t.Logf("%d LSTM loops with the units' sums split", splitLoops)
			}
			want, err := scorer.MeanCPU(refs).Score(batch)
			if err != nil {
				t.Fatal(err)
			}
			alone, err := scorer.NewCPU(refs[0]).Score(batch)
			if err != nil {
				t.Fatal(err)
			}
			if d := compare(t, alone, want); d.scores < 10*tc.tol {
				t.Fatalf("the first model alone is within %.2g of the mean: the test cannot see the others", d.scores)
			}
			d := compare(t, got, want)
			t.Logf("%d sentences: %s", len(batch), d.describe(tc.tol))
			if !d.within(tc.tol) {
				t.Errorf("%s", d.describe(tc.tol))
			}
		})
	}
}

// TestEnsembleDispatchByDispatch checks an ensemble's plan on one device
// dispatch by dispatch against the float64 emulation (see
// TestDispatchByDispatch): the second model's char table, its label
// scores and tag logits added to the first's, the division by the number
// of models in the last assembly and tagger, and, where the sentence LSTMs
// loop over a chunk that fits half the rows, both models' loops in one
// dispatch (each model's activations in its half).
func TestEnsembleDispatchByDispatch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		w       Weights
		lengths []int
		loops   bool // the sentence LSTMs loop (at most loopSentences sentences)
		split   bool // longInnerConfig, products split over their inner dimension
		units   bool // the loops split each unit's sum (lstm_loop.wgsl split)
	}{
		{"steps f32", WeightsF32, []int{3, 1, 7, 12, 2, 9}, false, false, false},
		{"loop f16", WeightsF16, []int{6, 13}, true, false, false},
		{"loop f32, one sentence: the score stages of both too", WeightsF32, []int{5}, true, false, false},
		{"loop f32, one sentence, products split: their reductions shared, the tagger's in turn", WeightsF32, []int{5}, true, true, false},
		{"steps f16, products split", WeightsF16, []int{3, 1, 7, 12, 2, 9}, false, true, false},
		{"loop f16, units split: both models' in one dispatch", WeightsF16, []int{6, 13}, true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := microConfig()
			if tc.split {
				c = longInnerConfig()
			}
			_, ps := randomModels(t, c, 2)
			// The same plan on every adapter: a hardware one would otherwise
			// loop over every chunk and split the loops and the products.
			s := openEnsemble(t, ps, Options{Weights: tc.w, MaxWords: 24, ChunkTokens: 128, TestSplitInner: tc.split, TestSplitLoop: tc.units,
				loopSentences: loopSentences, noSplitInner: !tc.split, noSplitLoop: !tc.units})
			chunks := planChunks(randomBatch(c, 5, tc.lengths...), s.lay)
			if len(chunks) != 1 {
				t.Fatalf("%d chunks, want 1", len(chunks))
			}
			ids := make([]uint32, c.CharVocab)
			for i := range ids {
				ids[i] = uint32(i)
			}
			checkDispatches(t, s, ps, initPlan(s.lay, s.wms), ids)
			ds := ensemblePlan(s.lay, s.wms, chunks[0], s.limits())
			// With the loops, both models' LSTM layers run in one dispatch
			// each (grid z = 2), and so do their word gathers, input
			// projections and endpoint MLPs, and for one sentence their
			// score stages: that many dispatches fewer than twice one
			// model's plan.
			want, together := 2*len(chunkPlan(s.lay, &s.wms[0], chunks[0], s.limits())), 0
			for _, d := range ds {
				if strings.HasSuffix(d.what, ", 2 models") {
					together++
				}
			}
			if split := splitProducts(s.lay, chunks, s.limits(), 2); (split > 0) != tc.split {
				t.Fatalf("%d products split over their inner dimension, want some: %v", split, tc.split)
			}
			units, chars := 0, 0
			for _, d := range ds {
				switch d.kernel {
				case kLSTMSplit:
					units++
				case kCharSplit:
					if !strings.HasSuffix(d.what, ", 2 models") {
						t.Fatalf("a split char loop of one model: %q", d.what)
					}
					chars++
				}
			}
			if want := map[bool]int{true: 2}[tc.units]; units != want || chars != want/2 {
				t.Fatalf("%d sentence loops and %d char loops with the units' sums split, want %d and %d", units, chars, want, want/2)
			}
			shared := sharedDispatches(s.lay, chunks[0], s.limits(), 2, tc.loops)
			wantShared := map[bool]int{true: modelsShare}[tc.loops] + map[bool]int{true: scoresShare}[len(tc.lengths) == 1]
			if tc.split && tc.loops {
				wantShared += 2 // the reductions of the second input projection and the MLPs (inner 144 and 134)
			}
			if shared != wantShared {
				t.Fatalf("%d dispatches shared by 2 models, want %d", shared, wantShared)
			}
			if want -= shared; len(ds) != want || together != shared {
				t.Fatalf("%d dispatches for 2 models, %d of both; want %d and %d", len(ds), together, want, shared)
			}
			checkDispatches(t, s, ps, ds, chunks[0].ints)
		})
	}
}

// TestEnsembleSelfCheck: NewEnsemble's self-check accepts correct kernels
// (against the mean of the CPU references) and refuses a broken one.
func TestEnsembleSelfCheck(t *testing.T) {
	skipSlowAdapter(t)
	_, ps := randomModels(t, microConfig(), 2)
	for _, tc := range []struct {
		name    string
		perturb string
	}{{"correct", ""}, {"broken gather.wgsl", "gather.wgsl"}, {"broken matmul.wgsl", "matmul.wgsl"}} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewEnsemble(ps, Options{MaxWords: 40, TestPerturb: tc.perturb})
			if errors.Is(err, ErrNoAdapter) && !VulkanDriverInstalled() {
				t.Skipf("no WebGPU adapter and no Vulkan driver: %v", err)
			}
			if s != nil {
				defer s.Close()
			}
			switch {
			case tc.perturb == "" && err != nil:
				t.Fatalf("NewEnsemble refused correct kernels: %v", err)
			case tc.perturb == "":
				if c := s.SelfCheck(); !(c.MaxDiff <= SelfCheckTolerance/10) {
					t.Errorf("self-check: %s, want the largest difference at most a tenth of the tolerance", c)
				}
			case !errors.Is(err, ErrSelfCheck) || !errors.Is(err, scorer.ErrUnavailable):
				t.Fatalf("with a broken %s: %v, want an error matching ErrSelfCheck and scorer.ErrUnavailable", tc.perturb, err)
			default:
				t.Logf("refused: %v", err)
			}
		})
	}
}

// oneModelLimit returns a weights limit in bytes that one model of ps fits
// (float32, its loop copies included) and two do not.
func oneModelLimit(t *testing.T, ps []*network.Params) int {
	t.Helper()
	wm, err := mapWeights(ps[0], 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	return 4 * wm.total * 3 / 2
}

// TestEnsembleRefused: models shaped differently, or together too large for
// one weights buffer (ErrTooLarge), are refused before a device is asked
// for, with the reason.
func TestEnsembleRefused(t *testing.T) {
	c := microConfig()
	wide := c
	wide.LSTM1Hidden++
	_, ps := randomModels(t, c, 2)
	cases := []struct {
		name  string
		ps    []*network.Params
		limit int
		want  string
	}{
		{"none", nil, 0, "without models"},
		{"a nil model", []*network.Params{ps[0], nil}, 0, "model 2 has no parameters"},
		{"different sizes", []*network.Params{ps[0], randomModel(t, wide, 4).Params}, 0, "differs from model 1's"},
		{"too large together", ps, oneModelLimit(t, ps), "a scorer per model"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewEnsemble(tc.ps, Options{weightLimit: tc.limit})
			if err == nil {
				s.Close()
				t.Fatalf("NewEnsemble accepted %s", tc.name)
			}
			if !strings.Contains(err.Error(), tc.want) || errors.Is(err, scorer.ErrUnavailable) || errors.Is(err, ErrTooLarge) != (tc.limit > 0) {
				t.Errorf("error %q: want it to say %q, not to match scorer.ErrUnavailable, and to match ErrTooLarge only when too large", err, tc.want)
			}
		})
	}
}

// TestNewMean: the models on one device when they fit together, else a
// scorer per model averaged by scorer.Mean; the mean of the CPU references
// either way.
func TestNewMean(t *testing.T) {
	skipSlowAdapter(t)
	c := microConfig()
	ms, ps := randomModels(t, c, 2)
	batch := randomBatch(c, 6, 3, 0, 11, 7)
	want, err := scorer.MeanCPU(ms).Score(batch)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		limit   int
		backend string
	}{
		{"one device", 0, "2 models averaged on the device"},
		{"a device per model", oneModelLimit(t, ps), "ensemble of 2: webgpu"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, info, err := NewMean(ps, Options{weightLimit: tc.limit, SkipSelfCheck: true})
			if errors.Is(err, ErrNoAdapter) && !VulkanDriverInstalled() {
				t.Skipf("no WebGPU adapter and no Vulkan driver: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !strings.Contains(s.Backend(), tc.backend) || info.Name == "" {
				t.Errorf("backend %q (adapter %q), want it to say %q", s.Backend(), info.Name, tc.backend)
			}
			got, err := s.Score(batch)
			if err != nil {
				t.Fatal(err)
			}
			if d := compare(t, got, want); !d.within(tolF32) {
				t.Errorf("%s", d.describe(tolF32))
			}
		})
	}
}
