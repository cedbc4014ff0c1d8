package webgpu

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/discspan/discspan/network"
)

// The self-check. A driver that miscompiles a kernel is a fact of life on
// the web (an NVIDIA driver computed lstm.wgsl wrongly because of a
// workgroup bool array that software GPUs ran correctly), so New scores a
// small built-in canary batch on the device and with the CPU reference
// before it returns a scorer, and refuses the device when they differ by
// more than the tolerance. The canary exercises every kernel the adapter's
// plan uses, both LSTM paths on a software adapter (a hardware one runs
// the loop kernel for every chunk):
//
//	batch 1: 6 sentences of 0..34 words (more than loopSentences: on a
//	         software adapter the per-step LSTM kernel), words of 1 to
//	         MaxChars+3 characters
//	         (truncation included), an empty sentence among them
//	batch 2: 2 sentences, one at the length limit (the persistent LSTM
//	         loop kernel, and a chunk at its largest sentence)
//	batch 3: one sentence of 5 words, a parse's usual chunk, small enough
//	         on every adapter for the three kinds' biaffines and an
//	         ensemble's models to share dispatches (kindsTogether,
//	         scoresTogether), which on a software adapter the larger
//	         chunks of batches 1 and 2 do not (on a hardware one, whose
//	         chunks hold DefaultChunkTokens, every canary chunk shares
//	         them: the kinds in turn are the same kernels, for chunks of
//	         thousands of tokens)
//
// On a hardware adapter batch 3's Linear products are split over their
// inner dimension (matmul.wgsl reduce); the biaffines' left products,
// also matmul.wgsl, never are (planner.innerSlices).
//
// Its cost (measured in TestSelfCheckCost and reported by SelfCheck) is one
// CPU forward pass of about 85+MaxWords words and the same on the device.

// SelfCheckTolerance is the largest difference between a score (or tag
// logit) of the device and the CPU reference's that the self-check accepts,
// relative to max(1, the largest absolute reference value). The CPU
// reference for float16 weights is the model with its parameters rounded
// to float16, so both storages are held to the same bound. Correct kernels
// stay below 1e-5 (random models) and 5e-6 (the shipped models, whose
// scores reach about 30); the NVIDIA fault gave 0.1 to 10.
const SelfCheckTolerance = 1e-3

// ErrSelfCheck marks a device whose scores differ from the CPU reference's
// in the self-check; it also matches scorer.ErrUnavailable, so that
// scorer.Select uses the CPU.
var ErrSelfCheck = errors.New("self-check failed")

// SelfCheck is the outcome of the self-check of a scorer.
type SelfCheck struct {
	Skipped   bool          // Options.SkipSelfCheck was set
	Sentences int           // canary sentences scored
	Words     int           // and their words
	MaxDiff   float64       // largest difference, relative as SelfCheckTolerance says
	Where     string        // where MaxDiff was seen ("batch 1 sentence 3 disc scores")
	Duration  time.Duration // device and CPU scoring together
}

// String describes the outcome in one line.
func (c SelfCheck) String() string {
	if c.Skipped {
		return "self-check skipped"
	}
	return fmt.Sprintf("self-check: %d sentences, %d words, largest difference %.3g (tolerance %g) at %s, %.0f ms",
		c.Sentences, c.Words, c.MaxDiff, SelfCheckTolerance, c.Where, float64(c.Duration.Microseconds())/1000)
}

// canaryBatches returns the self-check's three batches for configuration c
// and the longest sentence maxWords, drawn from a fixed seed.
func canaryBatches(c network.Config, maxWords int) [3][]network.Input {
	rng := rand.New(rand.NewPCG(0x5e1f, 0xc4ec))
	sentence := func(n int) network.Input {
		in := network.Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}
		for w := range n {
			in.WordIDs[w] = rng.IntN(c.WordVocab)
			chars := make([]int, 1+(w*7+n)%(c.MaxChars+3))
			for k := range chars {
				chars[k] = rng.IntN(c.CharVocab)
			}
			in.CharIDs[w] = chars
		}
		return in
	}
	var out [3][]network.Input
	for _, n := range []int{13, 1, 34, 0, 5, 21} {
		out[0] = append(out[0], sentence(min(n, maxWords)))
	}
	out[1] = []network.Input{sentence(min(8, maxWords)), sentence(maxWords)}
	out[2] = []network.Input{sentence(min(5, maxWords))}
	return out
}

// perturbed returns the kernel source code with its weight reads scaled by
// 1.05 when the kernel's file is the one Options.TestPerturb names: a
// deliberately wrong kernel for the self-check's tests.
func perturbed(code, file, perturb string) string {
	if perturb == "" || perturb != file {
		return code
	}
	return strings.Replace(code, "fn wt(", "fn wt_exact(", 1) +
		"\nfn wt(i: u32) -> f32 { return wt_exact(i) * 1.05; }\n"
}
