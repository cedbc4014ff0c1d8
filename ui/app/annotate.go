package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/treedraw"
)

// TabAnnotate is the annotation tab.
const TabAnnotate = "annotate"

// What the label field applies to (AnnotateState.LabelMode).
const (
	LabelCreate  = "create"  // a new constituent over the selected words
	LabelRelabel = "relabel" // the selected node's label
	LabelTag     = "tag"     // the part-of-speech tag of the cursor's word
)

// AnnotateState is the annotation tab: a corpus being annotated, the
// sentence shown with its word selection and selected node, what the
// label field is for, the validation problems, and the corpus tools
// (import progress, search results, a diff).
type AnnotateState struct {
	// Corpus is the corpus being annotated, nil before one is made,
	// imported or restored. Gold holds the sentences as imported (or
	// first parsed), for the diff; it may be nil.
	Corpus, Gold *annotate.Corpus
	// Index is the sentence shown.
	Index int
	// Sel is the word selection; Node the selected node (-1 for none).
	Sel  Selection
	Node int
	// Attach is the word or node being re-attached, waiting for its new
	// parent to be chosen; nil otherwise.
	Attach *annotate.Ref
	// LabelMode says what the label field is for ("" when closed),
	// LabelText is its text, LabelSeq changes whenever it is opened (the
	// page focuses it then).
	LabelMode, LabelText string
	LabelSeq             int
	// Help shows the shortcut sheet.
	Help bool
	// LetterKeysOff turns the single-character shortcuts (letters and "?")
	// off, for users whose screen reader or speech input types them
	// (WCAG 2.1.4); the arrows, Enter, Esc and Ctrl keys stay.
	LetterKeysOff bool
	// Busy is set while a re-parse runs (edits wait for it).
	Busy bool
	// Msg says what the last action did, Err why it failed.
	Msg, Err string
	// View is the current sentence drawn with the selection, fixed nodes
	// and problems marked.
	View *TreeView
	// Problems are the current sentence's validation problems.
	Problems []annotate.Problem
	// ReparseNs is the decoding time of the last re-parse (engine side),
	// ReparseWallNs the whole command with it (the page's view).
	ReparseNs, ReparseWallNs int64
	// Seq counts the changes of the corpus; Saved is the Seq last written
	// to the store, SaveErr why the last save failed. Restored is set
	// once the stored corpus was looked for; meanwhile RestoreDone of
	// RestoreTotal sentences are read (0 of 0 before the reading starts),
	// those of the corpus, its reference trees and the second file.
	Seq, Saved int
	SaveErr    string
	// savedIndex is the sentence shown as last written to the store: a
	// move to another one is saved too (quietly), so that a reload
	// comes back to it.
	savedIndex                int
	Restored                  bool
	RestoreDone, RestoreTotal int
	// SaveConflict is set when the last save was refused because another
	// tab saved the project since this tab read or saved it
	// (AnnReplaceSaved saves over it, AnnMergeSaved merges with it).
	SaveConflict bool
	conflictKey  string // the writer key of the other tab's save
	merging      bool   // AnnMergeSaved is at work
	// Kept lists the projects kept aside (see KeptProject);
	// ConfirmDeleteKept is the key of the one whose deletion waits for a
	// second click.
	Kept              []KeptProject
	ConfirmDeleteKept string
	// Persistence says whether the browser protects the saved work from
	// its clean-up, PersistErr why it could not be asked (see
	// AnnStorageNote).
	Persistence Persistence
	PersistErr  string
	// Import is the import in progress (or the last one), nil before any.
	Import *ImportProgress
	// Query is the search text; Hits the search or consistency results.
	Query string
	Hits  []SearchHit
	// Diff compares two analyses of the current sentence, nil when not
	// shown.
	Diff *AnnDiff
	// Other is a second treebank of the same sentences (another
	// annotator's file, say), matched to the corpus by position, nil
	// before one is imported; OtherScore is its corpus-level score against
	// the first file (see AnnImportOther).
	Other      *annotate.Corpus
	OtherScore *OtherScore

	// AddText is the text of the box that adds sentences to the corpus.
	AddText string
	// ConfirmNew is set after a first click on "new corpus": a second
	// one discards the corpus.
	ConfirmNew bool
	// PendingImport is a treebank read, or a project kept aside chosen,
	// while a corpus was open, waiting for the annotator to say whether it
	// replaces that corpus (AnnConfirmImport, AnnCancelImport); nil
	// otherwise.
	PendingImport *PendingImport

	// ListFrom is the first sentence of the page of the corpus view's
	// list (AnnListPage).
	ListFrom int

	removed *removedSentence // the last sentence removed, for AnnRestoreRemoved
	// pendingNote is a note set while a re-parse ran, applied when it ends.
	pendingNote *pendingNote
	// noteDraft is the note being typed (AnnNoteInput), not yet set: the
	// field sets it when it loses the focus, which a page being closed
	// never does, so a hidden or closing page sets it (AnnFlush).
	noteDraft *pendingNote

	gridTree *tree.Tree     // the tree of grid
	grid     *treedraw.Grid // the current tree laid out
	saving   bool           // a debounced save is pending
}

