package network

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Benchmarks on realistic batches: about 1500 words in sentences of 5 to 40
// words (uniform), words drawn from a Zipfian vocabulary of 5000 types of 2
// to 12 characters, so that inference meets repeated words as real text
// does. Besides wall-clock tokens/s (which depends on the other load of the
// machine), they report tokens per CPU-second of the process.

func mixedBatch(b *testing.B, words int) (*Model, []Example, int) {
	b.Helper()
	c := Tiny()
	m, err := New(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, t := range m.Params.Tensors() {
		for i := range t.Data {
			t.Data[i] = float32(0.1 * (2*rng.Float64() - 1))
		}
	}
	const types = 5000
	spell := make([][]int, types)
	for i := range spell {
		spell[i] = make([]int, 2+rng.IntN(11))
		for j := range spell[i] {
			spell[i][j] = numReservedChars + rng.IntN(c.CharVocab-numReservedChars)
		}
	}
	zipf := rand.NewZipf(rng, 1.1, 2, types-1)
	var batch []Example
	total := 0
	for total < words {
		n := 5 + rng.IntN(36)
		ex := randomExample(rng, c, n)
		for w := range n {
			t := int(zipf.Uint64())
			ex.Input.WordIDs[w] = numReservedWords + t%(c.WordVocab-numReservedWords)
			ex.Input.CharIDs[w] = spell[t]
		}
		batch = append(batch, ex)
		total += n
	}
	return m, batch, total
}

func reportRates(b *testing.B, tokensPerOp int, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N*tokensPerOp)/b.Elapsed().Seconds(), "tokens/s")
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N*tokensPerOp)/cpu.Seconds(), "tokens/cpu-s")
	}
}

// BenchmarkLossGrad_TinyMixed1500 is forward and backward with dropout.
func BenchmarkLossGrad_TinyMixed1500(b *testing.B) {
	m, batch, words := mixedBatch(b, 1500)
	g := m.Params.ZeroClone()
	seed := uint64(0)
	cpu0 := processCPU()
	b.ResetTimer()
	for b.Loop() {
		seed++
		if _, err := m.LossGrad(batch, seed, g); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, words, cpu0)
}

// BenchmarkTrainStep_TinyMixed1500 is LossGrad plus one Adam update: a
// training step as an epoch is made of.
func BenchmarkTrainStep_TinyMixed1500(b *testing.B) { benchTrainStep(b, 1500) }

// BenchmarkTrainStep_TinyMixed500 is the same with batches of 500 words
// (package train's default), where the per-step costs (Adam over every
// parameter, preparing the weights) weigh more.
func BenchmarkTrainStep_TinyMixed500(b *testing.B) { benchTrainStep(b, 500) }

func benchTrainStep(b *testing.B, batchWords int) {
	m, batch, words := mixedBatch(b, batchWords)
	g := m.Params.ZeroClone()
	opt := NewAdam(DefaultAdam(), m.Params)
	seed := uint64(0)
	cpu0 := processCPU()
	b.ResetTimer()
	for b.Loop() {
		seed++
		if _, err := m.LossGrad(batch, seed, g); err != nil {
			b.Fatal(err)
		}
		if _, err := opt.Update(m.Params, g); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, words, cpu0)
}

// BenchmarkForward_TinyMixed1500 is ForwardBatch on the same batches.
func BenchmarkForward_TinyMixed1500(b *testing.B) {
	m, batch, words := mixedBatch(b, 1500)
	ins := make([]Input, len(batch))
	for i := range batch {
		ins[i] = batch[i].Input
	}
	cpu0 := processCPU()
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.ForwardBatch(ins); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, words, cpu0)
}

// BenchmarkLoss_TinyMixed1500 is the forward pass and the loss without the
// backward pass (Loss: no dropout, no gradient), so that forward and
// backward rates of training can be told apart: backward time per token is
// LossGrad's minus this one's.
func BenchmarkLoss_TinyMixed1500(b *testing.B) {
	m, batch, words := mixedBatch(b, 1500)
	cpu0 := processCPU()
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Loss(batch); err != nil {
			b.Fatal(err)
		}
	}
	reportRates(b, words, cpu0)
}
