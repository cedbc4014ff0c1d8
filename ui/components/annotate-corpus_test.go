package components

import (
	"testing"
	"time"

	"github.com/discspan/discspan/ui/app"
)

func TestAnnotateCorpusOther(t *testing.T) {
	a, _, env := loaded(t, false)
	first := "(S (NP (LID 0=de) (N 1=man)) (WW 2=slaapt))\n(S (N 0=Jan) (WW 1=loopt))\n"
	tests := []struct {
		name, other string
		want        []string
	}{
		{
			name:  "same sentences",
			other: "(S (LID 0=de) (VP (N 1=man) (WW 2=slaapt)))\n(S (N 0=Jan) (WW 1=loopt))\n",
			want: []string{
				`id="ann-other-file"`, `Compare with another file…`,
				`second.discbracket: 2 sentences imported as the second file`,
				`data-f1="66.67"`, `F1 66.67 (P 66.67, R 66.67; 2 matching, 3 in the first, 3 in the second) over 2 sentences`,
				`id="ann-diff-other"`, `first file (as imported) vs second file`, `id="ann-diff-other-current"`,
				`first file (first.discbracket, as imported) vs second file (second.discbracket)`,
				`id="ann-diff-f1">F1 50.0 (P 50.0, R 50.0): 1 matching, 1 only in first file`,
			},
		},
		{
			name:  "different words",
			other: "(S (NP (LID 0=de) (N 1=vrouw)) (WW 2=slaapt))\n(S (N 0=Jan) (WW 1=loopt))\n",
			want: []string{
				`data-f1="100.00"`, `over 1 sentence; 1 sentence left out because their words differ, first sentence 1 (1): word 2 is &#34;man&#34; in the corpus but &#34;vrouw&#34; in the second file`,
				`id="ann-err"`, `cannot diff: sentence 1 (1): word 2 is &#34;man&#34;`,
			},
		},
		{
			name:  "fewer sentences",
			other: "(S (NP (LID 0=de) (N 1=man)) (WW 2=slaapt))\n",
			want: []string{
				`data-f1=""`, `cannot compare: second.discbracket has 1 sentence, the corpus 2`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var prev *app.ImportProgress
			env.Do(func() {
				a.SetTab(app.TabAnnotate)
				prev = a.Annotate.Import
				a.AnnImport("first.discbracket", []byte(first))
			})
			done := func() bool {
				p := a.Annotate.Import
				return p != nil && p != prev && p.Done
			}
			env.Wait(t, "the import", 30*time.Second, done)
			env.Do(func() { prev = a.Annotate.Import; a.AnnImportOther("second.discbracket", []byte(tc.other)) })
			env.Wait(t, "the second import", 30*time.Second, done)
			var html string
			env.Do(func() {
				a.AnnShowDiff(app.DiffOther)
				html = render(t, &Root{App: a})
			})
			contains(t, html, tc.want...)
		})
	}
}
