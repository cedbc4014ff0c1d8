package treebank

import (
	"errors"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// longestRun returns the length of the longest run of bytes of text
// between two of the bytes of seps (or an end of text): the longest line
// for "\n"; for "<>", the longest tag or text of a TIGER-XML document
// whose values hold no '<' or '>' (the writer escapes them), which is what
// boundedXML counts.
func longestRun(text, seps string) int {
	longest := 0
	for {
		i := strings.IndexAny(text, seps)
		if i < 0 {
			return max(longest, len(text))
		}
		longest = max(longest, i)
		text = text[i+1:]
	}
}

// TestWriteLineBytes: a tree with one word, tag, label, lemma, morph,
// edge label, comment or id long enough that its longest line (export,
// discbracket) or tag (TIGER-XML) is exactly MaxLineBytes is written and
// reads back the same; one byte longer, the writer refuses it with a
// *WriteError naming the line or tag and the limit (the reader would
// refuse it), writes nothing of it (not even a value in the TIGER-XML
// header), and writes the next tree, which reads back alone.
func TestWriteLineBytes(t *testing.T) {
	base := func() *tree.Tree {
		return &tree.Tree{ID: "long", BOSExtra: "b",
			Tokens: []tree.Token{
				{Word: "w", Lemma: "l", Tag: "T", Morph: "m", Edge: "E", Parent: 0, Comment: "c", Sec: []tree.SecEdge{{Label: "S", Parent: 1}}},
				{Word: "v", Tag: "T", Parent: 1},
			},
			Nodes: []tree.Node{
				{Num: 500, Label: "NP", Lemma: "nl", Morph: "nm", Edge: "E", Parent: 1, Comment: "c", Sec: []tree.SecEdge{{Label: "S", Parent: 1}}},
				{Num: 501, Label: "S", Parent: tree.Root},
			},
		}
	}
	small := &tree.Tree{ID: "small", Tokens: []tree.Token{{Word: "a", Tag: "N", Parent: tree.Root}}}
	// What discbracket does not write (see appendDiscbracket), and ids
	// and node numbers, which it gives itself.
	norm := func(tr *tree.Tree, f Format) *tree.Tree {
		c := tr.Clone()
		if f != Discbracket {
			return c
		}
		c.ID = ""
		for k := range c.Tokens {
			tok := &c.Tokens[k]
			tok.Lemma, tok.Morph, tok.Edge, tok.Comment, tok.Sec = "", "", "", "", nil
		}
		for k := range c.Nodes {
			nd := &c.Nodes[k]
			nd.Num, nd.Lemma, nd.Morph, nd.Edge, nd.Comment, nd.Sec = 0, "", "", "", "", nil
		}
		return c
	}
	all := []Format{Export, TigerXML, Discbracket}
	clipped := strings.Repeat("x", 40) + "..." // a long value in errors
	const line, tag = ": a line of 1048577 bytes", ": the <t> tag has 1048577 bytes"
	const nt, edge, secedge = ": the <nt> tag has 1048577 bytes", ": the <edge> tag has 1048577 bytes", ": the <secedge> tag has 1048577 bytes"
	tests := []struct {
		name    string
		set     func(tr *tree.Tree, s string)
		formats []Format
		// What the refusal says, by format.
		export, tiger, disc string
	}{
		{"word", func(tr *tree.Tree, s string) { tr.Tokens[0].Word = s }, all,
			`token 0 ("` + clipped + `")` + line, `token 0 ("` + clipped + `")` + tag, line},
		{"token lemma", func(tr *tree.Tree, s string) { tr.Tokens[0].Lemma = s }, all[:2], `token 0 ("w")` + line, `token 0 ("w")` + tag, ""},
		{"tag", func(tr *tree.Tree, s string) { tr.Tokens[0].Tag = s }, all, `token 0 ("w")` + line, `token 0 ("w")` + tag, line},
		{"token morph", func(tr *tree.Tree, s string) { tr.Tokens[0].Morph = s }, all[:2], `token 0 ("w")` + line, `token 0 ("w")` + tag, ""},
		{"token edge label", func(tr *tree.Tree, s string) { tr.Tokens[0].Edge = s }, all[:2], `token 0 ("w")` + line, "node 0 (NP): the edge to token 0" + edge, ""},
		{"token comment", func(tr *tree.Tree, s string) { tr.Tokens[0].Comment = s }, all[:2], `token 0 ("w")` + line, `token 0 ("w")` + tag, ""},
		{"token secondary edge label", func(tr *tree.Tree, s string) { tr.Tokens[0].Sec[0].Label = s }, all[:2], `token 0 ("w")` + line, `token 0 ("w"): secondary edge 0` + secedge, ""},
		{"node label", func(tr *tree.Tree, s string) { tr.Nodes[0].Label = s }, all, "node 0 (" + clipped + ")" + line, "node 0 (" + clipped + ")" + nt, line},
		{"node lemma", func(tr *tree.Tree, s string) { tr.Nodes[0].Lemma = s }, all[:2], "node 0 (NP)" + line, "node 0 (NP)" + nt, ""},
		{"node morph", func(tr *tree.Tree, s string) { tr.Nodes[0].Morph = s }, all[:2], "node 0 (NP)" + line, "node 0 (NP)" + nt, ""},
		{"node edge label", func(tr *tree.Tree, s string) { tr.Nodes[0].Edge = s }, all[:2], "node 0 (NP)" + line, "node 1 (S): the edge to node 0" + edge, ""},
		{"edge label under the root", func(tr *tree.Tree, s string) { tr.Nodes[1].Edge = s }, all[:2], "node 1 (S)" + line, "the virtual root: the edge to node 1" + edge, ""},
		{"node comment", func(tr *tree.Tree, s string) { tr.Nodes[0].Comment = s }, all[:2], "node 0 (NP)" + line, "node 0 (NP)" + nt, ""},
		{"node secondary edge label", func(tr *tree.Tree, s string) { tr.Nodes[0].Sec[0].Label = s }, all[:2], "node 0 (NP)" + line, "node 0 (NP): secondary edge 0" + secedge, ""},
		{"sentence id", func(tr *tree.Tree, s string) { tr.ID = s }, all[:2], "the #BOS line" + line, `token 0 ("w")` + tag, ""},
		{"sentence comment", func(tr *tree.Tree, s string) { tr.BOSExtra = s }, all, "the #BOS line" + line, "the <s> tag has 1048577 bytes", line},
	}
	for _, tc := range tests {
		for _, f := range tc.formats {
			what := map[Format]string{Export: tc.export, TigerXML: tc.tiger, Discbracket: tc.disc}[f]
			seps := "\n"
			if f == TigerXML {
				seps = "<>"
			}
			write := func(trees ...*tree.Tree) (string, error) {
				var buf strings.Builder
				w := NewWriter(&buf, f)
				var first error
				for _, tr := range trees {
					if err := w.Write(tr); err != nil && first == nil {
						first = err
					}
				}
				if err := w.Flush(); err != nil {
					t.Fatalf("flush: %v", err)
				}
				return buf.String(), first
			}
			// long returns the tree with the field n bytes long.
			long := func(n int) *tree.Tree {
				tr := base()
				tc.set(tr, strings.Repeat("x", n))
				return tr
			}
			t.Run(tc.name+"/"+f.String(), func(t *testing.T) {
				// With the field 1000 bytes long its line or tag is the
				// longest; each byte more makes that one byte longer.
				const k = 1000
				text, err := write(long(k))
				if err != nil {
					t.Fatal(err)
				}
				n := k + MaxLineBytes - longestRun(text, seps)

				text, err = write(long(n), small)
				if err != nil {
					t.Fatalf("at the limit: %v", err)
				}
				if got := longestRun(text, seps); got != MaxLineBytes {
					t.Fatalf("the longest line or tag has %d bytes, want %d", got, MaxLineBytes)
				}
				back, err := ReadAll(strings.NewReader(text), "written", f)
				if err != nil {
					t.Fatalf("read back at the limit: %.300v", err)
				}
				for i := range back {
					back[i] = norm(back[i], f)
				}
				if diff := treesEqual(back, []*tree.Tree{norm(long(n), f), norm(small, f)}, f == Discbracket); diff != "" {
					t.Errorf("read back at the limit differs: %.300s", diff)
				}

				text, err = write(long(n+1), small)
				var we *WriteError
				if !errors.As(err, &we) || we.N != 1 || !strings.Contains(err.Error(), what) || !strings.Contains(err.Error(), "(the readers' limit)") {
					t.Fatalf("one byte past: error %.300v; want a *WriteError for tree 1 saying %q and naming the limit", err, what)
				}
				if len(err.Error()) > 1000 {
					t.Errorf("the error has %d bytes", len(err.Error()))
				}
				alone, err := write(small)
				if err != nil {
					t.Fatal(err)
				}
				if text != alone {
					t.Errorf("one byte past: written\n%.2000s\nwant what the next tree alone writes\n%s", text, alone)
				}
				back, err = ReadAll(strings.NewReader(text), "written", f)
				if err != nil || len(back) != 1 || treesEqual(back, []*tree.Tree{norm(small, f)}, true) != "" {
					t.Errorf("one byte past: read back %d trees, error %v; want the next tree alone", len(back), err)
				}
			})
		}
	}
}

// TestTigerXMLCorpusIDBytes: a corpus id whose <corpus> tag is exactly
// MaxLineBytes long is written and the document reads back; one byte
// longer, every Write and Flush refuse it, naming the corpus id.
func TestTigerXMLCorpusIDBytes(t *testing.T) {
	small := &tree.Tree{ID: "small", Tokens: []tree.Token{{Word: "a", Tag: "N", Parent: tree.Root}}}
	tagOver := len(`corpus id=""`) // the tag's bytes besides the id
	tests := []struct {
		name    string
		id      int // bytes
		wantErr bool
	}{
		{"at the limit", MaxLineBytes - tagOver, false},
		{"one byte past", MaxLineBytes - tagOver + 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf strings.Builder
			w := NewTigerXMLWriter(&buf, strings.Repeat("c", tc.id))
			werr, ferr := w.Write(small), w.Flush()
			if tc.wantErr {
				for _, err := range []error{werr, ferr} {
					if err == nil || !strings.Contains(err.Error(), "corpus id") || !strings.Contains(err.Error(), "(the readers' limit)") || len(err.Error()) > 1000 {
						t.Errorf("error %.300v, want a short one naming the corpus id and the limit", err)
					}
				}
				return
			}
			if werr != nil || ferr != nil {
				t.Fatalf("write %v, flush %v", werr, ferr)
			}
			if got := longestRun(buf.String(), "<>"); got != MaxLineBytes {
				t.Errorf("the longest tag has %d bytes, want %d", got, MaxLineBytes)
			}
			back, err := ReadAll(strings.NewReader(buf.String()), "written", TigerXML)
			if err != nil || treesEqual(back, []*tree.Tree{small}, false) != "" {
				t.Errorf("read back %d trees, error %.300v; want the tree written", len(back), err)
			}
		})
	}
}
