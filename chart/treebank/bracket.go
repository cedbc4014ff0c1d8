package treebank

import (
	"slices"
	"strconv"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// Token kinds of bracketed text.
const (
	tokNone  = iota // end of the text
	tokOpen         // "("
	tokClose        // ")"
	tokAtom         // a label or a leaf: anything up to white space or a bracket
)

// scan returns the kind and the extent [start,end) of the token of b at or
// after pos.
func scan(b []byte, pos int) (kind, start, end int) {
	for pos < len(b) && isSpace(b[pos]) {
		pos++
	}
	switch {
	case pos >= len(b):
		return tokNone, pos, pos
	case b[pos] == '(':
		return tokOpen, pos, pos + 1
	case b[pos] == ')':
		return tokClose, pos, pos + 1
	}
	end = pos
	for end < len(b) && !isSpace(b[end]) && b[end] != '(' && b[end] != ')' {
		end++
	}
	return tokAtom, pos, end
}

// bracket is one bracket of a tree being read: a phrase (with bracketed
// children), a preterminal (with one word) or the outermost bracket.
type bracket struct {
	label     string // label as written (not decoded); "" when absent
	parent    int    // index of the enclosing bracket; -1 for the outermost
	line, col int    // position of the "("
	nkids     int    // number of bracketed children
	hasWord   bool   // a preterminal: word is its leaf
	word      string // leaf as written
	wordLine  int
	wordCol   int
}

// bracketParser collects the brackets of one tree, in pre-order, from the
// tokens of its text. The first error is kept and the rest of the tree is
// only counted (its brackets are not kept), so that reading can go on
// after it with no more memory.
type bracketParser struct {
	name      string
	brs       []bracket
	stack     []int // indices of the open brackets
	wantLabel bool  // the last token was "("
	err       *Error
	counted   int // brackets opened after the error and still open
	words     int // preterminals with a word

	// Scratch space and shared strings of build.
	at     []int
	nodeOf []int
	intern map[string]string
}

func (p *bracketParser) reset() {
	p.brs, p.stack, p.wantLabel, p.err, p.counted, p.words = p.brs[:0], p.stack[:0], false, nil, 0, 0
}

// depth returns the number of open brackets.
func (p *bracketParser) depth() int { return len(p.stack) + p.counted }

// refuse makes the tree being read fail with a copy of e (unless it has
// failed already): the rest of it is only counted.
func (p *bracketParser) refuse(e *Error) {
	if p.err == nil {
		c := *e
		p.err = &c
	}
}

func (p *bracketParser) fail(line, col int, format string, args ...any) {
	if p.err == nil {
		p.err = errorf(p.name, line, col, format, args...)
	}
}

// open handles a "(".
func (p *bracketParser) open(line, col int) {
	p.wantLabel = true
	switch {
	case p.err != nil:
	case len(p.brs) >= MaxBrackets:
		p.fail(line, col, "%s", limitText("brackets in one tree", MaxBrackets))
	case len(p.brs) == MaxBrackets-1 && !isRootLabel(p.brs[0].label):
		// As for MaxDepth below: written back, the tree has a ROOT
		// bracket more.
		p.fail(line, col, "(%s, the outermost bracket, is a phrase: with the (ROOT bracket around it, %s", clipStr(p.brs[0].label), limitText("brackets in one tree", MaxBrackets))
	case len(p.stack) >= MaxDepth:
		p.fail(line, col, "%s", limitText("brackets nested in one another", MaxDepth))
	case len(p.stack) == MaxDepth-1 && !isRootLabel(p.brs[0].label):
		// The outermost bracket is a phrase (a preterminal has failed
		// already): the tree is written with a ROOT bracket around it.
		p.fail(line, col, "(%s, the outermost bracket, is a phrase: with the (ROOT bracket around it, %s", clipStr(p.brs[0].label), limitText("brackets nested in one another", MaxDepth))
	}
	if p.err != nil {
		p.counted++
		return
	}
	parent := -1
	if len(p.stack) > 0 {
		parent = p.stack[len(p.stack)-1]
		b := &p.brs[parent]
		if b.hasWord {
			p.fail(line, col, "bracket after the word %q of preterminal (%s", b.word, b.label)
		}
		b.nkids++
	}
	p.stack = append(p.stack, len(p.brs))
	p.brs = append(p.brs, bracket{parent: parent, line: line, col: col})
}

// atom handles a label or a leaf; there must be an open bracket.
func (p *bracketParser) atom(s []byte, line, col int) {
	if p.err != nil {
		p.wantLabel = false
		return
	}
	b := &p.brs[p.stack[len(p.stack)-1]]
	if p.wantLabel {
		p.wantLabel = false
		b.label = string(s)
		return
	}
	switch {
	case b.nkids > 0:
		p.fail(line, col, "word %q next to bracketed constituents in (%s", s, b.label)
	case b.hasWord:
		p.fail(line, col, "second word %q in preterminal (%s %s", s, b.label, b.word)
	case p.words >= MaxTokens:
		p.fail(line, col, "%s", limitText("words in one tree", MaxTokens))
	default:
		p.words++
		b.hasWord, b.word, b.wordLine, b.wordCol = true, string(s), line, col
	}
}

// close handles a ")"; there must be an open bracket. It reports whether
// the tree is complete.
func (p *bracketParser) close() bool {
	p.wantLabel = false
	if p.counted > 0 {
		p.counted--
		return p.depth() == 0 // a tree refused at its first bracket
	}
	p.stack = p.stack[:len(p.stack)-1]
	return len(p.stack) == 0
}

// isRootLabel reports whether the label of an outermost bracket makes it
// the virtual root.
func isRootLabel(s string) bool {
	return s == "" || s == "ROOT" || s == "VROOT" || s == "TOP"
}

// Leaf conventions.
const (
	indexedLeaves = iota // discbracket: "index=word"
	orderedLeaves        // PTB: the word; words are numbered in order
)

// build turns the brackets of a complete tree into a tree.Tree. Nodes are
// put in post-order (children by leftmost word) and numbered from 500, as
// in export files. An empty ID is set to ordinal.
func (p *bracketParser) build(mode, ordinal int) (*tree.Tree, *Error) {
	if p.err != nil {
		return nil, p.err
	}
	t := &tree.Tree{}
	virtual := !p.brs[0].hasWord && isRootLabel(p.brs[0].label)
	isID := func(i int) bool { // Penn-Helsinki style sentence id: ( (IP ...) (ID x))
		b := &p.brs[i]
		return mode == orderedLeaves && virtual && b.parent == 0 && b.hasWord && b.label == "ID"
	}
	words, phrases := 0, 0
	for i := range p.brs {
		b := &p.brs[i]
		switch {
		case i == 0 && virtual:
		case b.hasWord:
			if !isID(i) {
				words++
			}
		case b.nkids == 0:
			return nil, errorf(p.name, b.line, b.col, "empty constituent (%s)", b.label)
		default:
			phrases++
		}
	}
	if words > 0 {
		t.Tokens = make([]tree.Token, words)
	}
	if phrases > 0 {
		t.Nodes = make([]tree.Node, 0, phrases)
	}
	p.at = slices.Grow(p.at[:0], words)[:words] // discbracket: 1 + bracket of each word index
	clear(p.at)
	nodeOf := slices.Grow(p.nodeOf[:0], len(p.brs))[:len(p.brs)] // node index of each phrase
	p.nodeOf = nodeOf
	next := 0 // PTB: index of the next word
	for i := range p.brs {
		b := &p.brs[i]
		parent := tree.Root
		if b.parent >= 0 {
			parent = nodeOf[b.parent]
		}
		switch {
		case i == 0 && virtual:
			nodeOf[i] = tree.Root
		case isID(i):
			t.ID = b.word
		case b.hasWord:
			word, k := b.word, next
			if mode == indexedLeaves {
				var err *Error
				if word, k, err = p.indexedLeaf(i, words); err != nil {
					return nil, err
				}
			}
			next++
			t.Tokens[k] = tree.Token{Word: decodeParens(word), Tag: p.decodeOpt(b.label), Parent: parent}
		default:
			nodeOf[i] = len(t.Nodes)
			t.Nodes = append(t.Nodes, tree.Node{Label: p.decodeOpt(b.label), Parent: parent})
		}
	}
	l, err := makeLayout(t)
	if err != nil { // cannot happen: brackets nest
		return nil, errorf(p.name, p.brs[0].line, p.brs[0].col, "%v", err)
	}
	renumber(t, l.postOrder())
	if t.ID == "" {
		t.ID = strconv.Itoa(ordinal)
	}
	return t, nil
}

// indexedLeaf parses the discbracket leaf "index=word" of preterminal i in a
// tree of n words. Each index 0..n-1 must be used once.
func (p *bracketParser) indexedLeaf(i, n int) (word string, index int, err *Error) {
	b := &p.brs[i]
	eq := strings.IndexByte(b.word, '=')
	k, ok := parseNum([]byte(b.word[:max(eq, 0)]))
	switch {
	case eq < 0 || !ok:
		return "", 0, errorf(p.name, b.wordLine, b.wordCol, "leaf %q: want index=word with a word index of at most 9 digits", clipStr(b.word))
	case k >= n:
		return "", 0, errorf(p.name, b.wordLine, b.wordCol, "word index %d out of range: %d words, so indices 0..%d (index %d is missing)", k, n, n-1, p.missingIndex(n))
	case p.at[k] != 0:
		first := &p.brs[p.at[k]-1]
		return "", 0, errorf(p.name, b.wordLine, b.wordCol, "word index %d used twice (also at column %d)", k, first.wordCol)
	}
	p.at[k] = i + 1
	return b.word[eq+1:], k, nil
}

// missingIndex returns the first of the word indices 0..n-1 that no leaf
// of the tree uses.
func (p *bracketParser) missingIndex(n int) int {
	seen := make([]bool, n)
	for i := range p.brs {
		b := &p.brs[i]
		if eq := strings.IndexByte(b.word, '='); b.hasWord && eq >= 0 {
			if k, ok := parseNum([]byte(b.word[:eq])); ok && k < n {
				seen[k] = true
			}
		}
	}
	k := 0
	for k < n && seen[k] {
		k++
	}
	return k
}

// renumber puts the nodes of t in the given order and numbers them from 500.
func renumber(t *tree.Tree, order []int) {
	if len(t.Nodes) == 0 {
		return
	}
	newIdx := make([]int, len(t.Nodes))
	nodes := make([]tree.Node, len(t.Nodes))
	for k, i := range order {
		newIdx[i] = k
		nodes[k] = t.Nodes[i]
		nodes[k].Num = minNodeNum + k
	}
	remap := func(p int) int {
		if p == tree.Root {
			return p
		}
		return newIdx[p]
	}
	for i := range nodes {
		nodes[i].Parent = remap(nodes[i].Parent)
	}
	for i := range t.Tokens {
		t.Tokens[i].Parent = remap(t.Tokens[i].Parent)
	}
	t.Nodes = nodes
}

// decodeOpt decodes a label or tag: "--" stands for the empty string. The
// result is shared with earlier equal values.
func (p *bracketParser) decodeOpt(s string) string {
	if s == "--" {
		return ""
	}
	if v, ok := p.intern[s]; ok {
		return v
	}
	v := decodeParens(s)
	if p.intern == nil {
		p.intern = make(map[string]string)
	}
	if len(p.intern) < maxInterned {
		p.intern[s] = v
	}
	return v
}

// decodeParens replaces #LRB# and #RRB# (disco-dop's escapes) by ( and ).
// -LRB- and -RRB- are left as they are.
func decodeParens(s string) string {
	if !strings.Contains(s, "#LRB#") && !strings.Contains(s, "#RRB#") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "#LRB#"):
			b.WriteByte('(')
			i += 5
		case strings.HasPrefix(s[i:], "#RRB#"):
			b.WriteByte(')')
			i += 5
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// clipStr is clip for strings.
func clipStr(s string) string { return clip([]byte(s[:min(len(s), 41)])) }
