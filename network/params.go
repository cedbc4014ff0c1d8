package network

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// Kinds of span score, in the order of the modules.
var kindNames = [numKinds]string{"cont", "disc", "gap"}

// Modules of a kind: the span module (one output) and the label module.
var moduleNames = [2]string{"span", "label"}

const (
	numKinds = 3
	kindCont = 0
	kindDisc = 1
	kindGap  = 2

	modSpan  = 0
	modLabel = 1
)

type initKind int

const (
	initZero       initKind = iota // biases, biaffine weights
	initNormal                     // embeddings: N(0, 1), PyTorch's default
	initOrthogonal                 // projection matrices (Saxe et al.)
)

// spec describes one parameter tensor.
type spec struct {
	name  string
	shape []int
	init  initKind
}

// layout lists the parameter tensors of the network in their fixed order.
// Names and shapes:
//
//	word.emb                      (WordVocab, WordDim)
//	char.emb                      (CharVocab, CharDim)
//	char_lstm.{fwd,bwd}.w_ih      (4*CharHidden, CharDim)
//	char_lstm.{fwd,bwd}.w_hh      (4*CharHidden, CharHidden)
//	char_lstm.{fwd,bwd}.b         (4*CharHidden)
//	lstm1.{fwd,bwd}.{w_ih,w_hh,b} in = WordDim + 2*CharHidden, H = LSTM1Hidden
//	lstm2.{fwd,bwd}.{w_ih,w_hh,b} in = 2*LSTM1Hidden, H = LSTM2Hidden
//	tagger.w (Tags, 2*LSTM1Hidden), tagger.b (Tags)
//	{cont,disc,gap}.{span,label}.{left,right}.w  (d, 2*LSTM2Hidden)
//	{cont,disc,gap}.{span,label}.{left,right}.b  (d)
//	{cont,disc,gap}.{span,label}.biaffine        (O, d+1, d+1)
//
// with d = SpanMLP, O = 1 for span modules and d = LabelMLP, O = Labels for
// label modules.
func layout(c Config) []spec {
	var out []spec
	add := func(name string, init initKind, shape ...int) {
		out = append(out, spec{name, shape, init})
	}
	lstm := func(prefix string, in, h int) {
		for _, dir := range []string{"fwd", "bwd"} {
			add(prefix+"."+dir+".w_ih", initOrthogonal, 4*h, in)
			add(prefix+"."+dir+".w_hh", initOrthogonal, 4*h, h)
			add(prefix+"."+dir+".b", initZero, 4*h)
		}
	}
	add("word.emb", initNormal, c.WordVocab, c.WordDim)
	add("char.emb", initNormal, c.CharVocab, c.CharDim)
	lstm("char_lstm", c.CharDim, c.CharHidden)
	lstm("lstm1", c.featDim(), c.LSTM1Hidden)
	lstm("lstm2", 2*c.LSTM1Hidden, c.LSTM2Hidden)
	add("tagger.w", initOrthogonal, c.Tags, 2*c.LSTM1Hidden)
	add("tagger.b", initZero, c.Tags)
	for _, kind := range kindNames {
		for m, mod := range moduleNames {
			d, o := c.moduleDims(m)
			p := kind + "." + mod
			for _, side := range []string{"left", "right"} {
				add(p+"."+side+".w", initOrthogonal, d, 2*c.LSTM2Hidden)
				add(p+"."+side+".b", initZero, d)
			}
			add(p+".biaffine", initZero, o, d+1, d+1)
		}
	}
	return out
}

// moduleDims returns the MLP size d and the number of outputs of a module.
func (c Config) moduleDims(mod int) (d, outputs int) {
	if mod == modSpan {
		return c.SpanMLP, 1
	}
	return c.LabelMLP, c.Labels
}

func shapeSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Tensor is one named parameter tensor: Data holds shapeSize(Shape) float32
// values in row-major order.
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
}

// Params holds the network's parameter tensors (or tensors of the same
// shapes: gradients, optimiser moments) in the fixed order of Names.
//
// Inference keeps the weights rearranged for its products (several MB for
// the Tiny preset) with the Params, for as long as they are unchanged. The
// methods that modify values (Set, Init, Zero, Add, Adam.Update) say so
// themselves; code that writes to a Tensor's Data directly must call
// Changed afterwards, or later scores may come from the old values.
// Replacing a Tensor's Data slice is noticed without it.
type Params struct {
	cfg     Config
	tensors []*Tensor
	index   map[string]int

	version atomic.Uint64            // incremented by Changed
	infer   atomic.Pointer[prepared] // the inference weights of some version (preparedFor)
	prepMu  sync.Mutex               // one goroutine prepares at a time
}

// Changed tells p that values of its tensors were modified in place, so
// that the weights prepared from the old values are not used again. Cost
// O(1); safe for concurrent use.
func (p *Params) Changed() { p.version.Add(1) }

