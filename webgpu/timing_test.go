//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"testing"
	"time"

	"github.com/discspan/discspan/network"
)

// singleDispatchFactor bounds a submission's estimated work as a multiple
// of Options.SubmitWork. Submissions of several dispatches stay within
// SubmitWork; one dispatch that cannot be split may exceed it. On lavapipe
// 2.4e8 multiply-adds (4× the software bound, the LSTM's step loop) took
// 0.37 s, so 8× keeps a submission short.
const singleDispatchFactor = 8

// TestSubmissionWork scores, with the Tiny preset, a batch holding the
// longest sentence accepted by default and 16 sentences of 20 words (more
// than a chunk), and checks the estimated work of every submission against
// Options.SubmitWork (see singleDispatchFactor): the bound that keeps each
// one short on a software adapter (a blocking native Device.Poll gave up
// after 5 s and lavapipe crashed; see device.wait). The durations are
// logged, not checked: a wall-clock limit fails on a busy machine.
func TestSubmissionWork(t *testing.T) {
	if testing.Short() {
		t.Skip("slow on a software adapter")
	}
	c := network.Tiny()
	m := randomModel(t, c, 1)
	s := openScorer(t, m.Params, Options{Weights: WeightsF16})
	var worst time.Duration
	var worstWhat string
	var worstWork float64
	subs := 0
	limit := singleDispatchFactor * s.opts.SubmitWork
	s.onSubmit = func(what string, work float64, d time.Duration) {
		subs++
		if d > worst {
			worst, worstWhat, worstWork = d, what, work
		}
		if work > limit {
			t.Errorf("submission %s: estimated work %.3g, over the bound %.3g", what, work, limit)
		}
	}
	lengths := []int{DefaultMaxWords}
	for range 16 {
		lengths = append(lengths, 20)
	}
	start := time.Now()
	if _, err := s.Score(randomBatch(c, 9, lengths...)); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d submissions in %v; longest %v (%s, estimated work %.3g)", subs, time.Since(start), worst, worstWhat, worstWork)
}
