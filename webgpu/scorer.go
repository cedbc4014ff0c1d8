//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cogentcore/webgpu/wgpu"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// Scorer runs the network's forward pass on a WebGPU device: one model's,
// or the mean of an ensemble's models (see NewEnsemble). It implements
// scorer.Scorer. Calls are serialised (one device queue); buffers are
// allocated once, for the largest chunk, and reused by every call.
type Scorer struct {
	mu    sync.Mutex
	cfg   network.Config
	opts  Options
	lay   *layout
	wms   []weightMap // one per model, in one weights buffer
	d     *device
	wmode string // "f32", "f16 (shader-f16)" or "f16 (unpack2x16float)"
	// onSubmit, when set (by tests), receives the duration of every
	// submission of runGroup, from its submission to the end of its wait.
	onSubmit func(what string, work float64, d time.Duration)
	snippet  string // the weights_*.wgsl file the kernels are compiled with
	failed   error  // set once the device failed: every later call returns it
	closed   bool
	check    SelfCheck // the outcome of New's self-check

	pipes                          [numKernels]*wgpu.ComputePipeline
	bgl                            *wgpu.BindGroupLayout
	pl                             *wgpu.PipelineLayout
	weights, arena, ints, uniforms *wgpu.Buffer
	groups                         []*wgpu.BindGroup // one per uniform slot
	// upload (the uniforms and tables of a group of chunks, copied to
	// uniforms and ints before each chunk) and staging (a group's
	// results, mapped once) grow with the batches and are kept; fence is
	// mapped to wait for a submission.
	upload, staging, fence  *wgpu.Buffer
	uploadSize, stagingSize int
	stagingCap              int  // stagingLimit; lower in tests
	software                bool // plan for a software adapter (see limits)
}

var _ scorer.Starter = (*Scorer)(nil)

// New uploads the parameters p (float32, or rounded to float16 with
// WeightsF16) to a WebGPU device, compiles the kernels and computes the
// character table. Errors from a missing adapter or a kernel that fails to
// compile match scorer.ErrUnavailable (and ErrNoAdapter or ErrShader), so
// that scorer.Select falls back to the CPU. Unless o.SkipSelfCheck, New
// then scores a built-in canary batch on the device and on the CPU
// reference and refuses the device, with an error matching ErrSelfCheck and
// scorer.ErrUnavailable that names the adapter and the largest difference,
// when they differ by more than SelfCheckTolerance (see SelfCheck). On js, New blocks until the
// browser's promises resolve: never call it from a js.FuncOf callback.
func New(p *network.Params, o Options) (*Scorer, error) {
	return NewEnsemble([]*network.Params{p}, o)
}

// NewMean returns a scorer of the mean of the models ps, as scorer.Mean
// takes it (one model: New's scorer): NewEnsemble's, every model on one
// device, when their weights fit one buffer together; else one New scorer
// per model, each on a device of its own, averaged by scorer.Mean (they
// score at the same time). It also returns the adapter.
func NewMean(ps []*network.Params, o Options) (scorer.Scorer, AdapterInfo, error) {
	s, err := NewEnsemble(ps, o)
	if err == nil {
		return s, s.Adapter(), nil
	}
	if len(ps) < 2 || !errors.Is(err, ErrTooLarge) {
		return nil, AdapterInfo{}, err
	}
	members := make([]scorer.Scorer, 0, len(ps))
	var info AdapterInfo
	for k, p := range ps {
		m, err := New(p, o)
		if err != nil {
			_ = scorer.Mean(members...).Close()
			return nil, AdapterInfo{}, fmt.Errorf("model %d: %w", k+1, err)
		}
		if k == 0 {
			info = m.Adapter()
		}
		members = append(members, m)
	}
	return scorer.Mean(members...), info, nil
}

