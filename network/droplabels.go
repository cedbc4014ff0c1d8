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
	return p.withLabelRows(len(keep), func(dst, src []float32, row int) {
		for i, l := range keep {
			copy(dst[i*row:(i+1)*row], src[l*row:(l+1)*row])
		}
	})
}

// withLabelRows returns a copy of the parameters for a network of labels
// labels: every tensor but the three label biaffines is copied, and fill
// writes each label biaffine (dst) from the old one (src), row being a
// label's (d+1)² weights, its constant term last.
func (p *Params) withLabelRows(labels int, fill func(dst, src []float32, row int)) (*Params, error) {
	c := p.cfg
	c.Labels = labels
	out, err := NewParams(c)
	if err != nil {
		return nil, fmt.Errorf("network: %d labels: %w", labels, err)
	}
	for _, t := range out.tensors {
		src := p.Get(t.Name).Data
		if !strings.HasSuffix(t.Name, ".label.biaffine") {
			copy(t.Data, src)
			continue
		}
		fill(t.Data, src, shapeSize(t.Shape[1:]))
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

// WithLabels is WithoutLabels undone as far as it can be: it returns a copy
// of the parameters for a network of labels labels in which this network's
// label i becomes label at[i] (at strictly increasing, as WithoutLabels
// keeps them) and every other label always scores absent below the span
// score: its biaffine rows are 0 but the constant term, which is absent. A
// model with dropped labels can then score, teach or start the training of
// the full label set: every label it knew scores as before, and a very
// negative absent keeps the others out of its predictions and
// distributions. Cost O(parameters).
func (p *Params) WithLabels(at []int, labels int, absent float32) (*Params, error) {
	if len(at) != p.cfg.Labels {
		return nil, fmt.Errorf("network: with labels: %d positions for %d labels", len(at), p.cfg.Labels)
	}
	for i, l := range at {
		if l < 0 || l >= labels || (i > 0 && l <= at[i-1]) {
			return nil, fmt.Errorf("network: with labels: positions %v are not increasing within [0, %d)", at, labels)
		}
	}
	return p.withLabelRows(labels, func(dst, src []float32, row int) {
		clear(dst)
		for l := range labels {
			dst[(l+1)*row-1] = absent
		}
		for i, l := range at {
			copy(dst[l*row:(l+1)*row], src[i*row:(i+1)*row])
		}
	})
}

// LabelsIn returns where each of v's labels is in o's (increasing), for
// Params.WithLabels, when v is o with some labels left out
// (Vocab.WithoutLabels): the same words, characters and tags, and labels
// that are a subsequence of o's. Otherwise it says what differs.
func (v *Vocab) LabelsIn(o *Vocab) ([]int, error) {
	same := *o
	same.Labels = v.Labels
	if err := v.SameAs(&same); err != nil {
		return nil, err
	}
	at := make([]int, 0, len(v.Labels))
	j := 0
	for _, l := range v.Labels {
		for j < len(o.Labels) && o.Labels[j] != l {
			j++
		}
		if j == len(o.Labels) {
			return nil, fmt.Errorf("label %q is not among the %d labels, or not in their order", l, len(o.Labels))
		}
		at = append(at, j)
		j++
	}
	return at, nil
}

// WithLabels returns a copy of the vocabulary with the label list labels,
// which must hold v's labels in their order (Params.WithLabels then gives
// a network for it): the inverse of Vocab.WithoutLabels. It returns the
// positions of v's labels in the list as well.
func (v *Vocab) WithLabels(labels []string) (*Vocab, []int, error) {
	out := &Vocab{Words: slices.Clone(v.Words), Chars: slices.Clone(v.Chars), Labels: slices.Clone(labels), Tags: slices.Clone(v.Tags)}
	if err := out.reindex(); err != nil {
		return nil, nil, err
	}
	at, err := v.LabelsIn(out)
	if err != nil {
		return nil, nil, err
	}
	return out, at, nil
}
