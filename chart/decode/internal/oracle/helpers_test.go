package oracle

import (
	"math/rand/v2"

	"github.com/discspan/discspan/chart/decode"
)

// randScores fills a score tensor with values uniform in [-2,2], or, when
// ties is set, drawn from {-1, 0, 1} so that equal scores are common.
func randScores(rng *rand.Rand, n, labels int, ties bool) *decode.Scores {
	s := decode.NewScores(n, labels)
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for i := range t {
			if ties {
				t[i] = float32(rng.IntN(3) - 1)
			} else {
				t[i] = float32(rng.Float64()*4 - 2)
			}
		}
	}
	return s
}

// c builds a constituent from its label and a flat list of block ends:
// c(A, i, j) is [i,j), c(A, i, k, l, j) is [i,k) + [l,j).
func c(label int, ends ...int) decode.Constituent {
	var b [][2]int
	for p := 0; p+1 < len(ends); p += 2 {
		b = append(b, [2]int{ends[p], ends[p+1]})
	}
	return decode.Constituent{Label: label, Blocks: b}
}

// reward builds scores for n words in which target t (label t) weighs
// exactly 1 and every other labelled item weighs less than 0: every entry
// is -1, except cont = 1 at a continuous target and disc = gap = 0.5 at a
// discontinuous one. Since each target has its own label, no disc/gap pair
// of two targets can add up. The best score of a variant is then the
// largest number of targets one of its trees holds.
func reward(n int, targets ...decode.Constituent) *decode.Scores {
	s := decode.NewScores(n, len(targets))
	for _, t := range [][]float32{s.Cont, s.Disc, s.Gap} {
		for i := range t {
			t[i] = -1
		}
	}
	for a, t := range targets {
		b := t.Blocks
		if len(b) == 1 {
			s.Cont[s.Index(b[0][0], b[0][1]-1, a)] = 1
			continue
		}
		s.Disc[s.Index(b[0][0], b[1][1]-1, a)] = 0.5
		s.Gap[s.Index(b[0][1], b[1][0]-1, a)] = 0.5
	}
	return s
}

// withLabels returns targets relabelled 0, 1, ... as reward labels them.
func withLabels(targets []decode.Constituent) []decode.Constituent {
	out := make([]decode.Constituent, len(targets))
	for a, t := range targets {
		out[a] = decode.Constituent{Label: a, Blocks: t.Blocks}
	}
	return out
}

// treeOf turns yields into constituents with label 0.
func treeOf(tree []uint64) []decode.Constituent {
	out := make([]decode.Constituent, len(tree))
	for i, y := range tree {
		out[i] = decode.Constituent{Label: 0, Blocks: blocksOf(y)}
	}
	return out
}
