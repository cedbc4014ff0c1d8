//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// newChecked is New with the self-check on, skipping the test only when
// there is no adapter and no Vulkan driver.
func newChecked(t *testing.T, p *network.Params, o Options) (*Scorer, error) {
	t.Helper()
	skipSlowAdapter(t)
	s, err := New(p, o)
	if errors.Is(err, ErrNoAdapter) && !VulkanDriverInstalled() {
		t.Skipf("no WebGPU adapter and no Vulkan driver (apt-get install -y mesa-vulkan-drivers libvulkan1): %v", err)
	}
	if s != nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

// TestSelfCheckAccepts: with the correct kernels the self-check passes for
// both weight storages, on the canary's 9 sentences, far below the
// tolerance; its cost is logged (no limit: a busy machine must not fail it).
func TestSelfCheckAccepts(t *testing.T) {
	m := randomModel(t, microConfig(), 5)
	for _, w := range []Weights{WeightsF32, WeightsF16} {
		t.Run(w.String(), func(t *testing.T) {
			s, err := newChecked(t, m.Params, Options{Weights: w, MaxWords: 60})
			if err != nil {
				t.Fatalf("New refused correct kernels: %v", err)
			}
			c := s.SelfCheck()
			t.Logf("%s: %s", s.Backend(), c)
			if c.Skipped || c.Sentences != 9 || c.Words != 13+1+34+0+5+21+8+60+5 {
				t.Errorf("canary: %+v, want 9 sentences, 147 words", c)
			}
			if !(c.MaxDiff <= SelfCheckTolerance/10) {
				t.Errorf("largest difference %g, want at most a tenth of the tolerance %g", c.MaxDiff, SelfCheckTolerance)
			}
		})
	}
}

// TestSelfCheckShippedModel runs the self-check with the shipped model's
// first member at the default length limit: its 200-word canary sentence
// found that lstm_loop.wgsl passed llvmpipe's limit of 65535 loop
// iterations per invocation from about 168 words on (every loop then exits
// and the last steps stay unwritten); such a chunk now takes the per-step
// kernel on a software adapter (softwareLoopLimit).
func TestSelfCheckShippedModel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the shipped model's self-check takes about 10 s on a software GPU")
	}
	f, err := weights.ReadFile(defaultModel)
	if err != nil {
		t.Skipf("no shipped model (%v)", err)
	}
	ms, err := f.Models()
	if err != nil {
		t.Fatal(err)
	}
	s, err := newChecked(t, ms[0].Params, Options{})
	if err != nil {
		t.Fatalf("New refused the shipped model: %v", err)
	}
	c := s.SelfCheck()
	t.Logf("%s: %s", s.Backend(), c)
	if c.Words != 13+1+34+0+5+21+8+DefaultMaxWords+5 || !(c.MaxDiff <= SelfCheckTolerance/10) {
		t.Errorf("self-check %+v", c)
	}
}

