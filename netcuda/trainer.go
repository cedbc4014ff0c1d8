package netcuda

import (
	"errors"
	"fmt"
	"math"

	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/network"
)

// Trainer holds a model's parameters, gradients, Adam moments and (when
// used) parameter average on a GPU, and runs training steps there.
type Trainer struct {
	g      *gpu
	cfg    network.Config
	names  []string
	shapes [][]int
	offset map[string]int // first value of each tensor in the flat buffers
	n      int            // values in all
	p, gr  cuda.Ptr       // parameters, gradients
	m, v   cuda.Ptr       // Adam's moments
	avg    cuda.Ptr       // the parameter average (0: none)
	fixed  []cuda.Ptr     // allocations that live as long as the trainer, 4*n bytes each
	// scoreCells bounds one forward pass of Score (see scoreCells).
	scoreCells int
}

// NewTrainer copies params (and Adam's moments m and v, and the average
// avg, each nil for zeros / none) to the device.
func NewTrainer(dev *cuda.Device, params, m, v, avg *network.Params) (*Trainer, error) {
	return newTrainer(dev, params, m, v, avg, false)
}

// newScoringTrainer copies params alone to the device: the trainer scores
// (Score) but holds no gradients or moments, a quarter of a training
// trainer's memory, and refuses LossGrad, Step and Gradients.
func newScoringTrainer(dev *cuda.Device, params *network.Params) (*Trainer, error) {
	return newTrainer(dev, params, nil, nil, nil, true)
}

func newTrainer(dev *cuda.Device, params, m, v, avg *network.Params, scoringOnly bool) (t *Trainer, err error) {
	unbind, err := dev.Bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	g, err := newGPU(dev)
	if err != nil {
		return nil, err
	}
	t = &Trainer{g: g, cfg: params.Config(), offset: map[string]int{}, scoreCells: scoreCells}
	for _, tn := range params.Tensors() {
		t.names = append(t.names, tn.Name)
		t.shapes = append(t.shapes, tn.Shape)
		t.offset[tn.Name] = t.n
		t.n += len(tn.Data)
	}
	defer func() {
		if err != nil {
			t.free()
			t = nil
		}
	}()
	buffers := []*cuda.Ptr{&t.p, &t.gr, &t.m, &t.v}
	if scoringOnly {
		buffers = buffers[:1]
	}
	for _, dst := range buffers {
		if *dst, err = t.alloc(); err != nil {
			return t, fmt.Errorf("netcuda: parameters: %w", err)
		}
	}
	if avg != nil {
		if t.avg, err = t.alloc(); err != nil {
			return t, fmt.Errorf("netcuda: parameter average: %w", err)
		}
	}
	for _, x := range []struct {
		p   *network.Params
		dst cuda.Ptr
	}{{params, t.p}, {m, t.m}, {v, t.v}, {avg, t.avg}} {
		if x.dst == 0 {
			continue
		}
		if x.p == nil {
			if err = dev.Zero(x.dst, t.n); err != nil {
				return t, err
			}
			continue
		}
		if err = t.put(x.p, x.dst); err != nil {
			return t, err
		}
	}
	return t, dev.Sync()
}

// alloc allocates a flat buffer of every parameter (4*n bytes) that lives
// as long as the trainer.
func (t *Trainer) alloc() (cuda.Ptr, error) {
	p, err := t.g.dev.Alloc(4 * t.n)
	if err != nil {
		return 0, err
	}
	t.fixed = append(t.fixed, p)
	return p, nil
}

// errScoringOnly is the error of a training call on a scoring trainer.
var errScoringOnly = errors.New("netcuda: this trainer only scores (it holds no gradients)")

// put copies every tensor of p to the flat buffer dst.
func (t *Trainer) put(p *network.Params, dst cuda.Ptr) error {
	for i, tn := range p.Tensors() {
		if i >= len(t.names) || tn.Name != t.names[i] || len(tn.Data) != t.size(i) {
			return fmt.Errorf("netcuda: tensor %d (%s) does not match the trainer's layout", i, tn.Name)
		}
		if err := cuda.Upload(t.g.dev, dst.Add(t.offset[tn.Name]), tn.Data); err != nil {
			return err
		}
	}
	return nil
}

// get copies the flat buffer src into p's tensors.
func (t *Trainer) get(src cuda.Ptr, p *network.Params) error {
	for i, tn := range p.Tensors() {
		if i >= len(t.names) || tn.Name != t.names[i] || len(tn.Data) != t.size(i) {
			return fmt.Errorf("netcuda: tensor %d (%s) does not match the trainer's layout", i, tn.Name)
		}
		if err := cuda.Download(t.g.dev, tn.Data, src.Add(t.offset[tn.Name])); err != nil {
			p.Changed()
			return err
		}
	}
	p.Changed() // the CPU's prepared inference weights are stale
	return nil
}

func (t *Trainer) size(i int) int {
	n := 1
	for _, d := range t.shapes[i] {
		n *= d
	}
	return n
}

// w returns the device address of parameter name (in buffer base).
func (t *Trainer) w(base cuda.Ptr, name string) cuda.Ptr {
	off, ok := t.offset[name]
	if !ok {
		panic("netcuda: no parameter " + name) // a bug: names come from network's layout
	}
	return base.Add(off)
}

