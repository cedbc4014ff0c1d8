package netcuda

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/network"
)

// openOrSkip returns the first GPU (or the CPU stand-in of package
// cudaemu, which TestMain installs where there is no NVIDIA driver), or
// skips, saying why.
func openOrSkip(tb testing.TB) *cuda.Device {
	tb.Helper()
	d, err := cuda.Open(0)
	var u *cuda.Unavailable
	if errors.As(err, &u) {
		tb.Skipf("no CUDA GPU here: %v", err)
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Logf("device: %s", d.Describe())
	tb.Cleanup(func() { d.Close() })
	return d
}

// randomModel returns a model of c with every parameter uniform in
// [-0.1, 0.1] (the biaffines' zero initialisation would hide their
// gradients' paths).
func randomModel(tb testing.TB, c network.Config, seed uint64) *network.Model {
	tb.Helper()
	m, err := network.New(c, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, t := range m.Params.Tensors() {
		for i := range t.Data {
			t.Data[i] = float32(0.1 * (2*rng.Float64() - 1))
		}
	}
	return m
}

// mixedBatch returns about words words in sentences of 5 to 40 words
// (uniform), words drawn from a Zipfian vocabulary of 5000 types of 2 to 12
// characters, gold labels on about 5% of the cells and random tags (as
// network's benchmarks).
func mixedBatch(c network.Config, words int, seed uint64) ([]network.Example, int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	const types = 5000
	spell := make([][]int, types)
	for i := range spell {
		spell[i] = make([]int, 2+rng.IntN(11))
		for j := range spell[i] {
			spell[i][j] = 4 + rng.IntN(c.CharVocab-4)
		}
	}
	zipf := rand.NewZipf(rng, 1.1, 2, types-1)
	var batch []network.Example
	total := 0
	for total < words {
		n := 5 + rng.IntN(36)
		ex := network.Example{Input: network.Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}, Targets: network.NewTargets(n)}
		for w := range n {
			t := int(zipf.Uint64())
			ex.Input.WordIDs[w] = 3 + t%(c.WordVocab-3)
			ex.Input.CharIDs[w] = spell[t]
		}
		for _, gold := range [][]int{ex.Targets.Cont, ex.Targets.Disc, ex.Targets.Gap} {
			for x := 0; x < n; x++ {
				for y := x; y < n; y++ {
					if rng.IntN(20) == 0 {
						gold[x*n+y] = 1 + rng.IntN(c.Labels)
					}
				}
			}
		}
		ex.Targets.Tags = make([]int, n)
		for i := range ex.Targets.Tags {
			ex.Targets.Tags[i] = rng.IntN(c.Tags)
		}
		batch = append(batch, ex)
		total += n
	}
	return batch, total
}

// addSoftTargets gives every sentence of batch a teacher (network.Soft) of
// the given weight over labels labels on about a quarter of its cells,
// probabilities drawn at random and summing to between 0 and 1.
func addSoftTargets(batch []network.Example, labels int, weight float64, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 5))
	for i := range batch {
		ex := &batch[i]
		n := ex.Input.Len()
		soft := &network.Soft{Weight: weight}
		for k := range soft.Cells {
			for x := 0; x < n; x++ {
				for y := x; y < n; y++ {
					if rng.IntN(4) != 0 {
						continue
					}
					soft.Cells[k] = append(soft.Cells[k], network.SoftCell{Cell: int32(x*n + y), Probs: randomProbs(rng, labels)})
				}
			}
		}
		ex.Targets.Soft = soft
	}
}

// randomProbs returns random probabilities of labels labels, summing to
// between 0 and 1 (the null class has the rest).
func randomProbs(rng *rand.Rand, labels int) []float32 {
	probs := make([]float32, labels)
	var sum float64
	for a := range probs {
		v := rng.Float64()
		probs[a], sum = float32(v), sum+v
	}
	share := rng.Float64()
	for a := range probs {
		probs[a] = float32(float64(probs[a]) / sum * share)
	}
	return probs
}

