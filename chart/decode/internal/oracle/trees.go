package oracle

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/discspan/discspan/chart/decode"
)

// A yield is the set of words a constituent covers, as a bit set (word w is
// bit w).

// blocksOf returns the maximal runs of consecutive words of m, as [start,end)
// interstice pairs, left to right.
func blocksOf(m uint64) [][2]int {
	var out [][2]int
	for w := 0; w < 64; {
		if m&(1<<w) == 0 {
			w++
			continue
		}
		start := w
		for w < 64 && m&(1<<w) != 0 {
			w++
		}
		out = append(out, [2]int{start, w})
	}
	return out
}

// itemOf returns the chart item of a yield of one or two blocks.
func itemOf(m uint64) (item, bool) {
	b := blocksOf(m)
	switch len(b) {
	case 1:
		return cont(b[0][0], b[0][1]), true
	case 2:
		return disc(b[0][0], b[0][1], b[1][0], b[1][1]), true
	}
	return item{}, false
}

// laminar reports whether two yields are disjoint or nested.
func laminar(a, b uint64) bool {
	c := a & b
	return c == 0 || c == a || c == b
}

// allYields returns every yield of n words of at most maxBlocks blocks (1 or
// 2), in increasing order of the bit set.
func allYields(n, maxBlocks int) []uint64 {
	var out []uint64
	for m := uint64(1); m < 1<<n; m++ {
		if len(blocksOf(m)) <= maxBlocks {
			out = append(out, m)
		}
	}
	return out
}

// laminarSets calls f with every set of the given yields that is pairwise
// laminar (the empty set included). f must not keep the slice.
func laminarSets(ys []uint64, f func(tree []uint64)) {
	var cur []uint64
	var rec func(next int)
	rec = func(next int) {
		if next == len(ys) {
			f(cur)
			return
		}
		rec(next + 1) // without ys[next]
		for _, t := range cur {
			if !laminar(t, ys[next]) {
				return
			}
		}
		cur = append(cur, ys[next])
		rec(next + 1) // with ys[next]
		cur = cur[:len(cur)-1]
	}
	rec(0)
}

// parentOf returns the smallest yield of tree strictly containing y, or the
// whole sentence (the virtual root) when none does. tree must be laminar.
func parentOf(n int, tree []uint64, y uint64) uint64 {
	parent := span(0, n)
	for _, t := range tree {
		if t != y && t&y == y && bits.OnesCount64(t) < bits.OnesCount64(parent) {
			parent = t
		}
	}
	return parent
}

// childrenOf returns the children of p in tree: the yields of tree strictly
// inside p that no other yield strictly inside p contains, followed by the
// words of p that none of those covers (leaves hanging from p directly).
func childrenOf(tree []uint64, p uint64) []uint64 {
	var kids []uint64
	var covered uint64
	for _, t := range tree {
		if t == p || t&p != t {
			continue
		}
		top := true
		for _, u := range tree {
			if u != p && u != t && u&p == u && u&t == t {
				top = false
				break
			}
		}
		if top {
			kids = append(kids, t)
			covered |= t
		}
	}
	for w := 0; w < 64; w++ {
		if bit := uint64(1) << w; p&bit != 0 && covered&bit == 0 {
			kids = append(kids, bit)
		}
	}
	return kids
}

// n4Condition reports why a laminar set of yields of at most two blocks is
// not a tree of the O(n^4) family, or nil when it is (see BestTree).
func n4Condition(n int, tree []uint64) error {
	for _, d := range tree {
		b := blocksOf(d)
		if len(b) == 1 {
			continue
		}
		gap := span(b[0][1], b[1][0])
		p := parentOf(n, tree, d)
		var filled uint64
		for _, c := range childrenOf(tree, p) {
			if c != d && c&gap == c {
				filled |= c
			}
		}
		if filled != gap {
			return fmt.Errorf("gap %v of %v is not exactly covered by siblings inside it (parent %v)",
				blocksOf(gap), blocksOf(d), blocksOf(p))
		}
	}
	return nil
}

// treeFamily holds every tree of one family for one sentence length.
type treeFamily struct {
	yields []uint64
	trees  [][]uint16 // indices into yields
}

var (
	familyMu    sync.Mutex
	familyCache = map[[2]int]*treeFamily{}
)

// maxTreeWords bounds the sentence length of BestTree per number of blocks.
var maxTreeWords = [3]int{0, 7, 6}

