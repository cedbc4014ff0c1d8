package train

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// readVocab reads the vocabulary of a weights file.
func readVocab(t *testing.T, path string) *network.Vocab {
	t.Helper()
	f, err := weights.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f.Meta.Vocab
}

// readModel reads the single model of a weights file.
func readModel(t *testing.T, path string) *network.Model {
	t.Helper()
	f, err := weights.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := f.Models()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 {
		t.Fatalf("%s: %d models", path, len(ms))
	}
	return ms[0]
}

// The structured margin loss changes training, shows in the loss, and a run
// with it resumes bit for bit; a resumed run keeps its weight.
func TestHingeResume(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	b, ca, cp, changed := optionRuns(t, data, func(o *Options) { o.Hinge = 0.5 })
	if ca.Settings.Hinge != 0.5 || !changed {
		t.Error("the hinge loss did not change training")
	}
	// The first epoch's loss adds the hinge term to the same cross-entropy
	// (same initialisation, same first batch order).
	if la, lp := ca.State.History[0].TrainLoss, cp.State.History[0].TrainLoss; !(la > lp) {
		t.Errorf("first-epoch loss with the hinge %g, without %g: want more", la, lp)
	}
	b.Resume, b.Hinge = true, 1
	if _, err := Run(context.Background(), b); err == nil || !strings.Contains(err.Error(), "hinge weight 1") {
		t.Errorf("resume with another hinge weight: error %v", err)
	}
	bad := resumeOptions(t, data, base)
	bad.Out, bad.Hinge = filepath.Join(base, "bad.safetensors"), -1
	if _, err := Run(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "hinge weight -1") {
		t.Errorf("negative hinge weight: error %v", err)
	}
}

// A run started from a trained model (Options.Init) starts from its
// parameters exactly, records the file, and refuses a model that does not
// fit.
func TestInit(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	first := resumeOptions(t, data, base)
	first.Out = filepath.Join(base, "first.safetensors")
	runStoppedAndResumed(t, first, 0, nil)

	// A learning rate of 0 keeps the initial parameters: the output (the
	// best epoch's parameters) must equal the initial model's.
	frozen := resumeOptions(t, data, base)
	frozen.Out, frozen.Init, frozen.Epochs = filepath.Join(base, "frozen.safetensors"), first.Out, 1
	frozen.Adam.LR = 0
	runStoppedAndResumed(t, frozen, 0, nil)
	want, got := readModel(t, first.Out), readModel(t, frozen.Out)
	for _, ts := range want.Params.Tensors() {
		if !slices.Equal(ts.Data, got.Params.Get(ts.Name).Data) {
			t.Fatalf("tensor %s differs from the initial model's", ts.Name)
		}
	}
	ck, err := readCheckpoint(frozen.Out + ".ckpt")
	if err != nil {
		t.Fatal(err)
	}
	if ck.Settings.Init != first.Out || ck.Settings.InitSHA256 == "" {
		t.Errorf("settings record init %q (hash %q)", ck.Settings.Init, ck.Settings.InitSHA256)
	}
	// Fine-tuning with a learning rate moves away from it, and resumes.
	tuned := resumeOptions(t, data, base)
	tuned.Out, tuned.Init = filepath.Join(base, "tuned.safetensors"), first.Out
	runStoppedAndResumed(t, tuned, 1, nil)
	if _, changed := checkpointAgainst(t, tuned.Out, frozen.Out); !changed {
		t.Error("fine-tuning left the parameters unchanged")
	}

	// Fine-tuning on another treebank (here the first third of the data:
	// a vocabulary of its own would differ) keeps the initial model's
	// vocabulary.
	third := resumeOptions(t, shortSentences(t, t.TempDir(), 10, 12), base)
	third.Out, third.Init, third.Epochs = filepath.Join(base, "third.safetensors"), first.Out, 1
	if own, err := loadData(third.Train, "", nil, third.MinWordCount, 0, 0, 0); err != nil {
		t.Fatal(err)
	} else if own.vocab.SameAs(readVocab(t, first.Out)) == nil {
		t.Fatal("the first third of the data gives the same vocabulary: the test cannot see which one the run keeps")
	}
	runStoppedAndResumed(t, third, 0, nil)
	if err := readVocab(t, third.Out).SameAs(readVocab(t, first.Out)); err != nil {
		t.Errorf("fine-tuned on other sentences: the vocabulary is not the initial model's: %v", err)
	}

	// Models that do not fit.
	other := shortSentences(t, t.TempDir(), 20, 6)
	otherRun := resumeOptions(t, other, base)
	otherRun.Out, otherRun.Epochs = filepath.Join(base, "other.safetensors"), 1
	runStoppedAndResumed(t, otherRun, 0, nil)
	ensemble := filepath.Join(base, "ensemble.safetensors")
	m := readModel(t, first.Out)
	f, err := weights.ReadFile(first.Out)
	if err != nil {
		t.Fatal(err)
	}
	if err := weights.WriteEnsembleFile(ensemble, []*network.Params{m.Params, m.Params}, f.Meta, weights.Float32); err != nil {
		t.Fatal(err)
	}
	wide := resumeOptions(t, data, base)
	wide.Config.LSTM2Hidden++
	cases := []struct {
		name string
		o    Options
		init string
		want string
	}{
		{"labels the initial model lacks", resumeOptions(t, data, base), otherRun.Out, "that the initial model"},
		{"other sizes", wide, first.Out, "sizes"},
		{"an ensemble", resumeOptions(t, data, base), ensemble, "ensemble of 2"},
		{"missing file", resumeOptions(t, data, base), filepath.Join(base, "none.safetensors"), "none.safetensors"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Out, o.Init = filepath.Join(t.TempDir(), "m.safetensors"), tc.init
			_, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if _, err := os.Stat(o.Out); err == nil {
				t.Error("a failed run wrote its output")
			}
		})
	}
	// A resumed run takes its parameters from the checkpoint; naming an
	// initial model for a run that started at random is an error.
	first.Resume, first.Init, first.Epochs = true, first.Out, 3
	if _, err := Run(context.Background(), first); err == nil || !strings.Contains(err.Error(), "initial model") {
		t.Errorf("resume with --init: error %v", err)
	}
}