// smallConfig is Tiny with smaller vocabularies (so that the CPU side of
// the comparisons is quick) and every dropout on.
func smallConfig() network.Config {
	c := network.Tiny()
	c.WordVocab, c.CharVocab, c.Labels, c.Tags = 600, 60, 13, 7
	return c
}

// compareParams reports, for each tensor, the largest difference between
// got and want relative to want's largest magnitude, failing above tol.
func compareParams(t *testing.T, what string, got, want *network.Params, tol float64) {
	t.Helper()
	worst, worstName := 0.0, ""
	for i, w := range want.Tensors() {
		g := got.Tensors()[i]
		var maxAbs, maxDiff float64
		for j := range w.Data {
			maxAbs = math.Max(maxAbs, math.Abs(float64(w.Data[j])))
			maxDiff = math.Max(maxDiff, math.Abs(float64(w.Data[j]-g.Data[j])))
		}
		if math.IsNaN(maxDiff) {
			maxDiff = math.Inf(1)
		}
		rel := maxDiff / math.Max(maxAbs, 1e-30)
		if maxAbs == 0 && maxDiff == 0 {
			rel = 0
		}
		if rel > worst {
			worst, worstName = rel, w.Name
		}
		if rel > tol {
			t.Errorf("%s %s: max difference %.3g, %.3g of its largest magnitude %.3g (tolerance %g)", what, w.Name, maxDiff, rel, maxAbs, tol)
		}
	}
	t.Logf("%s: worst relative difference %.3g (%s)", what, worst, worstName)
}

func relDiff(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-12) }

// TestEquivalenceStep compares one training step on the GPU with the CPU
// reference (network.Model.LossGrad and network.Adam.Update) on a batch of
// about 300 words with dropout: the loss parts, every gradient, then the
// parameters after the Adam step and the average.
func TestEquivalenceStep(t *testing.T) {
	dev := openOrSkip(t)
	c := smallConfig()
	for _, tc := range []struct {
		name    string
		cfg     network.Config
		teacher float64 // the teacher's weight; 0: no soft targets
	}{{"dropout", c, 0}, {"no dropout", c.NoDropout(), 0}, {"distillation", c, 0.7}} {
		t.Run(tc.name, func(t *testing.T) {
			m := randomModel(t, tc.cfg, 1)
			batch, words := mixedBatch(tc.cfg, 300, 2)
			// An empty sentence and one without tags, as real batches may have.
			batch = append(batch, network.Example{Targets: network.NewTargets(0)})
			batch[0].Targets.Tags = nil
			if tc.teacher > 0 {
				addSoftTargets(batch[1:], tc.cfg.Labels, tc.teacher, 4) // the first sentence keeps the gold alone
			}
			const seed = 42
			grads := m.Params.ZeroClone()
			want, err := m.LossGrad(batch, seed, grads)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := NewTrainer(dev, m.Params, nil, nil, m.Params)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			adamCfg := network.DefaultAdam()
			got, err := tr.Step(batch, seed, Update{Adam: adamCfg, Step: 1, Decay: 0.9})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d sentences, %d words: CPU loss %.6f (cont %.4f disc %.4f gap %.4f tag %.4f), GPU %.6f (cont %.4f disc %.4f gap %.4f tag %.4f)",
				len(batch), words, want.Total, want.Cont, want.Disc, want.Gap, want.Tag, got.Total, got.Cont, got.Disc, got.Gap, got.Tag)
			for _, p := range []struct {
				name      string
				got, want float64
			}{{"total", got.Total, want.Total}, {"cont", got.Cont, want.Cont}, {"disc", got.Disc, want.Disc}, {"gap", got.Gap, want.Gap}, {"tag", got.Tag, want.Tag}} {
				if d := relDiff(p.got, p.want); d > 1e-4 {
					t.Errorf("loss %s: GPU %.7g, CPU %.7g (relative difference %.2g)", p.name, p.got, p.want, d)
				}
			}
			if got.Sentences != want.Sentences || got.Words != want.Words {
				t.Errorf("GPU counts %d sentences / %d words, CPU %d / %d", got.Sentences, got.Words, want.Sentences, want.Words)
			}
			gpuGrads := m.Params.ZeroClone()
			if err := tr.Gradients(gpuGrads); err != nil {
				t.Fatal(err)
			}
			compareParams(t, "gradient", gpuGrads, grads, 2e-3)

			// The update: the CPU's Adam and average applied to the GPU's
			// own gradient must give the GPU's parameters.
			params, avg := m.Params.Clone(), m.Params.Clone()
			adam := network.NewAdam(adamCfg, params)
			if _, err := adam.Update(params, gpuGrads); err != nil {
				t.Fatal(err)
			}
			for i, a := range avg.Tensors() {
				p := params.Tensors()[i].Data
				for j := range a.Data {
					a.Data[j] = float32(0.9)*a.Data[j] + float32(1-0.9)*p[j]
				}
			}
			gp, gm, gv, ga := m.Params.ZeroClone(), m.Params.ZeroClone(), m.Params.ZeroClone(), m.Params.ZeroClone()
			if err := tr.Sync(gp, gm, gv, ga); err != nil {
				t.Fatal(err)
			}
			compareParams(t, "parameters after Adam", gp, params, 1e-5)
			compareParams(t, "first moment", gm, adam.M, 1e-5)
			compareParams(t, "second moment", gv, adam.V, 1e-5)
			compareParams(t, "average", ga, avg, 1e-5)
		})
	}
}

