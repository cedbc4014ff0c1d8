package network

import "math"

// spanCE returns the summed softmax cross-entropy, over the word pairs
// x <= y, of the scores s (n, n, L) against the target distributions, where
// the null class has the fixed logit 0. A cell's target is its gold class
// (target, n*n, index x*n+y; 0 = null, a+1 = label a) mixed with the
// teacher's distribution at the cell (soft; null when not listed) as
// (1-weight)·gold + weight·teacher; weight 0 is the plain gold loss. The
// loss of a cell is lse - Σ_a t_a s_a (the null class scores 0). It adds
// scale * (softmax - target) to d (n, n, L) for x <= y; d may be nil. Cost
// O(n*n*L).
func spanCE[T float](s []T, target []int, soft *softCursor, weight float64, n, labels int, scale float64, d []T) float64 {
	var loss float64
	goldW := 1 - weight
	for x := 0; x < n; x++ {
		for y := x; y < n; y++ {
			off := (x*n + y) * labels
			row := s[off : off+labels]
			lse := logSumExpWithZero(row)
			t := target[x*n+y]
			q := soft.at(x*n + y)
			loss += lse
			if t > 0 {
				loss -= goldW * float64(row[t-1])
			}
			for a, p := range q {
				loss -= weight * float64(p) * float64(row[a])
			}
			if d == nil {
				continue
			}
			for a, v := range row {
				p := math.Exp(float64(v) - lse)
				if a+1 == t {
					p -= goldW
				}
				if q != nil {
					p -= weight * float64(q[a])
				}
				d[off+a] += T(scale * p)
			}
		}
	}
	return loss
}

// LabelProbs writes to probs (len(row) entries) the probability of each
// label at a cell whose label scores are row, the null class having the
// fixed logit 0 (the softmax the loss is taken of), and returns their sum:
// the probability that the cell holds a constituent.
func LabelProbs(row, probs []float32) float64 {
	lse := logSumExpWithZero(row)
	var mass float64
	for a, v := range row {
		p := math.Exp(float64(v) - lse)
		probs[a] = float32(p)
		mass += p
	}
	return mass
}

// logSumExpWithZero returns log(exp(0) + Σ exp(row[a])), computed stably in
// float64.
func logSumExpWithZero[T float](row []T) float64 {
	m := 0.0
	for _, v := range row {
		m = math.Max(m, float64(v))
	}
	sum := math.Exp(-m)
	for _, v := range row {
		sum += math.Exp(float64(v) - m)
	}
	return m + math.Log(sum)
}

// tagCE returns the summed softmax cross-entropy of the logits (n, K) against
// the gold tags (n), adding scale * (softmax - onehot) to d (n, K) when d is
// not nil. Cost O(n*K).
func tagCE[T float](logits []T, tags []int, k int, scale float64, d []T) float64 {
	var loss float64
	for i, t := range tags {
		row := logits[i*k : (i+1)*k]
		m := math.Inf(-1)
		for _, v := range row {
			m = math.Max(m, float64(v))
		}
		var sum float64
		for _, v := range row {
			sum += math.Exp(float64(v) - m)
		}
		lse := m + math.Log(sum)
		loss += lse - float64(row[t])
		if d == nil {
			continue
		}
		for a, v := range row {
			p := math.Exp(float64(v) - lse)
			if a == t {
				p--
			}
			d[i*k+a] += T(scale * p)
		}
	}
	return loss
}

// SpanCrossEntropy is the span loss of one kind on one sentence of n words
// as the optimised float32 path computes it: scores s (n, n, labels; the
// null class scores 0), gold classes target (n*n, index x*n+y), and the
// teacher's cells soft (increasing cell order; nil: none) mixed in with
// weight (see Soft). It writes scale times the gradient with respect to s
// to d for x <= y (d may be nil) and returns the loss. It is the reference
// that other implementations of the loss (package netcuda's kernel) are
// tested against.
func SpanCrossEntropy(s []float32, target []int, soft []SoftCell, weight float64, n, labels int, scale float64, d []float32) float64 {
	cursor := softCursor{cells: soft}
	loss, _ := spanCE32(s, target, &cursor, weight, n, labels, scale, d, nil)
	return loss
}
