package parser

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// Backends a user can ask an Engine for.
const (
	BackendAuto   = "auto"   // WebGPU when a hardware adapter is faster, else CPU
	BackendCPU    = "cpu"    // the network's CPU reference
	BackendWebGPU = "webgpu" // WebGPU whatever the adapter (a software one too)
)

// LoadOptions tune Engine.Load. They cross a worker boundary as JSON.
type LoadOptions struct {
	// Backend is BackendAuto, BackendCPU or BackendWebGPU ("" is auto).
	Backend string `json:"backend"`
	// MaxBytes is the decoders' chart memory budget (0: DefaultMaxBytes).
	MaxBytes int64 `json:"max_bytes"`
	// Workers says where an ensemble's models score on the CPU: 0, each
	// in a thread of its own where Engine.Members finds enough cores; 1,
	// one after the other in the engine's goroutine; 2 or more, each in a
	// thread of its own whatever the cores (the app's ?workers=N).
	Workers int `json:"workers"`
	// Progress, when not nil, is told each step of the load as it starts
	// (LoadReading, LoadBackend); it does not cross a worker boundary
	// (the worker sends the steps as messages of their own).
	Progress func(step string) `json:"-"`
}

// The steps of Engine.Load, as LoadOptions.Progress is told them.
const (
	LoadReading = "reading the weights"
	LoadBackend = "choosing the backend (WebGPU is set up, checked against the CPU and timed)"
)

// DefaultMaxBytes is an Engine's chart memory budget: 256 MiB, well within
// a browser tab's memory, beyond what n3 needs for 200 words and n6 for 80.
const DefaultMaxBytes = 256 << 20

// Info describes a loaded model and the backend that scores with it. It
// crosses a worker boundary as JSON.
type Info struct {
	// Backend says what scores ("cpu" or the WebGPU adapter and weight
	// storage); Choice why it was chosen (fallbacks and their reasons,
	// measured times).
	Backend string `json:"backend"`
	Choice  string `json:"choice"`
	// Reason classifies Choice (one of the Reason constants): why this
	// backend scores and the other does not.
	Reason string `json:"reason"`
	// GPU is set when WebGPU scores, Software when its adapter is a
	// software one.
	GPU      bool `json:"gpu"`
	Software bool `json:"software"`

	Labels []string `json:"labels"`
	// Params is the number of parameters (of every model of an ensemble),
	// Models the number of models whose scores are averaged (1 for a single
	// model), DType how they were stored.
	Params int    `json:"params"`
	Models int    `json:"models"`
	DType  string `json:"dtype"`
	// From the file's metadata.
	DevF1        float64 `json:"dev_f1"`
	DevDiscF1    float64 `json:"dev_disc_f1"`
	TrainingData string  `json:"training_data"`
	// TestF1 is the model card's labelled test F1 (n3); 0 when not stored.
	TestF1  float64 `json:"test_f1,omitempty"`
	Created string  `json:"created"`
	// Workers is the number of threads an ensemble's models score in at
	// once on the CPU (1: one after the other, or a single model);
	// Parallel says how, or why not in parallel ("" for a single model).
	Workers  int    `json:"workers"`
	Parallel string `json:"parallel,omitempty"`
	// Memory is the memory of the thread that parses, once loaded (in the
	// browser its wasm memory, which never shrinks; set by the platform,
	// 0 when unknown); MemberMemory that of each model scoring in a
	// thread of its own (models 1, 2, ...; see MemoryReporter).
	Memory       int64   `json:"memory,omitempty"`
	MemberMemory []int64 `json:"member_memory,omitempty"`
	// LocalModels is the number of models whose parameters the parsing
	// thread holds once loaded: every model, unless some score in threads
	// of their own (MemberFunc), whose models it converts only should
	// their thread fail.
	LocalModels int `json:"local_models"`
	// LoadNs is the time Load took (reading, checking, backend set-up).
	LoadNs int64 `json:"load_ns"`
	// Longest is, by variant name, the length of the longest sentence
	// the variant parses within the memory budget (Parser.CheckFits: the
	// network, the scores and the chart), at most the word limit.
	Longest map[string]int `json:"longest,omitempty"`
}

// ErrNoModel is returned by Engine.Parse before a model is loaded.
var ErrNoModel = errors.New("no model loaded")

// GPUFunc builds a GPU scorer for the models' parameters, which params
// returns (one model, or an ensemble's, whose scores it averages as
// scorer.Mean does; stored on the device as float16 when f16 is set, for
// every file not stored as float32), and says whether
// its adapter is a software one. Without allowSoftware it fails early,
// with an error wrapping ErrSoftwareAdapter, when the adapter is a
// software one, before compiling anything. It calls params only once it
// knows there is an adapter to use: an ensemble's models beyond the first
// are converted then. ui/browser gives one over package webgpu
// (webgpu.NewMean: an ensemble's models on one device, averaged there).
type GPUFunc func(params func() ([]*network.Params, error), f16, allowSoftware bool) (s scorer.Scorer, software bool, err error)

