package network

import (
	"fmt"
	"math"

	"github.com/discspan/discspan/chart/decode"
)

// Hinge turns on the structured margin loss of a sentence (Targets.Hinge):
// the decoder's best tree under cost-augmented scores must score below the
// gold tree by its Hamming distance to it. Where the cross-entropy treats
// every span cell alone, this term looks at the tree the decoder builds, so
// it spends its gradient on the cells the decoder gets wrong.
//
// For one sentence with scores S and gold cells G (the cont, disc and gap
// cells of Targets with a label), the term is
//
//	Weight · max(0, max_y [S(y) + Δ(y)] − S(G))
//
// where y ranges over the derivations of Variant, S(y) sums the scores of
// y's labelled items (cont[i,j−1,a] for a continuous item [i,j], disc[i,j−1,a]
// + gap[k,l−1,a] for a discontinuous one [i,k,l,j]) and Δ(y) counts y's
// items that are not gold plus the gold items y misses (an item is gold when
// its cont or disc cell carries its label in G). The maximum is found
// exactly by decoding cost-augmented scores: cont and disc scores + 1, − 2
// where the label is gold. Its subgradient is +1 on the cells of the
// cost-augmented best tree and −1 on the gold cells, scaled by Weight.
// Gold constituents the variant cannot build (or of block degree > 2,
// absent from the targets) keep the term above 0; that only pushes their
// scores up.
type Hinge struct {
	Weight  float64
	Variant decode.Variant
}

// check reports an error when h cannot be used.
func (h *Hinge) check() error {
	if h == nil {
		return nil
	}
	if !(h.Weight >= 0) || math.IsInf(h.Weight, 1) {
		return fmt.Errorf("hinge: weight %g is not a finite number >= 0", h.Weight)
	}
	if h.Variant < 0 || int(h.Variant) >= len(decode.Variants) {
		return fmt.Errorf("hinge: unknown decoder variant %d", int(h.Variant))
	}
	return nil
}

// hingeLoss returns the hinge term of one sentence of n words with label
// count L and, when d is not nil and the term is positive, adds scale times
// its subgradient to d (the score gradients, laid out like scores; d[0] nil:
// no gradient). dec is
// the goroutine's decoder (nil: a new one). When the decoder fails (a
// sentence too long for its memory budget) the term is 0 and err says why.
func hingeLoss[T float](h *Hinge, scores [numKinds][]T, t *Targets, n, L int, scale float64, d [numKinds][]T, dec *decode.Decoder) (float64, error) {
	if h == nil || h.Weight == 0 || n == 0 {
		return 0, nil
	}
	targets := [numKinds][]int{t.Cont, t.Disc, t.Gap}
	aug := decode.NewScores(n, L)
	augmented := [numKinds][]float32{aug.Cont, aug.Disc, aug.Gap}
	// A score entry: kind k, offset off in its tensor.
	type entry struct{ k, off int }
	var goldEntries []entry // G
	var gold float64        // S(G)
	goldItems := 0          // |G| in items: gold cont cells and gold disc cells
	for k := range numKinds {
		for x := 0; x < n; x++ {
			for y := x; y < n; y++ {
				cell := x*n + y
				class := targets[k][cell]
				off := cell * L
				for a := 0; a < L; a++ {
					v := float64(scores[k][off+a])
					if k != kindGap {
						v++
						if class == a+1 {
							v -= 2
						}
					}
					augmented[k][off+a] = float32(v)
				}
				if class > 0 {
					goldEntries = append(goldEntries, entry{k, off + class - 1})
					gold += float64(scores[k][off+class-1])
					if k != kindGap {
						goldItems++
					}
				}
			}
		}
	}
	if dec == nil {
		dec = decode.NewDecoder(nil)
	}
	der, err := dec.Decode(h.Variant, aug)
	if err != nil {
		return 0, fmt.Errorf("hinge: %w", err)
	}
	// S(ŷ) + Δ(ŷ), from the scores in T rather than the float32 copy.
	best := float64(goldItems)
	var picked []entry
	for _, it := range der.Items {
		if it.Label < 0 {
			continue
		}
		a := it.Label
		first := kindCont
		if it.Discontinuous() {
			first = kindDisc
			g := (it.K*n+it.L-1)*L + a
			best += float64(scores[kindGap][g])
			picked = append(picked, entry{kindGap, g})
		}
		cell := it.I*n + it.J - 1
		off := cell*L + a
		best += float64(scores[first][off]) + 1
		if targets[first][cell] == a+1 {
			best -= 2
		}
		picked = append(picked, entry{first, off})
	}
	loss := best - gold
	if loss <= 0 {
		return 0, nil
	}
	if d[0] != nil {
		step := scale * h.Weight
		for _, e := range picked {
			d[e.k][e.off] += T(step)
		}
		for _, e := range goldEntries {
			d[e.k][e.off] -= T(step)
		}
	}
	return h.Weight * loss, nil
}