// NewEnsemble is New for an ensemble: models of one configuration (trained
// separately with one vocabulary) whose scores and tag logits the scorer
// averages on the device, as scorer.Mean averages its members' on the CPU.
// Every model's weights go into one buffer, the models' forward passes run
// one after the other in the same submission, each adding its scores to
// the ones before it, and a batch's results come back once: one read-back
// and one allocation for the ensemble instead of one per model. The
// self-check compares with scorer.Mean over the CPU reference of each
// model. It fails (without matching scorer.ErrUnavailable) when the models'
// configurations differ, and with ErrTooLarge when their weights exceed
// the storage binding limit together (NewMean then scores each model with
// a scorer of its own).
func NewEnsemble(ps []*network.Params, o Options) (*Scorer, error) {
	if len(ps) == 0 {
		return nil, errors.New("webgpu: an ensemble without models")
	}
	for k, p := range ps {
		if p == nil {
			return nil, fmt.Errorf("webgpu: model %d has no parameters", k+1)
		}
	}
	cfg := ps[0].Config()
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	for k, p := range ps[1:] {
		if c := p.Config(); c.NoDropout() != cfg.NoDropout() {
			return nil, fmt.Errorf("webgpu: model %d's configuration %+v differs from model 1's %+v", k+2, c, cfg)
		}
	}
	wms, err := mapMembers(ps, weightBudget(o))
	if err != nil {
		return nil, err
	}
	if _, err := newEnsembleLayout(cfg, o.withDefaults(false), len(ps)); err != nil {
		return nil, err // before asking for a device
	}
	if wbytes := o.Weights.elemBytes() * wms[0].total; wbytes > o.weightBytesLimit() {
		hint := "try WeightsF16"
		if len(ps) > 1 {
			hint += ", or a scorer per model: NewMean"
		}
		return nil, fmt.Errorf("webgpu: %d MiB of weights exceed the %d MiB storage limit (%s): %w",
			wbytes>>20, o.weightBytesLimit()>>20, hint, ErrTooLarge)
	}
	d, err := openDevice(o)
	if err != nil {
		return nil, err
	}
	software := d.info.Software && !o.asHardware
	o = o.withDefaults(software)
	if o.bindingLimit == 0 || o.bindingLimit > d.bindingLimit {
		o.bindingLimit = d.bindingLimit
	}
	o.workgroupLimit = d.info.Workgroup
	lay, err := newEnsembleLayout(cfg, o, len(ps))
	if err != nil {
		d.release()
		return nil, err
	}
	s := &Scorer{cfg: cfg, opts: o, lay: lay, wms: wms, d: d, software: software, stagingCap: stagingLimit}
	s.snippet = weightSnippet(o.Weights, d.f16)
	s.wmode = map[string]string{
		"weights_f32.wgsl":       "f32",
		"weights_f16.wgsl":       "f16 (unpack2x16float)",
		"weights_f16native.wgsl": "f16 (shader-f16)",
	}[s.snippet]
	if err := s.build(ps); err != nil {
		s.release()
		return nil, err
	}
	if o.SkipSelfCheck {
		s.check.Skipped = true
		return s, nil
	}
	refs := ps
	if o.Weights == WeightsF16 {
		refs = make([]*network.Params, len(ps))
		for k, p := range ps {
			refs[k] = RoundFloat16(p)
		}
	}
	if err := s.selfCheck(refs); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}

// build creates the buffers, pipelines and bind groups, uploads the weights
// and runs the load-time dispatches. Where the device has shader-f16 but
// its WGSL compiler refuses "enable f16" (wgpu-native v0.23.0's naga), the
// kernels fall back to unpack2x16float over the same buffer.
func (s *Scorer) build(ps []*network.Params) (err error) {
	defer func() {
		if r := recover(); r != nil { // a JS exception on js
			err = unavailable(ErrDevice, "setting up: %v", r)
		}
	}()
	l := s.lay
	slots := l.slots()
	s.d.pushScopes()
	err = s.createBuffers(slots)
	if err == nil {
		err = s.createLayouts()
	}
	if err == nil {
		err = s.compile(s.snippet)
		if err != nil && s.snippet == "weights_f16native.wgsl" {
			s.snippet = "weights_f16.wgsl"
			s.wmode = "f16 (unpack2x16float; the device has shader-f16 but its WGSL compiler refused \"enable f16\")"
			err = s.compile(s.snippet)
		}
	}
	if err == nil {
		err = s.createGroups(slots)
	}
	if err == nil {
		err = s.d.queue.WriteBuffer(s.weights, 0, packMembers(ps, s.wms, s.opts.Weights == WeightsF16))
	}
	if perr := s.d.popScopes(); err == nil && perr != nil {
		err = unavailable(ErrDevice, "setting up: %v", perr)
	}
	if err != nil {
		return err
	}
	ids := make([]uint32, s.cfg.CharVocab)
	for i := range ids {
		ids[i] = uint32(i)
	}
	return s.runJobs([]*job{{ds: initPlan(l, s.wms), ints: ids}})
}

// Backend describes the adapter and the weight storage (and the models
// of an ensemble).
func (s *Scorer) Backend() string {
	if m := len(s.wms); m > 1 {
		return fmt.Sprintf("webgpu: %s, weights %s, %d models averaged on the device", s.d, s.wmode, m)
	}
	return fmt.Sprintf("webgpu: %s, weights %s", s.d, s.wmode)
}

// Models returns the number of models the scorer averages (1 for New's).
func (s *Scorer) Models() int { return len(s.wms) }

// Phases returns where the time of the Score calls went since the scorer
// was built (the load-time dispatches included) or since ResetPhases.
func (s *Scorer) Phases() Phases {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.d.phases
}

// ResetPhases sets the phase times to zero.
func (s *Scorer) ResetPhases() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d.phases = Phases{}
}

// Adapter describes the adapter.
func (s *Scorer) Adapter() AdapterInfo { return s.d.info }

// MaxWords returns the longest sentence Score accepts.
func (s *Scorer) MaxWords() int { return s.opts.MaxWords }

// Close releases the device and its buffers. Later calls to Score fail.
func (s *Scorer) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.release()
	return nil
}