// gpuFloat16 reports whether models stored as d go to a GPU as float16:
// every type but float32. A file stored in 16 bits or fewer (F16, I8, I4)
// then takes half the device memory and weight reads of float32. Rounding
// a dequantised weight to float16 changes it by at most 2^-11 of itself;
// the shipped 4-bit pair parses every dev sentence into the same n3 tree
// either way (session 21), and the self-check compares with the rounded
// weights.
func gpuFloat16(d weights.DType) bool { return d != weights.Float32 }

// ErrSoftwareAdapter is wrapped by a GPUFunc's error when the only adapter
// is a software one and software adapters were not allowed.
var ErrSoftwareAdapter = errors.New("the WebGPU adapter is a software one")

// ErrNoAdapter is matched by a GPUFunc's error when there is no WebGPU or
// no adapter at all.
var ErrNoAdapter = errors.New("no WebGPU adapter")

// ErrSelfCheck is matched by a GPUFunc's error when the GPU scored the
// self-check's canary sentences differently from the CPU reference (the
// error names the adapter and the largest difference): WebGPU is not
// trusted on this adapter.
var ErrSelfCheck = errors.New("the WebGPU self-check failed")

// Why an Engine scores with the backend it chose and not the other one
// (Info.Reason).
const (
	ReasonAsked     = "asked"      // the backend was asked for (?backend=cpu or webgpu)
	ReasonNoWebGPU  = "no-webgpu"  // no WebGPU here, or no adapter
	ReasonSoftware  = "software"   // only a software adapter (50-100x slower than the CPU)
	ReasonSelfCheck = "self-check" // the GPU's scores differed from the CPU reference's
	ReasonFailed    = "failed"     // WebGPU could not be set up or failed on a test sentence
	ReasonFaster    = "faster"     // both were timed; the one chosen was faster
)

// MemoryReporter is a scorer that holds its model in memory of its own (a
// MemberFunc's, in a Web Worker) and says how much, in bytes.
type MemoryReporter interface {
	MemoryBytes() int64
}

// MemberFunc starts a scorer of model k (k >= 1) of the ensemble held in
// data (a weights file that name names), which scores elsewhere while the
// engine's goroutine scores model 0: in the browser, in a Web Worker of its
// own (ui/browser). local is the CPU scorer of model k here, which converts
// the model at its first batch; the scorer scores with it from the moment
// its own thread fails, so that no parse is lost (until then, the engine's
// thread does not hold model k). An error (one core, no workers) means
// model k is scored here, after model 0. ctx bounds the start.
//
// Without always, it also fails where there are too few cores for the
// threads to run at once (in the browser: one for the page and one for
// each model up to k).
type MemberFunc func(ctx context.Context, data []byte, name string, k int, local scorer.Scorer, always bool) (scorer.Scorer, error)

// Engine holds one loaded model at a time, scores with the backend it
// chose (the CPU, or WebGPU through GPU) and parses in the calling
// goroutine. In the browser it runs inside the Web Worker; on the host it
// serves tests. It remembers the last sentence scored, so that parsing it
// again (another variant, a constrained re-parse, the stepper's scores)
// costs only the decoding. An Engine may be used by several goroutines.
type Engine struct {
	// GPU builds the WebGPU scorer; nil means CPU only.
	GPU GPUFunc
	// Members, when not nil, scores an ensemble's models 1, 2, ... on the
	// CPU in parallel with model 0 (see MemberFunc); nil: one after the
	// other.
	Members MemberFunc

	mu sync.Mutex
	p  *Parser // its Scorer is the memo in front of the chosen backend
}

