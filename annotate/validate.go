package annotate

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// ProblemKind is the kind of a Problem.
type ProblemKind int

// The kinds of problems Validate reports.
const (
	// BadParent: a parent or secondary parent index out of range.
	BadParent ProblemKind = iota
	// Cycle: a node whose parent links lead back to itself.
	Cycle
	// EmptyNode: a node that dominates no word.
	EmptyNode
	// BlockDegree: a node with more blocks than the variant allows.
	BlockDegree
	// UnknownLabel: a node label that is not among the known labels.
	UnknownLabel
	// UnattachedWord: a word attached to the virtual root of a tree that
	// has structure (see Validate); punctuation is exempt.
	UnattachedWord
	// MissingFixed: a fixed constituent that no node of the tree matches.
	MissingFixed
	// ForbiddenPresent: a node whose yield is forbidden.
	ForbiddenPresent
	// Unwritable: a tree that a treebank format the corpus exports to
	// cannot write so that it reads back the same (a word "#1" or "#BOS"
	// in export; see chart/treebank's writers).
	Unwritable
)

var problemNames = [...]string{"bad parent", "cycle", "empty node", "block degree", "unknown label", "unattached word", "missing fixed constituent", "forbidden constituent", "unwritable"}

// String returns a short name of the kind, e.g. "empty node".
func (k ProblemKind) String() string {
	if k >= 0 && int(k) < len(problemNames) {
		return problemNames[k]
	}
	return fmt.Sprintf("ProblemKind(%d)", int(k))
}

// Problem is something wrong with a sentence, for the user interface to
// mark.
type Problem struct {
	Kind ProblemKind
	Node int    // index into Tree.Nodes of the node concerned, or -1
	Word int    // index of the word concerned, or -1
	Msg  string // what is wrong, for people
}

// String returns the message.
func (p Problem) String() string { return p.Msg }

// Validate lists the problems of a sentence: those of ValidateTree, and
// fixed constituents that no node matches (MissingFixed) and nodes over a
// forbidden yield (ForbiddenPresent), which a consistent editing history
// never gives but a hand-edited project file might.
func Validate(s *Sentence, maxBlockDegree int, knownLabels map[string]bool) []Problem {
	t := s.Tree()
	probs := ValidateTree(t, maxBlockDegree, knownLabels)
	for _, p := range probs {
		if p.Kind == BadParent || p.Kind == Cycle {
			return probs
		}
	}
	_, missing := matchFixed(t, s.cur.fixed)
	for _, f := range missing {
		probs = append(probs, Problem{Kind: MissingFixed, Node: -1, Word: -1,
			Msg: fmt.Sprintf("fixed constituent %s is not in the tree", f)})
	}
	if len(s.cur.forbidden) > 0 {
		bad := make(map[string]bool, len(s.cur.forbidden))
		for _, y := range s.cur.forbidden {
			bad[y.String()] = true
		}
		for i, y := range t.Yields() {
			if y := YieldOf(y); len(y) > 0 && bad[y.String()] {
				probs = append(probs, Problem{Kind: ForbiddenPresent, Node: i, Word: -1,
					Msg: fmt.Sprintf("node %d (%s) covers the deleted constituent %s", i, orNone(t.Nodes[i].Label), y)})
			}
		}
	}
	return probs
}

