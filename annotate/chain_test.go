package annotate

import (
	"context"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/treebank"
)

// TestCreateUnderUnaryChain: a constituent created inside a unary chain (S
// over a lone NP) goes under its lowest node, whatever the order in which
// the file lists the two (Alpino's files list children first; other export
// and TIGER-XML files may list the parent first), and covers its words,
// with and without a re-parse; the corpus then exports.
func TestCreateUnderUnaryChain(t *testing.T) {
	const childFirst = "#BOS 1\nde\t--\tLID\t--\t--\t500\nman\t--\tN\t--\t--\t500\nslaapt\t--\tWW\t--\t--\t500\n" +
		"#500\t--\tNP\t--\t--\t501\n#501\t--\tS\t--\t--\t0\n#EOS 1\n"
	const parentFirst = "#BOS 1\nde\t--\tLID\t--\t--\t501\nman\t--\tN\t--\t--\t501\nslaapt\t--\tWW\t--\t--\t501\n" +
		"#500\t--\tS\t--\t--\t0\n#501\t--\tNP\t--\t--\t500\n#EOS 1\n"
	for _, tc := range []struct {
		name   string
		file   string
		status Status
	}{
		{"child first", childFirst, Untouched},
		{"parent first", parentFirst, Untouched},
		{"parent first, pre-annotated", parentFirst, PreAnnotated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Import(strings.NewReader(tc.file), "x.export", 0, ImportOptions{Format: treebank.Export, Status: tc.status})
			if err != nil {
				t.Fatal(err)
			}
			s := c.Sentences[0]
			var rp Reparser
			if tc.status == PreAnnotated {
				rp = &fakeReparser{}
			}
			if err := s.Do(context.Background(), CreateConstituent{Label: "X", Words: []int{0, 1}}, rp); err != nil {
				t.Fatal(err)
			}
			if p := Validate(s, 0, nil); len(p) > 0 {
				t.Errorf("problems after the edit: %v", p)
			}
			got := bracket(t, s.Tree())
			if !strings.Contains(got, "(X (LID 0=de) (N 1=man))") {
				t.Errorf("tree %s: want X over de man", got)
			}
			if tc.status == Untouched && !strings.Contains(got, "(S (NP (X (LID 0=de) (N 1=man)) (WW 2=slaapt)))") {
				t.Errorf("tree %s: want X inside NP, inside S", got)
			}
			var b strings.Builder
			if err := c.Export(&b, treebank.Discbracket); err != nil {
				t.Errorf("export: %v", err)
			}
		})
	}
}