// Load reads the weights held in data (name names them in errors) and
// chooses the backend (see chooseBackend). It replaces the model loaded
// before, which it drops first, so that the two are never held at once
// (a phone's tab may not hold them): after a failed load there is none.
func (e *Engine) Load(ctx context.Context, data []byte, name string, opt LoadOptions) (*Info, error) {
	start := time.Now()
	e.mu.Lock()
	dropped := e.p != nil
	e.closeLocked()
	e.mu.Unlock()
	if dropped {
		runtime.GC() // its memory is reused for the next, not added to
	}
	progress := opt.Progress
	if progress == nil {
		progress = func(string) {}
	}
	progress(LoadReading)
	// Model 0 now; an ensemble's others when they score here (lazy).
	ms, lazy, err := readFirst(data, name)
	if err != nil {
		return nil, err
	}
	p, err := New(lazy.first(), ms.Vocab)
	if err != nil {
		return nil, err
	}
	p.Calibration = ms.Calibration
	p.Decode.MaxBytes = opt.MaxBytes
	if p.Decode.MaxBytes <= 0 {
		p.Decode.MaxBytes = DefaultMaxBytes
	}
	f := ms.File
	info := &Info{
		Labels:       ms.Vocab.Labels,
		Params:       lazy.first().Config().NumParams() * lazy.count(),
		Models:       lazy.count(),
		DType:        f.DType.String(),
		DevF1:        f.Meta.DevF1,
		DevDiscF1:    f.Meta.DevDiscF1,
		TrainingData: f.Meta.TrainingData,
	}
	if f.Meta.TestF1 != nil {
		info.TestF1 = *f.Meta.TestF1
	}
	if !f.Meta.Created.IsZero() {
		info.Created = f.Meta.Created.UTC().Format("2006-01-02")
	}
	if opt.Backend != BackendCPU && e.GPU != nil {
		progress(LoadBackend)
	}
	// With WebGPU asked for, the CPU is only its fallback: the members'
	// workers are not started for it (unless asked for with Workers).
	gpuAsked := opt.Backend == BackendWebGPU && e.GPU != nil && opt.Workers == 0
	cpu, local, err := e.cpuScorer(ctx, data, name, lazy, opt.Workers, gpuAsked, info)
	if err != nil {
		return nil, err
	}
	sc, err := e.chooseBackend(ctx, p, lazy, cpu, gpuFloat16(f.DType), opt.Backend, info)
	if err != nil {
		_ = cpu.Close()
		return nil, err
	}
	info.LocalModels = lazy.converted()
	if sc != cpu {
		// WebGPU scores: the members' workers are not needed.
		_ = cpu.Close()
		info.Workers, info.Parallel, info.MemberMemory = 1, "", nil
	}
	p.Scorer = &memo{s: sc}
	info.Longest = make(map[string]int, len(decode.Variants))
	for _, v := range decode.Variants {
		info.Longest[v.String()] = p.LongestFitting(v, tree.DefaultMaxWords)
	}
	if sc == cpu {
		// The CPU in a tab: prepare the weights, load the SIMD kernels and
		// let the JavaScript engine compile the hot code now, not during
		// the user's first parse (network.Model.WarmUp). Members scored
		// elsewhere warm up there.
		for _, m := range local {
			m.WarmUp()
		}
	}
	info.LoadNs = int64(time.Since(start))

	e.mu.Lock()
	defer e.mu.Unlock()
	e.closeLocked()
	e.p = p
	return info, nil
}

// cpuScorer returns the CPU scorer of the models and the models it scores
// in this goroutine: with Members (and workers not 1), an ensemble whose
// models 1, 2, ... score elsewhere at the same time as model 0 (those that
// cannot score here, after it; the others are converted here only should
// their thread fail); else scorer.MeanCPU, as also when gpuAsked (the CPU
// is then WebGPU's fallback). info.Workers and info.Parallel say which.
func (e *Engine) cpuScorer(ctx context.Context, data []byte, name string, models *lazyModels, workers int, gpuAsked bool, info *Info) (scorer.Scorer, []*network.Model, error) {
	info.Workers = 1
	n := models.count()
	if n == 1 {
		return scorer.NewCPU(models.first()), []*network.Model{models.first()}, nil
	}
	why := ""
	switch {
	case workers == 1:
		why = fmt.Sprintf("the %d models score one after the other (asked for)", n)
	case e.Members == nil:
		why = fmt.Sprintf("the %d models score one after the other", n)
	case gpuAsked:
		why = fmt.Sprintf("the %d models score one after the other: WebGPU was asked for, the CPU is its fallback", n)
	}
	if why != "" {
		all, err := models.all()
		if err != nil {
			return nil, nil, err
		}
		info.Parallel = why
		return scorer.MeanCPU(all), all, nil
	}
	members := []scorer.Scorer{scorer.NewCPU(models.first())}
	local := []*network.Model{models.first()}
	var whyNot error
	for k := 1; k < n; k++ {
		s, err := e.Members(ctx, data, name, k, lazyCPU{models, k}, workers >= 2)
		if err != nil {
			whyNot = cmp.Or(whyNot, err)
			m, err := models.get(k)
			if err != nil {
				for _, s := range members {
					_ = s.Close()
				}
				return nil, nil, err
			}
			s = scorer.NewCPU(m)
			local = append(local, m)
		} else {
			info.Workers++
			if r, ok := s.(MemoryReporter); ok {
				info.MemberMemory = append(info.MemberMemory, r.MemoryBytes())
			}
		}
		members = append(members, s)
	}
	switch {
	case whyNot == nil:
		info.Parallel = fmt.Sprintf("the %d models score at the same time, each in a worker of its own", n)
	case info.Workers == 1:
		info.Parallel = fmt.Sprintf("the %d models score one after the other: %s", n, firstLine(whyNot.Error()))
	default:
		info.Parallel = fmt.Sprintf("%d of the %d models score at the same time: %s", info.Workers, n, firstLine(whyNot.Error()))
	}
	return scorer.Mean(members...), local, nil
}

// Parse parses one sentence (see Parser.Parse); before Load it returns
// ErrNoModel.
func (e *Engine) Parse(ctx context.Context, req Request) (*Parse, error) {
	e.mu.Lock()
	p := e.p
	e.mu.Unlock()
	if p == nil {
		return nil, ErrNoModel
	}
	return p.Parse(ctx, req)
}

// Close releases the backend.
func (e *Engine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closeLocked()
}

func (e *Engine) closeLocked() {
	if e.p != nil {
		_ = e.p.Scorer.Close()
	}
	e.p = nil
}
