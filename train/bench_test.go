package train

import (
	"testing"

	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
)

// alpinoBatches returns a Tiny model for the Alpino training vocabulary and
// the training examples cut into one epoch's batches of maxWords words.
func alpinoBatches(b *testing.B, maxWords int) (*network.Model, []network.Example, [][]int) {
	b.Helper()
	trees, err := treebank.ReadFile(needData(b, "train.punctmoved.discbracket"))
	if err != nil {
		b.Fatal(err)
	}
	merged := Merge(trees)
	v := BuildVocab(merged, DefaultMinWordCount)
	exs, _ := Examples(merged, v)
	m, err := network.New(network.Tiny().WithVocab(v), 1)
	if err != nil {
		b.Fatal(err)
	}
	lengths := make([]int, len(exs))
	for i, ex := range exs {
		lengths[i] = ex.Input.Len()
	}
	return m, exs, makeBatches(lengths, maxWords, 1, 0)
}

func gather(exs []network.Example, idx []int) ([]network.Example, int) {
	out := make([]network.Example, len(idx))
	words := 0
	for i, j := range idx {
		out[i] = exs[j]
		words += exs[j].Input.Len()
	}
	return out, words
}

// benchForward scores batches of real training sentences (at most
// maxWords words) with ForwardBatch on all cores.
func benchForward(b *testing.B, maxWords int) {
	m, exs, batches := alpinoBatches(b, maxWords)
	words, k := 0, 0
	for b.Loop() {
		batch, w := gather(exs, batches[k%len(batches)])
		ins := make([]network.Input, len(batch))
		for i := range batch {
			ins[i] = batch[i].Input
		}
		if _, err := m.ForwardBatch(ins); err != nil {
			b.Fatal(err)
		}
		words += w
		k++
	}
	b.ReportMetric(float64(words)/b.Elapsed().Seconds(), "tokens/s")
}

// benchTrainStep runs training updates (LossGrad with dropout, then Adam)
// on batches of real training sentences of at most maxWords words, on all
// cores: what an epoch is made of.
func benchTrainStep(b *testing.B, maxWords int) {
	m, exs, batches := alpinoBatches(b, maxWords)
	g := m.Params.ZeroClone()
	opt := network.NewAdam(network.DefaultAdam(), m.Params)
	words, k := 0, 0
	for b.Loop() {
		batch, w := gather(exs, batches[k%len(batches)])
		if _, err := m.LossGrad(batch, uint64(k), g); err != nil {
			b.Fatal(err)
		}
		if _, err := opt.Update(m.Params, g); err != nil {
			b.Fatal(err)
		}
		words += w
		k++
	}
	b.ReportMetric(float64(words)/b.Elapsed().Seconds(), "tokens/s")
}

func BenchmarkForward_TinyAlpino500(b *testing.B)    { benchForward(b, 500) }
func BenchmarkForward_TinyAlpino1500(b *testing.B)   { benchForward(b, 1500) }
func BenchmarkTrainStep_TinyAlpino250(b *testing.B)  { benchTrainStep(b, 250) }
func BenchmarkTrainStep_TinyAlpino500(b *testing.B)  { benchTrainStep(b, 500) }
func BenchmarkTrainStep_TinyAlpino1500(b *testing.B) { benchTrainStep(b, 1500) }
func BenchmarkTrainStep_TinyAlpino5000(b *testing.B) { benchTrainStep(b, 5000) }
