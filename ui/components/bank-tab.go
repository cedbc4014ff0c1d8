package components

import (
	"fmt"
	"strconv"

	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
)

// BankTab is the treebank tab: open a treebank (file picker, drop, paste),
// browse it sentence by sentence with the gold tree beside the parse and
// their F1, parse it all, export.
type BankTab struct {
	App *app.App
	// paste is the text of the paste box.
	paste string
	// pasteOpen is set while the paste box is shown.
	pasteOpen bool
	// indexText is the sentence number being typed, "" when none: the
	// field shows it until it is entered, so that a render meanwhile (a
	// treebank's progress, twice a second) does not undo the typing.
	indexText string
}

// drop opens a dropped file.
func (c *BankTab) drop(event vugu.DOMEvent) {
	event.PreventDefault()
	c.App.OpenFiles(event.JSEvent().Get("dataTransfer").Get("files"))
}

// goTo shows the sentence typed in the number box (1-based).
func (c *BankTab) goTo(event vugu.DOMEvent) {
	c.indexText = ""
	if i, err := strconv.Atoi(event.PropString("target", "value")); err == nil {
		c.App.BankGo(i - 1)
	}
}

// position is "sentence i of n (id)".
func (c *BankTab) position() string {
	b := c.App.Bank
	s := fmt.Sprintf("of %d", b.Len())
	if id := b.Gold[b.Index].ID; id != "" {
		s += " (id " + id + ")"
	}
	return s
}

// index is the 1-based sentence number.
func (c *BankTab) index() string {
	if c.indexText != "" {
		return c.indexText
	}
	return strconv.Itoa(c.App.Bank.Index + 1)
}

// sentenceScore is the evaluation of the sentence shown.
func (c *BankTab) sentenceScore() string {
	b := c.App.Bank
	if e := b.CurrentErr(); e != "" {
		return e
	}
	r := b.Current()
	if r == nil {
		return "not parsed yet"
	}
	return fmt.Sprintf("F1 %.2f (P %.2f, R %.2f: %d of %d gold brackets, %d in the parse), POS %d of %d%s",
		r.F1, r.Precision, r.Recall, r.Matched, r.Gold, r.Cand, r.POSCorrect, r.Words, map[bool]string{true: ", exact match"}[r.Exact])
}

// corpusScore is the evaluation of every sentence parsed so far.
func (c *BankTab) corpusScore() string {
	b := c.App.Bank
	s := b.Summary
	if s == nil {
		return ""
	}
	refused := ""
	if n := b.Refused(); n > 0 {
		refused = fmt.Sprintf(" (and %d that could not be parsed, scored as flat trees)", n)
	}
	return fmt.Sprintf("%d of %s parsed with %s%s: F1 %.2f (P %.2f, R %.2f), discontinuous F1 %.2f, exact %.2f%%, POS %.2f%%",
		b.Parsed, app.Count(b.Len(), "sentence"), b.Variant, refused, s.F1, s.Precision, s.Recall, s.DiscF1, s.Exact, s.POSAccuracy)
}

// variants are the decoder variants' names.
func (c *BankTab) variants() []string { return app.Variants() }

// views are the trees shown.
func (c *BankTab) views() []*app.TreeView { return c.App.Views() }
