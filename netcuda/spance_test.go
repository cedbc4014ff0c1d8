package netcuda

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/network"
)

// TestSpanCE runs the span_ce kernel (on the GPU, or on the CPU stand-in
// of package cudaemu) on random scores of a padded batch (sentences of 6,
// 9, 3 and 0 words) and compares its loss and score gradients with
// network.SpanCrossEntropy: with the gold classes alone, and with a
// teacher's distributions on some cells (weights 0.7 and 0.4; two
// sentences without any, weight 0). Tolerance: 1e-6 relative for the
// losses (summed in float64 on both sides), 1e-6 of the largest gradient
// for the gradients (float32 on both sides; exp differs in the last bits).
func TestSpanCE(t *testing.T) {
	dev := openOrSkip(t)
	g, err := newGPU(dev)
	if err != nil {
		t.Fatal(err)
	}
	unbind, err := dev.Bind()
	if err != nil {
		t.Fatal(err)
	}
	defer unbind()
	defer g.arena.release()
	lens := []int{6, 9, 3, 0}
	const L, kind, scale = 5, 1, 0.25
	B, nm := len(lens), 9
	rng := rand.New(rand.NewPCG(11, 12))
	sspan, slab := make([]float32, B*nm*nm), make([]float32, B*nm*L*nm)
	for i := range sspan {
		sspan[i] = float32(4*rng.Float64() - 2)
	}
	for i := range slab {
		slab[i] = float32(6*rng.Float64() - 3)
	}
	tgt := make([]int32, B*nm*nm)
	for i := range tgt {
		if rng.IntN(4) == 0 {
			tgt[i] = int32(1 + rng.IntN(L))
		}
	}
	// The teacher: about a third of the cells of the first two sentences,
	// probabilities summing below 1.
	soft := make([][]network.SoftCell, B)
	weights := []float64{0.7, 0.4, 0, 0}
	for b, n := range lens[:2] {
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				if rng.IntN(3) != 0 {
					continue
				}
				soft[b] = append(soft[b], network.SoftCell{Cell: int32(x*n + y), Probs: randomProbs(rng, L)})
			}
		}
	}
	for _, tc := range []struct {
		name string
		soft bool
	}{{"gold alone", false}, {"with a teacher", true}} {
		t.Run(tc.name, func(t *testing.T) {
			var sidx []int32
			var sprob []float32
			var sweight []float64
			if tc.soft {
				sidx = make([]int32, B*nm*nm)
				for i := range sidx {
					sidx[i] = -1
				}
				sweight = weights
				for b, n := range lens {
					for _, c := range soft[b] {
						x, y := int(c.Cell)/n, int(c.Cell)%n
						sidx[b*nm*nm+x*nm+y] = int32(len(sprob) / L)
						sprob = append(sprob, c.Probs...)
					}
				}
			}
			nwords := make([]int32, B)
			for b, n := range lens {
				nwords[b] = int32(n)
			}
			g.arena.reset()
			dSpan, dLab, parts := g.take(B*nm*nm), g.take(B*nm*L*nm), g.zeros(2*5*B)
			// NaN everywhere first: every cell must be written.
			g.launch("fill", B*nm*nm, cuda.P(dSpan), cuda.Arg(B*nm*nm), cuda.F(float32(math.NaN())))
			g.launch("fill", B*nm*L*nm, cuda.P(dLab), cuda.Arg(B*nm*L*nm), cuda.F(float32(math.NaN())))
			args := []cuda.Arg{cuda.P(upload(g, sspan)), cuda.P(upload(g, slab)), cuda.P(upload(g, tgt)),
				cuda.P(upload(g, sidx)), cuda.P(upload(g, sprob)), cuda.P(upload(g, sweight)), cuda.P(upload(g, nwords)),
				cuda.P(dSpan), cuda.P(dLab), cuda.P(parts), cuda.I(kind), cuda.I(nm), cuda.I(L), cuda.F(scale)}
			if g.err == nil {
				g.fail(dev.Launch(g.k["span_ce"], [3]int{(nm*nm + threads - 1) / threads, B, 1}, [3]int{threads, 1, 1}, 0, args...))
			}
			if g.err == nil {
				g.fail(dev.Sync())
			}
			dspan, dlab, gotParts := make([]float32, B*nm*nm), make([]float32, B*nm*L*nm), make([]float64, 5*B)
			if g.err == nil {
				g.fail(cuda.Download(dev, dspan, dSpan))
				g.fail(cuda.Download(dev, dlab, dLab))
				g.fail(cuda.Download(dev, gotParts, parts))
			}
			if g.err != nil {
				t.Fatal(g.err)
			}
			for b, n := range lens {
				s, target, d := make([]float32, n*n*L), make([]int, n*n), make([]float32, n*n*L)
				for x := 0; x < n; x++ {
					for y := x; y < n; y++ {
						target[x*n+y] = int(tgt[b*nm*nm+x*nm+y])
						for a := range L {
							s[(x*n+y)*L+a] = sspan[b*nm*nm+x*nm+y] + slab[b*nm*L*nm+(x*L+a)*nm+y]
						}
					}
				}
				var cells []network.SoftCell
				w := 0.0
				if tc.soft {
					cells, w = soft[b], weights[b]
				}
				want := network.SpanCrossEntropy(s, target, cells, w, n, L, scale, d)
				for i, v := range gotParts[5*b : 5*b+5] {
					if i != kind && v != 0 {
						t.Errorf("sentence %d: loss %g added to part %d, want only part %d", b, v, i, kind)
					}
				}
				if got := gotParts[5*b+kind]; math.Abs(got-want) > 1e-6*math.Max(math.Abs(want), 1) {
					t.Errorf("sentence %d (%d words): loss %.9g, CPU reference %.9g", b, n, got, want)
				}
				var maxD float64
				for _, v := range d {
					maxD = math.Max(maxD, math.Abs(float64(v)))
				}
				tol := 1e-6 * math.Max(maxD, 1e-3)
				for x := range nm {
					for y := range nm {
						var wantSpan float64
						for a := range L {
							wantLab := 0.0
							if x <= y && y < n {
								wantLab = float64(d[(x*n+y)*L+a])
							}
							wantSpan += wantLab
							if got := float64(dlab[b*nm*L*nm+(x*L+a)*nm+y]); !(math.Abs(got-wantLab) <= tol) {
								t.Errorf("sentence %d, cell (%d,%d), label %d: gradient %.9g, CPU reference %.9g", b, x, y, a, got, wantLab)
							}
						}
						if got := float64(dspan[b*nm*nm+x*nm+y]); !(math.Abs(got-wantSpan) <= 4*tol) {
							t.Errorf("sentence %d, cell (%d,%d): span gradient %.9g, CPU reference %.9g", b, x, y, got, wantSpan)
						}
					}
				}
			}
		})
	}
}

