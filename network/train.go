package network

import (
	"fmt"
	"math/rand/v2"
)

// Targets are the gold classes of one sentence of n words. Cont, Disc and Gap
// have n*n entries indexed x*n+y for word pairs x <= y (entries x > y are
// ignored): 0 = no constituent, a+1 = label a. Tags has n gold tag ids, or is
// nil to leave the tagger out of the loss.
type Targets struct {
	Cont, Disc, Gap []int
	Tags            []int
	// Soft, when not nil, mixes a teacher's distributions into the span
	// targets (knowledge distillation); see Soft.
	Soft *Soft
	// Hinge, when not nil, adds the structured margin loss (see Hinge).
	Hinge *Hinge
}

// Soft holds a teacher's class distributions over some span cells of one
// sentence, for knowledge distillation: the target of every cell x <= y is
// then the distribution (1-Weight)·gold + Weight·teacher instead of the gold
// class alone, and its loss the cross-entropy against that distribution.
type Soft struct {
	// Weight is the teacher's share of the target, in [0, 1].
	Weight float64
	// Cells lists, for cont, disc and gap, the cells where the teacher gives
	// the labels some probability, in increasing cell order; a cell not
	// listed has the teacher distribution "null with probability 1".
	Cells [numKinds][]SoftCell
}

// SoftCell is the teacher's distribution at one cell.
type SoftCell struct {
	Cell int32 // x*n+y, x <= y
	// Probs holds the teacher's probability of each label (Labels
	// entries); the null class has the rest, 1 - sum(Probs).
	Probs []float32
}

// softCursor walks the soft cells of one kind in cell order, as the losses
// visit the cells.
type softCursor struct {
	cells []SoftCell
	next  int
}

// at returns the teacher probabilities of cell, or nil when it is not
// listed. Calls must come in increasing cell order.
func (c *softCursor) at(cell int) []float32 {
	for c.next < len(c.cells) && int(c.cells[c.next].Cell) < cell {
		c.next++
	}
	if c.next < len(c.cells) && int(c.cells[c.next].Cell) == cell {
		return c.cells[c.next].Probs
	}
	return nil
}

// softOf returns the cursor over kind k's soft cells and the teacher's
// weight (0 without soft targets).
func (t *Targets) softOf(k int) (softCursor, float64) {
	if t.Soft == nil {
		return softCursor{}, 0
	}
	return softCursor{cells: t.Soft.Cells[k]}, t.Soft.Weight
}

// NewTargets returns all-null span targets for n words and no tags.
func NewTargets(n int) Targets {
	return Targets{Cont: make([]int, n*n), Disc: make([]int, n*n), Gap: make([]int, n*n)}
}

// Example is one training sentence with its gold targets.
type Example struct {
	Input   Input
	Targets Targets
}

// Loss reports a batch loss. Every field but Sentences and Words is a mean
// over the batch's sentences of per-sentence sums (over word pairs or
// words), and Total = Cont + Disc + Gap + Tag + Hinge is the loss the
// gradients are of (Hinge: the structured margin term of Targets.Hinge).
type Loss struct {
	Total, Cont, Disc, Gap, Tag, Hinge float64
	Sentences, Words                   int
}

// checkExample reports an error when ex does not fit c.
func (c Config) checkExample(ex *Example) error {
	if err := c.checkInput(ex.Input); err != nil {
		return err
	}
	n := ex.Input.Len()
	t := &ex.Targets
	for k, target := range [numKinds][]int{t.Cont, t.Disc, t.Gap} {
		if len(target) != n*n {
			return fmt.Errorf("%s targets: %d entries, want %d (n=%d)", kindNames[k], len(target), n*n, n)
		}
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				if v := target[x*n+y]; v < 0 || v > c.Labels {
					return fmt.Errorf("%s target (%d,%d) = %d outside [0,%d]", kindNames[k], x, y, v, c.Labels)
				}
			}
		}
	}
	if err := c.checkSoft(t.Soft, n); err != nil {
		return err
	}
	if err := t.Hinge.check(); err != nil {
		return err
	}
	if t.Tags != nil {
		if len(t.Tags) != n {
			return fmt.Errorf("%d tags for %d words", len(t.Tags), n)
		}
		for i, v := range t.Tags {
			if v < 0 || v >= c.Tags {
				return fmt.Errorf("tag %d = %d outside [0,%d)", i, v, c.Tags)
			}
		}
	}
	return nil
}

