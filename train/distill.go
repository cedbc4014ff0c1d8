package train

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// Knowledge distillation (Options.Teacher): a trained model or ensemble,
// or K cross-fitted models each trained without one fold of the training
// set, scores every training sentence once before the first update; the
// class distributions then join the gold classes in the span targets
// (network.Soft). A model's distributions on its own training sentences
// are nearly the gold classes, hence the cross-fitted form.

const (
	// DefaultTeacherWeight is the teacher's share of the span targets when
	// Options.Teacher is set and Options.TeacherWeight is 0.
	DefaultTeacherWeight = 0.5
	// DefaultTeacherTemperature divides the teacher's scores before its
	// softmax when Options.TeacherTemperature is 0: its own distributions.
	DefaultTeacherTemperature = 1
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
	// DevF1 is the teacher's dev F1 (n3, proper.prm) when it is one teacher
	// (not cross-fitted) and the run has dev data; -1 otherwise.
	DevF1 float64
	// models are the one teacher's models (nil for cross-fitted teachers).
	models []*network.Model
	// Scoring says where the teacher scored the training sentences ("cpu",
	// or the GPU, or the CPU and why not the GPU).
	Scoring string
}

// teacherScorer returns the scorer of a teacher's models (their mean) and
// where it scores.
type teacherScorer func(models []*network.Model) (scorer.Scorer, string, error)

// addTeacher scores the training sentences with the teacher(s) in path (see
// Options.Teacher: one file, a single model or an ensemble whose scores are
// averaged, files joined by "+" averaged together, or K comma-separated
// cross-fitted teachers) and keeps, for every cell where the teacher gives
// the labels at least softMinMass, its distribution at the given
// temperature (see softCells). Teachers must have the training data's
// vocabulary, some labels left out allowed (readTeacher). progress, when
// not nil, is called with the sentences done. open, when not nil, gives
// the scorer of a teacher's models and says where it scores (nil: their
// mean on the CPU).
func (d *dataset) addTeacher(ctx context.Context, path, trainPath string, temperature float64, workers int, open teacherScorer, progress func(done, total int)) (teacherStats, error) {
	paths := splitFileList(path)
	folds := len(paths)
	st := teacherStats{DevF1: -1}
	var hashes []string
	done := 0
	for k, p := range paths {
		models, files, err := d.readTeacher(p, trainPath)
		if err != nil {
			return teacherStats{}, err
		}
		if note := heldOutNote(k+1, folds); folds > 1 {
			for i, f := range files {
				if !strings.HasSuffix(f.Meta.TrainingData, note) {
					return teacherStats{}, fmt.Errorf("train: teacher %d of %d, %s, was trained on %q: a cross-fitted teacher must be trained%s (--hold-out %d/%d)",
						k+1, folds, strings.Split(p, "+")[i], f.Meta.TrainingData, note, k+1, folds)
				}
			}
		}
		for _, m := range models {
			m.Workers = workers
		}
		st.Models += len(models)
		if folds == 1 {
			st.models = models
		}
		for _, f := range files {
			hashes = append(hashes, f.TensorsSHA256)
		}
		// The sentences this teacher scores, and the words it was trained on.
		var idx []int
		seen := make([]bool, len(d.vocab.Words))
		for i := range d.train {
			if folds == 1 || foldOf(i, folds) == k+1 {
				idx = append(idx, i)
				continue
			}
			for _, w := range d.train[i].input.WordIDs {
				seen[w] = true
			}
		}
		sc, where := scorer.MeanCPU(models), "cpu"
		if open != nil {
			if sc, where, err = open(models); err != nil {
				return teacherStats{}, fmt.Errorf("train: teacher %s: %w", p, err)
			}
		}
		st.Scoring = where
		L := len(d.vocab.Labels)
		for lo := 0; lo < len(idx); lo += teacherBatch {
			if err := ctx.Err(); err != nil { // interrupted: nothing is kept
				sc.Close()
				return teacherStats{}, err
			}
			hi := min(len(idx), lo+teacherBatch)
			ins := make([]network.Input, hi-lo)
			for j := range ins {
				ins[j] = d.train[idx[lo+j]].input
				if folds > 1 {
					ins[j] = unseenAsUnknown(ins[j], seen)
				}
			}
			outs, err := sc.Score(ins)
			if err != nil {
				sc.Close()
				return teacherStats{}, fmt.Errorf("train: teacher %s: %w", p, err)
			}
			for j, out := range outs {
				ex := &d.train[idx[lo+j]]
				ex.soft = softCells(out.Scores.N, L, temperature, [3][]float32{out.Scores.Cont, out.Scores.Disc, out.Scores.Gap})
				if ex.soft == nil {
					ex.soft = []softCell{} // scored: no cell kept
				}
				st.Cells += len(ex.soft)
			}
			done += hi - lo
			if progress != nil {
				progress(done, len(d.train))
			}
		}
		// Closed here, not deferred: a cross-fitted teacher's models leave
		// the GPU before the next fold's arrive.
		sc.Close()
	}
	st.SHA256 = strings.Join(hashes, ",")
	return st, nil
}

