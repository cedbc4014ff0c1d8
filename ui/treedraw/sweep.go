package treedraw

import (
	"cmp"
	"math"
	"slices"
)

// metrics tell the column sweep how much room items take: extent gives the
// room an item needs left of its first column and right of its last, and
// gap the least room between two neighbouring items on a line.
type metrics struct {
	extent func(it item) (left, right float64)
	gap    func(a, b item) float64
	// attach is the least distance between two points where edges meet
	// a bar.
	attach float64
	// snap rounds positions down to whole numbers (for text).
	snap bool
}

// constraint says x[b] - x[a] >= d for columns a < b.
type constraint struct {
	a, b int
	d    float64
}

// columnX returns the x position of every column and the width of the
// drawing. Columns are swept left to right, each put as far left as the
// items to its left allow; then labels between two words are moved right,
// as far as the items to their right allow, towards the middle of the two
// words. Cost O(I log I) for I items.
func columnX(nodes []Node, l lines, cols int, m metrics) (x []float64, width float64) {
	x = make([]float64, cols)
	if cols == 0 {
		return x, 0
	}
	var cons []constraint
	minX := make([]float64, cols)
	right := 0.0
	add := func(line []item) {
		for k, it := range line {
			left, _ := m.extent(it)
			minX[it.lo] = max(minX[it.lo], left)
			if k > 0 {
				prev := line[k-1]
				_, r := m.extent(prev)
				cons = append(cons, constraint{prev.hi, it.lo, r + left + m.gap(prev, it)})
			}
		}
	}
	for r := range l.labels {
		add(l.labels[r])
		add(l.bars[r])
	}
	// Keep apart the points where the children and the stem of a node meet
	// its bar.
	for id := range nodes {
		nd := &nodes[id]
		if unary(nd) {
			continue
		}
		at := make([]int, 0, len(nd.Children)+1)
		at = append(at, nd.Col)
		for _, k := range nd.Children {
			at = append(at, nodes[k].Col)
		}
		slices.Sort(at)
		at = slices.Compact(at)
		for k := 1; k < len(at); k++ {
			cons = append(cons, constraint{at[k-1], at[k], m.attach})
		}
	}
	slices.SortFunc(cons, func(p, q constraint) int { return cmp.Compare(p.b, q.b) })
	k := 0
	for c := range cols {
		x[c] = minX[c]
		if c > 0 {
			x[c] = max(x[c], x[c-1])
		}
		for ; k < len(cons) && cons[k].b == c; k++ {
			x[c] = max(x[c], x[cons[k].a]+cons[k].d)
		}
	}
	// Centre the labels between two words.
	limit := make([]float64, cols)
	for c := range limit {
		limit[c] = math.Inf(1)
	}
	for _, cn := range cons {
		limit[cn.a] = min(limit[cn.a], x[cn.b]-cn.d)
	}
	for id := range nodes {
		c := nodes[id].Col
		if c%2 == 0 || c+1 >= cols {
			continue
		}
		target := (x[c-1] + x[c+1]) / 2
		if m.snap {
			target = math.Floor(target)
		}
		if target > x[c] {
			x[c] = min(target, limit[c])
		}
	}
	for r := range l.labels {
		for _, line := range [2][]item{l.labels[r], l.bars[r]} {
			for _, it := range line {
				_, rt := m.extent(it)
				right = max(right, x[it.hi]+rt)
			}
		}
	}
	return x, right
}
