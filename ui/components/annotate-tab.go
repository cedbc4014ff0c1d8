package components

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// AnnotateTab is the annotation tab: the current sentence's tree with the
// word selection, the editing tools, undo and redo, the status, the note,
// the validation problems and the shortcut sheet; the corpus view below.
// While it is shown, keys pressed outside text fields edit
// (annotate-tab_js.go; app.App.AnnKey). Its root element carries data
// attributes for tests: data-seq (changes of the corpus), data-saved (the
// change last saved), data-busy, data-cons (the tree's constituents),
// data-sel (the selected words), data-node, data-undo and data-redo.
type AnnotateTab struct {
	App *app.App
	// keys is the document's keydown listener.
	keys js.Func
	// focused is the label field opening last focused.
	focused int
	// consOpen is set while the list of constituents is shown.
	consOpen bool
	// lettersOff mirrors app.AnnotateState.LetterKeysOff for the key
	// listener (set by Rendered).
	lettersOff atomic.Bool
	// asking is set while the import question has the focus.
	asking bool
}

// statusPressed says whether a status button is the sentence's status.
func (c *AnnotateTab) statusPressed(st string) string {
	s := c.App.AnnSentence()
	return pressedIf(s != nil && s.Status().String() == st)
}

// helpExpanded says whether the shortcut sheet is shown.
func (c *AnnotateTab) helpExpanded() string { return strconv.FormatBool(c.App.Annotate.Help) }

// selectionText says in words what is selected, for screen readers: the
// drawing shows it only by colour.
func (c *AnnotateTab) selectionText() string {
	s := c.App.AnnSentence()
	if s == nil {
		return ""
	}
	t := s.Tree()
	words := t.Words()
	var parts []string
	if ws := c.App.Annotate.Sel.Words(); len(ws) > 0 {
		var sel []string
		for _, w := range ws {
			if w >= 0 && w < len(words) {
				sel = append(sel, words[w])
			}
		}
		parts = append(parts, "selected words: "+strings.Join(sel, " "))
	}
	if n := c.App.Annotate.Node; n >= 0 && n < len(t.Nodes) {
		parts = append(parts, "selected constituent: "+t.Nodes[n].Label)
	}
	if cur := c.App.Annotate.Sel.Cursor(); cur >= 0 && cur < len(words) {
		parts = append(parts, "cursor on word "+strconv.Itoa(cur+1)+", "+words[cur])
	}
	return strings.Join(parts, "; ")
}

// annCons is a constituent of the sentence annotated, for the list that
// gives the drawing as text.
type annCons struct {
	index    int
	text     string
	selected bool
}

// consSummary counts the constituents listed.
func (c *AnnotateTab) consSummary() string {
	s := c.App.AnnSentence()
	if s == nil {
		return ""
	}
	return "the tree as text: " + app.Count(len(s.Tree().Nodes), "constituent")
}

// consList lists the sentence's constituents (label, blocks and words),
// each a button that selects it as a click on its label does; empty while
// the list is closed.
func (c *AnnotateTab) consList() []annCons {
	s := c.App.AnnSentence()
	if s == nil || !c.consOpen {
		return nil
	}
	t := s.Tree()
	words := t.Words()
	var out []annCons
	for i, y := range t.Yields() {
		var covered []string
		for _, p := range y {
			covered = append(covered, words[p])
		}
		text := tree.Labelled{Label: t.Nodes[i].Label, Blocks: tree.Blocks(y)}.String() + ": " + strings.Join(covered, " ")
		out = append(out, annCons{index: i, text: text, selected: i == c.App.Annotate.Node})
	}
	return out
}

func (c *AnnotateTab) seq() string   { return strconv.Itoa(c.App.Annotate.Seq) }
func (c *AnnotateTab) saved() string { return strconv.Itoa(c.App.Annotate.Saved) }
func (c *AnnotateTab) busy() string  { return strconv.FormatBool(c.App.Annotate.Busy) }
func (c *AnnotateTab) node() string  { return strconv.Itoa(c.App.Annotate.Node) }

// reparse is the last re-parse's time in milliseconds: the decoding in the
// engine, and the whole edit as the page saw it.
func (c *AnnotateTab) reparse() string {
	a := &c.App.Annotate
	return fmt.Sprintf("%.2f %.2f", float64(a.ReparseNs)/1e6, float64(a.ReparseWallNs)/1e6)
}

// cons lists the current tree's constituents, sorted, space-separated.
func (c *AnnotateTab) cons() string {
	s := c.App.AnnSentence()
	if s == nil {
		return ""
	}
	t := s.Tree()
	var out []string
	for i, y := range t.Yields() {
		out = append(out, tree.Labelled{Label: t.Nodes[i].Label, Blocks: tree.Blocks(y)}.String())
	}
	return strings.Join(out, " ")
}

// sel lists the selected words.
func (c *AnnotateTab) sel() string {
	var out []string
	for _, w := range c.App.Annotate.Sel.Words() {
		out = append(out, strconv.Itoa(w))
	}
	return strings.Join(out, ",")
}

func (c *AnnotateTab) undoCount() string { return strconv.Itoa(len(c.App.AnnUndoList())) }
func (c *AnnotateTab) redoCount() string { return strconv.Itoa(len(c.App.AnnRedoList())) }