// annSentence returns the current sentence, nil without a corpus.
func (a *App) annSentence() *annotate.Sentence {
	s := &a.Annotate
	if s.Corpus == nil || s.Index < 0 || s.Index >= len(s.Corpus.Sentences) {
		return nil
	}
	return s.Corpus.Sentences[s.Index]
}

// annVariant is the variant of re-parses: the sentence tab's.
func (a *App) annVariant() decode.Variant { return a.Parse.Variant }

// AnnMaxBlocks is the block-degree limit of validation: 1 for the
// continuous variant, 2 otherwise.
func (a *App) AnnMaxBlocks() int {
	if a.annVariant() == decode.Continuous {
		return 1
	}
	return 2
}

// AnnLabels returns the labels the annotator can pick: the model's, with
// merged unary chains split, sorted.
func (a *App) AnnLabels() []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range a.labels() {
		for _, p := range strings.Split(l, "/") {
			if p != "" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// AnnTags returns the part-of-speech tags used in the corpus, sorted, for
// the tag field.
func (a *App) AnnTags() []string {
	c := a.Annotate.Corpus
	if c == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range c.Sentences {
		for _, tok := range s.Tree().Tokens {
			if tok.Tag != "" && !seen[tok.Tag] {
				seen[tok.Tag] = true
				out = append(out, tok.Tag)
			}
		}
	}
	slices.Sort(out)
	return out
}

// AnnChoices returns what the label field offers: the tags when it edits
// a tag, else the labels.
func (a *App) AnnChoices() []string {
	if a.Annotate.LabelMode == LabelTag {
		return a.AnnTags()
	}
	return a.AnnLabels()
}

// knownLabels is the set of AnnLabels, nil without a model (no check).
func (a *App) knownLabels() map[string]bool {
	ls := a.AnnLabels()
	if len(ls) == 0 {
		return nil
	}
	m := make(map[string]bool, len(ls))
	for _, l := range ls {
		m[l] = true
	}
	return m
}

// AnnSetCorpus makes c the corpus being annotated (gold, if not nil, its
// reference analyses) and shows sentence index; a second file imported for
// comparison is dropped.
func (a *App) AnnSetCorpus(c, gold *annotate.Corpus, index int) {
	s := &a.Annotate
	s.Corpus, s.Gold = c, gold
	s.Hits, s.Diff, s.removed = nil, nil, nil
	s.Other, s.OtherScore = nil, nil // it compared with another corpus
	a.AnnGo(index)
	a.annChanged()
}

// AnnGo shows sentence i (clamped).
func (a *App) AnnGo(i int) {
	s := &a.Annotate
	if s.Corpus == nil || len(s.Corpus.Sentences) == 0 || s.Busy {
		return
	}
	s.Index = min(max(i, 0), len(s.Corpus.Sentences)-1)
	if s.Index < s.ListFrom || s.Index >= s.ListFrom+ListRows {
		s.ListFrom = s.Index / ListRows * ListRows
	}
	s.Sel = NewSelection(a.annSentence().Tree().Len())
	s.Node, s.Attach, s.LabelMode, s.Diff = -1, nil, "", nil
	if s.Index != s.savedIndex {
		a.annScheduleSave() // the sentence shown comes back after a reload
	}
	s.Msg, s.Err, s.ConfirmNew = "", "", false
	a.annRefresh()
}

// annRefresh validates the current sentence and draws it.
func (a *App) annRefresh() {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil {
		s.View, s.Problems = nil, nil
		return
	}
	t := sent.Tree()
	if s.Node >= len(t.Nodes) {
		s.Node = -1
	}
	if s.Sel.N != t.Len() {
		s.Sel = NewSelection(t.Len())
	}
	s.Problems = annotate.Validate(sent, a.AnnMaxBlocks(), a.knownLabels())
	if s.gridTree != t {
		s.gridTree, s.grid = t, nil
		g, err := treedraw.Layout(t, treedraw.DefaultOptions())
		if err != nil {
			s.View = &TreeView{ID: "ann", Title: sent.ID(), Tree: t, Err: err.Error()}
			return
		}
		s.grid = g
	}
	if s.grid == nil {
		return
	}
	nodeCls := map[int]string{}
	add := func(m map[int]string, k int, c string) { m[k] = strings.TrimSpace(m[k] + " " + c) }
	for i, f := range sent.FixedNodes() {
		if f {
			add(nodeCls, i, "fixed")
		}
	}
	tokCls := map[int]string{}
	for _, p := range s.Problems {
		if p.Node >= 0 {
			add(nodeCls, p.Node, "problem")
		}
		if p.Word >= 0 {
			add(tokCls, p.Word, "problem")
		}
	}
	if s.Node >= 0 {
		add(nodeCls, s.Node, "sel")
	}
	if s.Attach != nil {
		if s.Attach.Node {
			add(nodeCls, s.Attach.Index, "moving")
		} else {
			add(tokCls, s.Attach.Index, "moving")
		}
	}
	for _, w := range s.Sel.Words() {
		add(tokCls, w, "wsel")
	}
	if c := s.Sel.Cursor(); c >= 0 {
		add(tokCls, c, "cursor")
	}
	g := s.grid
	v := &TreeView{ID: "ann", Title: sent.ID(), Tree: t, grid: g, selected: -1,
		Width:  g.Width*treedraw.UnitEm*fontSize + fontSize,
		Height: g.Height*treedraw.LineHeight*fontSize + fontSize}
	v.SVG = treedraw.SVG(g, treedraw.SVGOptions{FontSize: fontSize, Classes: nodeCls, TokenClasses: tokCls, ID: "tree-ann", Title: "sentence " + sent.ID()})
	v.Key = svgKey(v.ID, v.SVG)
	s.View = v
}

// annChanged records a change of the corpus: it redraws, and schedules a
// save.
func (a *App) annChanged() {
	a.Annotate.Seq++
	a.annRefresh()
	a.annScheduleSave()
	a.noteUnsaved()
}

// lockedReparser calls a Reparser with the app's lock released, so that
// the page stays live (and a worker's answer can arrive) during a
// re-parse started with the lock held.
type lockedReparser struct {
	rp  annotate.Reparser
	env Env
}

// Reparse implements annotate.Reparser.
func (r lockedReparser) Reparse(ctx context.Context, words, tags []string, require []annotate.Fixed, forbid []annotate.Yield) (*tree.Tree, error) {
	r.env.UnlockRender()
	defer r.env.Lock()
	return r.rp.Reparse(ctx, words, tags, require, forbid)
}

// AnnDo applies a command to the current sentence. Structural commands on
// a tree of the model (a pre-annotated sentence) are followed by an exact
// re-parse around the fixed constituents when the model is ready; that
// runs in the background (Busy is set meanwhile). A tree from a file, or
// one the annotator marked checked, is edited as it is: a re-parse would
// replace its other constituents and drop their function labels.
func (a *App) AnnDo(cmd annotate.Command) {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil {
		return
	}
	if a.annBusy() {
		return
	}
	desc := cmd.Describe(sent.Tree())
	if !cmd.Structural() || !a.Model.Ready() || a.engine == nil || sent.Status() != annotate.PreAnnotated {
		a.annResult(desc, sent.Do(context.Background(), cmd, nil), 0)
		return
	}
	s.Busy, s.Msg, s.Err = true, "re-parsing: "+desc, ""
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	var decodeNs int64
	rp := Reparser{Engine: a.engine, Variant: a.annVariant().String(), Done: func(p *parser.Parse) { decodeNs = p.DecodeNs }}
	go func() {
		defer cancel()
		a.update(func() {
			start := time.Now()
			err := sent.Do(ctx, cmd, lockedReparser{rp: rp, env: a.env})
			s.Busy = false
			s.ReparseNs, s.ReparseWallNs = decodeNs, int64(time.Since(start))
			defer a.annApplyPendingNote()
			if a.annSentence() != sent {
				return
			}
			a.annResult(desc, err, decodeNs)
		})
	}()
}

// annCrossingMessage says why a new constituent crossing a node of the
// sentence shown was refused, and what the annotator can do.
func (a *App) annCrossingMessage(ce *annotate.CrossingError) string {
	both := fmt.Sprintf("%s %s crosses %s %s: a tree cannot hold both. ", ce.Label, ce.Yield, ce.NodeLabel, ce.NodeYield)
	why := "This tree came from a file, so it is edited as it is"
	switch sent := a.annSentence(); {
	case a.Model.Phase == PhaseFailed || a.Model.Phase == PhaseNoModel:
		return both + fmt.Sprintf("No model is loaded to re-parse the sentence around %s: delete %s first.", ce.Label, ce.NodeLabel)
	case sent != nil && sent.Status() == annotate.PreAnnotated:
		return both + fmt.Sprintf("The model is not ready to re-parse around %s: wait for it, or delete %s first.", ce.Label, ce.NodeLabel)
	case sent != nil && sent.Status() == annotate.Checked:
		why = "This tree is marked checked, so it is edited as it is"
	}
	return both + fmt.Sprintf("%s: delete %s first, or mark the sentence pre-annotated to let the model re-parse it around %s "+
		"(its other constituents and function labels are then the model's).", why, ce.NodeLabel, ce.Label)
}

// annResult reports a command's outcome and refreshes.
func (a *App) annResult(desc string, err error, decodeNs int64) {
	s := &a.Annotate
	switch {
	case errors.Is(err, annotate.ErrNoChange):
		s.Msg, s.Err = "nothing to change", ""
		return
	case err != nil:
		s.Msg, s.Err = "", err.Error()
		var ce *annotate.CrossingError
		if errors.As(err, &ce) {
			s.Err = a.annCrossingMessage(ce)
		}
		a.annRefresh()
		return
	}
	a.annEdited()
	s.Msg, s.Err = desc, ""
	if decodeNs > 0 {
		s.Msg = fmt.Sprintf("%s (re-parsed in %.1f ms)", desc, float64(decodeNs)/1e6)
	}
	s.Attach, s.LabelMode = nil, ""
	if sent := a.annSentence(); sent != nil && s.Node >= len(sent.Tree().Nodes) {
		s.Node = -1
	}
	a.annChanged()
}

// AnnUndo undoes the last edit of the current sentence, or, right after
// a sentence was removed, the removal.
func (a *App) AnnUndo() { a.annHistory(true) }

// AnnRedo redoes the last undone edit.
func (a *App) AnnRedo() { a.annHistory(false) }

func (a *App) annHistory(undo bool) {
	s := &a.Annotate
	if r := a.annRemoved(); undo && r != nil && r.latest && !s.Busy {
		a.AnnRestoreRemoved() // the last change was a removal
		return
	}
	sent := a.annSentence()
	if sent == nil || s.Busy {
		return
	}
	var desc string
	var err error
	if undo {
		desc, err = sent.Undo()
	} else {
		desc, err = sent.Redo()
	}
	if err != nil {
		s.Msg, s.Err = err.Error(), ""
		return
	}
	a.annEdited()
	verb := "Undone: "
	if !undo {
		verb = "Redone: "
	}
	s.Msg, s.Err = verb+desc, ""
	s.Node, s.Attach, s.LabelMode = -1, nil, ""
	a.annChanged()
}

// AnnCreate creates a constituent labelled label over the selected words.
func (a *App) AnnCreate(label string) {
	a.AnnDo(annotate.CreateConstituent{Label: strings.TrimSpace(label), Words: a.Annotate.Sel.Words()})
}

// AnnRelabel gives the selected node a new label.
func (a *App) AnnRelabel(label string) {
	if a.Annotate.Node < 0 {
		a.Annotate.Err = "select a node first (click it, or ↑)"
		return
	}
	a.AnnDo(annotate.Relabel{Node: a.Annotate.Node, Label: strings.TrimSpace(label)})
}

// AnnSetTag sets the tag of the cursor's word.
func (a *App) AnnSetTag(tag string) {
	if c := a.Annotate.Sel.Cursor(); c >= 0 {
		a.AnnDo(annotate.SetTag{Word: c, Tag: strings.TrimSpace(tag)})
	}
}

// AnnDelete deletes the selected node.
func (a *App) AnnDelete() {
	if a.Annotate.Node < 0 {
		a.Annotate.Err = "select a node first (click it, or ↑)"
		return
	}
	a.AnnDo(annotate.DeleteNode{Node: a.Annotate.Node})
}

// AnnToggleFix fixes the selected node, or unfixes it.
func (a *App) AnnToggleFix() {
	sent, n := a.annSentence(), a.Annotate.Node
	if sent == nil || n < 0 {
		a.Annotate.Err = "select a node first (click it, or ↑)"
		return
	}
	if sent.FixedNodes()[n] {
		a.AnnDo(annotate.UnfixNode{Node: n})
	} else {
		a.AnnDo(annotate.FixNode{Node: n})
	}
}

// AnnStartAttach starts re-attaching the selected node (or, without one,
// the cursor's word): the next node chosen becomes its parent. With a
// re-attachment pending it attaches to the selected node (the root when
// none is selected).
func (a *App) AnnStartAttach() {
	s := &a.Annotate
	if s.Attach != nil {
		parent := tree.Root
		if s.Node >= 0 {
			parent = s.Node
		}
		a.annAttachTo(parent)
		return
	}
	r := annotate.WordRef(s.Sel.Cursor())
	if s.Node >= 0 {
		r = annotate.NodeRef(s.Node)
	}
	if r.Index < 0 {
		return
	}
	s.Attach = &r
	s.Msg, s.Err = "choose the new parent: click a node, or select it with ↑ and press a (Enter: the root); Esc cancels", ""
	a.annRefresh()
}

// annAttachTo re-attaches the pending word or node to parent.
func (a *App) annAttachTo(parent int) {
	s := &a.Annotate
	r := *s.Attach
	s.Attach = nil
	a.AnnDo(annotate.Reattach{Child: r, Parent: parent})
	a.annRefresh()
}

// AnnSetStatus sets the sentence's status by name.
func (a *App) AnnSetStatus(name string) {
	st, err := annotate.ParseStatus(name)
	if err != nil {
		a.Annotate.Err = err.Error()
		return
	}
	a.AnnDo(annotate.SetStatus{Status: st})
}

// AnnSetNote sets the sentence's note.
// A note set while a re-parse runs waits for it (a note does not touch
// the tree), rather than be refused: the note field would still show it.
func (a *App) AnnSetNote(note string) {
	s := &a.Annotate
	s.noteDraft = nil
	if sent := a.annSentence(); s.Busy && sent != nil {
		s.pendingNote = &pendingNote{sent: sent, note: note}
		s.Msg = "the note is kept when the re-parse ends"
		return
	}
	a.AnnDo(annotate.SetNote{Note: note})
}

// AnnNoteInput records the note being typed into the current sentence's
// note field (each keystroke; AnnSetNote sets it when the field loses the
// focus): until then the work counts as unsaved, so that closing the page
// asks first, and a page hidden or closed sets it (AnnFlush).
func (a *App) AnnNoteInput(text string) {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil || text == sent.Note() {
		s.noteDraft = nil
	} else {
		s.noteDraft = &pendingNote{sent: sent, note: text}
	}
	a.noteUnsaved()
}

// AnnNoteText is the text the note field shows: the note being typed, or
// the one waiting for a re-parse to end, or the current sentence's note.
func (a *App) AnnNoteText() string {
	sent := a.annSentence()
	if d := a.Annotate.noteDraft; d != nil && d.sent == sent {
		return d.note
	}
	if p := a.Annotate.pendingNote; p != nil && p.sent == sent {
		return p.note
	}
	if sent == nil {
		return ""
	}
	return sent.Note()
}

// annSetNoteDraft sets the note being typed, on the sentence it was typed
// into; during a re-parse it waits for it, as AnnSetNote's does.
func (a *App) annSetNoteDraft() {
	d := a.Annotate.noteDraft
	a.Annotate.noteDraft = nil
	if d != nil && a.Annotate.Busy {
		a.Annotate.pendingNote = d
		return
	}
	a.annSetNoteOn(d)
}

// pendingNote is a note set on a sentence and not applied yet: set
// while a re-parse ran, or being typed.
type pendingNote struct {
	sent *annotate.Sentence
	note string
}

// annApplyPendingNote applies the note set during the re-parse that just
// ended.
func (a *App) annApplyPendingNote() {
	pn := a.Annotate.pendingNote
	a.Annotate.pendingNote = nil
	a.annSetNoteOn(pn)
}

// annSetNoteOn sets a note set earlier (n may be nil) on its sentence, as
// an undo step of its own, when the sentence is still in the corpus (it
// may have been removed, or another corpus opened).
func (a *App) annSetNoteOn(n *pendingNote) {
	if n == nil || a.Annotate.Corpus == nil || !slices.Contains(a.Annotate.Corpus.Sentences, n.sent) {
		return
	}
	if err := n.sent.Do(context.Background(), annotate.SetNote{Note: n.note}, nil); err == nil {
		a.annEdited()
		a.annChanged()
	}
}

// AnnOpenLabel opens the label field for mode (LabelCreate, LabelRelabel
// or LabelTag), filled with the current label or tag.
func (a *App) AnnOpenLabel(mode string) {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil || s.Busy {
		return
	}
	t := sent.Tree()
	switch mode {
	case LabelCreate:
		s.LabelText = ""
	case LabelRelabel:
		if s.Node < 0 {
			s.Err = "select a node first (click it, or ↑)"
			return
		}
		s.LabelText = t.Nodes[s.Node].Label
	case LabelTag:
		c := s.Sel.Cursor()
		if c < 0 {
			return
		}
		s.LabelText = t.Tokens[c].Tag
	default:
		return
	}
	s.LabelMode = mode
	s.LabelSeq++
}

// AnnSetLabelText keeps the label field's text.
func (a *App) AnnSetLabelText(text string) { a.Annotate.LabelText = text }

// AnnApplyLabel applies the label field to what it was opened for.
func (a *App) AnnApplyLabel() {
	s := &a.Annotate
	text := strings.TrimSpace(s.LabelText)
	mode := s.LabelMode
	s.LabelMode = ""
	switch mode {
	case LabelCreate:
		a.AnnCreate(text)
	case LabelRelabel:
		a.AnnRelabel(text)
	case LabelTag:
		a.AnnSetTag(text)
	}
}

// AnnCancel closes the label field, drops a pending re-attachment and the
// second block of the selection.
func (a *App) AnnCancel() {
	s := &a.Annotate
	switch {
	case s.LabelMode != "":
		s.LabelMode = ""
	case s.Attach != nil:
		s.Attach = nil
		s.Msg = ""
	case s.Node >= 0:
		s.Node = -1
	default:
		s.Sel.Collapse()
	}
	a.annRefresh()
}

// AnnClickWord selects word i: alone, extending the block (shift) or as a
// second block (ctrl). With a re-attachment pending, a word is no parent:
// the click selects it.
func (a *App) AnnClickWord(i int, shift, ctrl bool) {
	s := &a.Annotate
	switch {
	case ctrl:
		s.Sel.CtrlClick(i)
	case shift:
		s.Sel.ShiftClick(i)
	default:
		s.Sel.Click(i)
	}
	s.Node = -1
	a.annRefresh()
}

// AnnClickNode selects node i, or makes it the new parent of a pending
// re-attachment.
func (a *App) AnnClickNode(i int) {
	s := &a.Annotate
	if s.Attach != nil {
		a.annAttachTo(i)
		return
	}
	if s.Node == i {
		s.Node = -1
	} else {
		s.Node = i
	}
	a.annRefresh()
}

// annCovering returns the lowest node covering every selected word, or -1.
func (a *App) annCovering() int {
	sent := a.annSentence()
	if sent == nil {
		return -1
	}
	sel := a.Annotate.Sel.Words()
	best, size := -1, 0
	for i, y := range sent.Tree().Yields() {
		if len(y) == 0 || (best >= 0 && len(y) >= size) {
			continue
		}
		all := true
		for _, w := range sel {
			if _, ok := slices.BinarySearch(y, w); !ok {
				all = false
				break
			}
		}
		if all {
			best, size = i, len(y)
		}
	}
	return best
}

// annUp selects the lowest node over the selection, then its parent.
func (a *App) annUp() {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil {
		return
	}
	if s.Node < 0 {
		s.Node = a.annCovering()
	} else if p := sent.Tree().Nodes[s.Node].Parent; p != tree.Root {
		s.Node = p
	}
}

// annDown selects the child of the selected node that covers the cursor,
// or goes back to the words.
func (a *App) annDown() {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil || s.Node < 0 {
		return
	}
	c := s.Sel.Cursor()
	t := sent.Tree()
	for i, y := range t.Yields() {
		if t.Nodes[i].Parent == s.Node {
			if _, ok := slices.BinarySearch(y, c); ok {
				s.Node = i
				return
			}
		}
	}
	s.Node = -1
}

// AnnKey handles a key pressed outside text fields; key is the DOM key
// name. It reports whether the key was used.
func (a *App) AnnKey(key string, shift, ctrl bool) bool {
	s := &a.Annotate
	if s.LetterKeysOff && !ctrl && utf8.RuneCountInString(key) == 1 {
		return false
	}
	if ctrl {
		switch strings.ToLower(key) {
		case "z":
			if shift {
				a.AnnRedo()
			} else {
				a.AnnUndo()
			}
			return true
		case "y":
			a.AnnRedo()
			return true
		}
		return false
	}
	if key == "?" {
		s.Help = !s.Help
		return true
	}
	if a.annSentence() == nil {
		return false
	}
	switch key {
	case "ArrowLeft":
		s.Sel.Move(-1, shift)
	case "ArrowRight":
		s.Sel.Move(1, shift)
	case "Home", "End":
		// Without Shift, the first or last word is selected alone and a
		// second block is dropped (the arrows move the second block
		// while there is one).
		i := 0
		if key == "End" {
			i = s.Sel.N - 1
		}
		if shift {
			s.Sel.MoveTo(i, true)
		} else {
			s.Sel.Click(i)
		}
	case "ArrowUp":
		a.annUp()
	case "ArrowDown":
		a.annDown()
	case "g":
		s.Sel.ToggleSecond()
	case "c":
		a.AnnOpenLabel(LabelCreate)
	case "r":
		a.AnnOpenLabel(LabelRelabel)
	case "t":
		a.AnnOpenLabel(LabelTag)
	case "Delete", "Backspace", "d":
		a.AnnDelete()
	case "a":
		a.AnnStartAttach()
	case "Enter":
		if s.Attach != nil {
			a.AnnStartAttach()
		}
	case "f":
		a.AnnToggleFix()
	case "x":
		a.AnnSetStatus(annotate.Checked.String())
	case "n", "PageDown":
		a.AnnGo(s.Index + 1)
	case "p", "PageUp":
		a.AnnGo(s.Index - 1)
	case "Escape":
		switch {
		case s.PendingImport != nil:
			a.AnnCancelImport() // the import question: keep the open corpus
		case s.Help:
			s.Help = false
		default:
			a.AnnCancel()
		}
	default:
		return false
	}
	a.annRefresh()
	return true
}

// AnnHandlesKey reports whether AnnKey may use the key, so that a page
// can cancel its default action at once (before taking the lock, which
// may not be free while the handler is still synchronous).
func AnnHandlesKey(key string, ctrl bool) bool {
	if ctrl {
		switch strings.ToLower(key) {
		case "z", "y":
			return true
		}
		return false
	}
	switch key {
	case "?", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "g", "c", "r", "t",
		"Delete", "Backspace", "d", "a", "Enter", "f", "x", "n", "p", "PageDown", "PageUp", "Escape":
		return true
	}
	return false
}

// AnnSetLetterKeys turns the single-character shortcuts on or off; the
// choice is kept in the store for the next visit.
func (a *App) AnnSetLetterKeys(on bool) {
	a.Annotate.LetterKeysOff = !on
	a.settingsChosen |= chosenLetterKeys
	a.saveSettings()
}

// Shortcuts lists the annotation tab's keys and what they do, for the
// shortcut sheet.
func Shortcuts() [][2]string {
	return [][2]string{
		{"← →", "move the word cursor (the second block's, while there is one)"},
		{"Shift+← →", "extend the selection"},
		{"Home / End", "select the first / last word alone (a second block is dropped)"},
		{"g", "start (or drop) a second block: a constituent with a gap"},
		{"click / Shift+click / Ctrl+click", "select a word / extend / second block"},
		{"↑ / ↓", "select the node over the selection, its parent / back down"},
		{"c", "create a constituent over the selection (type the label, Enter)"},
		{"r", "relabel the selected node"},
		{"t", "edit the tag of the cursor's word"},
		{"d, Delete", "delete the selected node"},
		{"a", "re-attach the selected node (or word): then choose the parent and press a (Enter: root)"},
		{"f", "fix / unfix the selected node"},
		{"x", "mark the sentence checked"},
		{"n / p", "next / previous sentence"},
		{"Ctrl+Z", "undo"},
		{"Ctrl+Shift+Z, Ctrl+Y", "redo"},
		{"Esc", "cancel"},
		{"?", "show / hide this sheet"},
	}
}

// AnnUndoList returns the descriptions of the undo steps, newest first.
func (a *App) AnnUndoList() []string {
	if sent := a.annSentence(); sent != nil {
		return sent.UndoList()
	}
	return nil
}

// AnnRedoList returns the descriptions of the redo steps, next first.
func (a *App) AnnRedoList() []string {
	if sent := a.annSentence(); sent != nil {
		return sent.RedoList()
	}
	return nil
}

// AnnSentence returns the sentence shown, nil without a corpus.
func (a *App) AnnSentence() *annotate.Sentence { return a.annSentence() }

// annSetTab is called when the annotation tab is shown.
func (a *App) annSetTab() {
	a.annRefresh()
}

// annBusy reports whether a re-parse is running, saying so in the
// annotation's error: edits wait for it.
func (a *App) annBusy() bool {
	if a.Annotate.Busy {
		a.Annotate.Err = "wait for the re-parse to finish"
	}
	return a.Annotate.Busy
}
