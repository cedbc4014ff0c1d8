package treedraw

import (
	"slices"

	"github.com/discspan/discspan/chart/tree"
)

// Kind says what a drawn node stands for.
type Kind uint8

// The kinds of drawn nodes.
const (
	Word   Kind = iota // a word of the sentence (row 0)
	Tag                // the part-of-speech tag of a word (row 1)
	Phrase             // a phrasal node, or one part of a merged unary chain
	Root               // the virtual root, drawn when several nodes hang from it
)

// String returns the name of the kind.
func (k Kind) String() string {
	switch k {
	case Word:
		return "word"
	case Tag:
		return "tag"
	case Phrase:
		return "phrase"
	case Root:
		return "root"
	}
	return "kind?"
}

// Node is one drawn label: a word, a tag, a phrase or the virtual root.
//
// Coordinates are in abstract units with the origin at the top left and y
// growing downwards: one x unit is the width of an average character (see
// EstimateWidth and UnitEm), one y unit the height of a label.
type Node struct {
	Kind Kind
	// Index is the token index for words and tags, the index into
	// tree.Tree.Nodes for phrases, and tree.Root for the virtual root.
	Index int
	// Part numbers the nodes drawn for one merged unary chain "A/B/C":
	// 0 for A (the top), 1 for B, and so on. It is 0 otherwise.
	Part  int
	Label string

	Row, Col int     // grid cell: row 0 is the words, column 2i word i
	X, Y     float64 // centre of the label
	W, H     float64 // size of the label (H is 0 for an empty label)

	Parent   int   // index into Grid.Nodes, or -1 for the top node
	Children []int // indices into Grid.Nodes, by leftmost word

	Words         []int       // the word positions the node covers, sorted
	Blocks        []tree.Span // Words as maximal runs of adjacent words
	Discontinuous bool        // more than one block

	// BarY is the height of the horizontal bar joining the node to its
	// children, and Bar its pieces from left to right; Bar is empty for
	// words and for nodes with one child, which are joined by their edge
	// alone. A node is joined to its bar by a vertical stem from the bottom
	// of its label (Y+H/2) down to BarY at X.
	BarY float64
	Bar  []Segment
}

// Segment is a piece of a bar, from X1 to X2 (X1 < X2). Gap marks the
// pieces that lie above a gap of a discontinuous node: above the words
// between two of its blocks.
type Segment struct {
	X1, X2 float64
	Gap    bool
}

// Edge is the vertical line from a child's label up to its parent's bar
// (or, for a parent with one child, to the parent's label).
type Edge struct {
	Parent, Child int     // indices into Grid.Nodes
	X             float64 // the child's column
	Top, Bottom   float64 // Top < Bottom: the bar end and the child's label top
	// Crossing marks an edge that crosses another node's bar; renderers
	// draw it last, over a gap in the bar.
	Crossing bool
}

// Grid is a laid-out tree. Nodes holds the words first (Nodes[i] is word
// i), then the tags when they are shown (Nodes[Words+i] is the tag of word
// i), then the phrases in the order they were placed (children before
// parents), then the virtual root if one is drawn.
type Grid struct {
	Nodes []Node
	Edges []Edge // one per node that has a parent, children before parents
	Words int    // number of words
	Tags  bool   // whether tag nodes are drawn

	Rows, Cols    int       // grid size: Cols is 2·Words-1 (0 for no words)
	Width, Height float64   // extent of the drawing in abstract units
	ColX          []float64 // x of each column
	RowY          []float64 // y of the centre of the labels of each row
}

// PhraseNodes returns, for every index into tree.Tree.Nodes, the indices
// into g.Nodes of the nodes drawn for it (more than one for a merged unary
// chain, top first).
func (g *Grid) PhraseNodes() map[int][]int {
	m := make(map[int][]int)
	for i, n := range g.Nodes {
		if n.Kind == Phrase {
			m[n.Index] = append(m[n.Index], i)
		}
	}
	for _, ids := range m {
		slices.SortFunc(ids, func(a, b int) int { return g.Nodes[a].Part - g.Nodes[b].Part })
	}
	return m
}
