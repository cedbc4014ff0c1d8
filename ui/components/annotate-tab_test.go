package components

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/ui/app"
)

func TestAnnotateTab(t *testing.T) {
	a, _, env := loaded(t, false)
	var empty string
	env.Do(func() {
		a.SetTab(app.TabAnnotate)
		empty = render(t, &Root{App: a})
	})
	contains(t, empty, `id="tab-annotate"`, `id="anntab"`, `id="ann-new"`, `id="ann-file"`)
	tr, err := tree.FromConstituents([]string{"de", "man", "slaapt"}, []string{"LID", "N", "WW"},
		[]tree.Labelled{{Label: "np", Blocks: []tree.Span{{Start: 0, End: 2}}}, {Label: "XX", Blocks: []tree.Span{{Start: 0, End: 3}}}})
	if err != nil {
		t.Fatal(err)
	}
	tr.ID = "s1"
	var html string
	env.Do(func() {
		a.AnnSetCorpus(annotate.NewCorpus("test.export", []*tree.Tree{tr}, annotate.PreAnnotated), nil, 0)
		a.AnnKey("ArrowRight", true, false)
		a.AnnKey("?", false, false)
		a.AnnKey("c", false, false)
		html = render(t, &Root{App: a})
	})
	contains(t, html,
		`data-sel="0,1"`, `data-cons="np[0,2) XX[0,3)"`, `data-undo="0"`, `data-busy="false"`,
		`id="ann-help"`, `Ctrl+Shift+Z`, `new constituent&#39;s label:`, `id="ann-label"`,
		`id="ann-problems"`, `unknown label`, `sentence 1 of 1 (s1)`, `class="status on" id="ann-status-pre-annotated"`,
		`<option value="np"></option>`, `id="ann-list"`, `data-status="pre-annotated"`,
		`id="ann-export-export"`, `id="ann-search"`, `id="ann-diff-parser"`,
		// The drawing is set by populate, in the browser.
		`data-svg="`+a.Annotate.View.Key+`"`,
	)
	if !strings.Contains(a.Annotate.View.SVG, "wsel") || !strings.Contains(a.Annotate.View.SVG, "problem") {
		t.Error("the drawing does not mark the selection and the problem")
	}
}
