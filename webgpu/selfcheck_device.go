//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"fmt"
	"math"
	"time"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
)

// SelfCheck returns the outcome of the self-check New ran.
func (s *Scorer) SelfCheck() SelfCheck { return s.check }

// selfCheck runs the canary batches on the device and with the CPU
// reference over refs (the models' parameters, or them rounded to float16;
// an ensemble's mean as scorer.Mean takes it) and returns an error matching
// ErrSelfCheck and scorer.ErrUnavailable when they differ by more than
// SelfCheckTolerance.
func (s *Scorer) selfCheck(refs []*network.Params) error {
	start := time.Now()
	models := make([]*network.Model, len(refs))
	for k, p := range refs {
		models[k] = &network.Model{Params: p}
	}
	ref := scorer.MeanCPU(models)
	c := SelfCheck{}
	for b, batch := range canaryBatches(s.cfg, s.opts.MaxWords) {
		got, err := s.Score(batch)
		if err != nil {
			return fmt.Errorf("webgpu: self-check: %w", err)
		}
		want, err := ref.Score(batch)
		if err != nil {
			return fmt.Errorf("webgpu: self-check: CPU reference: %w", err)
		}
		for i := range batch {
			c.Sentences++
			c.Words += batch[i].Len()
			// Relative to max(1, the largest |value| of each tensor of the
			// reference); +Inf for a NaN or a shape that differs.
			d := scorer.Compare(got[i], want[i])
			if d.Relative > c.MaxDiff || c.Where == "" {
				c.MaxDiff, c.Where = d.Relative, fmt.Sprintf("batch %d sentence %d %s", b+1, i+1, d.Where)
			}
			if math.IsInf(d.Relative, 1) {
				break
			}
		}
	}
	c.Duration = time.Since(start)
	s.check = c
	if !(c.MaxDiff <= SelfCheckTolerance) {
		return fmt.Errorf("webgpu: %w on %s: largest difference from the CPU reference %.3g at %s (tolerance %g): not using this GPU: %w",
			ErrSelfCheck, s.d, c.MaxDiff, c.Where, SelfCheckTolerance, scorer.ErrUnavailable)
	}
	return nil
}
