package treedraw

// placer assigns grid cells to nodes, children before parents.
//
// It keeps a skyline per column: above the highest label or edge in a
// column nothing has been drawn yet. A new label must go above the skyline
// of its column, and a column whose top label still waits for the edge to
// its parent (pending) is closed to every label but that parent's, since
// the edge will run up through it. Each row also keeps the column
// intervals taken by the bars of its nodes (a unary node takes its own
// column); bars in one row may not touch.
type placer struct {
	nodes   []Node
	top     []int      // per column: highest row with a label or edge, -1 if none
	pending []int      // per column: node whose edge to its parent is not drawn yet, or -1
	spans   [][][2]int // per row: column intervals [lo, hi] of the bars in it
}

func newPlacer(nodes []Node, cols int) *placer {
	p := &placer{nodes: nodes, top: make([]int, cols), pending: make([]int, cols)}
	for c := range cols {
		p.top[c], p.pending[c] = -1, -1
	}
	return p
}

// put puts node id in cell (row, col): the edges from its children now end
// at its bar, and its own edge is pending.
func (p *placer) put(id, row, col int) {
	nd := &p.nodes[id]
	nd.Row, nd.Col = row, col
	lo, hi := col, col
	for _, k := range nd.Children {
		c := p.nodes[k].Col
		lo, hi = min(lo, c), max(hi, c)
		p.pending[c] = -1
		p.top[c] = max(p.top[c], row-1)
	}
	p.top[col] = row
	if nd.Parent >= 0 {
		p.pending[col] = id
	}
	for len(p.spans) <= row {
		p.spans = append(p.spans, nil)
	}
	p.spans[row] = append(p.spans[row], [2]int{lo, hi})
}

// rowFree reports whether no bar of row touches the columns lo..hi.
func (p *placer) rowFree(row, lo, hi int) bool {
	if row >= len(p.spans) {
		return true
	}
	for _, s := range p.spans[row] {
		if s[0] <= hi && lo <= s[1] {
			return false
		}
	}
	return true
}

// cellFree reports whether node id may have its label in (row, col).
func (p *placer) cellFree(id, row, col int) bool {
	if q := p.pending[col]; q >= 0 {
		return p.nodes[q].Parent == id
	}
	return row > p.top[col]
}

// place finds the cell of node id, whose children are all placed: the
// lowest row above them whose bar interval is free, at the centre of the
// node's words or the nearest free column between its outer children. A
// unary node goes straight above its child. There is always such a cell:
// in a row above all others the columns of the children are free.
func (p *placer) place(id int) {
	nd := &p.nodes[id]
	lo, hi, low := len(p.top), -1, 0
	sum := 0
	for _, k := range nd.Children {
		c := p.nodes[k]
		lo, hi = min(lo, c.Col), max(hi, c.Col)
		low = max(low, c.Row+1)
		sum += c.Col
	}
	centre := lo
	if lo < hi {
		centre = roundDiv(2*sumInts(nd.Words), len(nd.Words))
		if centre <= lo || centre >= hi {
			centre = roundDiv(sum, len(nd.Children))
		}
	}
	for row := low; ; row++ {
		if !p.rowFree(row, lo, hi) {
			continue
		}
		for d := 0; d <= hi-lo; d++ {
			for _, c := range [2]int{centre + d, centre - d} {
				if c >= lo && c <= hi && p.cellFree(id, row, c) {
					p.put(id, row, c)
					return
				}
			}
		}
		if row > len(p.spans)+1 {
			panic("treedraw: internal error: no free cell for a node")
		}
	}
}

func sumInts(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// roundDiv returns a/b rounded to the nearest integer, halves up; a >= 0,
// b > 0.
func roundDiv(a, b int) int { return (2*a + b) / (2 * b) }
