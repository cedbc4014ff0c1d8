package netcuda

import (
	"testing"

	"github.com/discspan/discspan/cuda/cudaemu"
	"github.com/discspan/discspan/network"
)

// BenchmarkTrainStep measures whole training steps (forward, loss,
// backward, Adam) on batches of about 1500 words (network's mixed batches,
// preset vocabularies) for the tiny and paper presets, on the GPU and, for
// the ratio, on the CPU (all cores). tokens/s counts words.
func BenchmarkTrainStep(b *testing.B) {
	for _, preset := range []struct {
		name string
		cfg  network.Config
	}{{"tiny", network.Tiny()}, {"paper", network.Paper()}} {
		c := preset.cfg
		batches := make([][]network.Example, 4)
		words := make([]int, len(batches))
		for i := range batches {
			batches[i], words[i] = mixedBatch(c, 1500, uint64(i+1))
		}
		adam := network.DefaultAdam()
		b.Run(preset.name+"/cuda", func(b *testing.B) {
			dev := openOrSkip(b)
			if dev.Name() == cudaemu.DeviceName {
				b.Skip("no GPU: the CPU stand-in for CUDA runs the kernels, but its timings mean nothing")
			}
			m := randomModel(b, c, 1)
			tr, err := NewTrainer(dev, m.Params, nil, nil, m.Params)
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			if _, err := tr.Step(batches[0], 1, Update{Adam: adam, Step: 1, Decay: 0.999}); err != nil { // warm-up
				b.Fatal(err)
			}
			total := 0
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				k := i % len(batches)
				if _, err := tr.Step(batches[k], uint64(i), Update{Adam: adam, Step: i + 2, Decay: 0.999}); err != nil {
					b.Fatal(err)
				}
				total += words[k]
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "tokens/s")
			b.ReportMetric(float64(tr.ArenaBytes())/(1<<20), "arena-MiB")
		})
		b.Run(preset.name+"/cpu", func(b *testing.B) {
			m := randomModel(b, c, 1)
			grads := m.Params.ZeroClone()
			opt := network.NewAdam(adam, m.Params)
			total := 0
			for i := 0; b.Loop(); i++ {
				k := i % len(batches)
				if _, err := m.LossGrad(batches[k], uint64(i), grads); err != nil {
					b.Fatal(err)
				}
				if _, err := opt.Update(m.Params, grads); err != nil {
					b.Fatal(err)
				}
				total += words[k]
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}
