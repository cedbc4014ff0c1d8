package annotate

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/tree"
)

// Command is an edit of a sentence, applied with Sentence.Do. The commands
// are the types of this package that implement it.
type Command interface {
	// Describe returns a human-readable description of the command as it
	// applies to t (the tree before the command), for an undo menu.
	Describe(t *tree.Tree) string
	// Structural reports whether the command changes the bracketing, so
	// that a Reparser is called after it.
	Structural() bool
	apply(e *edit) error
}

// Ref names a word or a node of a tree.
type Ref struct {
	Node  bool // a node of Tree.Nodes (else a word of Tree.Tokens)
	Index int
}

// WordRef names word i; NodeRef names node i.
func WordRef(i int) Ref { return Ref{Index: i} }

// NodeRef names node i of Tree.Nodes.
func NodeRef(i int) Ref { return Ref{Node: true, Index: i} }

// CreateConstituent creates a constituent with Label over the words at the
// positions Words (in any order): one block, or two around one gap. It goes
// under the lowest node that covers more than the selection, and takes
// over that node's children that lie inside the selection; an existing
// node with the same label and words is fixed instead. The constituent is
// fixed. A selection that crosses existing nodes is left to the re-parse
// (an error without a Reparser).
type CreateConstituent struct {
	Label string
	Words []int
}

// Relabel gives node Node the label Label and fixes it (when it has at most
// two blocks).
type Relabel struct {
	Node  int
	Label string
}

// DeleteNode removes node Node; its children go to its parent. Its yield
// becomes forbidden unless another node has the same words. Secondary
// edges to it are removed.
type DeleteNode struct{ Node int }

// Reattach makes Parent (a node index or tree.Root) the parent of Child (a
// word or a node). It fixes the new parent and a moved node (those with at
// most two blocks). An attachment that would make a cycle is refused. A
// node the move leaves over no word (the old parent of a node's only
// word, and its ancestors left so) is removed.
type Reattach struct {
	Child  Ref
	Parent int
}

// SetTag sets the part-of-speech tag of word Word.
type SetTag struct {
	Word int
	Tag  string
}

// SetEdge sets the function (edge) label of a word or node towards its
// parent.
type SetEdge struct {
	Item Ref
	Edge string
}

// SetNote sets the annotator's note.
type SetNote struct{ Note string }

// SetStatus sets the annotation status.
type SetStatus struct{ Status Status }

// FixNode fixes node Node: it becomes a required constituent of re-parses.
type FixNode struct{ Node int }

// UnfixNode removes node Node from the fixed constituents.
type UnfixNode struct{ Node int }

// Structural reports true: creating a constituent changes the bracketing.
func (CreateConstituent) Structural() bool { return true }

// Structural reports false.
func (Relabel) Structural() bool { return false }

// Structural reports true.
func (DeleteNode) Structural() bool { return true }

// Structural reports true.
func (Reattach) Structural() bool { return true }

// Structural reports false.
func (SetTag) Structural() bool { return false }

// Structural reports false.
func (SetEdge) Structural() bool { return false }

// Structural reports false.
func (SetNote) Structural() bool { return false }

// Structural reports false.
func (SetStatus) Structural() bool { return false }

// Structural reports false.
func (FixNode) Structural() bool { return false }

// Structural reports false.
func (UnfixNode) Structural() bool { return false }

// Describe returns e.g. `Create NP over "de man"`.
func (c CreateConstituent) Describe(t *tree.Tree) string {
	return fmt.Sprintf("Create %s over %s", c.Label, phrase(t, sortedSet(c.Words)))
}

// Describe returns e.g. `Relabel NP "de man" as PP`.
func (c Relabel) Describe(t *tree.Tree) string {
	return fmt.Sprintf("Relabel %s as %s", nodeDesc(t, c.Node), c.Label)
}

// Describe returns e.g. `Delete NP "de man"`.
func (c DeleteNode) Describe(t *tree.Tree) string { return "Delete " + nodeDesc(t, c.Node) }

// Describe returns e.g. `Attach "man" to NP "de man"`.
func (c Reattach) Describe(t *tree.Tree) string {
	to := "the root"
	if c.Parent != tree.Root {
		to = nodeDesc(t, c.Parent)
	}
	return fmt.Sprintf("Attach %s to %s", refDesc(t, c.Child), to)
}

