package treedraw

import (
	"strings"
)

// box holds the characters a text drawing is made of.
type box struct {
	bar, gap, vert               string // horizontal, horizontal over a gap, vertical
	left, right, down, up, cross string // ┌ ┐ ┬ ┴ ┼
	leftUp, rightUp              string // ├ ┤: an end child straight below the parent
}

func unicodeBox() box {
	return box{"─", "╌", "│", "┌", "┐", "┬", "┴", "┼", "├", "┤"}
}

func asciiBox() box {
	return box{"-", ".", "|", "+", "+", "+", "+", "+", "+", "+"}
}

// Text draws g with Unicode box-drawing characters, one line per row of
// labels and one per row of bars, like disco-dop's text trees: bars join
// each node to its children, a bar above a gap of a discontinuous node is
// dashed (╌), and an edge that crosses a bar cuts it (─│─) where a child
// joins it with a junction (─┬─). Positions are recomputed from the grid
// with one character per rune (two for wide characters), so the result
// lines up in a terminal whatever Options.Measure was. Every line ends in
// a newline, without trailing spaces; an empty grid gives "".
func Text(g *Grid) string { return drawText(g, unicodeBox()) }

// ASCII draws g like Text with ASCII characters only: '-' bars, '.' over
// gaps, '|' edges and '+' junctions.
func ASCII(g *Grid) string { return drawText(g, asciiBox()) }

func drawText(g *Grid, b box) string {
	if g.Rows == 0 {
		return ""
	}
	nodes := g.Nodes
	width := func(id int) int { return max(textWidth(nodes[id].Label), 1) }
	l := collectLines(nodes, g.Rows)
	xs, w := columnX(nodes, l, g.Cols, metrics{
		extent: func(it item) (float64, float64) {
			if it.kind != itemLabel {
				return 0, 0
			}
			n := width(it.id)
			left := (n - 1) / 2
			return float64(left), float64(n - 1 - left)
		},
		gap:    func(a, b item) float64 { return 2 },
		attach: 2,
		snap:   true,
	})
	x := make([]int, len(xs))
	for c, v := range xs {
		x[c] = int(v)
	}
	// canvas[line][column] is the text of one terminal cell: "" after a
	// wide character, a letter with its combining marks.
	canvas := make([][]string, 2*g.Rows-1)
	for k := range canvas {
		canvas[k] = make([]string, int(w)+1)
		for c := range canvas[k] {
			canvas[k][c] = " "
		}
	}
	labelLine := func(row int) []string { return canvas[2*(g.Rows-1-row)] }
	barLine := func(row int) []string { return canvas[2*(g.Rows-1-row)+1] }
	// Bars with their junctions.
	for id := range nodes {
		nd := &nodes[id]
		if unary(nd) {
			continue
		}
		line := barLine(nd.Row)
		lo, hi := barSpan(nodes, nd)
		segs := barSegments(nd, xs, xs[lo], xs[hi])
		for _, gap := range [2]bool{false, true} { // gaps win at their ends
			for _, s := range segs {
				if s.Gap != gap {
					continue
				}
				ch := b.bar
				if s.Gap {
					ch = b.gap
				}
				for c := int(s.X1); c <= int(s.X2); c++ {
					line[c] = ch
				}
			}
		}
		isChild := false
		for _, k := range nd.Children {
			c := nodes[k].Col
			isChild = isChild || c == nd.Col
			switch c {
			case lo:
				line[x[c]] = b.left
			case hi:
				line[x[c]] = b.right
			default:
				line[x[c]] = b.down
			}
		}
		switch {
		case !isChild:
			line[x[nd.Col]] = b.up
		case nd.Col == lo:
			line[x[nd.Col]] = b.leftUp
		case nd.Col == hi:
			line[x[nd.Col]] = b.rightUp
		default:
			line[x[nd.Col]] = b.cross
		}
	}
	// Edges, over the bars they cross.
	for id := range nodes {
		nd := &nodes[id]
		if nd.Parent < 0 {
			continue
		}
		p := &nodes[nd.Parent]
		c := x[nd.Col]
		for r := nd.Row + 1; r < p.Row; r++ {
			labelLine(r)[c] = b.vert
		}
		end := p.Row - 1
		if unary(p) {
			end = p.Row
		}
		for r := nd.Row + 1; r <= end; r++ {
			barLine(r)[c] = b.vert
		}
	}
	// Labels; an empty label continues its edges.
	for id := range nodes {
		nd := &nodes[id]
		line := labelLine(nd.Row)
		if nd.Label == "" {
			line[x[nd.Col]] = b.vert
			continue
		}
		start := x[nd.Col] - (width(id)-1)/2
		c := start
		forEachCluster(nd.Label, func(cluster string, cells int) {
			line[c] = cluster
			for k := 1; k < cells; k++ {
				line[c+k] = ""
			}
			c += cells
		})
	}
	var sb strings.Builder
	for _, line := range canvas {
		sb.WriteString(strings.TrimRight(strings.Join(line, ""), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}
