//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// openScorer returns a WebGPU scorer over p. It skips the test only when
// there is no adapter and no Vulkan driver; any other failure fails it.
// New's self-check is skipped: these tests compare with the CPU reference
// themselves (TestSelfCheck* test the self-check).
func openScorer(tb testing.TB, p *network.Params, o Options) *Scorer {
	tb.Helper()
	return openEnsemble(tb, []*network.Params{p}, o)
}

// openEnsemble is openScorer for an ensemble on one device (NewEnsemble).
func openEnsemble(tb testing.TB, ps []*network.Params, o Options) *Scorer {
	tb.Helper()
	skipSlowAdapter(tb)
	o.SkipSelfCheck = true
	s, err := NewEnsemble(ps, o)
	if err != nil {
		if errors.Is(err, ErrNoAdapter) && !VulkanDriverInstalled() {
			tb.Skipf("no WebGPU adapter and no Vulkan driver (apt-get install -y mesa-vulkan-drivers libvulkan1): %v", err)
		}
		tb.Fatalf("webgpu.NewEnsemble: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	tb.Logf("backend: %s", s.Backend())
	return s
}

// microConfig is a small configuration with odd sizes, so that every
// kernel meets partial tiles: fast on a software GPU.
func microConfig() network.Config {
	return network.Config{
		WordDim: 12, CharDim: 7, CharHidden: 9, MaxChars: 6,
		LSTM1Hidden: 13, LSTM2Hidden: 11, LabelMLP: 10, SpanMLP: 17,
		Labels: 5, Tags: 4, WordVocab: 40, CharVocab: 23, LeakySlope: 0.1,
	}
}

// randomModel returns a model for c whose every parameter is random and
// non-zero (biaffines included, which network's init zeroes), scaled by
// fan-in so that scores stay of order 1.
func randomModel(tb testing.TB, c network.Config, seed uint64) *network.Model {
	tb.Helper()
	m, err := network.New(c, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, t := range m.Params.Tensors() {
		scale := 1.0
		if len(t.Shape) >= 2 {
			scale = 1.5 / math.Sqrt(float64(t.Shape[len(t.Shape)-1]))
		} else {
			scale = 0.3 // biases
		}
		for i := range t.Data {
			v := scale * (2*rng.Float64() - 1)
			if v == 0 {
				v = scale / 2
			}
			t.Data[i] = float32(v)
		}
	}
	return m
}

// randomBatch returns sentences of the given lengths with random word and
// character ids (words of 1 to MaxChars+3 characters, so some are cut).
func randomBatch(c network.Config, seed uint64, lengths ...int) []network.Input {
	rng := rand.New(rand.NewPCG(seed, 11))
	out := make([]network.Input, len(lengths))
	for i, n := range lengths {
		in := network.Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}
		for w := range n {
			in.WordIDs[w] = rng.IntN(c.WordVocab)
			chars := make([]int, 1+rng.IntN(c.MaxChars+3))
			for j := range chars {
				chars[j] = rng.IntN(c.CharVocab)
			}
			in.CharIDs[w] = chars
		}
		out[i] = in
	}
	return out
}

// diff is the comparison of two batches of results.
type diff struct {
	scores, tags float64 // largest absolute differences
	trees        int     // sentences whose n3 trees differ
}

// within reports whether scores and tags differ by at most tol and no
// tree differs.
func (d diff) within(tol float64) bool { return d.scores <= tol && d.tags <= tol && d.trees == 0 }

// describe says how d compares with the tolerance tol.
func (d diff) describe(tol float64) string {
	return fmt.Sprintf("scores differ by %.3g, tags by %.3g (tolerance %g); %d trees differ", d.scores, d.tags, tol, d.trees)
}

// againstCPU scores batch with s and with the CPU reference ref and
// compares them (see compare).
func againstCPU(tb testing.TB, s scorer.Scorer, ref *network.Model, batch []network.Input) diff {
	tb.Helper()
	return scoredDiff(tb, s, scorer.NewCPU(ref), batch)
}

// scoredDiff scores batch with gpu and with the reference cpu and compares
// them (see compare).
func scoredDiff(tb testing.TB, gpu, cpu scorer.Scorer, batch []network.Input) diff {
	tb.Helper()
	got, err := gpu.Score(batch)
	if err != nil {
		tb.Fatal(err)
	}
	want, err := cpu.Score(batch)
	if err != nil {
		tb.Fatal(err)
	}
	return compare(tb, got, want)
}

// compare compares got with the CPU reference want: scores and tags
// element by element, and the n3 decoder's trees.
func compare(tb testing.TB, got, want []scorer.Result) diff {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("%d results, want %d", len(got), len(want))
	}
	var d diff
	for i := range want {
		g, w := got[i], want[i]
		if g.Scores.N != w.Scores.N || g.Scores.L != w.Scores.L || len(g.Tags) != len(w.Tags) {
			tb.Fatalf("sentence %d: shape n=%d L=%d tags=%d, want n=%d L=%d tags=%d", i,
				g.Scores.N, g.Scores.L, len(g.Tags), w.Scores.N, w.Scores.L, len(w.Tags))
		}
		for k, pair := range [][2][]float32{{g.Scores.Cont, w.Scores.Cont}, {g.Scores.Disc, w.Scores.Disc}, {g.Scores.Gap, w.Scores.Gap}} {
			if len(pair[0]) != len(pair[1]) {
				tb.Fatalf("sentence %d kind %d: %d scores, want %d", i, k, len(pair[0]), len(pair[1]))
			}
			for j := range pair[1] {
				d.scores = math.Max(d.scores, absDiff(pair[0][j], pair[1][j]))
			}
		}
		for j := range w.Tags {
			d.tags = math.Max(d.tags, absDiff(g.Tags[j], w.Tags[j]))
		}
		if w.Scores.N == 0 {
			continue
		}
		dg, err := decode.Decode(decode.N3, g.Scores, nil)
		if err != nil {
			tb.Fatalf("sentence %d: decoding the GPU scores: %v", i, err)
		}
		dw, err := decode.Decode(decode.N3, w.Scores, nil)
		if err != nil {
			tb.Fatalf("sentence %d: decoding the CPU scores: %v", i, err)
		}
		if !sameConstituents(dg.Constituents(), dw.Constituents()) {
			d.trees++
		}
	}
	return d
}

func absDiff(a, b float32) float64 {
	d := math.Abs(float64(a) - float64(b))
	if math.IsNaN(d) {
		return math.Inf(1)
	}
	return d
}

func sameConstituents(a, b []decode.Constituent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Label != b[i].Label || len(a[i].Blocks) != len(b[i].Blocks) {
			return false
		}
		for j := range a[i].Blocks {
			if a[i].Blocks[j] != b[i].Blocks[j] {
				return false
			}
		}
	}
	return true
}

// firstLine returns the first line of err's message.
func firstLine(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}