// ValidateTree lists the problems of a tree, in this order: parent indices
// out of range (BadParent) and nodes on cycles (Cycle), after which the
// checks that need yields are left out; then, node by node, nodes that
// dominate no word (EmptyNode), nodes with more than maxBlockDegree blocks
// (BlockDegree; no limit when maxBlockDegree <= 0; blocks are counted on
// the tree as it is, punctuation included), labels not in knownLabels
// (UnknownLabel; not checked when knownLabels is nil); then the export
// formats that cannot write the tree (Unwritable: export, discbracket,
// TIGER-XML, each with the writer's reason); then unattached words.
//
// A word is unattached when it hangs directly from the virtual root while
// the tree has a node attached to the virtual root that covers at least
// one word (so a tree without phrase structure has no unattached words),
// and the word is not punctuation as proper.prm defines it (a punctuation
// tag of NEGRA/TIGER, Alpino or the PTB, or a punctuation word), since the
// treebanks attach punctuation to the root.
func ValidateTree(t *tree.Tree, maxBlockDegree int, knownLabels map[string]bool) []Problem {
	var probs []Problem
	n := len(t.Nodes)
	bad := func(p int) bool { return p != tree.Root && (p < 0 || p >= n) }
	for i, tok := range t.Tokens {
		if bad(tok.Parent) {
			probs = append(probs, Problem{BadParent, -1, i, fmt.Sprintf("word %d (%q): parent %d out of range", i, tok.Word, tok.Parent)})
		}
		for _, s := range tok.Sec {
			if bad(s.Parent) {
				probs = append(probs, Problem{BadParent, -1, i, fmt.Sprintf("word %d (%q): secondary parent %d out of range", i, tok.Word, s.Parent)})
			}
		}
	}
	for i, nd := range t.Nodes {
		if bad(nd.Parent) {
			probs = append(probs, Problem{BadParent, i, -1, fmt.Sprintf("node %d (%s): parent %d out of range", i, orNone(nd.Label), nd.Parent)})
		}
		for _, s := range nd.Sec {
			if bad(s.Parent) {
				probs = append(probs, Problem{BadParent, i, -1, fmt.Sprintf("node %d (%s): secondary parent %d out of range", i, orNone(nd.Label), s.Parent)})
			}
		}
	}
	if len(probs) == 0 {
		for _, i := range cycleNodes(t) {
			probs = append(probs, Problem{Cycle, i, -1, fmt.Sprintf("node %d (%s) is its own ancestor", i, orNone(t.Nodes[i].Label))})
		}
	}
	broken := len(probs) > 0
	var yields [][]int
	if !broken {
		yields = t.Yields()
	}
	for i, nd := range t.Nodes {
		if !broken {
			y := yields[i]
			if len(y) == 0 {
				probs = append(probs, Problem{EmptyNode, i, -1, fmt.Sprintf("node %d (%s) covers no word", i, orNone(nd.Label))})
			} else if bd := tree.BlockDegree(y); maxBlockDegree > 0 && bd > maxBlockDegree {
				probs = append(probs, Problem{BlockDegree, i, -1, fmt.Sprintf("node %d (%s) has %d blocks; at most %d allowed", i, orNone(nd.Label), bd, maxBlockDegree)})
			}
		}
		if knownLabels != nil && !knownLabels[nd.Label] {
			probs = append(probs, Problem{UnknownLabel, i, -1, fmt.Sprintf("node %d: unknown label %q", i, nd.Label)})
		}
	}
	if broken {
		return probs
	}
	probs = append(probs, unwritable(t, probs)...)
	structured := false
	for i, nd := range t.Nodes {
		if nd.Parent == tree.Root && len(yields[i]) > 0 {
			structured = true
			break
		}
	}
	if !structured {
		return probs
	}
	p := eval.ProperPrm()
	for i, tok := range t.Tokens {
		if tok.Parent != tree.Root || p.DeleteLabel[eval.NormalizeTag(tok.Tag, p)] || p.DeleteWord[tok.Word] {
			continue
		}
		probs = append(probs, Problem{UnattachedWord, -1, i, fmt.Sprintf("word %d (%q) is not attached to any constituent", i, tok.Word)})
	}
	return probs
}

// exportFormats are the formats the annotation tab exports to, with their
// names there.
var exportFormats = []struct {
	format treebank.Format
	name   string
}{{treebank.Export, "export"}, {treebank.Discbracket, "discbracket"}, {treebank.TigerXML, "TIGER-XML"}}

// unwritable lists, as Unwritable problems, the formats that cannot write
// t, with the writer's reason. A format refused only for the empty nodes
// already listed in probs (discbracket) adds nothing.
func unwritable(t *tree.Tree, probs []Problem) []Problem {
	empty := slices.ContainsFunc(probs, func(p Problem) bool { return p.Kind == EmptyNode })
	var out []Problem
	for _, f := range exportFormats {
		if empty && f.format == treebank.Discbracket {
			continue
		}
		err := treebank.Write(io.Discard, []*tree.Tree{t}, f.format)
		var we *treebank.WriteError
		switch {
		case errors.As(err, &we):
			out = append(out, Problem{Unwritable, -1, -1, fmt.Sprintf("cannot be exported as %s: %v", f.name, we.Err)})
		case err != nil:
			out = append(out, Problem{Unwritable, -1, -1, fmt.Sprintf("cannot be exported as %s: %v", f.name, err)})
		}
	}
	return out
}

// cycleNodes returns the nodes that lie on a cycle of parent links, in
// increasing order. Parent indices must be in range.
func cycleNodes(t *tree.Tree) []int {
	const (
		unseen = iota
		onPath
		done
	)
	n := len(t.Nodes)
	state := make([]uint8, n)
	onCycle := make([]bool, n)
	var path []int
	for i := range n {
		path = path[:0]
		p := i
		for p != tree.Root && state[p] == unseen {
			state[p] = onPath
			path = append(path, p)
			p = t.Nodes[p].Parent
		}
		if p != tree.Root && state[p] == onPath {
			// p and the nodes after it on the path form the cycle.
			for k := len(path) - 1; k >= 0; k-- {
				onCycle[path[k]] = true
				if path[k] == p {
					break
				}
			}
		}
		for _, q := range path {
			state[q] = done
		}
	}
	var out []int
	for i, c := range onCycle {
		if c {
			out = append(out, i)
		}
	}
	return out
}