// position is "sentence i of n (id)".
// keptSummary names the projects kept aside.
func (c *AnnotateTab) keptSummary() string {
	return app.Count(len(c.App.Annotate.Kept), "project") + " kept aside in this browser"
}

// deleteKeptLabel is the label of a kept project's delete button: it asks
// on the first click.
func (c *AnnotateTab) deleteKeptLabel(key string) string {
	if c.App.Annotate.ConfirmDeleteKept == key {
		return "really delete it?"
	}
	return "delete"
}

// restoring says how far the restore of the saved work has come.
func (c *AnnotateTab) restoring() string {
	a := &c.App.Annotate
	if a.RestoreTotal == 0 {
		return "Looking for saved work…"
	}
	return fmt.Sprintf("Restoring the saved work… %d%%", 100*a.RestoreDone/a.RestoreTotal)
}

func (c *AnnotateTab) position() string {
	a := &c.App.Annotate
	s := fmt.Sprintf("sentence %d of %d", a.Index+1, len(a.Corpus.Sentences))
	if sent := c.App.AnnSentence(); sent != nil && sent.ID() != "" {
		s += " (" + sent.ID() + ")"
	}
	return s
}

func (c *AnnotateTab) statuses() []string {
	return []string{annotate.Untouched.String(), annotate.PreAnnotated.String(), annotate.Checked.String()}
}

func (c *AnnotateTab) statusClass(st string) string {
	if s := c.App.AnnSentence(); s != nil && s.Status().String() == st {
		return "status on"
	}
	return "status"
}

// saveClass marks work that is not kept in this browser.
func (c *AnnotateTab) saveClass() string {
	if a := &c.App.Annotate; a.SaveErr != "" && a.Saved < a.Seq {
		return "ann-save error"
	}
	return "ann-save"
}

func (c *AnnotateTab) labelClass() string {
	if c.App.Annotate.LabelMode != "" {
		return "ann-label open"
	}
	return "ann-label"
}

// labelPrompt says what the label field is for.
func (c *AnnotateTab) labelPrompt() string {
	switch c.App.Annotate.LabelMode {
	case app.LabelCreate:
		return "new constituent's label:"
	case app.LabelRelabel:
		return "new label:"
	case app.LabelTag:
		return "tag:"
	}
	return "label or tag:"
}

// apply applies the label field's text with a button.
func (c *AnnotateTab) apply(mode string) {
	text := c.App.Annotate.LabelText
	c.App.Annotate.LabelMode = mode
	c.App.Annotate.LabelText = text
	c.App.AnnApplyLabel()
}

// labelKey applies the label field on Enter and cancels on Escape.
func (c *AnnotateTab) labelKey(event vugu.DOMEvent) {
	switch event.PropString("key") {
	case "Enter":
		event.PreventDefault()
		c.App.AnnSetLabelText(event.PropString("target", "value"))
		if c.App.Annotate.LabelMode == "" {
			c.App.Annotate.LabelMode = app.LabelCreate
		}
		c.App.AnnApplyLabel()
		leaveLabelField(event.JSEventTarget())
	case "Escape":
		c.App.AnnCancel()
		leaveLabelField(event.JSEventTarget())
	}
}

// leaveLabelField moves the focus from the label field to the drawing,
// where the tab's keys work: blurring the field dropped the focus to the
// page's start, and a keyboard user's next Tab with it.
func leaveLabelField(field js.Value) {
	if tree := js.Global().Get("document").Call("querySelector", ".ann-tree .scroll"); tree.Truthy() {
		tree.Call("focus", map[string]any{"preventScroll": true})
		return
	}
	field.Call("blur")
}

// populate sets the drawing into its element when it changed.
func (c *AnnotateTab) populate(el js.Value) {
	v := c.App.Annotate.View
	if v == nil || el.Get("discspanSVG").String() == v.Key {
		return
	}
	el.Set("innerHTML", v.SVG)
	el.Set("discspanSVG", v.Key)
}

// click selects the word or node clicked: shift extends the selection,
// ctrl (or cmd) starts a second block.
func (c *AnnotateTab) click(event vugu.DOMEvent) {
	el := event.JSEventTarget()
	if !el.Truthy() || el.Get("closest").IsUndefined() {
		return
	}
	el = el.Call("closest", "[data-node],[data-word]")
	if !el.Truthy() {
		return
	}
	ev := event.JSEvent()
	if v := el.Call("getAttribute", "data-node"); v.Truthy() {
		if i, err := strconv.Atoi(v.String()); err == nil && i >= 0 {
			c.App.AnnClickNode(i)
		}
		return
	}
	if i, err := strconv.Atoi(el.Call("getAttribute", "data-word").String()); err == nil {
		c.App.AnnClickWord(i, ev.Get("shiftKey").Bool(), ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool())
	}
}

func (c *AnnotateTab) problemsTitle() string {
	n := len(c.App.Annotate.Problems)
	if n == 0 {
		return "No problems"
	}
	return fmt.Sprintf("%d problem(s)", n)
}

func (c *AnnotateTab) shortcuts() [][2]string { return app.Shortcuts() }

func (c *AnnotateTab) note() string { return c.App.AnnNoteText() }
