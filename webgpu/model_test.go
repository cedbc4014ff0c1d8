//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// Files of the equivalence tests on real sentences.
const (
	defaultModel = "../weights/default.safetensors"
	devTreebank  = "../../shared/data/alpino-cdb/dev.punctmoved.discbracket"
	devSentences = 50
)

// devWords returns the words of the first n sentences of the dev treebank,
// or skips the test when it is missing.
func devWords(t *testing.T, n int) [][]string {
	t.Helper()
	trees, err := treebank.ReadFile(devTreebank)
	if os.IsNotExist(err) {
		t.Skipf("%s not present", devTreebank)
	}
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]string, 0, n)
	for _, tr := range trees[:min(n, len(trees))] {
		out = append(out, tr.Words())
	}
	return out
}

// checkFile compares the WebGPU scorer with the CPU reference over a
// weights file on dev sentences: scores within the tolerance of the file's
// storage, identical n3 trees; for an ensemble, every model and their mean.
func checkFile(t *testing.T, path string, sentences [][]string) {
	t.Helper()
	f, err := weights.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opt, tol := Options{Weights: WeightsF32}, tolF32
	if f.DType == weights.Float16 {
		opt, tol = Options{Weights: WeightsF16}, tolF16
	}
	models, err := f.Models()
	if err != nil {
		t.Fatal(err)
	}
	batch := make([]network.Input, len(sentences))
	for i, w := range sentences {
		batch[i] = f.Meta.Vocab.Encode(w)
	}
	// Each model is scored once on each side; the ensemble's mean is taken
	// over replays of those results (Copy: Mean sums into its first
	// member's), not scored again.
	var gpus, cpus []scorer.Scorer
	for k, m := range models {
		gpu := &scorer.Recorder{Scorer: openScorer(t, m.Params, opt)}
		cpu := &scorer.Recorder{Scorer: scorer.NewCPU(m)}
		what := filepath.Base(path)
		if len(models) > 1 {
			what = fmt.Sprintf("%s model %d of %d", what, k+1, len(models))
		}
		checkScorers(t, what, f.DType, gpu, cpu, batch, tol)
		gpus = append(gpus, &scorer.Replay{Results: gpu.Recorded(), Copy: true})
		cpus = append(cpus, &scorer.Replay{Results: cpu.Recorded(), Copy: true})
	}
	if len(models) > 1 {
		checkScorers(t, filepath.Base(path)+" ensemble", f.DType, scorer.Mean(gpus...), scorer.Mean(cpus...), batch, tol)
	}
}

// checkScorers compares a GPU scorer with the CPU's on a batch.
func checkScorers(t *testing.T, what string, dt weights.DType, gpu, cpu scorer.Scorer, batch []network.Input, tol float64) {
	t.Helper()
	d := scoredDiff(t, gpu, cpu, batch)
	t.Logf("%s (%s, %d sentences): %s", what, dt, len(batch), d.describe(tol))
	if !d.within(tol) {
		t.Errorf("%s: %s", what, d.describe(tol))
	}
}

// TestEquivalenceDefaultModel compares the scorer with the CPU reference for
// the shipped default model on 50 dev sentences, when the model exists.
func TestEquivalenceDefaultModel(t *testing.T) {
	if _, err := os.Stat(defaultModel); err != nil {
		t.Skipf("%s not present: %v", defaultModel, err)
	}
	checkFile(t, defaultModel, devWords(t, devSentences))
}

// TestEquivalenceWeightsFile does the same for a random Tiny-sized model with
// the dev vocabulary, written and read back through package weights in
// float16 and float32: the path of the default model, on any machine.
func TestEquivalenceWeightsFile(t *testing.T) {
	words := devWords(t, devSentences)
	v := network.NewVocab(words, 1)
	for _, l := range []string{"SMAIN", "NP", "PP", "CONJ", "SSUB", "REL", "MWU", "WHQ"} {
		v.AddLabel(l)
	}
	for _, tag := range []string{"n", "ww", "vz", "lid", "adj", "let", "bw", "vnw", "tw", "vg", "spec", "tsw"} {
		v.AddTag(tag)
	}
	c := network.Tiny().WithVocab(v)
	c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP = 64, 64, 32, 64 // quicker on a software GPU
	m := randomModel(t, c, 17)
	for _, dt := range []weights.DType{weights.Float16, weights.Float32} {
		t.Run(dt.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "model.safetensors")
			if err := weights.WriteFile(path, m.Params, weights.Meta{Config: c, Vocab: v, TrainingData: "random"}, dt); err != nil {
				t.Fatal(err)
			}
			checkFile(t, path, words)
		})
	}
}