// TestSelfCheckRefusesBrokenKernel: a deliberately wrong kernel (weight
// reads scaled by 1.05 in one shader) makes New refuse the device with an
// error naming the adapter and the largest difference, matching
// ErrSelfCheck and scorer.ErrUnavailable; scorer.Select then scores on the
// CPU and says why in one line. Each kernel that reads weights is tried,
// lstm_loop.wgsl only in the canary's second batch on a software adapter.
// A hardware adapter's plans never run lstm.wgsl (hardwareLoopSentences):
// there a broken lstm.wgsl must be accepted, since no score comes from it,
// and only then (the case "hardware schedule, broken lstm.wgsl" checks it
// on any adapter; on an NVIDIA H200 the first case does).
func TestSelfCheckRefusesBrokenKernel(t *testing.T) {
	m := randomModel(t, microConfig(), 6)
	for _, file := range []string{"lstm.wgsl", "lstm_loop.wgsl", "matmul.wgsl", "gather.wgsl"} {
		t.Run(file, func(t *testing.T) {
			s, err := newChecked(t, m.Params, Options{MaxWords: 20, TestPerturb: file})
			if err == nil {
				if runs := canaryFiles(s); runs[file] {
					t.Fatalf("New accepted a broken %s, which the canary's plans run: %s", file, s.SelfCheck())
				}
				t.Logf("accepted: this adapter's plans never run %s (%s)", file, s.Backend())
				return
			}
			if !errors.Is(err, ErrSelfCheck) || !errors.Is(err, scorer.ErrUnavailable) {
				t.Fatalf("error %v does not match ErrSelfCheck and scorer.ErrUnavailable", err)
			}
			for _, want := range []string{"largest difference", "tolerance", "not using this GPU"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			t.Log(err)
		})
	}
	// The hardware plan, whose products are split over their inner
	// dimension: correct kernels pass, a broken matmul.wgsl does not.
	long := randomModel(t, longInnerConfig(), 6)
	for _, perturb := range []string{"", "matmul.wgsl"} {
		name := map[string]string{"": "correct", "matmul.wgsl": "broken matmul.wgsl"}[perturb]
		t.Run("hardware schedule, products split, "+name, func(t *testing.T) {
			s, err := newChecked(t, long.Params, Options{MaxWords: 20, TestPerturb: perturb, asHardware: true})
			if perturb == "" && err != nil || perturb != "" && !errors.Is(err, ErrSelfCheck) {
				t.Fatalf("perturbed %q: %v", perturb, err)
			}
			if err == nil {
				if n := splitProducts(s.lay, planChunks(canaryBatches(s.cfg, 20)[2], s.lay), s.limits(), 1); n == 0 {
					t.Fatalf("the canary splits no product: the case tests nothing")
				}
				t.Log(s.SelfCheck())
			}
		})
	}
	t.Run("hardware schedule, broken lstm.wgsl: unused, accepted", func(t *testing.T) {
		s, err := newChecked(t, m.Params, Options{MaxWords: 20, TestPerturb: "lstm.wgsl", asHardware: true})
		if err != nil {
			t.Fatalf("the hardware schedule, which never runs lstm.wgsl, refused it broken: %v", err)
		}
		if runs := canaryFiles(s); runs["lstm.wgsl"] || !runs["lstm_loop.wgsl"] {
			t.Fatalf("the hardware schedule's canary plans run %v; want lstm_loop.wgsl and not lstm.wgsl", runs)
		}
	})
	var lines []string
	sel := scorer.Select(true, m, func() (scorer.Scorer, error) {
		return New(m.Params, Options{MaxWords: 20, TestPerturb: "matmul.wgsl"})
	}, func(f string, a ...any) { lines = append(lines, f) })
	defer sel.Close()
	if sel.Backend() != "cpu" || len(lines) != 1 {
		t.Errorf("Select with a broken kernel: backend %q, messages %q; want the CPU and one message", sel.Backend(), lines)
	}
}

// TestSelfCheckCanary checks what the canary exercises: both LSTM paths
// (more sentences than loopSentences in batch 1, at most loopSentences in
// batch 2), a sentence at the length limit, an empty sentence, words
// longer than MaxChars, and, on a software adapter's layout with the
// default MaxWords, chunks whose kinds' biaffines (and an ensemble's
// models' score stages) share dispatches and chunks whose do not; on a
// hardware adapter's (DefaultChunkTokens; MaxWords up to the default),
// where only chunks of over a third of 16384 tokens run the kinds in
// turn, every canary chunk sharing them (the kinds in turn there are the
// same kernels, met by the equivalence tests on the test set); with any
// MaxWords, batch 3's chunk sharing them; on a hardware adapter, batch
// 3's products split over their inner dimension.
func TestSelfCheckCanary(t *testing.T) {
	c := microConfig()
	for _, software := range []bool{true, false} {
		for _, maxWords := range []int{20, 77, DefaultMaxWords, 300} {
			o := Options{MaxWords: maxWords}.withDefaults(software)
			l, err := newEnsembleLayout(c, o, 2)
			if err != nil {
				t.Fatal(err)
			}
			lim := planLimitsFor(o, software)
			seen := map[string]bool{}
			batches := canaryBatches(c, o.MaxWords)
			for b, batch := range batches {
				for _, ch := range planChunks(batch, l) {
					kinds, scores := kindsTogether(l, ch, lim), scoresTogether(l, ch, lim, 2)
					seen[fmt.Sprintf("kinds together %v", kinds)] = true
					seen[fmt.Sprintf("scores together %v", scores)] = true
					if b == 2 && !(kinds && scores) {
						t.Errorf("software %v, MaxWords %d: batch 3 does not share the kinds' (%v) and models' (%v) dispatches", software, maxWords, kinds, scores)
					}
				}
			}
			if len(batches[2]) == 0 {
				t.Errorf("no batch 3")
			}
			if maxWords == DefaultMaxWords && software && len(seen) != 4 {
				t.Errorf("software: the canary's chunks give only %v", seen)
			}
			if maxWords <= DefaultMaxWords && !software && (len(seen) != 2 || !seen["kinds together true"] || !seen["scores together true"]) {
				t.Errorf("hardware, MaxWords %d: the canary's chunks give %v, want only chunks sharing the kinds' and models' dispatches", maxWords, seen)
			}
		}
	}
	// On a hardware adapter, with the shipped presets' sizes, batch 3
	// splits products over their inner dimension (matmul.wgsl reduce).
	for _, preset := range []network.Config{network.Tiny(), network.Small()} {
		preset.Labels, preset.Tags, preset.WordVocab, preset.CharVocab = 28, 40, 1000, 100
		o := Options{}.withDefaults(false)
		l, err := newEnsembleLayout(preset, o, 2)
		if err != nil {
			t.Fatal(err)
		}
		if n := splitProducts(l, planChunks(canaryBatches(preset, o.MaxWords)[2], l), planLimitsFor(o, false), 2); n == 0 {
			t.Errorf("LSTMs of %d: the canary's batch 3 splits no product on a hardware adapter", preset.LSTM1Hidden)
		}
	}
	b := canaryBatches(c, 77)
	if len(b[0]) <= loopSentences || len(b[1]) > loopSentences {
		t.Errorf("batches of %d and %d sentences, want more than %d, then at most %d", len(b[0]), len(b[1]), loopSentences, loopSentences)
	}
	longest, empty, longWord := 0, false, false
	for _, batch := range b {
		for _, in := range batch {
			longest = max(longest, in.Len())
			empty = empty || in.Len() == 0
			for _, w := range in.CharIDs {
				longWord = longWord || len(w) > c.MaxChars
			}
			if err := (&network.Model{Params: randomModel(t, c, 1).Params}).Config().Validate(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if longest != 77 || !empty || !longWord {
		t.Errorf("longest sentence %d (want 77), empty sentence %v, word over MaxChars %v", longest, empty, longWord)
	}
}

// canaryFiles returns the kernel files that s's plans for its self-check's
// canary run (the char table's plan included).
func canaryFiles(s *Scorer) map[string]bool {
	runs := map[string]bool{}
	for _, d := range initPlan(s.lay, s.wms) {
		runs[kernelFiles[d.kernel]] = true
	}
	for _, batch := range canaryBatches(s.cfg, s.opts.MaxWords) {
		for _, jb := range chunkJobs(s.lay, s.wms, planChunks(batch, s.lay), s.limits()) {
			for _, d := range jb.ds {
				runs[kernelFiles[d.kernel]] = true
			}
		}
	}
	return runs
}
