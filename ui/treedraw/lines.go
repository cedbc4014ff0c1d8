package treedraw

import (
	"cmp"
	"slices"
)

// itemKind is what occupies part of a line of the drawing.
type itemKind uint8

const (
	itemLabel itemKind = iota // a label, in a label line
	itemLine                  // a vertical edge passing through
	itemBar                   // a horizontal bar, in a bar line
)

// item is something drawn on one line of the drawing over the columns
// lo..hi; id is the node of a label or bar.
type item struct {
	kind   itemKind
	lo, hi int
	id     int
}

// lines lists what each line of the drawing holds, left to right: label
// lines (one per row) hold labels and the edges passing through them; bar
// lines (one below each row but the words) hold the bars of the row's nodes
// and the edges passing through, except those that cross a bar.
type lines struct {
	labels [][]item // by row
	bars   [][]item // by row: the bar line below the row's labels
}

// unary reports whether nd is joined to its only child by its edge alone.
func unary(nd *Node) bool { return len(nd.Children) < 2 }

// barSpan returns the columns of the bar of a node with two children or
// more: from its leftmost to its rightmost child.
func barSpan(nodes []Node, nd *Node) (lo, hi int) {
	lo, hi = nd.Col, nd.Col
	for _, k := range nd.Children {
		lo, hi = min(lo, nodes[k].Col), max(hi, nodes[k].Col)
	}
	return lo, hi
}

func collectLines(nodes []Node, rows int) lines {
	l := lines{labels: make([][]item, rows), bars: make([][]item, rows)}
	for id := range nodes {
		nd := &nodes[id]
		l.labels[nd.Row] = append(l.labels[nd.Row], item{itemLabel, nd.Col, nd.Col, id})
		if !unary(nd) {
			lo, hi := barSpan(nodes, nd)
			l.bars[nd.Row] = append(l.bars[nd.Row], item{itemBar, lo, hi, id})
		}
		if nd.Parent < 0 {
			continue
		}
		p := &nodes[nd.Parent]
		for r := nd.Row + 1; r < p.Row; r++ {
			l.labels[r] = append(l.labels[r], item{itemLine, nd.Col, nd.Col, id})
			l.bars[r] = append(l.bars[r], item{itemLine, nd.Col, nd.Col, id})
		}
		if unary(p) {
			l.bars[p.Row] = append(l.bars[p.Row], item{itemLine, nd.Col, nd.Col, id})
		}
	}
	byCol := func(a, b item) int { return cmp.Compare(a.lo, b.lo) }
	for r := range rows {
		slices.SortFunc(l.labels[r], byCol)
		slices.SortFunc(l.bars[r], byCol)
		l.bars[r] = dropCrossing(l.bars[r])
	}
	return l
}

// dropCrossing removes from a sorted bar line the edges that cross a bar.
func dropCrossing(line []item) []item {
	out := line[:0]
	end := -1 // rightmost column of the bars so far
	for _, it := range line {
		if it.kind == itemBar {
			end = max(end, it.hi)
			out = append(out, it)
			continue
		}
		if it.lo < end {
			continue
		}
		out = append(out, it)
	}
	return out
}
