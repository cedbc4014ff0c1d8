//go:build js && wasm

package network_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// devData is the Alpino dev set, relative to this package.
const devData = "../../shared/data/alpino-cdb/dev.discbracket"

// TestWasmKernelsDevTrees: with the shipped models (both members of the
// ensemble) on the first dev sentences, the SIMD kernels give the Go code's
// scores (within the kernels' tolerance: 0 with plain SIMD) and the same
// trees (n3 decoder).
func TestWasmKernelsDevTrees(t *testing.T) {
	tol, err := network.KernelTolerance()
	if err != nil {
		t.Fatal(err)
	}
	f, err := weights.Default()
	if err != nil {
		t.Fatal(err)
	}
	models, err := f.Models()
	if err != nil {
		t.Fatal(err)
	}
	trees, err := treebank.ReadFile(devData)
	if err != nil {
		t.Fatalf("the dev set is needed (../shared/data from the repository root): %v", err)
	}
	const sentences = 30
	var ins []network.Input
	for _, tr := range trees[:sentences] {
		ins = append(ins, f.Meta.Vocab.Encode(tr.Words()))
	}
	for mi, m := range models {
		ref := &network.Model{Params: m.Params}
		network.SetPortable(ref, true)
		want, err := ref.ForwardBatch(ins)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.ForwardBatch(ins)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ins {
			for k, pair := range [][2][]float32{
				{got[i].Scores.Cont, want[i].Scores.Cont},
				{got[i].Scores.Disc, want[i].Scores.Disc},
				{got[i].Scores.Gap, want[i].Scores.Gap},
				{got[i].Tags, want[i].Tags},
			} {
				for j, w := range pair[1] {
					if d := math.Abs(float64(pair[0][j] - w)); d > tol*math.Max(1, math.Abs(float64(w))) {
						t.Fatalf("model %d sentence %d output %d [%d]: %g, Go code %g", mi, i, k, j, pair[0][j], w)
					}
				}
			}
			dg, err := decode.Decode(decode.N3, got[i].Scores, nil)
			if err != nil {
				t.Fatal(err)
			}
			dw, err := decode.Decode(decode.N3, want[i].Scores, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(dg.Constituents(), dw.Constituents()) {
				t.Errorf("model %d sentence %d (%d words): the trees differ", mi, i, ins[i].Len())
			}
		}
	}
}