// familyOf enumerates (once) the trees of n words whose yields have at most
// maxBlocks blocks: with maxBlocks 1 every laminar set of spans, with 2
// every laminar set satisfying n4Condition.
func familyOf(n, maxBlocks int) *treeFamily {
	familyMu.Lock()
	defer familyMu.Unlock()
	key := [2]int{n, maxBlocks}
	if f, ok := familyCache[key]; ok {
		return f
	}
	f := &treeFamily{yields: allYields(n, maxBlocks)}
	index := map[uint64]uint16{}
	for i, y := range f.yields {
		index[y] = uint16(i)
	}
	laminarSets(f.yields, func(tree []uint64) {
		if maxBlocks == 2 && n4Condition(n, tree) != nil {
			return
		}
		t := make([]uint16, len(tree))
		for i, y := range tree {
			t[i] = index[y]
		}
		f.trees = append(f.trees, t)
	})
	familyCache[key] = f
	return f
}

// BestTree returns the best score of a tree of variant v's family, found by
// scoring every tree of the family, one by one. A tree is a set of distinct
// yields (one block, or two blocks with a gap), pairwise disjoint or
// nested, under a virtual root covering the sentence; its score is the sum,
// over its yields, of the yield's best label weight or 0 (an absent node).
// The families:
//
//   - Continuous: every laminar set of continuous yields.
//   - N4 and N3: every laminar set of yields of at most two blocks such that
//     each discontinuous yield D with gap [k,l) has its gap exactly covered
//     by siblings lying inside it. The siblings of D are the other children
//     of D's parent P (the smallest yield of the tree strictly containing D,
//     or the virtual root), and the children of P are its maximal yields
//     in the tree AND the words of P that no such yield covers, each a
//     single-word leaf: a word hanging directly from P can fill a gap.
//     Equivalently: the gap lies within P's yield and no child of P
//     straddles its ends. This is the set of trees that combine, create gap
//     and fill gap can build with null intermediate items (TestN4Condition
//     checks it against the deduction system on every laminar set of up to
//     5 words). Counting only yields of the tree as siblings would reject
//     trees n4 builds, such as one discontinuous node over a bare word,
//     yet give the same best score, since single-word nodes cost nothing.
//
// It returns an error for the other variants, and for n > 7 (Continuous) or
// n > 6 (N4, N3), where enumeration stops being cheap. Cost: the number of
// trees times their size, after a one-off enumeration cached per n (N4:
// 7,872 trees out of 14,080 laminar sets for n = 5, in 0.07 s; 98,688 out
// of 273,408 for n = 6, in about 1 s. Continuous: 25,216 trees for n = 6).
func BestTree(v decode.Variant, s *decode.Scores) (float64, error) {
	score, _, err := bestTree(v, s)
	return score, err
}

// bestTree is BestTree, also returning the first best tree as yields.
func bestTree(v decode.Variant, s *decode.Scores) (float64, []uint64, error) {
	if err := s.Check(); err != nil {
		return 0, nil, err
	}
	maxBlocks := 0
	switch v {
	case decode.Continuous:
		maxBlocks = 1
	case decode.N3, decode.N4:
		maxBlocks = 2
	default:
		return 0, nil, fmt.Errorf("oracle: no tree enumeration for variant %v", v)
	}
	if s.N > maxTreeWords[maxBlocks] {
		return 0, nil, fmt.Errorf("oracle: tree enumeration for %v limited to %d words, got %d", v, maxTreeWords[maxBlocks], s.N)
	}
	f := familyOf(s.N, maxBlocks)
	w := make([]float64, len(f.yields))
	for i, y := range f.yields {
		it, _ := itemOf(y)
		w[i] = itemWeight(s, it)
	}
	best, arg := -1.0, -1
	for t, tree := range f.trees {
		score := 0.0
		for _, y := range tree {
			score += w[y]
		}
		if score > best {
			best, arg = score, t
		}
	}
	var tree []uint64
	for _, y := range f.trees[arg] {
		tree = append(tree, f.yields[y])
	}
	return best, tree, nil
}

// labelled turns a tree of yields into constituents, each with its best
// label, leaving out the yields whose best label weight is not positive
// (null nodes).
func labelled(s *decode.Scores, tree []uint64) []decode.Constituent {
	var out []decode.Constituent
	for _, y := range tree {
		it, _ := itemOf(y)
		best, label := 0.0, -1
		for a := 0; a < s.L; a++ {
			if w := labelWeight(s, it, a); w > best {
				best, label = w, a
			}
		}
		if label >= 0 {
			out = append(out, decode.Constituent{Label: label, Blocks: blocksOf(y)})
		}
	}
	return out
}
