package network

import (
	"fmt"
	"slices"
	"strings"
)

// WithoutLabels returns a copy of the parameters for a network that knows
// every label but those of drop (label ids, 0-based): the three label
// biaffines lose the drop rows, everything else is copied unchanged, and
// Config().Labels shrinks by len(drop). A parser of the result never
// predicts a dropped label; every other score is the same as before. The
// shipped model uses it to leave out labels seen once or twice in training
// (each costs 3*(LabelMLP+1)^2 weights per model). Cost O(parameters).
func (p *Params) WithoutLabels(drop []int) (*Params, error) {
	keep, err := keptLabels(p.cfg.Labels, drop)
	if err != nil {
		return nil, err
	}
	c := p.cfg
	c.Labels = len(keep)
	out, err := NewParams(c)
	if err != nil {
		return nil, fmt.Errorf("network: without labels: %w", err)
	}
	for _, t := range out.tensors {
		src := p.Get(t.Name).Data
		if !strings.HasSuffix(t.Name, ".label.biaffine") {
			copy(t.Data, src)
			continue
		}
		row := shapeSize(t.Shape[1:])
		for i, l := range keep {
			copy(t.Data[i*row:(i+1)*row], src[l*row:(l+1)*row])
		}
	}
	return out, nil
}

// WithoutLabels returns a copy of the vocabulary without the labels of drop
// (ids, 0-based), the others renumbered in order, to go with
// Params.WithoutLabels.
func (v *Vocab) WithoutLabels(drop []int) (*Vocab, error) {
	keep, err := keptLabels(len(v.Labels), drop)
	if err != nil {
		return nil, err
	}
	out := &Vocab{Words: slices.Clone(v.Words), Chars: slices.Clone(v.Chars), Tags: slices.Clone(v.Tags)}
	for _, l := range keep {
		out.Labels = append(out.Labels, v.Labels[l])
	}
	if err := out.reindex(); err != nil {
		return nil, err
	}
	return out, nil
}

// keptLabels returns the label ids of 0..n-1 not in drop, in order, or an
// error for an id out of range, a repeated id, or nothing left.
func keptLabels(n int, drop []int) ([]int, error) {
	dropped := make([]bool, n)
	for _, l := range drop {
		if l < 0 || l >= n {
			return nil, fmt.Errorf("network: label id %d out of range [0, %d)", l, n)
		}
		if dropped[l] {
			return nil, fmt.Errorf("network: label id %d dropped twice", l)
		}
		dropped[l] = true
	}
	var keep []int
	for l := range n {
		if !dropped[l] {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("network: every one of the %d labels dropped", n)
	}
	return keep, nil
}