// TestScore compares the forward pass alone (Trainer.Score on a scoring
// trainer, as a teacher scores on the GPU) with network.Model.ForwardBatch
// on about 300 words, an empty sentence among them, scored in several
// forward passes: every score and tag logit within 1e-5 of the largest.
// The scoring trainer holds the parameters alone and refuses to train.
func TestScore(t *testing.T) {
	dev := openOrSkip(t)
	c := smallConfig()
	m := randomModel(t, c, 9)
	batch, words := mixedBatch(c, 300, 5)
	ins := []network.Input{{}}
	for _, ex := range batch {
		ins = append(ins, ex.Input)
	}
	want, err := m.ForwardBatch(ins)
	if err != nil {
		t.Fatal(err)
	}
	full, err := NewTrainer(dev, m.Params, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := full.FixedBytes(), 16*m.Params.NumParams(); got != want {
		t.Errorf("a training trainer holds %d bytes; want %d (parameters, gradients, two moments)", got, want)
	}
	if err := full.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := newScoringTrainer(dev, m.Params)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if got, want := tr.FixedBytes(), 4*m.Params.NumParams(); got != want {
		t.Errorf("a scoring trainer holds %d bytes; want %d, the parameters alone", got, want)
	}
	if _, err := tr.LossGrad(batch, 1); !errors.Is(err, errScoringOnly) {
		t.Errorf("LossGrad on a scoring trainer: %v; want %v", err, errScoringOnly)
	}
	tr.scoreCells = 3 * 40 * 40 // several passes
	got, err := tr.Score(ins)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d outputs for %d sentences", len(got), len(want))
	}
	var largest, worst float64
	for i := range want {
		w, g := want[i], got[i]
		if g.Scores.N != w.Scores.N || g.Scores.L != w.Scores.L || len(g.Tags) != len(w.Tags) {
			t.Fatalf("sentence %d: %d words, %d labels, %d tag logits; want %d, %d, %d", i, g.Scores.N, g.Scores.L, len(g.Tags), w.Scores.N, w.Scores.L, len(w.Tags))
		}
		pairs := [][2][]float32{{g.Scores.Cont, w.Scores.Cont}, {g.Scores.Disc, w.Scores.Disc}, {g.Scores.Gap, w.Scores.Gap}, {g.Tags, w.Tags}}
		for _, p := range pairs {
			for j := range p[1] {
				largest = math.Max(largest, math.Abs(float64(p[1][j])))
				worst = math.Max(worst, math.Abs(float64(p[0][j]-p[1][j])))
			}
		}
	}
	t.Logf("%d sentences, %d words: largest difference %.3g, largest value %.3g", len(ins), words, worst, largest)
	if !(worst <= 1e-5*largest) {
		t.Errorf("scores differ from the CPU's by up to %.3g (largest value %.3g; tolerance 1e-5 of it)", worst, largest)
	}
}