// TestEquivalenceTraining runs five updates on the CPU and on the GPU from
// the same model and compares the losses along the way.
func TestEquivalenceTraining(t *testing.T) {
	dev := openOrSkip(t)
	c := smallConfig()
	m := randomModel(t, c, 3)
	cpu := &network.Model{Params: m.Params.Clone()}
	tr, err := NewTrainer(dev, m.Params, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	adamCfg := network.DefaultAdam()
	adam := network.NewAdam(adamCfg, cpu.Params)
	grads := cpu.Params.ZeroClone()
	for step := 1; step <= 5; step++ {
		batch, _ := mixedBatch(c, 200, uint64(10+step))
		want, err := cpu.LossGrad(batch, uint64(step), grads)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := adam.Update(cpu.Params, grads); err != nil {
			t.Fatal(err)
		}
		got, err := tr.Step(batch, uint64(step), Update{Adam: adamCfg, Step: step})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("update %d: CPU loss %.6f, GPU %.6f", step, want.Total, got.Total)
		if d := relDiff(got.Total, want.Total); d > 1e-3 {
			t.Errorf("update %d: GPU loss %.7g, CPU %.7g (relative difference %.2g)", step, got.Total, want.Total, d)
		}
	}
}

// TestOutOfMemoryIsAnError asks for a batch far larger than the GPU: the
// step must fail with an error that says so, and the trainer must work
// again on a normal batch afterwards.
func TestOutOfMemoryIsAnError(t *testing.T) {
	dev := openOrSkip(t)
	c := network.Tiny()
	c.Labels = 400 // 400 labels x (n x n) cells x 8 padded sentences of n words
	// n: 2000 words, or fewer where one kind's label scores (4 bytes x 8n²
	// x 400) already exceed the device's memory (the 2 GiB of the CPU
	// stand-in: 410 words).
	n := min(2000, int(math.Sqrt(float64(dev.TotalMemory())/(4*8*400)))+1)
	m := randomModel(t, c, 5)
	tr, err := NewTrainer(dev, m.Params, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	long := network.Example{Input: network.Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}, Targets: network.NewTargets(n)}
	for i := range long.Input.CharIDs {
		long.Input.WordIDs[i] = 5
		long.Input.CharIDs[i] = []int{5, 6}
	}
	batch := []network.Example{long, long, long, long, long, long, long, long}
	_, err = tr.LossGrad(batch, 1)
	if err == nil || !cuda.OutOfMemory(err) {
		t.Fatalf("a batch of 8 x %d words with 400 labels: %v, want an out-of-memory error", n, err)
	}
	t.Logf("error: %v", err)
	small, _ := mixedBatch(c, 100, 1)
	if _, err := tr.LossGrad(small, 1); err != nil {
		t.Fatalf("after the failed batch: %v", err)
	}
}