// TensorShape is the name and shape of one parameter tensor.
type TensorShape struct {
	Name  string
	Shape []int
}

// TensorShapes returns the names and shapes of the tensors of c in the
// order of NewParams's, without allocating them (a reader checks a file's
// header against them), or an error when c is invalid.
func (c Config) TensorShapes() ([]TensorShape, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	specs := layout(c)
	out := make([]TensorShape, len(specs))
	for i, s := range specs {
		out[i] = TensorShape{Name: s.name, Shape: slices.Clone(s.shape)}
	}
	return out, nil
}

// NewParams returns zero parameters for c, or an error when c is invalid.
func NewParams(c Config) (*Params, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	specs := layout(c)
	p := &Params{cfg: c, tensors: make([]*Tensor, len(specs)), index: make(map[string]int, len(specs))}
	for i, s := range specs {
		p.tensors[i] = &Tensor{Name: s.name, Shape: slices.Clone(s.shape), Data: make([]float32, shapeSize(s.shape))}
		p.index[s.name] = i
	}
	return p, nil
}

// Config returns the configuration the tensors were shaped for.
func (p *Params) Config() Config { return p.cfg }

// Names returns the tensor names in their fixed order (the order of layout:
// embeddings, char LSTM, LSTM1, LSTM2, tagger, then the six modules).
func (p *Params) Names() []string {
	out := make([]string, len(p.tensors))
	for i, t := range p.tensors {
		out[i] = t.Name
	}
	return out
}

// Tensors returns the tensors in the order of Names (shared, not copied).
func (p *Params) Tensors() []*Tensor { return p.tensors }

// Get returns the tensor with the given name, or nil.
func (p *Params) Get(name string) *Tensor {
	i, ok := p.index[name]
	if !ok {
		return nil
	}
	return p.tensors[i]
}

// data returns the data of a tensor that must exist.
func (p *Params) data(name string) []float32 {
	t := p.Get(name)
	if t == nil {
		panic("network: no parameter " + name)
	}
	return t.Data
}

// Set copies data into the named tensor after checking the name and shape.
func (p *Params) Set(name string, shape []int, data []float32) error {
	t := p.Get(name)
	if t == nil {
		return fmt.Errorf("network: unknown parameter %q", name)
	}
	if !slices.Equal(t.Shape, shape) || len(data) != len(t.Data) {
		return fmt.Errorf("network: parameter %q has shape %v, got %v with %d values", name, t.Shape, shape, len(data))
	}
	copy(t.Data, data)
	p.Changed()
	return nil
}

// NumParams returns the total number of scalars.
func (p *Params) NumParams() int {
	n := 0
	for _, t := range p.tensors {
		n += len(t.Data)
	}
	return n
}

// Clone returns a deep copy.
func (p *Params) Clone() *Params {
	q := p.ZeroClone()
	for i, t := range p.tensors {
		copy(q.tensors[i].Data, t.Data)
	}
	return q
}

// ZeroClone returns zero tensors of the same names and shapes (a gradient
// buffer or an optimiser moment).
func (p *Params) ZeroClone() *Params {
	q := &Params{cfg: p.cfg, tensors: make([]*Tensor, len(p.tensors)), index: p.index}
	for i, t := range p.tensors {
		q.tensors[i] = &Tensor{Name: t.Name, Shape: slices.Clone(t.Shape), Data: make([]float32, len(t.Data))}
	}
	return q
}

// Zero sets every value to 0.
func (p *Params) Zero() {
	for _, t := range p.tensors {
		clear(t.Data)
	}
	p.Changed()
}

// Add adds q (same layout) to p.
func (p *Params) Add(q *Params) {
	for i, t := range p.tensors {
		for j, v := range q.tensors[i].Data {
			t.Data[j] += v
		}
	}
	p.Changed()
}

// Norm returns the Euclidean norm of all values together (accumulated in
// float64).
func (p *Params) Norm() float64 {
	var s float64
	for _, t := range p.tensors {
		for _, v := range t.Data {
			s += float64(v) * float64(v)
		}
	}
	return math.Sqrt(s)
}

// sameLayout reports an error when q's tensors differ from p's in name or
// shape.
func (p *Params) sameLayout(q *Params) error {
	if len(p.tensors) != len(q.tensors) {
		return fmt.Errorf("network: %d tensors, want %d", len(q.tensors), len(p.tensors))
	}
	for i, t := range p.tensors {
		u := q.tensors[i]
		if t.Name != u.Name || !slices.Equal(t.Shape, u.Shape) {
			return fmt.Errorf("network: tensor %d is %s %v, want %s %v", i, u.Name, u.Shape, t.Name, t.Shape)
		}
	}
	return nil
}