// Describe returns e.g. `Tag "man" as N`.
func (c SetTag) Describe(t *tree.Tree) string {
	return fmt.Sprintf("Tag %s as %s", refDesc(t, WordRef(c.Word)), orNone(c.Tag))
}

// Describe returns e.g. `Function of "man": su`.
func (c SetEdge) Describe(t *tree.Tree) string {
	return fmt.Sprintf("Function of %s: %s", refDesc(t, c.Item), orNone(c.Edge))
}

// Describe returns "Edit note" or "Clear note".
func (c SetNote) Describe(*tree.Tree) string {
	if c.Note == "" {
		return "Clear note"
	}
	return "Edit note"
}

// Describe returns e.g. "Mark as checked".
func (c SetStatus) Describe(*tree.Tree) string { return "Mark as " + c.Status.String() }

// Describe returns e.g. `Fix NP "de man"`.
func (c FixNode) Describe(t *tree.Tree) string { return "Fix " + nodeDesc(t, c.Node) }

// Describe returns e.g. `Unfix NP "de man"`.
func (c UnfixNode) Describe(t *tree.Tree) string { return "Unfix " + nodeDesc(t, c.Node) }

// edit is a command being applied to a copy of a state.
type edit struct {
	t          *tree.Tree
	cloned     bool            // t is a copy that may be modified
	fixed      []bool          // per node of t: a fixed constituent
	loose      []Fixed         // fixed constituents that match no node
	forbidden  []Yield         // forbidden yields before the command
	wasNode    map[string]bool // yields of the nodes before the command
	forbidNew  []Yield         // yields forbidden by the command
	unforbid   []Yield         // yields the command allows again
	status     Status          // status after the command
	note       string          // note after the command
	edited     bool            // the tree was edited before the command
	canReparse bool            // a Reparser will be called after a structural command
	yieldSets  []Yield         // cache of the node yields; nil when stale
}

func newEdit(st *state, canReparse bool) *edit {
	flags, loose := matchFixed(st.tree, st.fixed)
	e := &edit{t: st.tree, fixed: flags, loose: loose, forbidden: st.forbidden,
		status: st.status, note: st.note, edited: st.edited, canReparse: canReparse}
	e.wasNode = make(map[string]bool)
	for _, y := range e.yieldsOf() {
		if len(y) > 0 {
			e.wasNode[y.String()] = true
		}
	}
	return e
}

// mut returns the tree for modification, copying it first.
func (e *edit) mut() *tree.Tree {
	if !e.cloned {
		e.t, e.cloned = e.t.Clone(), true
	}
	e.yieldSets = nil
	return e.t
}

// yieldsOf returns the yields of the nodes of the tree as it is now.
func (e *edit) yieldsOf() []Yield {
	if e.yieldSets == nil {
		yields := e.t.Yields()
		e.yieldSets = make([]Yield, len(yields))
		for i, y := range yields {
			e.yieldSets[i] = YieldOf(y)
		}
	}
	return e.yieldSets
}

// finish returns the state after the command.
func (e *edit) finish() (*state, error) {
	ys := e.yieldsOf()
	fixed := make([]Fixed, 0, len(e.loose)+len(e.fixed))
	for _, f := range e.loose {
		fixed = append(fixed, Fixed{f.Label, f.Yield.clone()})
	}
	for i, ok := range e.fixed {
		if !ok || len(ys[i]) == 0 {
			continue // a fixed node left without words is no longer fixed
		}
		if len(ys[i]) > MaxFixedBlocks {
			return nil, fmt.Errorf("annotate: the edit would give fixed constituent %s %d blocks (at most %d); unfix it first",
				Fixed{e.t.Nodes[i].Label, ys[i]}, len(ys[i]), MaxFixedBlocks)
		}
		fixed = append(fixed, Fixed{e.t.Nodes[i].Label, ys[i].clone()})
	}
	sortFixed(fixed)
	// A forbidden yield that the command made the yield of a node is
	// allowed again (the later decision wins); a yield the command forbids
	// is not forbidden while a node keeps it.
	isNode := make(map[string]bool, len(ys))
	for _, y := range ys {
		if len(y) > 0 {
			isNode[y.String()] = true
		}
	}
	allowed := make(map[string]bool, len(e.unforbid))
	for _, y := range e.unforbid {
		allowed[y.String()] = true
	}
	var forbidden []Yield
	seen := map[string]bool{}
	for k, list := range [][]Yield{e.forbidden, e.forbidNew} {
		for _, y := range list {
			key := y.String()
			if allowed[key] || seen[key] || (isNode[key] && (k == 1 || !e.wasNode[key])) {
				continue
			}
			seen[key] = true
			forbidden = append(forbidden, y.clone())
		}
	}
	sortYields(forbidden)
	return &state{tree: e.t, status: e.status, note: e.note, fixed: fixed, forbidden: forbidden, edited: e.edited || e.cloned}, nil
}

