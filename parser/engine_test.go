package parser_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/parser/parsertest"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// fakeGPU is a "GPU" scorer: the CPU reference, slowed down by delay.
type fakeGPU struct {
	cpu   scorer.Scorer
	delay time.Duration
}

func (g fakeGPU) Score(b []network.Input) ([]scorer.Result, error) {
	time.Sleep(g.delay)
	return g.cpu.Score(b)
}
func (fakeGPU) Backend() string { return "webgpu: fake" }
func (fakeGPU) Close() error    { return nil }

// meanCPU is the CPU ensemble of the models ps: what a fake GPU scores.
func meanCPU(ps []*network.Params) scorer.Scorer {
	ms := make([]*network.Model, len(ps))
	for k, p := range ps {
		ms[k] = &network.Model{Params: p}
	}
	return scorer.MeanCPU(ms)
}

// failing is a GPUFunc that fails with err.
func failing(err error) parser.GPUFunc {
	return func(func() ([]*network.Params, error), bool, bool) (scorer.Scorer, bool, error) {
		return nil, false, err
	}
}

func TestChooseBackend(t *testing.T) {
	data := parsertest.Model(t, 1)
	gpu := func(software bool, delay time.Duration) parser.GPUFunc {
		return func(params func() ([]*network.Params, error), f16, allowSoftware bool) (scorer.Scorer, bool, error) {
			if software && !allowSoftware {
				return nil, true, fmt.Errorf("probe: %w", parser.ErrSoftwareAdapter)
			}
			ps, err := params()
			if err != nil {
				return nil, false, err
			}
			return fakeGPU{meanCPU(ps), delay}, software, nil
		}
	}
	for _, tc := range []struct {
		name, backend string
		gpu           parser.GPUFunc
		wantBackend   string
		wantChoice    string
		wantSoftware  bool
		wantReason    string
	}{
		{"no gpu", "auto", nil, "cpu", "no WebGPU here", false, parser.ReasonNoWebGPU},
		{"cpu asked", "cpu", gpu(false, 0), "cpu", "CPU asked for", false, parser.ReasonAsked},
		{"software skipped", "auto", gpu(true, 0), "cpu", "software one", false, parser.ReasonSoftware},
		{"software forced", "webgpu", gpu(true, 0), "webgpu: fake", "WebGPU asked for", true, parser.ReasonAsked},
		{"slow hardware", "auto", gpu(false, 30*time.Millisecond), "cpu", "CPU", false, parser.ReasonFaster},
		{"broken", "auto", failing(errors.New("no adapter\ndetails")), "cpu", "WebGPU unavailable: no adapter", false, parser.ReasonFailed},
		{"no adapter", "auto", failing(fmt.Errorf("probe: %w", parser.ErrNoAdapter)), "cpu", "WebGPU unavailable: probe: no WebGPU adapter", false, parser.ReasonNoWebGPU},
		{"self-check refuses", "auto", failing(fmt.Errorf("webgpu: self-check failed on GPU X: largest difference 3.2: %w", parser.ErrSelfCheck)),
			"cpu", "WebGPU refused by its self-check, the CPU scores: webgpu: self-check failed on GPU X: largest difference 3.2", false, parser.ReasonSelfCheck},
		{"self-check refuses asked", "webgpu", failing(fmt.Errorf("on GPU X: %w", parser.ErrSelfCheck)), "cpu", "GPU X", false, parser.ReasonSelfCheck},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &parser.Engine{GPU: tc.gpu}
			info, err := l.Load(context.Background(), data, "m", parser.LoadOptions{Backend: tc.backend})
			if err != nil {
				t.Fatal(err)
			}
			if info.Backend != tc.wantBackend || !strings.Contains(info.Choice, tc.wantChoice) || info.Software != tc.wantSoftware || info.Reason != tc.wantReason {
				t.Errorf("got %q (%q, %s, software %v), want %q (%q, %s)", info.Backend, info.Choice, info.Reason, info.Software, tc.wantBackend, tc.wantChoice, tc.wantReason)
			}
			p, err := l.Parse(context.Background(), parser.Request{Words: parsertest.Sentences[0], Variant: "n3"})
			if err != nil {
				t.Fatal(err)
			}
			if p.Backend != tc.wantBackend {
				t.Errorf("the parse was scored by %q, want %q", p.Backend, tc.wantBackend)
			}
		})
	}
	if _, err := (&parser.Engine{}).Load(context.Background(), data, "m", parser.LoadOptions{Backend: "cuda"}); err == nil {
		t.Error("unknown backend accepted")
	}
}

