package treebank

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

const exportSample = "%% word\tlemma\ttag\tmorph\tedge\tparent\tsecedge\n" +
	"#BOS 1 2 899993242 1\n" +
	"Das\tder\tART\tNom.Sg.Neut\tNK\t500\n" +
	"Haus\tHaus\tNN\tNom.Sg.Neut\tNK\t500\tOA\t501\n" +
	"ist\tsein\tVAFIN\t3.Sg.Pres.Ind\tHD\t501\n" +
	"groß\tgroß\tADJD\tPos\tPD\t501\t%% a comment\n" +
	".\t--\t$.\t--\t--\t0\n" +
	"#500\t--\tNP\t--\tSB\t501\n" +
	"#501\t--\tS\t--\t--\t0\n" +
	"#EOS 1\n"

func TestReadExport(t *testing.T) {
	want := &tree.Tree{
		ID:       "1",
		BOSExtra: "2 899993242 1",
		Tokens: []tree.Token{
			{Word: "Das", Lemma: "der", Tag: "ART", Morph: "Nom.Sg.Neut", Edge: "NK", Parent: 0},
			{Word: "Haus", Lemma: "Haus", Tag: "NN", Morph: "Nom.Sg.Neut", Edge: "NK", Parent: 0, Sec: []tree.SecEdge{{Label: "OA", Parent: 1}}},
			{Word: "ist", Lemma: "sein", Tag: "VAFIN", Morph: "3.Sg.Pres.Ind", Edge: "HD", Parent: 1},
			{Word: "groß", Lemma: "groß", Tag: "ADJD", Morph: "Pos", Edge: "PD", Parent: 1, Comment: "a comment"},
			{Word: ".", Tag: "$.", Parent: tree.Root},
		},
		Nodes: []tree.Node{
			{Num: 500, Label: "NP", Edge: "SB", Parent: 1},
			{Num: 501, Label: "S", Parent: tree.Root},
		},
	}
	tests := []struct {
		name string
		text string
	}{
		{"tabs", exportSample},
		{"spaces and repeated tabs", strings.NewReplacer("\t", " \t ", "#BOS 1 2", "#BOS   1 2").Replace(exportSample)},
		{"CRLF", strings.ReplaceAll(exportSample, "\n", "\r\n")},
		{"format line and header tables", "#FORMAT 4\n#BOT ORIGIN\n0\tfoo\n#EOT ORIGIN\n" + exportSample},
		{"no final newline", strings.TrimSuffix(exportSample, "\n")},
		{"comment and blank lines inside", strings.Replace(exportSample, "Haus\t", "%% note\n\nHaus\t", 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := mustRead(t, tc.text, Export)
			if len(got) != 1 {
				t.Fatalf("got %d trees, want 1", len(got))
			}
			if !reflect.DeepEqual(got[0], want) {
				t.Errorf("got  %+v\nwant %+v", *got[0], *want)
			}
		})
	}
}

func TestExportRoundTrip(t *testing.T) {
	v3 := "%% word\ttag\tmorph\tedge\tparent\tsecedge\n" +
		"#BOS 7\n" +
		"Ein\tART\t--\tNK\t500\n" +
		"Test\tNN\t--\tNK\t500\tHD\t501\n" +
		"läuft\tVVFIN\t--\tHD\t501\n" +
		"#500\tNP\t--\tSB\t501\n" +
		"#501\tS\t--\t--\t0\n" +
		"#EOS 7\n"
	tests := []struct {
		name    string
		text    string
		version int
	}{
		{"version 4", exportSample, 4},
		{"version 3", v3, 3},
		{"empty sentence", exportHeader(4) + "#BOS a\n#EOS a\n", 4},
		{"no sentences", exportHeader(4), 4},
		{"secondary edge to root, node comment, unsorted nodes", exportHeader(4) +
			"#BOS x\nw\t--\tT\t--\t--\t501\t--\t0\n#501\t--\tA\t--\t--\t500\t%% c\n#500\t--\tB\t--\t--\t0\n#EOS x\n", 4},
		{"dash word and bracket tags", exportHeader(4) +
			"#BOS x\n--\t--\t$[\t--\t--\t0\n(\t(\tLET[]\t--\t--\t0\n#EOS x\n", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trees := mustRead(t, tc.text, Export)
			var b strings.Builder
			if err := WriteExport(&b, trees, tc.version); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tc.text {
				t.Errorf("got\n%s\nwant\n%s", got, tc.text)
			}
		})
	}
}