// matchFixed matches fixed constituents to the nodes of t by label and
// yield (a multiset; the first nodes in node order are taken). It returns
// a flag per node and the fixed constituents that match no node.
func matchFixed(t *tree.Tree, fixed []Fixed) (flags []bool, loose []Fixed) {
	flags = make([]bool, len(t.Nodes))
	if len(fixed) == 0 {
		return flags, nil
	}
	byKey := make(map[string][]int)
	for i, y := range t.Yields() {
		if len(y) > 0 {
			k := Fixed{t.Nodes[i].Label, YieldOf(y)}.String()
			byKey[k] = append(byKey[k], i)
		}
	}
	for _, f := range fixed {
		k := f.String()
		if nodes := byKey[k]; len(nodes) > 0 {
			flags[nodes[0]] = true
			byKey[k] = nodes[1:]
			continue
		}
		loose = append(loose, Fixed{f.Label, f.Yield.clone()})
	}
	return flags, loose
}

func compareYields(a, b Yield) int {
	return slices.CompareFunc(a, b, func(x, y tree.Span) int {
		if c := cmp.Compare(x.Start, y.Start); c != 0 {
			return c
		}
		return cmp.Compare(y.End, x.End)
	})
}

func sortFixed(f []Fixed) {
	slices.SortFunc(f, func(a, b Fixed) int {
		if c := compareYields(a.Yield, b.Yield); c != 0 {
			return c
		}
		return cmp.Compare(a.Label, b.Label)
	})
}

func sortYields(ys []Yield) { slices.SortFunc(ys, compareYields) }

// checkNode reports a node index out of range.
func (e *edit) checkNode(i int) error {
	if i < 0 || i >= len(e.t.Nodes) {
		return fmt.Errorf("annotate: node %d out of range (%d nodes)", i, len(e.t.Nodes))
	}
	return nil
}

// checkWord reports a word index out of range.
func (e *edit) checkWord(i int) error {
	if i < 0 || i >= len(e.t.Tokens) {
		return fmt.Errorf("annotate: word %d out of range (%d words)", i, len(e.t.Tokens))
	}
	return nil
}

func (e *edit) checkRef(r Ref) error {
	if r.Node {
		return e.checkNode(r.Index)
	}
	return e.checkWord(r.Index)
}

// checkValue checks a label, tag or function label: the treebank formats
// cannot hold white space in one, "--" stands for no value in them, and
// "%%" starts a comment in export files. Labels must not be empty.
func checkValue(what, v string, emptyOK bool) error {
	switch {
	case v == "" && !emptyOK:
		return fmt.Errorf("annotate: empty %s", what)
	case strings.IndexFunc(v, unicode.IsSpace) >= 0:
		return fmt.Errorf("annotate: %s %q contains white space", what, v)
	case v == "--":
		return fmt.Errorf("annotate: %s %q stands for no %s in the treebank formats", what, v, what)
	case strings.HasPrefix(v, "%%"):
		return fmt.Errorf("annotate: %s %q starts with %%%%, which starts a comment in export files", what, v)
	case !utf8.ValidString(v) || strings.ContainsRune(v, 0):
		return fmt.Errorf("annotate: %s %q is not text (invalid UTF-8 or a NUL byte)", what, v)
	}
	return nil
}

// fixIfPossible fixes node i when it has words and at most MaxFixedBlocks
// blocks.
func (e *edit) fixIfPossible(i int) {
	if y := e.yieldsOf()[i]; len(y) > 0 && len(y) <= MaxFixedBlocks {
		e.fixed[i] = true
	}
}