// TestGPUWeightsFloat16 loads a model stored as each dtype with WebGPU
// asked for: the GPU is asked for float16 weights for every dtype but F32,
// and gets the file's parameters (dequantised, not yet rounded: the
// scorer rounds them), as the CPU reference reads them.
func TestGPUWeightsFloat16(t *testing.T) {
	for _, tc := range []struct {
		dtype   weights.DType
		wantF16 bool
	}{
		{weights.Float32, false},
		{weights.Float16, true},
		{weights.Int8, true},
		{weights.Int4, true},
	} {
		t.Run(tc.dtype.String(), func(t *testing.T) {
			data := parsertest.EnsembleAs(t, tc.dtype, []uint64{3, 4})
			ms, err := parser.Read(data, "m")
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			gpu := func(params func() ([]*network.Params, error), f16, allowSoftware bool) (scorer.Scorer, bool, error) {
				calls++
				if f16 != tc.wantF16 {
					t.Errorf("a file stored as %s: the GPU was asked for float16 weights: %v, want %v", tc.dtype, f16, tc.wantF16)
				}
				ps, err := params()
				if err != nil {
					return nil, false, err
				}
				for k, p := range ps {
					if !slices.Equal(p.Get("cont.span.biaffine").Data, ms.Models[k].Params.Get("cont.span.biaffine").Data) {
						t.Errorf("model %d: the GPU got other parameters than the file's", k+1)
					}
				}
				return fakeGPU{meanCPU(ps), 0}, false, nil
			}
			l := &parser.Engine{GPU: gpu}
			info, err := l.Load(context.Background(), data, "m", parser.LoadOptions{Backend: parser.BackendWebGPU})
			if err != nil {
				t.Fatal(err)
			}
			if calls != 1 || info.Backend != "webgpu: fake" {
				t.Fatalf("the GPU was built %d times and the backend is %q, want once and the fake GPU", calls, info.Backend)
			}
		})
	}
}

// TestEnsembleBackends loads an ensemble of two models on each backend:
// the engine reports both models, names the backend of each, and parses
// every sentence into the tree the CPU ensemble of Models.Parser gives.
func TestEnsembleBackends(t *testing.T) {
	data := parsertest.Ensemble(t, []uint64{1, 2})
	ms, err := parser.Read(data, "ens")
	if err != nil {
		t.Fatal(err)
	}
	f := ms.File
	ref, err := ms.Parser()
	if err != nil {
		t.Fatal(err)
	}
	first, err := parser.New(ms.Models[0], ms.Vocab)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	gpus := 0
	gpu := func(params func() ([]*network.Params, error), f16, allowSoftware bool) (scorer.Scorer, bool, error) {
		gpus++
		ps, err := params()
		if err != nil {
			return nil, false, err
		}
		if len(ps) != 2 {
			t.Errorf("GPUFunc given %d models, want the ensemble's 2", len(ps))
		}
		return fakeGPU{meanCPU(ps), 0}, false, nil
	}
	for _, tc := range []struct{ backend, want string }{
		{"cpu", "ensemble of 2: cpu"},
		{"webgpu", "webgpu: fake"},
	} {
		t.Run(tc.backend, func(t *testing.T) {
			gpus = 0
			l := &parser.Engine{GPU: gpu}
			defer l.Close()
			info, err := l.Load(context.Background(), data, "ens", parser.LoadOptions{Backend: tc.backend})
			if err != nil {
				t.Fatal(err)
			}
			if info.Backend != tc.want || info.Models != 2 || info.Params != 2*f.Params.Config().NumParams() {
				t.Fatalf("backend %q, %d models, %d parameters; want %q, 2, %d", info.Backend, info.Models, info.Params, tc.want, 2*f.Params.Config().NumParams())
			}
			if tc.backend == "webgpu" && gpus != 1 {
				t.Fatalf("%d GPU scorers built, want one for the ensemble (its models averaged on the device)", gpus)
			}
			differ = 0
			for _, words := range parsertest.Sentences {
				want := sameParse(t, l, ref, words)
				alone, err := first.ParseWords(words, decode.N3)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(constituents(alone.Tree), constituents(want.Tree)) {
					differ++
				}
			}
			if differ == 0 {
				t.Fatal("the ensemble parses every sentence as its first model alone: the test cannot tell them apart")
			}
		})
	}
}

