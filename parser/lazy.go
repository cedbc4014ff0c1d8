package parser

import (
	"fmt"
	"sync"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// lazyModels are the models of one weights file held in data, model 0
// converted when read and the others when first asked for: an ensemble's
// model that scores in a thread of its own (MemberFunc) is converted here
// only if that thread fails, and the engine's thread does not hold its
// float32 parameters (15 MB for a tiny model) for nothing.
type lazyModels struct {
	data []byte
	name string

	mu     sync.Mutex
	models []*network.Model // nil until converted
}

// newLazyModels returns the models of the file held in data, of which
// first (model 0) is converted, count in all.
func newLazyModels(data []byte, name string, first *network.Model, count int) *lazyModels {
	l := &lazyModels{data: data, name: name, models: make([]*network.Model, count)}
	l.models[0] = first
	return l
}

// count returns the number of models.
func (l *lazyModels) count() int { return len(l.models) }

// first returns model 0.
func (l *lazyModels) first() *network.Model { return l.models[0] }

// get returns model k, converting it the first time (ReadMember: the file
// is checked again, model k's values converted).
func (l *lazyModels) get(k int) (*network.Model, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m := l.models[k]; m != nil {
		return m, nil
	}
	m, err := ReadMember(l.data, l.name, k)
	if err != nil {
		return nil, err
	}
	if m.Config().NoDropout() != l.models[0].Config().NoDropout() {
		return nil, fmt.Errorf("parser: %s: model %d shaped %+v, model 1 %+v", l.name, k+1, m.Config(), l.models[0].Config())
	}
	l.models[k] = m
	return m, nil
}

// all returns every model, converting those not yet converted.
func (l *lazyModels) all() ([]*network.Model, error) {
	out := make([]*network.Model, l.count())
	for k := range out {
		m, err := l.get(k)
		if err != nil {
			return nil, err
		}
		out[k] = m
	}
	return out, nil
}

// params returns every model's parameters (see all).
func (l *lazyModels) params() ([]*network.Params, error) {
	ms, err := l.all()
	if err != nil {
		return nil, err
	}
	ps := make([]*network.Params, len(ms))
	for k, m := range ms {
		ps[k] = m.Params
	}
	return ps, nil
}

// converted returns the number of models converted so far.
func (l *lazyModels) converted() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.models {
		if m != nil {
			n++
		}
	}
	return n
}

// lazyCPU is the CPU reference over model k of l, converted at its first
// batch (a MemberFunc's fallback, used once its thread fails).
type lazyCPU struct {
	l *lazyModels
	k int
}

func (c lazyCPU) Score(batch []network.Input) ([]scorer.Result, error) {
	m, err := c.l.get(c.k)
	if err != nil {
		return nil, err
	}
	return scorer.NewCPU(m).Score(batch)
}

// InferenceBytes implements scorer.Sized: the models of a file share their
// sizes, so model 0's bound is every model's.
func (c lazyCPU) InferenceBytes(n int, _ int64) int64 {
	return c.l.first().Config().InferenceBytes(n)
}

func (lazyCPU) Backend() string { return "cpu" }

func (lazyCPU) Close() error { return nil }
