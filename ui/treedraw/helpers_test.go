package treedraw

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// parse reads one discbracket tree, failing the test on error.
func parse(t testing.TB, s string) *tree.Tree {
	t.Helper()
	trees, err := treebank.ReadDiscbracket(strings.NewReader(s), "test")
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	if len(trees) != 1 {
		t.Fatalf("parse %q: %d trees, want 1", s, len(trees))
	}
	return trees[0]
}

// checkGrid returns the broken layout invariants of g, a layout of t.
func checkGrid(t *tree.Tree, g *Grid) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	n := len(t.Tokens)
	if g.Words != n {
		fail("Words = %d, want %d", g.Words, n)
	}
	// Words in order on the bottom row, tags right above them.
	for i := 0; i < n && i < len(g.Nodes); i++ {
		w := g.Nodes[i]
		if w.Kind != Word || w.Index != i || w.Label != t.Tokens[i].Word || w.Row != 0 || w.Col != 2*i {
			fail("node %d = %v %d %q at (%d,%d), want word %d %q at (0,%d)", i, w.Kind, w.Index, w.Label, w.Row, w.Col, i, t.Tokens[i].Word, 2*i)
		}
		if i > 0 && !(w.X > g.Nodes[i-1].X) {
			fail("word %d at x=%g, not right of word %d at %g", i, w.X, i-1, g.Nodes[i-1].X)
		}
		if g.Tags {
			tg := g.Nodes[n+i]
			if tg.Kind != Tag || tg.Index != i || tg.Row != 1 || tg.Col != 2*i || tg.Label != t.Tokens[i].Tag {
				fail("node %d = %v %d at (%d,%d), want tag %d at (1,%d)", n+i, tg.Kind, tg.Index, tg.Row, tg.Col, i, 2*i)
			}
		}
	}
	cells := map[[2]int]int{}
	roots := 0
	for id, nd := range g.Nodes {
		if other, ok := cells[[2]int{nd.Row, nd.Col}]; ok {
			fail("nodes %d and %d share cell (%d,%d)", other, id, nd.Row, nd.Col)
		}
		cells[[2]int{nd.Row, nd.Col}] = id
		if nd.Row < 0 || nd.Row >= g.Rows || nd.Col < 0 || nd.Col >= g.Cols {
			fail("node %d at (%d,%d) outside the %dx%d grid", id, nd.Row, nd.Col, g.Rows, g.Cols)
		}
		if nd.Parent < 0 {
			roots++
		}
		if len(nd.Words) == 0 {
			fail("node %d covers no word", id)
			continue
		}
		if lo, hi := 2*nd.Words[0], 2*nd.Words[len(nd.Words)-1]; nd.Col < lo || nd.Col > hi {
			fail("node %d (%s) in column %d, outside its span %d..%d", id, nd.Label, nd.Col, lo, hi)
		}
		for _, k := range nd.Children {
			if g.Nodes[k].Row >= nd.Row {
				fail("node %d (%s) in row %d, not above its child %d in row %d", id, nd.Label, nd.Row, k, g.Nodes[k].Row)
			}
			if g.Nodes[k].Parent != id {
				fail("child %d of node %d has parent %d", k, id, g.Nodes[k].Parent)
			}
		}
		if !slices.IsSortedFunc(nd.Children, func(a, b int) int { return g.Nodes[a].Words[0] - g.Nodes[b].Words[0] }) {
			fail("children of node %d not sorted by leftmost word", id)
		}
		if len(nd.Children) == 1 && g.Nodes[nd.Children[0]].Col != nd.Col {
			fail("unary node %d (%s) not straight above its child", id, nd.Label)
		}
	}
	if len(g.Nodes) > 0 && roots != 1 {
		fail("%d nodes without a parent, want 1", roots)
	}
	// Every phrase of t is drawn, with its words.
	yields := t.Yields()
	for j, tn := range t.Nodes {
		parts := 0
		for _, nd := range g.Nodes {
			if nd.Kind == Phrase && nd.Index == j {
				parts++
				if !slices.Equal(nd.Words, yields[j]) {
					fail("phrase %d (%s) covers %v, want %v", j, tn.Label, nd.Words, yields[j])
				}
			}
		}
		if want := len(splitChain(tn.Label)); parts != want {
			fail("phrase %d (%s) drawn %d times, want %d", j, tn.Label, parts, want)
		}
	}
	// No edge runs through a label; bars in a row do not touch.
	for _, e := range g.Edges {
		q, p := g.Nodes[e.Child], g.Nodes[e.Parent]
		for r := q.Row + 1; r < p.Row; r++ {
			if id, ok := cells[[2]int{r, q.Col}]; ok {
				fail("edge %d->%d runs through node %d (%s)", e.Parent, e.Child, id, g.Nodes[id].Label)
			}
		}
		if !(e.Top < e.Bottom) {
			fail("edge %d->%d from y=%g to %g", e.Parent, e.Child, e.Top, e.Bottom)
		}
		// Crossing iff the edge passes strictly inside another node's bar.
		cross := false
		for m, nd := range g.Nodes {
			if m != e.Parent && len(nd.Bar) > 0 && nd.BarY > e.Top && nd.BarY < e.Bottom &&
				nd.Bar[0].X1 < e.X && e.X < nd.Bar[len(nd.Bar)-1].X2 {
				cross = true
			}
		}
		if cross != e.Crossing {
			fail("edge %d->%d: Crossing = %v, want %v", e.Parent, e.Child, e.Crossing, cross)
		}
	}
	if want := len(g.Nodes) - roots; len(g.Edges) != want {
		fail("%d edges, want %d", len(g.Edges), want)
	}
	type span struct {
		lo, hi float64
		id     int
	}
	labels := map[int][]span{}
	bars := map[int][]span{}
	for id, nd := range g.Nodes {
		labels[nd.Row] = append(labels[nd.Row], span{nd.X - nd.W/2, nd.X + nd.W/2, id})
		if len(nd.Bar) > 0 {
			bars[nd.Row] = append(bars[nd.Row], span{nd.Bar[0].X1, nd.Bar[len(nd.Bar)-1].X2, id})
		} else if len(nd.Children) > 0 {
			bars[nd.Row] = append(bars[nd.Row], span{nd.X, nd.X, id})
		}
		if nd.X-nd.W/2 < -1e-9 || nd.X+nd.W/2 > g.Width+1e-9 {
			fail("node %d (%s) sticks out of the drawing", id, nd.Label)
		}
	}
	for _, m := range []map[int][]span{labels, bars} {
		for r, ss := range m {
			slices.SortFunc(ss, func(a, b span) int { return int(math.Copysign(1, a.lo-b.lo)) })
			for k := 1; k < len(ss); k++ {
				if !(ss[k].lo > ss[k-1].hi) {
					fail("row %d: nodes %d and %d overlap or touch (%g..%g, %g..%g)", r, ss[k-1].id, ss[k].id, ss[k-1].lo, ss[k-1].hi, ss[k].lo, ss[k].hi)
				}
			}
		}
	}
	return bad
}
