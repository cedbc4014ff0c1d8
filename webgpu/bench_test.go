//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// tinyBench returns a Tiny model with random weights and a batch of
// sentences of 20 words of 2 to 8 characters (as network's benchmarks).
func tinyBench(b *testing.B, sentences int) (*network.Model, []network.Input) {
	b.Helper()
	c := network.Tiny()
	m := randomModel(b, c, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	batch := make([]network.Input, sentences)
	for i := range batch {
		in := network.Input{WordIDs: make([]int, 20), CharIDs: make([][]int, 20)}
		for w := range in.WordIDs {
			in.WordIDs[w] = rng.IntN(c.WordVocab)
			chars := make([]int, 2+rng.IntN(7))
			for j := range chars {
				chars[j] = rng.IntN(c.CharVocab)
			}
			in.CharIDs[w] = chars
		}
		batch[i] = in
	}
	return m, batch
}

func benchScorer(b *testing.B, s scorer.Scorer, batch []network.Input) {
	b.Helper()
	if _, err := s.Score(batch); err != nil { // warm up
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Score(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(batch))/b.Elapsed().Seconds(), "sentences/s")
}

// BenchmarkScore_Tiny20 compares the CPU reference (all cores) with the
// WebGPU scorer on batches of 1 and 64 sentences of 20 words, Tiny preset.
func BenchmarkScore_Tiny20(b *testing.B) {
	for _, size := range []int{1, 64} {
		m, batch := tinyBench(b, size)
		b.Run("cpu/batch"+itoa(size), func(b *testing.B) { benchScorer(b, scorer.NewCPU(m), batch) })
		b.Run("webgpu-f32/batch"+itoa(size), func(b *testing.B) {
			benchScorer(b, openScorer(b, m.Params, Options{}), batch)
		})
		b.Run("webgpu-f16/batch"+itoa(size), func(b *testing.B) {
			benchScorer(b, openScorer(b, m.Params, Options{Weights: WeightsF16}), batch)
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
