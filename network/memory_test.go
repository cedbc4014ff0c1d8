package network

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

// longWords returns an input of n distinct words of MaxChars+extra
// characters each: the most character rows a sentence of n words can give
// the character BiLSTM.
func longWords(c Config, n, extra int, seed uint64) Input {
	rng := rand.New(rand.NewPCG(seed, 7))
	in := Input{WordIDs: make([]int, n), CharIDs: make([][]int, n)}
	for i := range n {
		in.WordIDs[i] = rng.IntN(c.WordVocab)
		chars := make([]int, c.MaxChars+extra)
		for j := range chars {
			chars[j] = 5 + rng.IntN(c.CharVocab-5)
		}
		in.CharIDs[i] = chars
	}
	return in
}

// runtimeNoise is what the runtime may allocate of its own while a test
// measures an allocation (TotalAlloc counts every goroutine's).
const runtimeNoise = 512 << 10

// TestInferenceBytes: the work memory the forward pass takes from its
// arena for one sentence is at most the bound inferenceWork gives (exact
// for distinct words), and a whole Forward of a model that has prepared
// its weights allocates at most InferenceBytes, at least 85% of it for
// 60 words or more of MaxChars characters or more (less, the fixed
// allowance for bookkeeping weighs more): the bound is tight, so a budget
// built on it refuses little that would fit, and the work memory is
// allocated once (reserved), not by chunks that double.
func TestInferenceBytes(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's own allocations (about 30% more) are not the code's: the bound is checked without it")
	}
	c := Tiny()
	c.WordVocab, c.CharVocab, c.Labels, c.Tags = 300, 60, 20, 8
	m := randomModel(t, c, 3)
	if _, err := m.Forward(longWords(c, 3, 0, 1)); err != nil { // prepares the weights
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n, extra int
		tight    bool
	}{{1, 0, false}, {7, 4, false}, {60, 0, true}, {150, 9, true}, {60, -c.MaxChars + 2, false}} {
		in := longWords(c, tc.n, tc.extra, uint64(tc.n))
		bound := c.inferenceWork(int64(tc.n), int64(6+tc.n*(min(c.MaxChars, c.MaxChars+tc.extra)+2)))

		ar := &arena{}
		g := newGroup(preparedFor(m.Params, 1), ar, []Input{in}, nil, 1)
		if work := g.inferenceWork(); work != bound {
			t.Errorf("%d distinct words: the group's work %d, the sentence's %d", tc.n, work, bound)
		}
		g.forward(true)
		used := int64(ar.used)
		if used > bound || tc.extra >= 0 && used != bound {
			t.Errorf("%d words of %d characters: the forward pass took %d values from its arena, bound %d", tc.n, c.MaxChars+tc.extra, used, bound)
		}

		m.Release() // a fresh arena, as for a first sentence this long
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, err := m.Forward(in)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		got, limit := int64(after.TotalAlloc-before.TotalAlloc), c.InferenceBytes(tc.n)
		t.Logf("%d words: Forward allocated %d KiB, InferenceBytes %d KiB (scores %d KiB)", tc.n, got>>10, limit>>10, decode.ScoreBytes(tc.n, c.Labels)>>10)
		// The runtime allocates a little of its own in the meantime (up
		// to some 200 KB, varying between runs): allowed beyond the bound.
		if got > limit+runtimeNoise || tc.tight && got < limit*85/100 {
			t.Errorf("%d words: Forward allocated %d bytes, InferenceBytes %d", tc.n, got, limit)
		}
		runtime.KeepAlive(out)
	}
	if got := c.InferenceBytes(0); got != 0 {
		t.Errorf("InferenceBytes(0) = %d, want 0", got)
	}
}
