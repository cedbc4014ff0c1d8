package annotate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/discspan/discspan/chart/tree"
)

// Status is how far the annotation of a sentence has come.
type Status int

// The statuses.
const (
	Untouched    Status = iota // as imported; nobody has looked at it
	PreAnnotated               // a parser's analysis, not yet checked
	Checked                    // checked by an annotator
)

var statusNames = [...]string{"untouched", "pre-annotated", "checked"}

// String returns "untouched", "pre-annotated" or "checked".
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// valid reports whether s is one of the statuses.
func (s Status) valid() bool { return s >= 0 && int(s) < len(statusNames) }

// ParseStatus returns the status named by String.
func ParseStatus(name string) (Status, error) {
	for i, n := range statusNames {
		if n == name {
			return Status(i), nil
		}
	}
	return 0, fmt.Errorf("annotate: unknown status %q (want untouched, pre-annotated or checked)", name)
}

// MarshalText writes the status as its name.
func (s Status) MarshalText() ([]byte, error) {
	if !s.valid() {
		return nil, fmt.Errorf("annotate: invalid status %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error {
	v, err := ParseStatus(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// MaxFixedBlocks is the largest block degree of a fixed constituent: what a
// chart re-parser can build (continuous, or two blocks around one gap).
const MaxFixedBlocks = tree.MaxTargetBlocks

// Yield is a set of word positions as sorted, non-empty, non-overlapping,
// non-adjacent blocks of interstice indices: [Start,End) covers words
// Start..End-1.
type Yield []tree.Span

// YieldOf returns the yield of a sorted list of distinct word positions.
func YieldOf(positions []int) Yield { return Yield(tree.Blocks(positions)) }

// Positions returns the word positions of y in increasing order.
func (y Yield) Positions() []int {
	var p []int
	for _, b := range y {
		for i := b.Start; i < b.End; i++ {
			p = append(p, i)
		}
	}
	return p
}

// Len returns the number of words of y.
func (y Yield) Len() int {
	n := 0
	for _, b := range y {
		n += b.End - b.Start
	}
	return n
}

// String writes y as "[0,2)" or "[0,2)+[3,5)".
func (y Yield) String() string {
	var sb strings.Builder
	for i, b := range y {
		if i > 0 {
			sb.WriteByte('+')
		}
		fmt.Fprintf(&sb, "[%d,%d)", b.Start, b.End)
	}
	return sb.String()
}

// Equal reports whether y and z cover the same words.
func (y Yield) Equal(z Yield) bool { return slices.Equal(y, z) }

// check reports what is wrong with y as the yield of an n-word sentence.
func (y Yield) check(n int) error {
	if len(y) == 0 {
		return errors.New("no words")
	}
	for i, b := range y {
		switch {
		case b.Start >= b.End:
			return fmt.Errorf("empty block [%d,%d)", b.Start, b.End)
		case b.Start < 0 || b.End > n:
			return fmt.Errorf("block [%d,%d) out of range for %d words", b.Start, b.End, n)
		case i > 0 && b.Start <= y[i-1].End:
			return errors.New("blocks unsorted, overlapping or adjacent")
		}
	}
	return nil
}

// contains reports whether every word of z is in y.
func (y Yield) contains(z Yield) bool {
	i := 0
	for _, b := range z {
		for i < len(y) && y[i].End <= b.Start {
			i++
		}
		if i == len(y) || y[i].Start > b.Start || y[i].End < b.End {
			return false
		}
	}
	return true
}

// intersects reports whether y and z share a word.
func (y Yield) intersects(z Yield) bool {
	i, j := 0, 0
	for i < len(y) && j < len(z) {
		if y[i].End <= z[j].Start {
			i++
		} else if z[j].End <= y[i].Start {
			j++
		} else {
			return true
		}
	}
	return false
}

// crosses reports whether y and z overlap without one containing the
// other: they cannot both be constituents of a tree.
func (y Yield) crosses(z Yield) bool {
	return y.intersects(z) && !y.contains(z) && !z.contains(y)
}

// clone returns a copy of y.
func (y Yield) clone() Yield { return slices.Clone(y) }

// Fixed is a constituent that the annotator created or confirmed: a label
// over a yield. Fixed constituents are required in a re-parse.
type Fixed struct {
	Label string
	Yield Yield
}

// String writes f as "NP[0,2)+[3,4)".
func (f Fixed) String() string { return f.Label + f.Yield.String() }

// Reparser rebuilds a tree around constraints: the result must contain a
// constituent for every element of require (label and yield; a multiset)
// and no constituent whose yield is in forbid. Words and tags are those of
// the sentence. The returned tree needs only words, tags, labels and
// parents; the sentence keeps its own token annotation.
type Reparser interface {
	Reparse(ctx context.Context, words, tags []string, require []Fixed, forbid []Yield) (*tree.Tree, error)
}

// DefaultUndoDepth is the number of undo steps a sentence keeps unless
// SetUndoDepth says otherwise.
const DefaultUndoDepth = 100

// state is the complete editable state of a sentence. A state is never
// modified once made; edits make new ones.
type state struct {
	tree      *tree.Tree
	status    Status
	note      string
	fixed     []Fixed
	forbidden []Yield
	// edited: an edit changed the tree since it was imported or replaced
	// (WithTree), so it is no longer as imported even while untouched.
	edited bool
}

// step is one undoable edit: the states before and after it.
type step struct {
	desc          string
	before, after *state
}

// Sentence is one sentence of a corpus with its annotation state and its
// undo and redo history. Change it with Do; the accessors return the
// current state.
type Sentence struct {
	cur        *state
	undo, redo []step
	depth      int
}

// NewSentence returns a sentence holding a copy of t, with no fixed or
// forbidden constituents.
func NewSentence(t *tree.Tree, status Status) *Sentence {
	return &Sentence{cur: &state{tree: t.Clone(), status: status}, depth: DefaultUndoDepth}
}

// WithTree returns a new sentence holding a copy of t with the given
// status and s's note, without history and without fixed or forbidden
// constituents (they belonged to the old tree): for a tree that replaces
// the sentence's analysis, such as a pre-annotation.
func (s *Sentence) WithTree(t *tree.Tree, status Status) *Sentence {
	return &Sentence{cur: &state{tree: t.Clone(), status: status, note: s.cur.note}, depth: s.depth}
}

// Tree returns the current tree. It is shared with the undo history: do not
// modify it (use Do).
func (s *Sentence) Tree() *tree.Tree { return s.cur.tree }

// ID returns the sentence id (the tree's ID).
func (s *Sentence) ID() string { return s.cur.tree.ID }

// Status returns the annotation status.
func (s *Sentence) Status() Status { return s.cur.status }

// Edited reports whether an edit has changed the tree (its bracketing,
// labels, tags or edges) since it was imported or replaced by WithTree; a
// note, a status or a fixed constituent does not count. An untouched
// sentence that is edited holds an annotator's work, which pre-annotation
// must not replace.
func (s *Sentence) Edited() bool { return s.cur.edited }

// Note returns the annotator's note.
func (s *Sentence) Note() string { return s.cur.note }

// Fixed returns a copy of the fixed constituents, sorted by yield, then
// label.
func (s *Sentence) Fixed() []Fixed {
	out := make([]Fixed, len(s.cur.fixed))
	for i, f := range s.cur.fixed {
		out[i] = Fixed{f.Label, f.Yield.clone()}
	}
	return out
}

// Forbidden returns a copy of the forbidden yields, sorted.
func (s *Sentence) Forbidden() []Yield {
	out := make([]Yield, len(s.cur.forbidden))
	for i, y := range s.cur.forbidden {
		out[i] = y.clone()
	}
	return out
}

// FixedNodes reports, for every node of the current tree, whether it is a
// fixed constituent (fixed constituents are matched to nodes by label and
// yield).
func (s *Sentence) FixedNodes() []bool {
	flags, _ := matchFixed(s.cur.tree, s.cur.fixed)
	return flags
}

// SetUndoDepth bounds the number of undo steps kept (at least 1); older
// steps are dropped.
func (s *Sentence) SetUndoDepth(n int) {
	s.depth = max(n, 1)
	if over := len(s.undo) - s.depth; over > 0 {
		s.undo = slices.Delete(s.undo, 0, over)
	}
	if over := len(s.redo) - s.depth; over > 0 {
		s.redo = slices.Delete(s.redo, 0, over)
	}
}

// ErrNoChange is returned by Do for a command that would change nothing;
// no undo step is recorded.
var ErrNoChange = errors.New("annotate: nothing to change")

// CrossingError is returned by Do for a new constituent that crosses a
// node of the tree when no Reparser is given: the tree cannot hold both,
// and only a re-parse (which chooses the other constituents again) can
// build it.
type CrossingError struct {
	Label string // the new constituent's label
	Yield Yield  // and its words
	// Node is the index of the node crossed, NodeLabel its label and
	// NodeYield its words.
	Node      int
	NodeLabel string
	NodeYield Yield
}

func (e *CrossingError) Error() string {
	return fmt.Sprintf("annotate: %s %s crosses node %d (%s %s); only a re-parse can build it", e.Label, e.Yield, e.Node, e.NodeLabel, e.NodeYield)
}

// ErrNothingToUndo and ErrNothingToRedo are returned by Undo and Redo when
// the history is empty.
var (
	ErrNothingToUndo = errors.New("annotate: nothing to undo")
	ErrNothingToRedo = errors.New("annotate: nothing to redo")
)

// Do applies a command as one undo step. When the command is Structural
// and rp is not nil, rp re-parses the sentence around its fixed and
// forbidden constituents within the same step. On error nothing changes.
// A new step clears the redo history.
func (s *Sentence) Do(ctx context.Context, cmd Command, rp Reparser) error {
	desc := cmd.Describe(s.cur.tree)
	e := newEdit(s.cur, rp != nil)
	if err := cmd.apply(e); err != nil {
		return err
	}
	next, err := e.finish()
	if err != nil {
		return err
	}
	if cmd.Structural() && rp != nil {
		if err := reparse(ctx, next, rp); err != nil {
			return err
		}
	}
	s.undo = append(s.undo, step{desc: desc, before: s.cur, after: next})
	if over := len(s.undo) - s.depth; over > 0 {
		s.undo = slices.Delete(s.undo, 0, over)
	}
	s.redo = s.redo[:0]
	s.cur = next
	return nil
}

// Undo goes back one step and returns its description.
func (s *Sentence) Undo() (string, error) {
	if len(s.undo) == 0 {
		return "", ErrNothingToUndo
	}
	st := s.undo[len(s.undo)-1]
	s.undo = s.undo[:len(s.undo)-1]
	s.redo = append(s.redo, st)
	s.cur = st.before
	return st.desc, nil
}

// Redo re-applies the last undone step and returns its description. The
// Reparser is not called again: the state after the step is restored.
func (s *Sentence) Redo() (string, error) {
	if len(s.redo) == 0 {
		return "", ErrNothingToRedo
	}
	st := s.redo[len(s.redo)-1]
	s.redo = s.redo[:len(s.redo)-1]
	s.undo = append(s.undo, st)
	s.cur = st.after
	return st.desc, nil
}

// UndoList returns the descriptions of the steps that Undo would undo, the
// next one first.
func (s *Sentence) UndoList() []string { return descriptions(s.undo) }

// RedoList returns the descriptions of the steps that Redo would redo, the
// next one first.
func (s *Sentence) RedoList() []string { return descriptions(s.redo) }

func descriptions(steps []step) []string {
	out := make([]string, len(steps))
	for i, st := range steps {
		out[len(steps)-1-i] = st.desc
	}
	return out
}

// Corpus is a list of sentences being annotated.
type Corpus struct {
	// Name names the corpus (normally the file it came from).
	Name      string
	Sentences []*Sentence
	// Reparser, when not nil, is called by Do after structural edits.
	Reparser Reparser
}

// NewCorpus returns a corpus of copies of trees, all with the given status.
func NewCorpus(name string, trees []*tree.Tree, status Status) *Corpus {
	c := &Corpus{Name: name, Sentences: make([]*Sentence, len(trees))}
	for i, t := range trees {
		c.Sentences[i] = NewSentence(t, status)
	}
	return c
}

// Do applies a command to sentence i with the corpus's Reparser (see
// Sentence.Do).
func (c *Corpus) Do(ctx context.Context, i int, cmd Command) error {
	if i < 0 || i >= len(c.Sentences) {
		return fmt.Errorf("annotate: sentence %d out of range (%d sentences)", i, len(c.Sentences))
	}
	return c.Sentences[i].Do(ctx, cmd, c.Reparser)
}

// Trees returns the current trees of all sentences (shared: do not modify
// them).
func (c *Corpus) Trees() []*tree.Tree {
	out := make([]*tree.Tree, len(c.Sentences))
	for i, s := range c.Sentences {
		out[i] = s.Tree()
	}
	return out
}

// Snapshot returns a corpus of the sentences as they are now, without
// their undo histories and without the Reparser. It shares the sentences'
// states, which never change, so it is cheap to take, and later edits of c
// do not reach it: it can be saved (Save) while c is being edited.
func (c *Corpus) Snapshot() *Corpus {
	out := &Corpus{Name: c.Name, Sentences: make([]*Sentence, len(c.Sentences))}
	for i, s := range c.Sentences {
		out.Sentences[i] = &Sentence{cur: s.cur, depth: s.depth}
	}
	return out
}

// Counts returns the number of sentences of each status, indexed by
// Status.
func (c *Corpus) Counts() [len(statusNames)]int {
	var n [len(statusNames)]int
	for _, s := range c.Sentences {
		if st := s.Status(); st.valid() {
			n[st]++
		}
	}
	return n
}
