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
// scores and the same trees (n3 decoder). The scores agree bit for bit with
// plain SIMD; with relaxed SIMD, within 5 times one kernel's tolerance
// (1e-5), relative to max(1, |score|): the fused multiply-adds' rounding
// differences pass through both BiLSTMs, step after step, and the MLPs.
// Measured: at most 8.6e-6 for the tiny pair, 1.0e-5 for the small pair.
func TestWasmKernelsDevTrees(t *testing.T) {
	tol, err := network.KernelTolerance()
	if err != nil {
		t.Fatal(err)
	}
	tol *= 5
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
	worst := 0.0
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
					d := math.Abs(float64(pair[0][j]-w)) / math.Max(1, math.Abs(float64(w)))
					worst = max(worst, d)
					if d > tol {
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
	t.Logf("largest relative difference %.3g (tolerance %g)", worst, tol)
}
