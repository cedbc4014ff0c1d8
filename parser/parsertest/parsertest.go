// Package parsertest makes what tests of parsing engines need: small random
// models, written as weight files, over a fixed vocabulary of a few Dutch
// sentences, with biaffine scorers set so that their trees have
// constituents, discontinuous ones among them.
package parsertest

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// Sentences are the sentences the test models' vocabulary is built from.
var Sentences = [][]string{
	strings.Fields("Hij heeft het boek gisteren aan zijn zus gegeven ."),
	strings.Fields("Dat had ik van hem eerlijk gezegd nooit verwacht ."),
	strings.Fields("Wie denk je dat er morgen naar het feest komt ?"),
}

// Labels and Tags are the test models' label and tag sets.
var (
	Labels = []string{"smain", "np", "pp", "inf", "ppart", "ssub", "cp", "whq", "sv1", "ti", "smain/sv1"}
	Tags   = []string{"VNW", "WW", "LID", "N", "BW", "VZ", "LET", "VG"}
)

// Model returns a small random model (tiny sizes, seed) over the words of
// extra and Sentences, as the bytes of a float16 weights file.
func Model(t testing.TB, seed uint64, extra ...[]string) []byte {
	t.Helper()
	return Ensemble(t, []uint64{seed}, extra...)
}

// Ensemble is Model for several models (one per seed) written as one
// ensemble file (a single model for one seed).
func Ensemble(t testing.TB, seeds []uint64, extra ...[]string) []byte {
	t.Helper()
	return EnsembleAs(t, weights.Float16, seeds, extra...)
}

// EnsembleAs is Ensemble with the weights stored as dtype.
func EnsembleAs(t testing.TB, dtype weights.DType, seeds []uint64, extra ...[]string) []byte {
	t.Helper()
	v := network.NewVocab(append(append([][]string(nil), Sentences...), extra...), 1)
	for _, l := range Labels {
		v.AddLabel(l)
	}
	for _, g := range Tags {
		v.AddTag(g)
	}
	c := network.Tiny().WithVocab(v)
	c.WordDim, c.CharDim, c.CharHidden, c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP = 16, 8, 8, 16, 16, 16, 16
	var members []*network.Params
	for _, seed := range seeds {
		m, err := network.New(c, seed)
		if err != nil {
			t.Fatal(err)
		}
		liven(m.Params, seed)
		members = append(members, m.Params)
	}
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := weights.WriteEnsembleFile(path, members, weights.Meta{Vocab: v, DevF1: 42.5, TrainingData: "random (test)"}, dtype); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// liven fills the biaffine scorers, which a fresh model has at zero, with
// random values, so that a random model builds trees with constituents,
// discontinuous ones among them (else every span scores 0, no better than
// the null class, and trees are flat). Each value is uniform in
// [-livenScale, livenScale), but the bias terms are livenBias.
func liven(p *network.Params, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	for _, k := range []string{"cont", "disc", "gap"} {
		for _, m := range []string{"span", "label"} {
			b := p.Get(k + "." + m + ".biaffine")
			o, d1 := b.Shape[0], b.Shape[1]
			for i := range b.Data {
				b.Data[i] = livenScale * (2*r.Float32() - 1)
			}
			for a := range o {
				b.Data[(a*d1+d1-1)*d1+d1-1] = livenBias
			}
		}
	}
}

// The values of liven: with them a 20-word sentence gets a dozen nodes
// with n3, most of them discontinuous, and more with n6.
const livenScale, livenBias = 10, -0.4
