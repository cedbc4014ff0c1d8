package treedraw

import "github.com/discspan/discspan/chart/tree"

// Layout places the nodes of t on a grid and computes the coordinates of
// labels, bars and edges (see the package documentation for the rules). It
// does not change t. It returns an error when t is not valid (see
// tree.Tree.Validate) or has a phrase that covers no word. An empty tree
// gives an empty Grid.
//
// Cost O(N·R + N log N) time and O(N·R) memory for N drawn nodes and R
// rows.
func Layout(t *tree.Tree, opt Options) (*Grid, error) {
	nodes, order, err := skeleton(t, opt)
	if err != nil {
		return nil, err
	}
	n := len(t.Tokens)
	g := &Grid{Nodes: nodes, Words: n, Tags: opt.ShowTags}
	if n == 0 {
		return g, nil
	}
	g.Cols = 2*n - 1
	p := newPlacer(nodes, g.Cols)
	for i := range n {
		p.put(i, 0, 2*i)
	}
	if opt.ShowTags {
		for i := range n {
			p.put(n+i, 1, 2*i)
		}
	}
	for _, id := range order {
		p.place(id)
	}
	for id := range nodes {
		g.Rows = max(g.Rows, nodes[id].Row+1)
	}
	measure := opt.measure()
	sp := opt.spacing()
	for id := range nodes {
		nodes[id].W = measure(nodes[id].Label)
		if k := nodes[id].Kind; k == Phrase || k == Root {
			nodes[id].W *= BoldScale
		}
		if nodes[id].Label != "" {
			nodes[id].H = labelHeight
		}
	}
	l := collectLines(nodes, g.Rows)
	g.ColX, g.Width = columnX(nodes, l, g.Cols, metrics{
		extent: func(it item) (float64, float64) {
			if it.kind == itemLabel {
				w := nodes[it.id].W / 2
				return w, w
			}
			return 0, 0
		},
		gap: func(a, b item) float64 {
			switch {
			case a.kind == itemBar || b.kind == itemBar:
				return sp.bar
			case a.kind == itemLine || b.kind == itemLine:
				return sp.line
			}
			return sp.label
		},
		attach: sp.line,
	})
	pitch := opt.pitch()
	g.RowY = make([]float64, g.Rows)
	for r := range g.Rows {
		g.RowY[r] = float64(g.Rows-1-r)*pitch + labelHeight/2
	}
	g.Height = float64(g.Rows-1)*pitch + labelHeight
	drop := opt.barDrop() * (pitch - labelHeight)
	for id := range nodes {
		nd := &nodes[id]
		nd.X, nd.Y = g.ColX[nd.Col], g.RowY[nd.Row]
		nd.BarY = nd.Y + labelHeight/2 + drop
	}
	for id := range nodes {
		nd := &nodes[id]
		if !unary(nd) {
			lo, hi := barSpan(nodes, nd)
			nd.Bar = barSegments(nd, g.ColX, g.ColX[lo], g.ColX[hi])
		}
	}
	g.Edges = edges(nodes)
	return g, nil
}

// barSegments splits the bar of nd from x1 to x2 at the edges of its gaps:
// the pieces above the words between two of its blocks have Gap set. A gap
// runs from midway between the last word of a block and the first word
// after it to midway between the last word before the next block and that
// block's first word.
func barSegments(nd *Node, colX []float64, x1, x2 float64) []Segment {
	var segs []Segment
	at := x1
	emit := func(to float64, gap bool) {
		to = min(to, x2)
		if to > at {
			segs = append(segs, Segment{at, to, gap})
			at = to
		}
	}
	for j := 0; j+1 < len(nd.Blocks); j++ {
		e, s := nd.Blocks[j].End, nd.Blocks[j+1].Start
		a := (colX[2*(e-1)] + colX[2*e]) / 2
		b := (colX[2*(s-1)] + colX[2*s]) / 2
		emit(a, false)
		emit(b, true)
	}
	emit(x2, false)
	return segs
}

// edges returns the edge from every node to its parent, with Crossing set
// for those that cross the bar of a node in a row between the two.
func edges(nodes []Node) []Edge {
	byRow := map[int][]int{}
	for id := range nodes {
		if !unary(&nodes[id]) {
			byRow[nodes[id].Row] = append(byRow[nodes[id].Row], id)
		}
	}
	var es []Edge
	for id := range nodes {
		nd := &nodes[id]
		if nd.Parent < 0 {
			continue
		}
		p := &nodes[nd.Parent]
		e := Edge{Parent: nd.Parent, Child: id, X: nd.X, Top: p.BarY, Bottom: nd.Y - nd.H/2}
		if unary(p) {
			e.Top = p.Y + p.H/2
		}
		for r := nd.Row + 1; r < p.Row && !e.Crossing; r++ {
			for _, m := range byRow[r] {
				lo, hi := barSpan(nodes, &nodes[m])
				if lo < nd.Col && nd.Col < hi {
					e.Crossing = true
					break
				}
			}
		}
		es = append(es, e)
	}
	return es
}
