package parser_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/parser/parsertest"
	"github.com/discspan/discspan/weights"
)

// TestReadFilesLabelsLeftOut: a file written without some labels
// (ensemble --drop-labels) joins a file that has them. The ensemble has
// the full label set; every label both know scores the mean of the two
// models, and a label one file left out scores far below everything, so
// it is never predicted. Files that differ otherwise are refused.
func TestReadFilesLabelsLeftOut(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	full := write("full.safetensors", parsertest.Model(t, 3))
	other := write("other.safetensors", parsertest.Model(t, 4))
	f, err := weights.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	models, err := f.Models()
	if err != nil {
		t.Fatal(err)
	}
	drop := []int{1, 7} // np, whq
	p, err := models[0].Params.WithoutLabels(drop)
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Meta.Vocab.WithoutLabels(drop)
	if err != nil {
		t.Fatal(err)
	}
	meta := f.Meta
	meta.Vocab, meta.Config = v, p.Config()
	dropped := filepath.Join(dir, "dropped.safetensors")
	if err := weights.WriteEnsembleFile(dropped, []*network.Params{p}, meta, weights.Float32); err != nil {
		t.Fatal(err)
	}

	// Each file alone: the scores each model must keep in the ensemble.
	a, err := parser.ReadFiles(full)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parser.ReadFiles(other)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]string{{full, dropped}, {dropped, full}} {
		ms, err := parser.ReadFiles(order...)
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		if !slices.Equal(ms.Vocab.Labels, parsertest.Labels) || len(ms.Models) != 2 {
			t.Fatalf("%v: labels %q, %d models", order, ms.Vocab.Labels, len(ms.Models))
		}
		for _, words := range parsertest.Sentences {
			in := ms.Vocab.Encode(words)
			var outs [2]network.Output
			for i, m := range ms.Models {
				if outs[i], err = m.Forward(in); err != nil {
					t.Fatal(err)
				}
			}
			fullOut, err := a.Models[0].Forward(in)
			if err != nil {
				t.Fatal(err)
			}
			otherOut, err := b.Models[0].Forward(in)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]network.Output{full: fullOut, dropped: otherOut}
			n, L := len(words), len(parsertest.Labels)
			for i, path := range order {
				got, w := outs[i].Scores, want[path].Scores
				for cell := range n * n {
					if cell/n > cell%n {
						continue // x > y: not a span
					}
					for l := range L {
						j := cell*L + l
						if path == dropped && slices.Contains(drop, l) {
							if got.Cont[j] > -1e3 || got.Disc[j] > -1e3 || got.Gap[j] > -1e3 {
								t.Fatalf("%v, %s: label %s left out scores %g, %g, %g", order, filepath.Base(path), parsertest.Labels[l], got.Cont[j], got.Disc[j], got.Gap[j])
							}
							continue
						}
						// Float32 files hold the same values: exact.
						if got.Cont[j] != w.Cont[j] || got.Disc[j] != w.Disc[j] || got.Gap[j] != w.Gap[j] {
							t.Fatalf("%v, %s: label %s scores differ from the file's own model", order, filepath.Base(path), parsertest.Labels[l])
						}
					}
				}
			}
		}
	}

	// Labels that are not a subset, or another word list: refused.
	swapped, err := f.Meta.Vocab.WithoutLabels([]int{0})
	if err != nil {
		t.Fatal(err)
	}
	swapped.Labels[0], swapped.Labels[1] = swapped.Labels[1], swapped.Labels[0]
	q, err := models[0].Params.WithoutLabels([]int{0})
	if err != nil {
		t.Fatal(err)
	}
	meta.Vocab, meta.Config = swapped, q.Config()
	bad := filepath.Join(dir, "swapped.safetensors")
	if err := weights.WriteEnsembleFile(bad, []*network.Params{q}, meta, weights.Float32); err != nil {
		t.Fatal(err)
	}
	otherWords := write("words.safetensors", parsertest.Model(t, 5, []string{"nieuw"}))
	for _, pair := range [][2]string{{full, bad}, {full, otherWords}} {
		if _, err := parser.ReadFiles(pair[0], pair[1]); !errors.Is(err, parser.ErrVocabulary) {
			t.Errorf("%s with %s: error %v, want one wrapping ErrVocabulary", filepath.Base(pair[0]), filepath.Base(pair[1]), err)
		}
	}
}
