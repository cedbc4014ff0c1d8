package train

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// writeOutput writes the output weights file (atomically: weights.WriteFile
// writes a temporary file and renames it).
func (t *trainer) writeOutput(p *network.Params, epoch int, f1, disc float64) error {
	updates := t.adam.Step
	if h := t.st.History; epoch >= 1 && epoch <= len(h) && h[epoch-1].Epoch == epoch {
		updates = h[epoch-1].Updates // an epoch logged before (a resumed run's best)
	}
	meta := weights.Meta{
		Config:       p.Config(),
		Vocab:        t.data.vocab,
		TrainingData: validText(t.trainingData()),
		DevF1:        f1,
		DevDiscF1:    disc,
		Epochs:       epoch,
		CreatedBy:    validText(t.opts.CreatedBy),
		Extra: map[string]string{
			"train_preset":          t.set.Preset,
			"train_seed":            strconv.FormatUint(t.set.Seed, 10),
			"train_max_batch_words": strconv.Itoa(t.set.MaxBatchWords),
			"train_updates":         strconv.Itoa(updates),
			"dev_data":              validText(filepath.Base(t.set.Dev)),
			"dev_decoder":           DevVariant.String(),
		},
	}
	return weights.WriteFile(t.opts.Out, p, meta, t.opts.DType)
}

// validText is s with each run of bytes that is not UTF-8 (a file name of
// another encoding) replaced by one U+FFFD: the model card holds text only, and a file
// name must not stop a model from being written after hours of training.
func validText(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// trainingData describes the training data in the output file: the file
// name, and the fold left out if any.
func (t *trainer) trainingData() string {
	s := describeTrainingList(t.set.Train)
	if t.set.Folds > 0 {
		s += heldOutNote(t.set.HoldOut, t.set.Folds)
	}
	return s
}

// describeTrainingList names the files of a --train list by their base
// names: "a.dbr" for one file, "a.dbr + b.dbr, without the sentences of
// dev.dbr" for a list with an exclusion, "a.dbr (x2) + b.dbr" for a list
// with a repeated file (see readTrainingTrees).
func describeTrainingList(list string) string {
	var in, out []string
	for _, name := range splitFileList(list) {
		name = strings.TrimSpace(name)
		if strings.HasPrefix(name, "-") {
			out = append(out, filepath.Base(strings.TrimPrefix(name, "-")))
		} else if file, k, err := splitRepeat(name); err != nil {
			in = append(in, filepath.Base(name))
		} else if k > 1 {
			in = append(in, fmt.Sprintf("%s (x%d)", filepath.Base(file), k))
		} else {
			in = append(in, filepath.Base(file))
		}
	}
	s := strings.Join(in, " + ")
	if len(out) > 0 {
		s += ", without the sentences of " + strings.Join(out, ", ")
	}
	return s
}
