package decode

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"
)

// RandomScores returns scores drawn uniformly from [-1, 1) with a fixed
// seed: the input of the decoder benchmarks.
func RandomScores(seed uint64, n, labels int) *Scores {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	s := NewScores(n, labels)
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for x := range t {
			t[x] = rng.Float32()*2 - 1
		}
	}
	return s
}

// BenchResult is the outcome of Bench.
type BenchResult struct {
	Variant string  `json:"variant"`
	N       int     `json:"n"`
	Labels  int     `json:"labels"`
	Runs    int     `json:"runs"`
	Seconds float64 `json:"seconds_per_sentence"` // best of the runs
	// PeakBytes is the memory one decoding run allocates (chart, weights,
	// derivation): an upper bound of its peak heap growth.
	PeakBytes uint64 `json:"peak_bytes"`
}

// ScoreBytes returns the memory of the score tensors of a sentence of n
// words with l labels: three n x n x l tensors of float32.
func ScoreBytes(n, l int) int64 { return 3 * int64(n) * int64(n) * int64(l) * 4 }

// Bench decodes random scores runs times, each with a fresh Decoder (so
// that chart allocation is part of the time, as in a one-shot decode), and
// reports the best time and the bytes one run allocates. One thread. The
// random scores (ScoreBytes) and the chart (ChartBytes) must each fit the
// memory budget: otherwise Bench fails (wrapping ErrTooLong) before
// generating anything.
func Bench(v Variant, n, labels, runs int, opt *Options) (BenchResult, error) {
	res := BenchResult{Variant: v.String(), N: n, Labels: labels, Runs: runs}
	if v < Continuous || v > N6 {
		return res, fmt.Errorf("decode: unknown variant %d", int(v))
	}
	if n < 0 || n > 1<<20 || labels < 0 || labels > 1<<20 {
		return res, fmt.Errorf("decode %s: %d words and %d labels: want 0 to %d of each: %w", v, n, labels, 1<<20, ErrTooLong)
	}
	budget := opt.maxBytes()
	for _, c := range []struct {
		what string
		need int64
	}{{"random scores", ScoreBytes(n, labels)}, {"chart", ChartBytes(v, n, labels)}} {
		if c.need > budget {
			return res, fmt.Errorf("decode %s: %d words and %d labels need %d MiB of %s, budget %d MiB: %w",
				v, n, labels, c.need>>20, c.what, budget>>20, ErrTooLong)
		}
	}
	s := RandomScores(uint64(n)*1000+uint64(labels), n, labels)
	best := time.Duration(1<<63 - 1)
	for r := 0; r < max(runs, 1); r++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		if _, err := NewDecoder(opt).Decode(v, s); err != nil {
			return res, err
		}
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		best = min(best, elapsed)
		res.PeakBytes = max(res.PeakBytes, after.TotalAlloc-before.TotalAlloc)
	}
	res.Seconds = best.Seconds()
	return res, nil
}

// ReferenceSeconds gives the authors' C++ decoder's seconds per sentence
// (decoder.md: one thread, random scores, 30 labels) by variant and n; for
// n6wn at n=80 the lower end of the reported 5-9 s. Variants without a
// figure are absent.
func ReferenceSeconds(v Variant, n int) (float64, bool) {
	table := map[Variant]map[int]float64{
		N3:   {20: 9.7e-5, 40: 1.6e-3, 80: 0.011},
		N4:   {20: 1.8e-4, 40: 4.2e-3, 80: 0.09},
		N5WN: {20: 2.8e-4, 40: 0.014, 80: 1.0},
		N5:   {20: 6.3e-4, 40: 0.017, 80: 1.4},
		N6WN: {20: 7.1e-4, 40: 0.025, 80: 5},
		N6:   {20: 1.3e-3, 40: 0.072, 80: 21},
	}
	s, ok := table[v][n]
	return s, ok
}
