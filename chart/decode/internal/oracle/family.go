package oracle

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/discspan/discspan/chart/decode"
)

// maxFamilyWords bounds InFamily's sentence length: yields are bit sets of
// 64 words.
const maxFamilyWords = 64

// yieldOf checks the blocks of a constituent of a sentence of n words and
// returns its yield.
func yieldOf(n int, c decode.Constituent) (uint64, error) {
	b := c.Blocks
	if len(b) != 1 && len(b) != 2 {
		return 0, fmt.Errorf("%d blocks (want 1 or 2)", len(b))
	}
	var m uint64
	for _, x := range b {
		if x[0] < 0 || x[0] >= x[1] || x[1] > n {
			return 0, fmt.Errorf("block [%d,%d) is empty or outside 0..%d", x[0], x[1], n)
		}
		m |= span(x[0], x[1])
	}
	if len(b) == 2 && b[0][1] >= b[1][0] {
		return 0, fmt.Errorf("blocks [%d,%d) and [%d,%d) are not sorted with a gap between them",
			b[0][0], b[0][1], b[1][0], b[1][1])
	}
	return m, nil
}

// InFamily reports why the labelled constituents cs are not a tree that
// variant v can build for a sentence of n words, or nil when they are. A
// tree can be built when its yields are distinct, well-formed (one block
// or two sorted, non-empty, non-adjacent blocks within 0..n, non-negative
// labels), pairwise disjoint or nested, and there is a derivation of the
// goal [0,n] in v's deduction system that contains every constituent as an
// item; its other items are null intermediate nodes.
//
// The derivation is found by the same literal search as BestDeduction,
// with weight 1 on the constituents' items and 0 on every other item
// (items crossing a constituent, which no such derivation can hold, are
// skipped): a constituent t is buildable when its item's best score is the
// number of constituents inside t, and the tree when the goal's is len(cs).
// The first constituent, smallest first, that cannot be built with its
// descendants is reported.
//
// It panics on an unknown variant. Cost up to O(R (n+1)^7), less the
// denser the tree: with all twelve rules, 0.2 ms for a full right-branching
// tree of 7 words, 10 ms for one of 20; 0.2 s for 20 words and no
// constituent at all.
func InFamily(v decode.Variant, n int, cs []decode.Constituent) error {
	rs := rulesOf(v)
	if n < 0 || n > maxFamilyWords {
		return fmt.Errorf("oracle: sentence of %d words (supported: 0..%d)", n, maxFamilyWords)
	}
	yields := make([]uint64, len(cs))
	owner := map[uint64]int{}
	for i, c := range cs {
		y, err := yieldOf(n, c)
		if err != nil {
			return fmt.Errorf("constituent %d %v: %v", i, c.Blocks, err)
		}
		if c.Label < 0 {
			return fmt.Errorf("constituent %d %v: label %d", i, c.Blocks, c.Label)
		}
		if j, dup := owner[y]; dup {
			return fmt.Errorf("constituents %d and %d have the same yield %v", j, i, c.Blocks)
		}
		owner[y] = i
		yields[i] = y
	}
	for i := range yields {
		for j := range i {
			if !laminar(yields[i], yields[j]) {
				return fmt.Errorf("constituents %d %v and %d %v overlap without nesting",
					j, cs[j].Blocks, i, cs[i].Blocks)
			}
		}
	}
	if n == 0 {
		return nil
	}
	e := newEngine(n, rs, func(it item) float64 {
		if _, ok := owner[it.mask()]; ok {
			return 1
		}
		return 0
	})
	e.allowed = func(it item) bool {
		m := it.mask()
		for _, y := range yields {
			if !laminar(m, y) {
				return false
			}
		}
		return true
	}
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return bits.OnesCount64(yields[order[a]]) < bits.OnesCount64(yields[order[b]])
	})
	for _, i := range order {
		it, _ := itemOf(yields[i])
		inside := 0
		for _, y := range yields {
			if y&yields[i] == y {
				inside++
			}
		}
		if got := e.best(it); got != float64(inside) {
			return fmt.Errorf("%v cannot build constituent %d %v with its %d descendants as nodes (%s)",
				v, i, cs[i].Blocks, inside-1, howMany(got-1))
		}
	}
	if got := e.best(cont(0, n)); got != float64(len(cs)) {
		return fmt.Errorf("%v cannot join the top-level constituents into the goal [0,%d] (%s)", v, n, howMany(got))
	}
	return nil
}

// TreeScore returns the score of a tree: the sum over cs of each
// constituent's weight for its stated label, cont[i,j-1,A] for one block
// [i,j), disc[i,j-1,A] + gap[k,l-1,A] for blocks [i,k) and [l,j), added in
// float64. It panics on a malformed constituent or label.
func TreeScore(s *decode.Scores, cs []decode.Constituent) float64 {
	total := 0.0
	for _, c := range cs {
		if _, err := yieldOf(s.N, c); err != nil {
			panic(fmt.Sprintf("oracle: constituent %v: %v", c.Blocks, err))
		}
		if c.Label < 0 || c.Label >= s.L {
			panic(fmt.Sprintf("oracle: constituent %v: label %d outside 0..%d", c.Blocks, c.Label, s.L-1))
		}
		var it item
		if b := c.Blocks; len(b) == 1 {
			it = cont(b[0][0], b[0][1])
		} else {
			it = disc(b[0][0], b[0][1], b[1][0], b[1][1])
		}
		total += labelWeight(s, it, c.Label)
	}
	return total
}

// howMany describes the best count of constituents a derivation can hold.
func howMany(got float64) string {
	if math.IsInf(got, -1) {
		return "no derivation at all"
	}
	return fmt.Sprintf("a derivation holds at most %v of them", got)
}
