package webgpu

import (
	"testing"
	"time"

	"github.com/discspan/discspan/network"
)

// submitLimit is the longest a submission may take on a software adapter
// with the default SubmitWork (a blocking native Device.Poll gives up after
// 5 s).
const submitLimit = 4 * time.Second

// TestSubmissionTime scores, with the Tiny preset, a batch holding the
// longest sentence accepted by default and 16 sentences of 20 words (more
// than a chunk), and
// checks that no submission comes near the 5 s a blocking native
// Device.Poll waits.
func TestSubmissionTime(t *testing.T) {
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
	s.onSubmit = func(what string, work float64, d time.Duration) {
		subs++
		if d > worst {
			worst, worstWhat, worstWork = d, what, work
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
	if worst > submitLimit {
		t.Errorf("a submission took %v (%s), over %v", worst, worstWhat, submitLimit)
	}
}
