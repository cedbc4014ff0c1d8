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
	if own, err := loadData(third.Train, "", nil, false, third.MinWordCount, 0, 0, 0); err != nil {
		t.Fatal(err)
	} else if own.vocab.SameAs(readVocab(t, first.Out)) == nil {
		t.Fatal("the first third of the data gives the same vocabulary: the test cannot see which one the run keeps")
	}
	runStoppedAndResumed(t, third, 0, nil)
	if err := readVocab(t, third.Out).SameAs(readVocab(t, first.Out)); err != nil {
		t.Errorf("fine-tuned on other sentences: the vocabulary is not the initial model's: %v", err)
	}

	// Models that do not fit.
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
	// The data with a POS tag the model lacks: its first word's.
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	open := strings.Index(string(raw), " 0=")
	start := strings.LastIndex(string(raw[:open]), "(") + 1
	newTag := filepath.Join(t.TempDir(), "newtag.discbracket")
	if err := os.WriteFile(newTag, append(append(slices.Clone(raw[:start]), "nieuwetag"...), raw[open:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		o    Options
		init string
		want string
	}{
		{"POS tags the model lacks", resumeOptions(t, newTag, base), first.Out, "labels or POS tags that the initial model"},
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
	member := resumeOptions(t, data, base)
	member.Out, member.Init, member.InitMember = filepath.Join(t.TempDir(), "m.safetensors"), ensemble, 3
	if _, err := Run(context.Background(), member); err == nil || !strings.Contains(err.Error(), "--init-member 3: ") {
		t.Errorf("model 3 of an ensemble of 2: error %v", err)
	}
	member.Init = ""
	if _, err := Run(context.Background(), member); err == nil || !strings.Contains(err.Error(), "initial model member 3") {
		t.Errorf("a member without an initial model: error %v", err)
	}

	// A resumed run takes its parameters from the checkpoint; naming an
	// initial model for a run that started at random is an error.
	first.Resume, first.Init, first.Epochs = true, first.Out, 3
	if _, err := Run(context.Background(), first); err == nil || !strings.Contains(err.Error(), "initial model") {
		t.Errorf("resume with --init: error %v", err)
	}
}

// A run starts from one model of an ensemble file written without some of
// the training data's labels (as the shipped one): the labels come back at
// their places in the vocabulary, scored initLabelScore below the span
// score, every other parameter is the model's, and fine-tuning learns them.
func TestInitMemberWithoutLabels(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	first := resumeOptions(t, data, base)
	first.Out = filepath.Join(base, "first.safetensors")
	runStoppedAndResumed(t, first, 0, nil)
	second := resumeOptions(t, data, base)
	second.Out, second.Seed = filepath.Join(base, "second.safetensors"), 8
	runStoppedAndResumed(t, second, 0, nil)

	// The pair without the data's most frequent label and its first one.
	d, err := loadData(data, "", nil, false, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	drop := []int{0, mostFrequentLabel(d)}
	if drop[1] == 0 {
		drop = drop[1:]
	}
	pair := filepath.Join(base, "pair.safetensors")
	writeWithoutLabels(t, pair, drop, first.Out, second.Out)
	f, err := weights.ReadFile(first.Out)
	if err != nil {
		t.Fatal(err)
	}

	// Model 2, frozen (learning rate 0): the output is the second model
	// with the labels back.
	frozen := resumeOptions(t, data, base)
	frozen.Out, frozen.Init, frozen.InitMember, frozen.Epochs = filepath.Join(base, "frozen.safetensors"), pair, 2, 1
	frozen.Adam.LR = 0
	var lines strings.Builder
	frozen.Log = &lines
	if _, err := Run(context.Background(), frozen); err != nil {
		t.Fatal(err)
	}
	if err := readVocab(t, frozen.Out).SameAs(readVocab(t, second.Out)); err != nil {
		t.Errorf("the labels did not come back at their places: %v", err)
	}
	var names []string
	for _, l := range drop {
		names = append(names, f.Meta.Vocab.Labels[l])
	}
	slices.Sort(names)
	if want := "labels the initial model lacks, learnt from a score -5 below the span score: " + strings.Join(names, ", "); !strings.Contains(lines.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, lines.String())
	}
	want, got := readModel(t, second.Out).Params, readModel(t, frozen.Out).Params
	for _, ts := range want.Tensors() {
		g := got.Get(ts.Name).Data
		if !strings.HasSuffix(ts.Name, ".label.biaffine") {
			if !slices.Equal(ts.Data, g) {
				t.Fatalf("tensor %s differs from model 2's", ts.Name)
			}
			continue
		}
		row := len(ts.Data) / len(f.Meta.Vocab.Labels)
		for l := range f.Meta.Vocab.Labels {
			w, gl := ts.Data[l*row:(l+1)*row], g[l*row:(l+1)*row]
			if !slices.Contains(drop, l) {
				if !slices.Equal(w, gl) {
					t.Fatalf("%s, label %d: differs from model 2's", ts.Name, l)
				}
				continue
			}
			for i, v := range gl {
				wantV := float32(0)
				if i == row-1 { // the constant term
					wantV = initLabelScore
				}
				if v != wantV {
					t.Fatalf("%s, label %d put back: entry %d is %g, want %g", ts.Name, l, i, v, wantV)
				}
			}
		}
	}

	// Fine-tuning moves the labels put back. Without a preset or sizes, the
	// run takes the initial model's.
	tuned := resumeOptions(t, data, base)
	tuned.Out, tuned.Init, tuned.InitMember, tuned.Epochs, tuned.Config = filepath.Join(base, "tuned.safetensors"), pair, 1, 1, nil
	if _, err := Run(context.Background(), tuned); err != nil {
		t.Fatal(err)
	}
	if got, want := readModel(t, tuned.Out).Params.Config(), readModel(t, first.Out).Params.Config(); got != want {
		t.Errorf("fine-tuned without sizes: config %+v, want the initial model's %+v", got, want)
	}
	tp := readModel(t, tuned.Out).Params.Get("cont.label.biaffine")
	row := len(tp.Data) / len(f.Meta.Vocab.Labels)
	l := drop[len(drop)-1]
	if corner := tp.Data[(l+1)*row-1]; corner == initLabelScore {
		t.Errorf("label %d put back: its constant term did not move in an epoch of fine-tuning", l)
	}
}