func TestExportVersionDetection(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"v4 by fields", "#BOS 1\na\tb\tc\td\te\t0\n#EOS 1\n", 4},
		{"v3 by fields", "#BOS 1\na\tc\td\te\t0\n#EOS 1\n", 3},
		{"v3 with secondary edge", "#BOS 1\na\tc\td\te\t500\tx\t500\n#500\tN\t--\t--\t0\n#EOS 1\n", 3},
		{"format line", "#FORMAT 3\n#BOS 1\na\tc\td\te\t0\n#EOS 1\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.text), "test", Export)
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
			if got := r.ExportVersion(); got != tc.want {
				t.Errorf("version %d, want %d", got, tc.want)
			}
		})
	}
}

// TestWriteExportNumbering checks the numbers given to nodes without valid
// numbers: post-order, siblings by leftmost word.
func TestWriteExportNumbering(t *testing.T) {
	trees := mustRead(t, "(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))\n", Discbracket)
	for i := range trees[0].Nodes {
		trees[0].Nodes[i].Num = 0
	}
	var b strings.Builder
	if err := WriteExport(&b, trees, 4); err != nil {
		t.Fatal(err)
	}
	want := exportHeader(4) + "#BOS 1\n" +
		"is\t--\tVB\t--\t--\t500\n" +
		"John\t--\tNP\t--\t--\t501\n" +
		"rich\t--\tJJ\t--\t--\t500\n" +
		"?\t--\t?\t--\t--\t501\n" +
		"#500\t--\tVP\t--\t--\t501\n" +
		"#501\t--\tS\t--\t--\t0\n" +
		"#EOS 1\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWriteExportErrors(t *testing.T) {
	base := func() *tree.Tree {
		return &tree.Tree{ID: "s", Tokens: []tree.Token{{Word: "a", Tag: "T", Parent: 0}}, Nodes: []tree.Node{{Num: 500, Label: "X", Parent: tree.Root}}}
	}
	tests := []struct {
		name   string
		change func(*tree.Tree)
		want   string
	}{
		{"space in word", func(t *tree.Tree) { t.Tokens[0].Word = "a b" }, "white space"},
		{"tab in tag", func(t *tree.Tree) { t.Tokens[0].Tag = "a\tb" }, "white space"},
		{"comment field", func(t *tree.Tree) { t.Tokens[0].Lemma = "%%x" }, "comment"},
		{"node number word", func(t *tree.Tree) { t.Tokens[0].Word = "#500" }, "node number"},
		{"boundary word", func(t *tree.Tree) { t.Tokens[0].Word = "#EOS" }, "sentence boundary"},
		{"parent out of range", func(t *tree.Tree) { t.Tokens[0].Parent = 3 }, "out of range"},
		{"cycle", func(t *tree.Tree) { t.Nodes[0].Parent = 0 }, "cycle"},
		{"id with space", func(t *tree.Tree) { t.ID = "a b" }, "sentence id"},
		{"line break in comment", func(t *tree.Tree) { t.Tokens[0].Comment = "a\nb" }, "line break"},
		{"carriage return in comment", func(t *tree.Tree) { t.Nodes[0].Comment = "a\rb" }, "line break"},
		{"carriage return in #BOS text", func(t *tree.Tree) { t.BOSExtra = "a\rb" }, "line break"},
		{"too many nodes", func(t *tree.Tree) {
			for range 500 {
				t.Nodes = append(t.Nodes, tree.Node{Label: "Y", Parent: tree.Root})
			}
		}, "at most 500"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := base()
			tc.change(tr)
			var b strings.Builder
			err := WriteExport(&b, []*tree.Tree{tr}, 4)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "tree 1") {
				t.Errorf("error %v, want one naming tree 1 and containing %q", err, tc.want)
			}
			var we *WriteError
			if !errors.As(err, &we) || we.N != 1 || we.ID != tr.ID {
				t.Errorf("error %v is not a *WriteError for tree 1", err)
			}
		})
	}
	if err := WriteExport(&strings.Builder{}, nil, 5); err == nil {
		t.Error("version 5: no error")
	}
}
