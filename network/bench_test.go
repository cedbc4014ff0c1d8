package network

import (
	"math/rand/v2"
	"testing"
	"time"
)

// benchBatch returns a Tiny model (random weights, so nothing is trivially
// zero) and a batch of sentences of n words of 2 to 8 characters (Alpino's
// mean word length is 4.8).
func benchBatch(b *testing.B, sentences, n int) (*Model, []Example) {
	b.Helper()
	return benchBatchOf(b, Tiny(), sentences, n)
}

// benchBatchOf is benchBatch for a model of sizes c.
func benchBatchOf(b *testing.B, c Config, sentences, n int) (*Model, []Example) {
	b.Helper()
	m, err := New(c, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, t := range m.Params.Tensors() {
		for i := range t.Data {
			t.Data[i] = float32(0.1 * (2*rng.Float64() - 1))
		}
	}
	batch := make([]Example, sentences)
	for i := range batch {
		batch[i] = randomExample(rng, c, n)
		for w := range batch[i].Input.CharIDs {
			chars := make([]int, 2+rng.IntN(7))
			for j := range chars {
				chars[j] = rng.IntN(c.CharVocab)
			}
			batch[i].Input.CharIDs[w] = chars
		}
	}
	return m, batch
}

// reportTokens reports tokens per second of wall-clock time and, as the
// machine may be shared, per CPU-second of the process (all goroutines)
// since cpu0.
func reportTokens(b *testing.B, tokensPerOp int, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N*tokensPerOp)/b.Elapsed().Seconds(), "tokens/s")
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N*tokensPerOp)/cpu.Seconds(), "tokens/cpu-s")
	}
}

// BenchmarkForward_Tiny20 scores a batch of 32 sentences of 20 words with
// ForwardBatch (all cores).
func BenchmarkForward_Tiny20(b *testing.B) {
	m, batch := benchBatch(b, 32, 20)
	ins := make([]Input, len(batch))
	for i, ex := range batch {
		ins[i] = ex.Input
	}
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		if _, err := m.ForwardBatch(ins); err != nil {
			b.Fatal(err)
		}
	}
	reportTokens(b, 32*20, cpu0)
}

// BenchmarkForwardOne_Tiny20 scores one sentence of 20 words on one
// goroutine (latency); under js/wasm with the SIMD kernels, as the browser
// does. The _Tiny10 and _Tiny40 variants score 10 and 40 words; the
// Portable ones use the portable Go code instead of the wasm kernels (the
// same as the others elsewhere).
func BenchmarkForwardOne_Tiny20(b *testing.B)         { benchForwardOne(b, 20, false) }
func BenchmarkForwardOne_Tiny10(b *testing.B)         { benchForwardOne(b, 10, false) }
func BenchmarkForwardOne_Tiny40(b *testing.B)         { benchForwardOne(b, 40, false) }
func BenchmarkForwardOne_Tiny10Portable(b *testing.B) { benchForwardOne(b, 10, true) }
func BenchmarkForwardOne_Tiny20Portable(b *testing.B) { benchForwardOne(b, 20, true) }
func BenchmarkForwardOne_Tiny40Portable(b *testing.B) { benchForwardOne(b, 40, true) }

// BenchmarkForwardOne_Small20 is BenchmarkForwardOne_Tiny20 for the small
// preset (the shipped pair's sizes since session 13).
func BenchmarkForwardOne_Small20(b *testing.B) { benchForwardOneOf(b, Small(), 20, false) }

func benchForwardOne(b *testing.B, words int, portable bool) {
	benchForwardOneOf(b, Tiny(), words, portable)
}

func benchForwardOneOf(b *testing.B, c Config, words int, portable bool) {
	m, batch := benchBatchOf(b, c, 1, words)
	m.portable = portable
	m.WarmUp()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		if _, err := m.Forward(batch[0].Input); err != nil {
			b.Fatal(err)
		}
	}
	reportTokens(b, words, cpu0)
}

// BenchmarkLossGrad_Tiny20 runs forward and backward (with dropout) over a
// batch of 32 sentences of 20 words (all cores).
func BenchmarkLossGrad_Tiny20(b *testing.B) {
	m, batch := benchBatch(b, 32, 20)
	g := m.Params.ZeroClone()
	b.ResetTimer()
	cpu0 := processCPU()
	seed := uint64(0)
	for b.Loop() {
		seed++
		if _, err := m.LossGrad(batch, seed, g); err != nil {
			b.Fatal(err)
		}
	}
	reportTokens(b, 32*20, cpu0)
}

// BenchmarkTrainStep_Tiny20 is LossGrad plus one Adam update.
func BenchmarkTrainStep_Tiny20(b *testing.B) {
	m, batch := benchBatch(b, 32, 20)
	g := m.Params.ZeroClone()
	opt := NewAdam(DefaultAdam(), m.Params)
	b.ResetTimer()
	cpu0 := processCPU()
	seed := uint64(0)
	for b.Loop() {
		seed++
		if _, err := m.LossGrad(batch, seed, g); err != nil {
			b.Fatal(err)
		}
		if _, err := opt.Update(m.Params, g); err != nil {
			b.Fatal(err)
		}
	}
	reportTokens(b, 32*20, cpu0)
}