// fixedConstituents returns all fixed constituents of the tree as it is
// now.
func (e *edit) fixedConstituents() []Fixed {
	ys := e.yieldsOf()
	out := slices.Clone(e.loose)
	for i, ok := range e.fixed {
		if ok {
			out = append(out, Fixed{e.t.Nodes[i].Label, ys[i]})
		}
	}
	return out
}

func (c CreateConstituent) apply(e *edit) error {
	if err := checkValue("label", c.Label, false); err != nil {
		return err
	}
	if len(c.Words) == 0 {
		return errors.New("annotate: no words selected")
	}
	pos := sortedSet(c.Words)
	for _, p := range pos {
		if err := e.checkWord(p); err != nil {
			return err
		}
	}
	y := YieldOf(pos)
	if len(y) > MaxFixedBlocks {
		return fmt.Errorf("annotate: the selection %s has %d blocks; a constituent may be continuous or have one gap", y, len(y))
	}
	for _, f := range e.fixedConstituents() {
		if f.Yield.crosses(y) {
			return fmt.Errorf("annotate: %s %s crosses fixed constituent %s", c.Label, y, f)
		}
	}
	ys := e.yieldsOf()
	existing := false
	for i, yi := range ys {
		if e.t.Nodes[i].Label == c.Label && yi.Equal(y) {
			if !e.fixed[i] {
				e.fixed[i] = true
				e.unforbid = append(e.unforbid, y)
				return nil
			}
			existing = true
		}
	}
	if existing {
		return fmt.Errorf("%w: %s %s exists and is fixed", ErrNoChange, c.Label, y)
	}
	parent, crossing := place(e.t.Nodes, ys, y)
	e.unforbid = append(e.unforbid, y)
	if crossing >= 0 {
		if !e.canReparse {
			return &CrossingError{Label: c.Label, Yield: y, Node: crossing, NodeLabel: e.t.Nodes[crossing].Label, NodeYield: ys[crossing]}
		}
		e.loose = append(e.loose, Fixed{c.Label, y})
		return nil
	}
	t := e.mut()
	idx := len(t.Nodes)
	t.Nodes = append(t.Nodes, tree.Node{Num: freeNum(t), Label: c.Label, Parent: parent})
	e.fixed = append(e.fixed, true)
	moved := 0
	for _, p := range pos {
		if t.Tokens[p].Parent == parent {
			t.Tokens[p].Parent = idx
			moved++
		}
	}
	for j := range idx {
		if t.Nodes[j].Parent == parent && len(ys[j]) > 0 && y.contains(ys[j]) {
			t.Nodes[j].Parent = idx
			moved++
		}
	}
	if moved == 0 { // cannot happen: place finds y's words and nodes under parent
		return fmt.Errorf("annotate: %s %s would cover no word", c.Label, y)
	}
	return nil
}

// place returns where a new constituent over y goes: the lowest node whose
// yield strictly contains y (the lowest of a unary chain, whatever the
// order of the nodes), or tree.Root; or a node whose yield crosses y (else
// -1). nodes are the tree's nodes, ys their yields.
func place(nodes []tree.Node, ys []Yield, y Yield) (parent, crossing int) {
	parent = tree.Root
	size := 0
	for i, yi := range ys {
		if len(yi) == 0 {
			continue
		}
		if yi.crosses(y) {
			return tree.Root, i
		}
		if yi.contains(y) && !yi.Equal(y) && (parent == tree.Root || yi.Len() < size) {
			parent, size = i, yi.Len()
		}
	}
	// A node below parent with the same words (S over a lone NP) holds
	// the words and nodes the new one takes: go down to the last of them.
	for moved := parent != tree.Root; moved; {
		moved = false
		for j := range nodes {
			if nodes[j].Parent == parent && ys[j].Equal(ys[parent]) {
				parent, moved = j, true
				break
			}
		}
	}
	return parent, -1
}

// freeNum returns the smallest export node number 500..999 that no node of
// t has, or 0.
func freeNum(t *tree.Tree) int {
	used := make(map[int]bool, len(t.Nodes))
	for _, n := range t.Nodes {
		used[n.Num] = true
	}
	for n := 500; n <= 999; n++ {
		if !used[n] {
			return n
		}
	}
	return 0
}