// Sync copies the parameters, the moments and the average (each nil: not
// copied) back from the device.
func (t *Trainer) Sync(params, m, v, avg *network.Params) error {
	unbind, err := t.g.dev.Bind()
	if err != nil {
		return err
	}
	defer unbind()
	for _, x := range []struct {
		p   *network.Params
		src cuda.Ptr
	}{{params, t.p}, {m, t.m}, {v, t.v}, {avg, t.avg}} {
		if x.p == nil || x.src == 0 {
			continue
		}
		if err := t.get(x.src, x.p); err != nil {
			return fmt.Errorf("netcuda: sync: %w", err)
		}
	}
	return nil
}

// Gradients copies the gradient of the last LossGrad or Step into dst.
func (t *Trainer) Gradients(dst *network.Params) error {
	unbind, err := t.g.dev.Bind()
	if err != nil {
		return err
	}
	defer unbind()
	if t.gr == 0 {
		return errScoringOnly
	}
	return t.get(t.gr, dst)
}

// Close frees the device memory.
func (t *Trainer) Close() error {
	unbind, err := t.g.dev.Bind()
	if err != nil {
		return err
	}
	defer unbind()
	t.free()
	return nil
}

func (t *Trainer) free() {
	for _, p := range t.fixed {
		t.g.dev.Free(p)
	}
	t.fixed = nil
	t.g.arena.release()
}

// FixedBytes returns the device memory held for the parameters, gradients,
// moments and average.
func (t *Trainer) FixedBytes() int { return 4 * t.n * len(t.fixed) }

// ArenaBytes returns the device memory held for the steps' working data.
func (t *Trainer) ArenaBytes() int { return t.g.arena.bytes() }

// Update is one optimiser step's settings (see network.Adam.Update): the
// update number (1-based) and the decay d of the parameter average for
// this update, avg = d*avg + (1-d)*params (0: no average).
type Update struct {
	Adam  network.AdamConfig
	Step  int
	Decay float64
}

// LossGrad computes the loss of batch with dropout masks drawn from seed
// (as network.Model.LossGrad) and leaves its gradient on the device (see
// Gradients).
func (t *Trainer) LossGrad(batch []network.Example, seed uint64) (network.Loss, error) {
	return t.run(batch, seed, nil)
}

// Step computes the loss and gradient of batch and applies one Adam update
// and the average's update.
func (t *Trainer) Step(batch []network.Example, seed uint64, u Update) (network.Loss, error) {
	return t.run(batch, seed, &u)
}

func (t *Trainer) run(batch []network.Example, seed uint64, u *Update) (network.Loss, error) {
	if t.gr == 0 {
		return network.Loss{}, errScoringOnly
	}
	plan, err := network.PlanBatch(t.cfg, batch, seed, true)
	if err != nil {
		return network.Loss{}, fmt.Errorf("netcuda: %w", err)
	}
	for _, ex := range batch {
		if ex.Targets.Hinge != nil {
			return network.Loss{}, errors.New("netcuda: the hinge loss is not implemented on the GPU; train it on the CPU")
		}
	}
	unbind, err := t.g.dev.Bind()
	if err != nil {
		return network.Loss{}, err
	}
	defer unbind()
	g := t.g
	g.err = nil
	g.arena.reset()
	parts := make([][5]float64, len(batch))
	g.zero(t.gr, t.n)
	if len(plan.Sentences) > 0 {
		sp := t.lossGrad(plan, batch, nil)
		if g.err == nil {
			g.fail(g.dev.Sync())
		}
		if g.err == nil {
			flat := make([]float64, 5*len(plan.Sentences))
			g.fail(cuda.Download(g.dev, flat, sp))
			for i, s := range plan.Sentences {
				copy(parts[s.Index][:], flat[5*i:5*i+5])
			}
		}
	}
	if g.err != nil {
		err := g.err
		if cuda.OutOfMemory(err) {
			g.arena.release() // give the memory back for smaller batches
			err = fmt.Errorf("%w: the batch (%d sentences) does not fit in GPU memory; use smaller batches (--batch-words)", err, len(batch))
		}
		return network.Loss{}, fmt.Errorf("netcuda: %w", err)
	}
	loss := network.SumLoss(parts, batch)
	if u != nil && !math.IsNaN(loss.Total) && !math.IsInf(loss.Total, 0) {
		t.update(*u)
		if g.err == nil {
			g.fail(g.dev.Sync())
		}
		if g.err != nil {
			return network.Loss{}, fmt.Errorf("netcuda: update: %w", g.err)
		}
	}
	return loss, nil
}

// update applies Adam (with the gradient norm computed on the device) and
// the average.
func (t *Trainer) update(u Update) {
	g := t.g
	c := u.Adam
	sq := g.zeros(2)
	g.launch("sum_squares", t.n, cuda.P(t.gr), cuda.Arg(t.n), cuda.P(sq))
	bc1 := 1 - math.Pow(c.Beta1, float64(u.Step))
	bc2 := 1 - math.Pow(c.Beta2, float64(u.Step))
	lr := c.LearningRate(u.Step)
	g.launch("adam", t.n, cuda.P(t.p), cuda.P(t.gr), cuda.P(t.m), cuda.P(t.v), cuda.Arg(t.n), cuda.P(sq),
		cuda.D(c.ClipNorm), cuda.D(c.Beta1), cuda.D(1-c.Beta1), cuda.D(c.Beta2), cuda.D(1-c.Beta2), cuda.D(lr/bc1), cuda.D(1/bc2), cuda.D(c.Eps))
	if t.avg != 0 && u.Decay > 0 {
		d := u.Decay
		g.launch("average", t.n, cuda.P(t.avg), cuda.P(t.p), cuda.Arg(t.n), cuda.F(float32(d)), cuda.F(float32(1-d)))
	}
}