// sameParse parses words with e (n3) and fails unless the tree is the one
// ref gives, which it returns.
func sameParse(t *testing.T, e *parser.Engine, ref *parser.Parser, words []string) *parser.Result {
	t.Helper()
	got, err := e.Parse(context.Background(), parser.Request{Words: words, Variant: "n3"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.ParseWords(words, decode.N3)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := constituents(got.Tree), constituents(want.Tree); !slices.Equal(g, w) {
		t.Fatalf("%v:\n got %v\nwant %v", words, g, w)
	}
	return want
}

// TestEngineMembersSome loads an ensemble of three models whose second
// model scores elsewhere and whose third cannot: the info says so, the
// third is scored here, and the parses equal the sequential ensemble's,
// on the CPU and on a (fake) GPU, which scores the engine's models after
// the members were set up.
func TestEngineMembersSome(t *testing.T) {
	data, ref := ensembleAndReference(t, "ens3", 1, 2, 3)
	gpu := func(params func() ([]*network.Params, error), f16, allowSoftware bool) (scorer.Scorer, bool, error) {
		ps, err := params()
		if err != nil {
			return nil, false, err
		}
		return fakeGPU{meanCPU(ps), 0}, false, nil
	}
	for _, backend := range []string{parser.BackendCPU, parser.BackendWebGPU} {
		t.Run(backend, func(t *testing.T) {
			started, closed := 0, 0
			e := &parser.Engine{GPU: gpu, Members: func(ctx context.Context, d []byte, name string, k int, local scorer.Scorer, always bool) (scorer.Scorer, error) {
				if k == 2 {
					return nil, errors.New("no third core")
				}
				return elsewhere{local, k, &started, &closed}, nil
			}}
			defer e.Close()
			info, err := e.Load(context.Background(), data, "ens3", parser.LoadOptions{Backend: backend})
			if err != nil {
				t.Fatal(err)
			}
			want := "2 of the 3 models score at the same time: no third core"
			if backend == parser.BackendWebGPU {
				want = ""
			}
			if info.Models != 3 || info.Parallel != want {
				t.Fatalf("%d models, %q; want 3, %q", info.Models, info.Parallel, want)
			}
			// The members' memory: model 1's thread only (model 2 scores
			// here); none once WebGPU scores.
			wantMemory := []int64{1000}
			if backend == parser.BackendWebGPU {
				wantMemory = nil
			}
			if !slices.Equal(info.MemberMemory, wantMemory) {
				t.Errorf("member memory %v, want %v", info.MemberMemory, wantMemory)
			}
			for _, words := range parsertest.Sentences {
				sameParse(t, e, ref, words)
			}
			if backend == parser.BackendCPU && started == 0 {
				t.Error("model 2 never scored elsewhere")
			}
		})
	}
}

// constituents lists a tree's constituents as sorted strings.
func constituents(tr *tree.Tree) []string {
	var out []string
	for i, y := range tr.Yields() {
		out = append(out, tree.Labelled{Label: tr.Nodes[i].Label, Blocks: tree.Blocks(y)}.String())
	}
	slices.Sort(out)
	return out
}

// TestEngineParse follows one sentence through an Engine's requests: the
// scores are reused for another variant, for a constrained re-parse and for
// the stepper's scores; a required constituent (one of a label the model
// lacks among them, adding nothing to the score) is in the tree, a
// forbidden one is not.
func TestEngineParse(t *testing.T) {
	ctx := context.Background()
	e := &parser.Engine{}
	words := parsertest.Sentences[0]
	if _, err := e.Parse(ctx, parser.Request{Words: words, Variant: "n3"}); !errors.Is(err, parser.ErrNoModel) {
		t.Fatalf("before Load: %v, want ErrNoModel", err)
	}
	info, err := e.Load(ctx, parsertest.Model(t, 3), "m", parser.LoadOptions{Backend: parser.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	first, err := e.Parse(ctx, parser.Request{Words: words, Variant: "n3"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Reused || first.Scores != nil || len(first.Tags) != len(words) {
		t.Fatalf("first parse: reused %v, scores %v, %d tags", first.Reused, first.Scores != nil, len(first.Tags))
	}
	for _, tc := range []struct {
		name     string
		req      parser.Request
		has, not string // a constituent the tree has, one it has not ("" for none)
		err      error
	}{
		{"another variant", parser.Request{Variant: "n4", Scores: true}, "", "", nil},
		{"required", parser.Request{Variant: "n3", Require: []parser.Constraint{{Label: "pp", Blocks: [][2]int{{5, 8}}}}}, "pp[5,8)", "", nil},
		{"required, unknown label", parser.Request{Variant: "n3", Require: []parser.Constraint{{Label: "xyz", Blocks: [][2]int{{1, 2}, {3, 4}}}}}, "xyz[1,2)+[3,4)", "", nil},
		{"forbidden", parser.Request{Variant: "n3", Forbid: []parser.Constraint{{Blocks: [][2]int{{0, len(words)}}}}}, "", "[0," + fmt.Sprint(len(words)) + ")", nil},
		{"required without label", parser.Request{Variant: "n3", Require: []parser.Constraint{{Blocks: [][2]int{{0, 2}}}}}, "", "", decode.ErrBadConstraint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Words = words
			got, err := e.Parse(ctx, tc.req)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if !got.Reused {
				t.Error("the sentence was scored again")
			}
			if tc.req.Scores != (got.Scores != nil) || got.Scores != nil && got.Scores.N != len(words) {
				t.Errorf("scores asked %v, got %+v", tc.req.Scores, got.Scores)
			}
			cs := constituents(got.Tree)
			if tc.has != "" && !slices.Contains(cs, tc.has) {
				t.Errorf("tree %v lacks %s", cs, tc.has)
			}
			for _, c := range cs {
				if tc.not != "" && strings.HasSuffix(c, tc.not) && !strings.HasPrefix(c, "ROOT") {
					t.Errorf("tree %v has the forbidden %s", cs, c)
				}
			}
		})
	}
	// A required label the model lacks adds nothing to the score: the
	// same yield required with the stand-in (the model's first label)
	// scores more by exactly that label's score there.
	yield := [][2]int{{1, 2}, {3, 4}}
	known, err := e.Parse(ctx, parser.Request{Words: words, Variant: "n3", Scores: true, Require: []parser.Constraint{{Label: info.Labels[0], Blocks: yield}}})
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := e.Parse(ctx, parser.Request{Words: words, Variant: "n3", Require: []parser.Constraint{{Label: "xyz", Blocks: yield}}})
	if err != nil {
		t.Fatal(err)
	}
	s := known.Calibration.Shifted(decode.N3, known.Scores)
	stand := s.Disc[s.Index(1, 3, 0)] + s.Gap[s.Index(2, 2, 0)]
	if diff := known.Score - stand - unknown.Score; diff > 1e-4 || diff < -1e-4 || stand == 0 {
		t.Errorf("score with an unknown label %g, with the stand-in %g, whose own score is %g", unknown.Score, known.Score, stand)
	}
	if _, err := e.Parse(ctx, parser.Request{Words: words, Variant: "n7"}); err == nil {
		t.Error("unknown variant accepted")
	}
	if _, err := e.Parse(ctx, parser.Request{Variant: "n3"}); err == nil {
		t.Error("no words accepted")
	}
}

// elsewhere is an ensemble member that scores in a goroutine of its own
// (a scorer.Starter), as a Web Worker does in the browser.
type elsewhere struct {
	scorer.Scorer
	k       int
	started *int
	closed  *int
}

func (m elsewhere) Start(b []network.Input) func() ([]scorer.Result, error) {
	*m.started++
	return scorer.Background(func() ([]scorer.Result, error) { return m.Scorer.Score(b) })
}

func (m elsewhere) Close() error { *m.closed++; return nil }

// MemoryBytes makes up a memory per model: 1000 times its index.
func (m elsewhere) MemoryBytes() int64 { return int64(1000 * m.k) }

// TestEngineMembers loads an ensemble whose second model scores elsewhere
// (Engine.Members): the parses equal the sequential ensemble's, the info
// says how many threads score and why, and the members' threads are closed
// when WebGPU scores or the engine closes; with WebGPU asked for, none is
// started unless workers are asked for too.
func TestEngineMembers(t *testing.T) {
	data, ref := ensembleAndReference(t, "ens", 1, 2)
	gpu := func(params func() ([]*network.Params, error), f16, allowSoftware bool) (scorer.Scorer, bool, error) {
		ps, err := params()
		if err != nil {
			return nil, false, err
		}
		return fakeGPU{meanCPU(ps), 0}, false, nil
	}
	tests := []struct {
		name        string
		opt         parser.LoadOptions
		fail        error
		wantWorkers int
		wantWhy     string
		wantCalls   int // MemberFunc calls
		wantStarted bool
		wantLocal   int // models converted in the engine's thread
	}{
		{"parallel", parser.LoadOptions{Backend: parser.BackendCPU}, nil, 2, "the 2 models score at the same time, each in a worker of its own", 1, true, 1},
		{"member cannot start", parser.LoadOptions{Backend: parser.BackendCPU}, errors.New("one core"), 1, "the 2 models score one after the other: one core", 1, false, 2},
		{"serial asked for", parser.LoadOptions{Backend: parser.BackendCPU, Workers: 1}, nil, 1, "the 2 models score one after the other (asked for)", 0, false, 2},
		{"workers asked for", parser.LoadOptions{Backend: parser.BackendCPU, Workers: 2}, nil, 2, "the 2 models score at the same time, each in a worker of its own", 1, true, 1},
		// WebGPU asked for: no member is started for the CPU, its
		// fallback (unless workers are asked for too); the GPU holds
		// every model.
		{"webgpu scores", parser.LoadOptions{Backend: parser.BackendWebGPU}, nil, 1, "", 0, false, 2},
		{"webgpu and workers asked for", parser.LoadOptions{Backend: parser.BackendWebGPU, Workers: 2}, nil, 1, "", 1, false, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls, created, started, closed := 0, 0, 0, 0
			e := &parser.Engine{GPU: gpu, Members: func(ctx context.Context, d []byte, name string, k int, local scorer.Scorer, always bool) (scorer.Scorer, error) {
				calls++
				if always != (tc.opt.Workers >= 2) {
					t.Errorf("MemberFunc told always=%v for workers=%d", always, tc.opt.Workers)
				}
				if k != 1 || local == nil || local.Backend() != "cpu" || !slices.Equal(d, data) || name != "ens" {
					t.Errorf("MemberFunc(k=%d, name=%q, %d bytes)", k, name, len(d))
				}
				if tc.fail != nil {
					return nil, tc.fail
				}
				created++
				return elsewhere{local, k, &started, &closed}, nil
			}}
			info, err := e.Load(context.Background(), data, "ens", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if info.Workers != tc.wantWorkers || info.Parallel != tc.wantWhy || calls != tc.wantCalls || info.LocalModels != tc.wantLocal {
				t.Fatalf("workers %d, parallel %q, %d MemberFunc calls, %d models here; want %d, %q, %d, %d",
					info.Workers, info.Parallel, calls, info.LocalModels, tc.wantWorkers, tc.wantWhy, tc.wantCalls, tc.wantLocal)
			}
			if tc.opt.Backend == parser.BackendWebGPU && closed != created {
				t.Errorf("WebGPU scores, but %d of %d members' threads were closed", closed, created)
			}
			for _, words := range parsertest.Sentences {
				sameParse(t, e, ref, words)
			}
			if (started > 0) != tc.wantStarted {
				t.Errorf("the member scored elsewhere %d times", started)
			}
			e.Close()
			if closed != created {
				t.Errorf("after Close, %d of %d members' threads closed", closed, created)
			}
		})
	}
}

// TestEngineWebGPUAskedFallsBack asks for WebGPU where there is no adapter:
// the CPU scores the ensemble, its models one after the other (no member
// was started for the fallback), and the info says why.
func TestEngineWebGPUAskedFallsBack(t *testing.T) {
	data, ref := ensembleAndReference(t, "ens", 1, 2)
	calls := 0
	e := &parser.Engine{
		GPU: func(func() ([]*network.Params, error), bool, bool) (scorer.Scorer, bool, error) {
			return nil, false, fmt.Errorf("no adapter here: %w", parser.ErrNoAdapter)
		},
		Members: func(context.Context, []byte, string, int, scorer.Scorer, bool) (scorer.Scorer, error) {
			calls++
			return nil, errors.New("not wanted")
		},
	}
	defer e.Close()
	info, err := e.Load(context.Background(), data, "ens", parser.LoadOptions{Backend: parser.BackendWebGPU})
	if err != nil {
		t.Fatal(err)
	}
	if info.GPU || calls != 0 || !strings.Contains(info.Parallel, "WebGPU was asked for, the CPU is its fallback") {
		t.Fatalf("gpu %v, %d MemberFunc calls, parallel %q; want the CPU, none, the reason", info.GPU, calls, info.Parallel)
	}
	for _, words := range parsertest.Sentences {
		sameParse(t, e, ref, words)
	}
}

// ensembleAndReference returns a random ensemble's weights file (one model
// per seed; name names it) and the sequential CPU parser over it, the
// reference the engines' parses must equal.
func ensembleAndReference(t *testing.T, name string, seeds ...uint64) ([]byte, *parser.Parser) {
	t.Helper()
	data := parsertest.Ensemble(t, seeds)
	ms, err := parser.Read(data, name)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := ms.Parser()
	if err != nil {
		t.Fatal(err)
	}
	return data, ref
}

// TestEngineMemberFallsBackLazily: a model that scores in a thread of its
// own is not converted in the engine's thread at load (Info.LocalModels
// 1); when its thread fails and the local fallback scores, the model is
// converted then, and the parses are the ensemble's.
func TestEngineMemberFallsBackLazily(t *testing.T) {
	data, ref := ensembleAndReference(t, "ens3", 1, 2, 3)
	e := &parser.Engine{Members: func(ctx context.Context, d []byte, name string, k int, local scorer.Scorer, always bool) (scorer.Scorer, error) {
		return failedThread{local}, nil
	}}
	defer e.Close()
	info, err := e.Load(context.Background(), data, "ens3", parser.LoadOptions{Backend: parser.BackendCPU})
	if err != nil {
		t.Fatal(err)
	}
	if info.LocalModels != 1 || info.Workers != 3 || info.Models != 3 {
		t.Fatalf("%d models here, %d workers, %d models; want 1, 3, 3", info.LocalModels, info.Workers, info.Models)
	}
	for _, words := range parsertest.Sentences {
		sameParse(t, e, ref, words)
	}
}

// failedThread is a member whose thread failed at once: it scores with
// its local fallback.
type failedThread struct{ local scorer.Scorer }

func (f failedThread) Score(b []network.Input) ([]scorer.Result, error) { return f.local.Score(b) }
func (f failedThread) Backend() string                                  { return f.local.Backend() + " (here)" }
func (f failedThread) Close() error                                     { return f.local.Close() }

// TestEngineLoadDropsTheOldModel: a load gives up the model loaded before
// as it starts, so that the two are never held at once (a phone's worker
// may not hold them): while the new one is read, and after a load that
// fails, there is no model.
func TestEngineLoadDropsTheOldModel(t *testing.T) {
	ctx := context.Background()
	e := &parser.Engine{}
	defer e.Close()
	words := parsertest.Sentences[0]
	if _, err := e.Load(ctx, parsertest.Model(t, 3), "A", parser.LoadOptions{Backend: parser.BackendCPU}); err != nil {
		t.Fatal(err)
	}
	var during error
	progress := func(step string) {
		if step == parser.LoadReading {
			_, during = e.Parse(ctx, parser.Request{Words: words, Variant: "n3"})
		}
	}
	if _, err := e.Load(ctx, parsertest.Model(t, 5), "B", parser.LoadOptions{Backend: parser.BackendCPU, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(during, parser.ErrNoModel) {
		t.Errorf("a parse while B is read: %v; want ErrNoModel (A given up)", during)
	}
	if _, err := e.Load(ctx, []byte("no weights"), "C", parser.LoadOptions{Backend: parser.BackendCPU}); err == nil {
		t.Fatal("a load of no weights did not fail")
	}
	if _, err := e.Parse(ctx, parser.Request{Words: words, Variant: "n3"}); !errors.Is(err, parser.ErrNoModel) {
		t.Errorf("after a failed load: %v; want ErrNoModel", err)
	}
}