func (c Relabel) apply(e *edit) error {
	if err := e.checkNode(c.Node); err != nil {
		return err
	}
	if err := checkValue("label", c.Label, false); err != nil {
		return err
	}
	if e.t.Nodes[c.Node].Label == c.Label {
		return fmt.Errorf("%w: node %d is labelled %s", ErrNoChange, c.Node, c.Label)
	}
	e.mut().Nodes[c.Node].Label = c.Label
	e.fixIfPossible(c.Node)
	return nil
}

func (c DeleteNode) apply(e *edit) error {
	if err := e.checkNode(c.Node); err != nil {
		return err
	}
	y := e.yieldsOf()[c.Node]
	t := e.mut()
	removeNode(t, c.Node)
	e.fixed = slices.Delete(e.fixed, c.Node, c.Node+1)
	if len(y) > 0 {
		e.forbidNew = append(e.forbidNew, y) // dropped by finish if a node keeps it
	}
	return nil
}

// removeNode removes node i of t, attaching its children to its parent and
// dropping secondary edges to it.
func removeNode(t *tree.Tree, i int) {
	p := t.Nodes[i].Parent
	for k := range t.Tokens {
		if t.Tokens[k].Parent == i {
			t.Tokens[k].Parent = p
		}
	}
	for k := range t.Nodes {
		if t.Nodes[k].Parent == i {
			t.Nodes[k].Parent = p
		}
	}
	t.Nodes = slices.Delete(t.Nodes, i, i+1)
	remap := func(x int) int {
		if x != tree.Root && x > i {
			return x - 1
		}
		return x
	}
	fixSec := func(sec []tree.SecEdge) []tree.SecEdge {
		out := sec[:0]
		for _, s := range sec {
			if s.Parent == i {
				continue
			}
			s.Parent = remap(s.Parent)
			out = append(out, s)
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	for k := range t.Tokens {
		t.Tokens[k].Parent = remap(t.Tokens[k].Parent)
		t.Tokens[k].Sec = fixSec(t.Tokens[k].Sec)
	}
	for k := range t.Nodes {
		t.Nodes[k].Parent = remap(t.Nodes[k].Parent)
		t.Nodes[k].Sec = fixSec(t.Nodes[k].Sec)
	}
	if len(t.Nodes) == 0 {
		t.Nodes = nil
	}
}

func (c Reattach) apply(e *edit) error {
	if err := e.checkRef(c.Child); err != nil {
		return err
	}
	if c.Parent != tree.Root {
		if err := e.checkNode(c.Parent); err != nil {
			return err
		}
	}
	old := 0
	if c.Child.Node {
		old = e.t.Nodes[c.Child.Index].Parent
	} else {
		old = e.t.Tokens[c.Child.Index].Parent
	}
	if old == c.Parent {
		return fmt.Errorf("%w: already attached there", ErrNoChange)
	}
	if c.Child.Node {
		for p, steps := c.Parent, 0; p != tree.Root && steps <= len(e.t.Nodes); p, steps = e.t.Nodes[p].Parent, steps+1 {
			if p == c.Child.Index {
				return fmt.Errorf("annotate: attaching node %d under node %d would make a cycle", c.Child.Index, c.Parent)
			}
		}
	}
	before := e.yieldsOf()
	t := e.mut()
	if c.Child.Node {
		t.Nodes[c.Child.Index].Parent = c.Parent
		e.fixIfPossible(c.Child.Index)
	} else {
		t.Tokens[c.Child.Index].Parent = c.Parent
	}
	if c.Parent != tree.Root {
		e.fixIfPossible(c.Parent)
	}
	// The nodes the move left without words (the old parent of a node's
	// only word, and its ancestors left so) go: no treebank holds a node
	// over no word. Highest index first, as removing renumbers the rest.
	after := e.yieldsOf()
	for i := len(after) - 1; i >= 0; i-- {
		if len(after[i]) == 0 && len(before[i]) > 0 {
			removeNode(t, i)
			e.fixed = slices.Delete(e.fixed, i, i+1)
			e.yieldSets = nil
		}
	}
	return nil
}

func (c SetTag) apply(e *edit) error {
	if err := e.checkWord(c.Word); err != nil {
		return err
	}
	if err := checkValue("tag", c.Tag, true); err != nil {
		return err
	}
	if e.t.Tokens[c.Word].Tag == c.Tag {
		return fmt.Errorf("%w: word %d is tagged %s", ErrNoChange, c.Word, orNone(c.Tag))
	}
	e.mut().Tokens[c.Word].Tag = c.Tag
	return nil
}

func (c SetEdge) apply(e *edit) error {
	if err := e.checkRef(c.Item); err != nil {
		return err
	}
	if err := checkValue("function label", c.Edge, true); err != nil {
		return err
	}
	if c.Item.Node {
		if e.t.Nodes[c.Item.Index].Edge == c.Edge {
			return fmt.Errorf("%w: same function label", ErrNoChange)
		}
		e.mut().Nodes[c.Item.Index].Edge = c.Edge
		return nil
	}
	if e.t.Tokens[c.Item.Index].Edge == c.Edge {
		return fmt.Errorf("%w: same function label", ErrNoChange)
	}
	e.mut().Tokens[c.Item.Index].Edge = c.Edge
	return nil
}

func (c SetNote) apply(e *edit) error {
	if e.note == c.Note {
		return fmt.Errorf("%w: same note", ErrNoChange)
	}
	e.note = c.Note
	return nil
}

func (c SetStatus) apply(e *edit) error {
	if !c.Status.valid() {
		return fmt.Errorf("annotate: invalid status %d", int(c.Status))
	}
	if e.status == c.Status {
		return fmt.Errorf("%w: status is %s", ErrNoChange, c.Status)
	}
	e.status = c.Status
	return nil
}

func (c FixNode) apply(e *edit) error {
	if err := e.checkNode(c.Node); err != nil {
		return err
	}
	if e.fixed[c.Node] {
		return fmt.Errorf("%w: node %d is fixed", ErrNoChange, c.Node)
	}
	y := e.yieldsOf()[c.Node]
	switch {
	case len(y) == 0:
		return fmt.Errorf("annotate: node %d covers no word and cannot be fixed", c.Node)
	case len(y) > MaxFixedBlocks:
		return fmt.Errorf("annotate: node %d has %d blocks; a fixed constituent may have at most %d", c.Node, len(y), MaxFixedBlocks)
	}
	for _, f := range e.fixedConstituents() {
		if f.Yield.crosses(y) {
			return fmt.Errorf("annotate: node %d crosses fixed constituent %s", c.Node, f)
		}
	}
	e.fixed[c.Node] = true
	return nil
}

func (c UnfixNode) apply(e *edit) error {
	if err := e.checkNode(c.Node); err != nil {
		return err
	}
	if !e.fixed[c.Node] {
		return fmt.Errorf("%w: node %d is not fixed", ErrNoChange, c.Node)
	}
	e.fixed[c.Node] = false
	return nil
}

// sortedSet returns the distinct values of xs in increasing order.
func sortedSet(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// maxQuoted is the number of words a description quotes.
const maxQuoted = 8

// phrase quotes the words at sorted positions, with "…" for gaps and for
// words left out.
func phrase(t *tree.Tree, pos []int) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for k, p := range pos {
		if k == maxQuoted {
			sb.WriteString(" …")
			break
		}
		if k > 0 {
			sb.WriteByte(' ')
			if pos[k-1] != p-1 {
				sb.WriteString("… ")
			}
		}
		if p >= 0 && p < len(t.Tokens) {
			sb.WriteString(t.Tokens[p].Word)
		} else {
			sb.WriteString("#" + strconv.Itoa(p))
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// nodeDesc describes node i as `NP "de man"`.
func nodeDesc(t *tree.Tree, i int) string {
	if i < 0 || i >= len(t.Nodes) {
		return fmt.Sprintf("node %d", i)
	}
	y := t.Yields()[i]
	if len(y) == 0 {
		return orNone(t.Nodes[i].Label) + " (empty)"
	}
	return orNone(t.Nodes[i].Label) + " " + phrase(t, y)
}

// refDesc describes a word as `"man"` and a node as nodeDesc does.
func refDesc(t *tree.Tree, r Ref) string {
	if r.Node {
		return nodeDesc(t, r.Index)
	}
	if r.Index < 0 || r.Index >= len(t.Tokens) {
		return fmt.Sprintf("word %d", r.Index)
	}
	return phrase(t, []int{r.Index})
}

func orNone(s string) string {
	if s == "" {
		return "--"
	}
	return s
}