// release frees whatever build created.
func (s *Scorer) release() {
	for _, g := range s.groups {
		g.Release()
	}
	for _, p := range s.pipes {
		if p != nil {
			p.Release()
		}
	}
	if s.pl != nil {
		s.pl.Release()
	}
	if s.bgl != nil {
		s.bgl.Release()
	}
	for _, b := range []*wgpu.Buffer{s.weights, s.arena, s.ints, s.uniforms, s.upload, s.staging, s.fence} {
		if b != nil {
			b.Destroy()
			b.Release()
		}
	}
	s.d.release()
}

// Score scores a batch (see scorer.Scorer). Sentences are sorted by length
// and split into chunks that fit the buffers; on a hardware adapter every
// chunk goes in one submission and the results come back with one map
// (more only when they exceed 256 MiB), on a software one in submissions of
// at most Options.SubmitWork estimated work (see doc.go, Submissions). It
// fails with an error matching scorer.ErrTooLong when a sentence exceeds
// MaxWords, and with one matching scorer.ErrUnavailable when the device
// fails (and on every later call).
// Start scores batch in a goroutine of its own and returns the wait for
// its results (a scorer.Starter): an ensemble of scorers, each on its own
// device, scores with all of them at once (scorer.Mean starts every member
// before waiting for any), so that one member's uploads, waits and
// unpacking overlap the others' GPU work.
func (s *Scorer) Start(batch []network.Input) func() ([]scorer.Result, error) {
	return scorer.Background(func() ([]scorer.Result, error) { return s.Score(batch) })
}

func (s *Scorer) Score(batch []network.Input) ([]scorer.Result, error) {
	if err := s.checkBatch(batch); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, errors.New("webgpu: Score after Close")
	case s.failed != nil:
		return nil, s.failed
	}
	if err := s.d.lostError(); err != nil {
		s.failed = err
		return nil, err
	}
	out := make([]scorer.Result, len(batch))
	for i, in := range batch {
		if in.Len() == 0 {
			out[i] = scorer.Result{Scores: decode.NewScores(0, s.cfg.Labels)}
		}
	}
	start := time.Now()
	chunks := planChunks(batch, s.lay)
	jobs := chunkJobs(s.lay, s.wms, chunks, s.limits())
	s.d.phases.Plan += time.Since(start)
	s.d.phases.Calls++
	if err := s.runJobs(jobs); err != nil {
		s.failed = err
		return nil, err
	}
	start = time.Now()
	for k, ch := range chunks {
		s.unpack(ch, jobs[k].out, out)
	}
	s.d.phases.Unpack += time.Since(start)
	return out, nil
}

// limits returns the plan limits of the adapter (see planLimits).
func (s *Scorer) limits() planLimits { return planLimitsFor(s.opts, s.software) }

// chunkJobs returns the jobs of chunks for the models of wms (see
// ensemblePlan).
func chunkJobs(l *layout, wms []weightMap, chunks []*chunk, lim planLimits) []*job {
	jobs := make([]*job, len(chunks))
	for k, ch := range chunks {
		jobs[k] = &job{ds: ensemblePlan(l, wms, ch, lim), ints: ch.ints, outLen: ch.outLen, fullLen: ch.fullLen, pieces: ch.pieces(), segs: ch.segments()}
	}
	return jobs
}

// checkBatch reports sentences the scorer cannot take: longer than
// MaxWords, or with ids outside the vocabularies.
func (s *Scorer) checkBatch(batch []network.Input) error {
	c := s.cfg
	for i, in := range batch {
		if len(in.CharIDs) != len(in.WordIDs) {
			return fmt.Errorf("webgpu: sentence %d: %d words but %d character sequences", i, len(in.WordIDs), len(in.CharIDs))
		}
		if n := in.Len(); n > s.opts.MaxWords {
			return fmt.Errorf("webgpu: sentence %d has %d words, more than %d: %w", i, n, s.opts.MaxWords, scorer.ErrTooLong)
		}
		for w, id := range in.WordIDs {
			if id < 0 || id >= c.WordVocab {
				return fmt.Errorf("webgpu: sentence %d, word %d: id %d outside [0,%d)", i, w, id, c.WordVocab)
			}
			for _, ch := range in.CharIDs[w] {
				if ch < 0 || ch >= c.CharVocab {
					return fmt.Errorf("webgpu: sentence %d, word %d: char id %d outside [0,%d)", i, w, ch, c.CharVocab)
				}
			}
		}
	}
	return nil
}

// unpack slices a chunk's results (the decoder's layout: see chunk.pieces)
// into out.
func (s *Scorer) unpack(ch *chunk, vals results, out []scorer.Result) {
	L, tags := s.cfg.Labels, s.cfg.Tags
	for j, i := range ch.sents {
		n := ch.n[j]
		size := n * n * L
		off := ch.fullOff[j]
		sc := &decode.Scores{N: n, L: L,
			Cont: vals.slice(off, size),
			Disc: vals.slice(off+size, size),
			Gap:  vals.slice(off+2*size, size),
		}
		out[i] = scorer.Result{Scores: sc, Tags: vals.slice(ch.fullTags+(ch.first[j]+1)*tags, n*tags)}
	}
}