// teacherSHA256 returns what addTeacher gives as teacherStats.SHA256 for
// the teacher list path (the tensors' hashes of its files), from the
// files' headers only (the full read that follows checks the data): a
// resumed run compares it with its checkpoint's before the teacher scores
// anything.
func teacherSHA256(path string) (string, error) {
	var hashes []string
	for _, p := range splitFileList(path) {
		for _, file := range strings.Split(p, "+") {
			f, err := weights.ReadMeta(file)
			if err != nil {
				return "", fmt.Errorf("train: teacher: %w", err)
			}
			hashes = append(hashes, f.TensorsSHA256)
		}
	}
	return strings.Join(hashes, ","), nil
}

// readTeacher reads one teacher of Options.Teacher: a weights file, or
// files joined by "+" whose models' scores are averaged together (their
// sizes may differ). Each file must have the training data's vocabulary,
// or that vocabulary with labels left out: the models of such a file score
// the missing labels far below the others (parser.WithLabelsOf).
func (d *dataset) readTeacher(p, trainPath string) ([]*network.Model, []*weights.File, error) {
	var models []*network.Model
	var files []*weights.File
	for _, path := range strings.Split(p, "+") {
		ms, err := parser.ReadFiles(path)
		if err != nil {
			return nil, nil, fmt.Errorf("train: teacher: %w", err)
		}
		scoring, err := parser.WithLabelsOf(ms.Models, ms.Vocab, d.vocab)
		if err != nil {
			return nil, nil, fmt.Errorf("train: teacher %s was trained with another vocabulary than %s gives: %w", path, trainPath, err)
		}
		models = append(models, scoring...)
		files = append(files, ms.File)
	}
	return models, files, nil
}

// unseenAsUnknown returns in with every word not marked seen replaced by
// the unknown word (the characters are kept).
func unseenAsUnknown(in network.Input, seen []bool) network.Input {
	out := in
	out.WordIDs = make([]int, len(in.WordIDs))
	for i, w := range in.WordIDs {
		if w >= 0 && w < len(seen) && !seen[w] && w >= network.EOSWord+1 {
			w = network.UnkWord
		}
		out.WordIDs[i] = w
	}
	return out
}

// softCells returns the teacher distributions (softmax with the null class
// at logit 0) of the cells x <= y of a sentence of n words whose label mass
// is at least softMinMass, by kind then cell. The scores are divided by
// temperature first: above 1 the distributions are flatter, so that a
// teacher that is nearly certain on its own training sentences still says
// which wrong classes it finds likelier than others.
func softCells(n, labels int, temperature float64, scores [3][]float32) []softCell {
	var out []softCell
	probs := make([]float32, labels)
	row := make([]float32, labels)
	inv := float32(1 / temperature)
	for k, s := range scores {
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				for a, v := range s[(x*n+y)*labels : (x*n+y+1)*labels] {
					row[a] = v * inv
				}
				if network.LabelProbs(row, probs) < softMinMass {
					continue
				}
				out = append(out, softCell{kind: uint8(k), cell: int32(x*n + y), probs: slices.Clone(probs)})
			}
		}
	}
	return out
}

// checkTeacherTemperature reports an error for a temperature that is
// negative, infinite or not a number (0 means the default).
func checkTeacherTemperature(t float64) error {
	if !(t >= 0) || math.IsInf(t, 1) {
		return fmt.Errorf("train: teacher temperature %g: want a positive number (1: the teacher's own distributions)", t)
	}
	return nil
}

// checkTeacherWeight reports an error for a weight outside [0, 1].
func checkTeacherWeight(w float64) error {
	if !(w >= 0 && w <= 1) {
		return fmt.Errorf("train: teacher weight %g: want a value in [0, 1]", w)
	}
	return nil
}
