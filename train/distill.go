package train

import (
	"fmt"
	"math"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// Knowledge distillation (Options.Teacher): a trained model, usually an
// ensemble, scores every training sentence once before the first update;
// its class distributions then join the gold classes in the span targets
// (network.Soft), so that one model learns what several agree on.

const (
	// DefaultTeacherWeight is the teacher's share of the span targets when
	// Options.Teacher is set and Options.TeacherWeight is 0.
	DefaultTeacherWeight = 0.5
	// softMinMass is the least total label probability the teacher must
	// give a cell for it to be kept as a soft target; the teacher's other
	// cells count as "null with probability 1". On the Alpino training set
	// this keeps a few cells per word instead of all n² of a sentence.
	softMinMass = 0.005
	// teacherBatch is the number of sentences the teacher scores at once.
	teacherBatch = 64
)

// softCell is a teacher distribution kept for one cell of an example.
type softCell struct {
	kind  uint8
	cell  int32
	probs []float32 // one per label; the null class has the rest
}

// softTargets returns the example's teacher distributions with the given
// weight, or nil when it has none (no teacher).
func (e *example) softTargets(weight float64) *network.Soft {
	if e.soft == nil {
		return nil
	}
	s := &network.Soft{Weight: weight}
	for _, c := range e.soft {
		s.Cells[c.kind] = append(s.Cells[c.kind], network.SoftCell{Cell: c.cell, Probs: c.probs})
	}
	return s
}

// teacherStats describes what the teacher gave the training set.
type teacherStats struct {
	Models int // members of the teacher
	Cells  int // soft cells kept, all kinds
	SHA256 string
}

// addTeacher scores every training sentence with the teacher in path (a
// single model or an ensemble, averaged) and keeps, for every cell where
// the teacher gives the labels at least softMinMass, its distribution.
// The teacher must have the training data's vocabulary. progress, when not
// nil, is called with the sentences done.
func (d *dataset) addTeacher(path, trainPath string, workers int, progress func(done, total int)) (teacherStats, error) {
	f, err := weights.ReadFile(path)
	if err != nil {
		return teacherStats{}, fmt.Errorf("train: teacher: %w", err)
	}
	if err := d.vocab.SameAs(f.Meta.Vocab); err != nil {
		return teacherStats{}, fmt.Errorf("train: teacher %s was trained with another vocabulary than %s gives: %w", path, trainPath, err)
	}
	models, err := f.Models()
	if err != nil {
		return teacherStats{}, fmt.Errorf("train: teacher %s: %w", path, err)
	}
	for _, m := range models {
		m.Workers = workers
	}
	sc := scorer.MeanCPU(models)
	st := teacherStats{Models: len(models), SHA256: f.TensorsSHA256}
	L := f.Meta.Config.Labels
	for lo := 0; lo < len(d.train); lo += teacherBatch {
		hi := min(len(d.train), lo+teacherBatch)
		ins := make([]network.Input, hi-lo)
		for i := range ins {
			ins[i] = d.train[lo+i].input
		}
		outs, err := sc.Score(ins)
		if err != nil {
			return teacherStats{}, fmt.Errorf("train: teacher %s: sentences %d-%d: %w", path, lo+1, hi, err)
		}
		for i, out := range outs {
			ex := &d.train[lo+i]
			ex.soft = softCells(out.Scores.N, L, [3][]float32{out.Scores.Cont, out.Scores.Disc, out.Scores.Gap})
			if ex.soft == nil {
				ex.soft = []softCell{} // scored: no cell kept
			}
			st.Cells += len(ex.soft)
		}
		if progress != nil {
			progress(hi, len(d.train))
		}
	}
	return st, nil
}

// softCells returns the teacher distributions (softmax with the null class
// at logit 0) of the cells x <= y of a sentence of n words whose label mass
// is at least softMinMass, by kind then cell.
func softCells(n, labels int, scores [3][]float32) []softCell {
	var out []softCell
	for k, s := range scores {
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				row := s[(x*n+y)*labels : (x*n+y+1)*labels]
				m := 0.0
				for _, v := range row {
					m = math.Max(m, float64(v))
				}
				sum := math.Exp(-m)
				for _, v := range row {
					sum += math.Exp(float64(v) - m)
				}
				if mass := 1 - math.Exp(-m)/sum; mass < softMinMass {
					continue
				}
				probs := make([]float32, labels)
				for a, v := range row {
					probs[a] = float32(math.Exp(float64(v)-m) / sum)
				}
				out = append(out, softCell{kind: uint8(k), cell: int32(x*n + y), probs: probs})
			}
		}
	}
	return out
}

// checkTeacherWeight reports an error for a weight outside [0, 1].
func checkTeacherWeight(w float64) error {
	if !(w >= 0 && w <= 1) {
		return fmt.Errorf("train: teacher weight %g: want a value in [0, 1]", w)
	}
	return nil
}
