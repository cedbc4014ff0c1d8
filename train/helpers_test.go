package train

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/bankfile"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// dataDir is the shared treebank directory, relative to this package.
const dataDir = "../../shared/data/alpino-cdb"

// needData returns the path of a shared data file, skipping the test when
// the data is absent.
func needData(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(dataDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data absent (%v): skipping", err)
	}
	return p
}

// shortSentences writes the first k training sentences of at most maxLen
// words to a discbracket file in dir and returns its path.
func shortSentences(t testing.TB, dir string, k, maxLen int) string {
	t.Helper()
	trees, err := treebank.ReadFile(needData(t, "train.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	var keep []*tree.Tree
	for _, tr := range trees {
		if tr.Len() <= maxLen && len(tr.Nodes) > 0 {
			keep = append(keep, tr)
			if len(keep) == k {
				break
			}
		}
	}
	path := filepath.Join(dir, "small.discbracket")
	if err := bankfile.Write(path, keep, bankfile.Options{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// smallConfig is a network small enough to train in seconds, without
// dropout.
func smallConfig() *network.Config {
	c := network.Tiny().NoDropout()
	c.WordDim, c.CharDim, c.CharHidden = 16, 8, 16
	c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP = 32, 32, 16, 16
	return &c
}

// fastAdam is model.md's optimiser with a larger learning rate.
func fastAdam() *network.AdamConfig {
	a := network.DefaultAdam()
	a.LR = 1e-2
	return &a
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runStoppedAndResumed runs o to the end. With stopAfter > 0 the run is
// cancelled after that epoch's evaluation and then resumed, with onResume
// (when not nil) changing the options first. It returns the options of the
// last call.
func runStoppedAndResumed(t *testing.T, o Options, stopAfter int, onResume func(*Options)) Options {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if stopAfter > 0 {
		o.Progress = func(p Progress) {
			if p.Phase == PhaseEpoch && p.Epoch == stopAfter {
				cancel()
			}
		}
	}
	if _, err := Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	if stopAfter > 0 {
		o.Progress, o.Resume = nil, true
		if onResume != nil {
			onResume(&o)
		}
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// checkpointAgainst reads the checkpoints of the runs writing out and
// baseline and returns out's, and whether its parameters differ from the
// baseline's.
func checkpointAgainst(t *testing.T, out, baseline string) (*checkpoint, bool) {
	t.Helper()
	c, err := readCheckpoint(out + ".ckpt")
	if err != nil {
		t.Fatal(err)
	}
	b, err := readCheckpoint(baseline + ".ckpt")
	if err != nil {
		t.Fatal(err)
	}
	same := slices.EqualFunc(c.Params, b.Params, func(x, y rawTensor) bool { return x.Name == y.Name && bytes.Equal(x.Data, y.Data) })
	return c, !same
}

// optionRuns trains on data three times with resumeOptions: a baseline, a
// run with set applied, and the same run stopped after its first epoch and
// resumed, which must end identical to the uninterrupted one. It returns
// the options of the resumed run, the checkpoints of the run with set and
// of the baseline, and whether their parameters differ.
func optionRuns(t *testing.T, data string, set func(*Options)) (resumed Options, ck, plain *checkpoint, changed bool) {
	t.Helper()
	base := t.TempDir()
	run := func(name string, stopAfter int, set func(*Options)) Options {
		o := resumeOptions(t, data, filepath.Join(base, name))
		o.Out = filepath.Join(base, name+".safetensors")
		if set != nil {
			set(&o)
		}
		return runStoppedAndResumed(t, o, stopAfter, nil)
	}
	p := run("plain", 0, nil)
	a := run("a", 0, set)
	b := run("b", 1, set)
	equalRuns(t, a.Out+".ckpt", b.Out+".ckpt")
	ck, changed = checkpointAgainst(t, a.Out, p.Out)
	plain, _ = checkpointAgainst(t, p.Out, p.Out)
	return b, ck, plain, changed
}

// mostFrequentLabel returns the label id (0-based) of the commonest gold
// constituent of d's training sentences.
func mostFrequentLabel(d *dataset) int {
	counts := make([]int, len(d.vocab.Labels))
	for _, ex := range d.train {
		for _, c := range ex.cells {
			counts[c.class-1]++
		}
	}
	return slices.Index(counts, slices.Max(counts))
}

// writeWithoutLabels writes the one model of each weights file of paths,
// without the labels drop (ids, 0-based), as one float32 file at out: what
// ensemble --drop-labels writes. The first file gives the metadata.
func writeWithoutLabels(t *testing.T, out string, drop []int, paths ...string) {
	t.Helper()
	var members []*network.Params
	for _, path := range paths {
		p, err := readModel(t, path).Params.WithoutLabels(drop)
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, p)
	}
	f, err := weights.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	meta := f.Meta
	if meta.Vocab, err = f.Meta.Vocab.WithoutLabels(drop); err != nil {
		t.Fatal(err)
	}
	meta.Config = members[0].Config()
	if err := weights.WriteEnsembleFile(out, members, meta, weights.Float32); err != nil {
		t.Fatal(err)
	}
}
