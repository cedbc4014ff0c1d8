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

// Scorer runs the network's forward pass on a WebGPU device. It implements
// scorer.Scorer. Calls are serialised (one device queue); buffers are
// allocated once, for the largest chunk, and reused by every call.
type Scorer struct {
	mu    sync.Mutex
	cfg   network.Config
	opts  Options
	lay   *layout
	wm    weightMap
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
	cfg := p.Config()
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	wm, err := mapWeights(p, weightBudget(o.Weights))
	if err != nil {
		return nil, err
	}
	if _, err := newLayout(cfg, o.withDefaults(false)); err != nil {
		return nil, err // before asking for a device
	}
	d, err := openDevice(o)
	if err != nil {
		return nil, err
	}
	software := d.info.Software && !o.asHardware
	o = o.withDefaults(software)
	lay, err := newLayout(cfg, o)
	if err != nil {
		d.release()
		return nil, err
	}
	s := &Scorer{cfg: cfg, opts: o, lay: lay, wm: wm, d: d, software: software, stagingCap: stagingLimit}
	s.snippet = weightSnippet(o.Weights, d.f16)
	s.wmode = map[string]string{
		"weights_f32.wgsl":       "f32",
		"weights_f16.wgsl":       "f16 (unpack2x16float)",
		"weights_f16native.wgsl": "f16 (shader-f16)",
	}[s.snippet]
	if err := s.build(p); err != nil {
		s.release()
		return nil, err
	}
	if o.SkipSelfCheck {
		s.check.Skipped = true
		return s, nil
	}
	ref := p
	if o.Weights == WeightsF16 {
		ref = RoundFloat16(p)
	}
	if err := s.selfCheck(ref); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}

// build creates the buffers, pipelines and bind groups, uploads the weights
// and runs the load-time dispatches. Where the device has shader-f16 but
// its WGSL compiler refuses "enable f16" (wgpu-native v0.23.0's naga), the
// kernels fall back to unpack2x16float over the same buffer.
func (s *Scorer) build(p *network.Params) (err error) {
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
		err = s.d.queue.WriteBuffer(s.weights, 0, packWeights(p, s.wm, s.opts.Weights == WeightsF16))
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
	return s.runJobs([]*job{{ds: initPlan(l, &s.wm), ints: ids}})
}

// Backend describes the adapter and the weight storage.
func (s *Scorer) Backend() string {
	return fmt.Sprintf("webgpu: %s, weights %s", s.d, s.wmode)
}

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
	jobs := chunkJobs(s.lay, &s.wm, chunks, s.limits())
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

// chunkJobs returns the jobs of chunks (see chunkPlan).
func chunkJobs(l *layout, wm *weightMap, chunks []*chunk, lim planLimits) []*job {
	jobs := make([]*job, len(chunks))
	for k, ch := range chunks {
		jobs[k] = &job{ds: chunkPlan(l, wm, ch, lim), ints: ch.ints, outLen: ch.outLen}
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

// unpack copies a chunk's results (the out region, read back as vals) into
// out.
func (s *Scorer) unpack(ch *chunk, vals []float32, out []scorer.Result) {
	L, tags := s.cfg.Labels, s.cfg.Tags
	for j, i := range ch.sents {
		n := ch.n[j]
		size := n * n * L
		off := ch.scoreOff[j]
		sc := &decode.Scores{N: n, L: L,
			Cont: vals[off : off+size : off+size],
			Disc: vals[off+size : off+2*size : off+2*size],
			Gap:  vals[off+2*size : off+3*size : off+3*size],
		}
		t := ch.tagsOff + (ch.first[j]+1)*tags
		out[i] = scorer.Result{Scores: sc, Tags: vals[t : t+n*tags : t+n*tags]}
	}
}