// checkSoft reports an error when soft targets do not fit a sentence of n
// words.
func (c Config) checkSoft(s *Soft, n int) error {
	if s == nil {
		return nil
	}
	if !(s.Weight >= 0 && s.Weight <= 1) {
		return fmt.Errorf("soft targets: weight %g outside [0,1]", s.Weight)
	}
	for k, cells := range s.Cells {
		last := -1
		for _, sc := range cells {
			cell := int(sc.Cell)
			if cell <= last || cell >= n*n || cell/n > cell%n {
				return fmt.Errorf("%s soft targets: cell %d out of order or not a pair x <= y (n=%d)", kindNames[k], cell, n)
			}
			last = cell
			if len(sc.Probs) != c.Labels {
				return fmt.Errorf("%s soft target (%d,%d): %d probabilities, want %d", kindNames[k], cell/n, cell%n, len(sc.Probs), c.Labels)
			}
			var sum float64
			for _, p := range sc.Probs {
				if !(p >= 0) {
					return fmt.Errorf("%s soft target (%d,%d): probability %g", kindNames[k], cell/n, cell%n, p)
				}
				sum += float64(p)
			}
			if sum > 1+1e-4 {
				return fmt.Errorf("%s soft target (%d,%d): probabilities sum to %g > 1", kindNames[k], cell/n, cell%n, sum)
			}
		}
	}
	return nil
}

// sentenceLoss returns the loss terms (cont, disc, gap, tag, hinge) of one
// sentence, each a sum over word pairs or words (hinge: over the tree), and,
// when g is not nil, adds scale times their gradient to g. rng draws dropout
// masks (nil: no dropout).
func sentenceLoss[T float](m *net[T], ex *Example, rng *rand.Rand, g *net[T], scale float64) [numParts]float64 {
	var parts [numParts]float64
	n := ex.Input.Len()
	if n == 0 {
		return parts
	}
	tp := m.forward(ex.Input, rng)
	var dScores [numKinds][]T
	t := &ex.Targets
	for k, target := range [numKinds][]int{t.Cont, t.Disc, t.Gap} {
		if g != nil {
			dScores[k] = make([]T, len(tp.scores[k]))
		}
		soft, weight := t.softOf(k)
		parts[k] = spanCE(tp.scores[k], target, &soft, weight, n, m.cfg.Labels, scale, dScores[k])
	}
	var dTags []T
	if t.Tags != nil {
		if g != nil {
			dTags = make([]T, len(tp.tagLogits))
		}
		parts[3] = tagCE(tp.tagLogits, t.Tags, m.cfg.Tags, scale, dTags)
	}
	parts[4], _ = hingeLoss(t.Hinge, tp.scores, t, n, m.cfg.Labels, scale, dScores, nil)
	if g != nil {
		m.backward(tp, dScores, dTags, g)
	}
	return parts
}

// numParts counts the loss terms of a sentence: cont, disc, gap, tag, hinge.
const numParts = 5

// sentenceRNG returns the dropout generator of sentence i of a batch.
func sentenceRNG(seed uint64, i int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(i))) }

// sumLoss combines per-sentence loss terms, in sentence order, into the batch
// mean.
func sumLoss(parts [][numParts]float64, batch []Example) Loss {
	var l Loss
	for i, p := range parts {
		l.Cont += p[0]
		l.Disc += p[1]
		l.Gap += p[2]
		l.Tag += p[3]
		l.Hinge += p[4]
		l.Words += batch[i].Input.Len()
	}
	l.Sentences = len(batch)
	if b := float64(len(batch)); b > 0 {
		l.Cont, l.Disc, l.Gap, l.Tag, l.Hinge = l.Cont/b, l.Disc/b, l.Gap/b, l.Tag/b, l.Hinge/b
	}
	l.Total = l.Cont + l.Disc + l.Gap + l.Tag + l.Hinge
	return l
}
