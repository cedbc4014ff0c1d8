package netcuda

import (
	"github.com/discspan/discspan/cuda"
	"github.com/discspan/discspan/network"
)

// softBatch is a batch's teacher distributions (network.Soft, for
// distillation) in span_ce's layout: for each kind (cont, disc, gap), one
// row index per padded cell b*nm*nm + x*nm + y (-1 where the teacher puts
// everything on the null class) into prob, L label probabilities a row; and
// each padded sentence's teacher weight (0 for a sentence without soft
// targets).
type softBatch struct {
	idx    [3][]int32
	prob   [3][]float32
	weight []float64
}

// softRows is one kind's softBatch on the device.
type softRows struct{ idx, prob cuda.Ptr }

// softTargets returns the soft targets of the plan's sentences, padded to nm
// words, or nil when no sentence has any (span_ce then takes the gold class
// alone). PlanBatch has checked them (cells x <= y in order, L
// probabilities each).
func softTargets(plan *network.BatchPlan, batch []network.Example, nm, L int) *softBatch {
	found := false
	for _, s := range plan.Sentences {
		if batch[s.Index].Targets.Soft != nil {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	B := len(plan.Sentences)
	sb := &softBatch{weight: make([]float64, B)}
	for k := range sb.idx {
		sb.idx[k] = make([]int32, B*nm*nm)
		for i := range sb.idx[k] {
			sb.idx[k][i] = -1
		}
	}
	for b, s := range plan.Sentences {
		soft := batch[s.Index].Targets.Soft
		if soft == nil {
			continue
		}
		sb.weight[b] = soft.Weight
		n := s.Words
		for k, cells := range soft.Cells {
			for _, c := range cells {
				x, y := int(c.Cell)/n, int(c.Cell)%n
				sb.idx[k][b*nm*nm+x*nm+y] = int32(len(sb.prob[k]) / L)
				sb.prob[k] = append(sb.prob[k], c.Probs...)
			}
		}
	}
	return sb
}
