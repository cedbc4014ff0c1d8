package treebank

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// wideBrackets returns a bracketed tree of exactly n brackets: the
// outermost one labelled outer, then words each under a unary chain of
// at most three X phrases (so at most MaxTokens words for n up to
// MaxBrackets). Leaves are "i=w" (discbracket) when indexed, else "w".
func wideBrackets(n int, outer string, indexed bool) string {
	rest := n - 1 // brackets below the outermost
	words := (rest + 3) / 4
	var b strings.Builder
	b.WriteString("(" + outer)
	for i := range words {
		k := rest / words // brackets of word i, its preterminal included
		if i < rest%words {
			k++
		}
		b.WriteString(" " + strings.Repeat("(X ", k-1) + "(n ")
		if indexed {
			b.WriteString(strconv.Itoa(i) + "=")
		}
		b.WriteString("w)" + strings.Repeat(")", k-1))
	}
	b.WriteString(")")
	return b.String()
}

// tigerWide returns a TIGER-XML sentence id of n elements below the
// graph's root, one element a line: words each under a unary chain of at
// most three X nonterminals, listed in post-order. root: "VROOT" adds a
// virtual root above them (not counted in n), "phrase" puts them under a
// phrase S that is the graph root (counted in n, written last), "" gives no
// root attribute and no element above them. It returns the ids of the n
// elements in document order as well.
func tigerWide(id string, n int, root string) (string, []string) {
	chain := n // elements of the chains
	if root == "phrase" {
		chain--
	}
	words := (chain + 3) / 4
	var terms, nts strings.Builder
	var tIDs, ntIDs, tops []string
	for i := range words {
		k := chain / words
		if i < chain%words {
			k++
		}
		below := fmt.Sprintf("%s_t%d", id, i)
		fmt.Fprintf(&terms, "<t id=%q word=\"w\" pos=\"n\"/>\n", below)
		tIDs = append(tIDs, below)
		for j := 1; j < k; j++ {
			nid := fmt.Sprintf("%s_n%d_%d", id, i, j)
			fmt.Fprintf(&nts, "<nt id=%q cat=\"X\"><edge label=\"--\" idref=%q/></nt>\n", nid, below)
			ntIDs = append(ntIDs, nid)
			below = nid
		}
		tops = append(tops, below)
	}
	rootID, top := "", ""
	switch root {
	case "VROOT":
		rootID, top = id+"_VROOT", "VROOT"
	case "phrase":
		rootID, top = id+"_S", "S"
		ntIDs = append(ntIDs, rootID)
	}
	if top != "" {
		fmt.Fprintf(&nts, "<nt id=%q cat=%q>\n", rootID, top)
		for _, c := range tops {
			fmt.Fprintf(&nts, "<edge label=\"--\" idref=%q/>\n", c)
		}
		nts.WriteString("</nt>\n")
	}
	text := fmt.Sprintf("<s id=%q>\n<graph root=%q>\n<terminals>\n%s</terminals>\n<nonterminals>\n%s</nonterminals>\n</graph>\n</s>\n",
		id, rootID, terms.String(), nts.String())
	return text, append(tIDs, ntIDs...)
}

// tigerSecs returns a TIGER-XML sentence id of words terminals and one
// nonterminal X over the first, with no graph root and no edge above them
// (all attached to the root), and secs secondary edges from the
// terminals to X, one a line: written back it has an <edge> to each of
// the words+1 elements besides the secondary edges. It returns the line
// of the last secondary edge (in document order) in the text as well.
func tigerSecs(id string, words, secs int) (text string, lastLine int) {
	per := make([]int, words) // secondary edges of each terminal
	for j := range secs {
		per[j%words]++
	}
	var b strings.Builder
	line := 1
	put := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		b.WriteString(s)
		line += strings.Count(s, "\n")
	}
	put("<s id=%q>\n<graph root=\"\">\n<terminals>\n", id)
	for i := range words {
		if per[i] == 0 {
			put("<t id=\"%s_t%d\" word=\"w\" pos=\"n\"/>\n", id, i)
			continue
		}
		put("<t id=\"%s_t%d\" word=\"w\" pos=\"n\">\n", id, i)
		for range per[i] {
			lastLine = line
			put("<secedge label=\"s\" idref=\"%s_X\"/>\n", id)
		}
		put("</t>\n")
	}
	put("</terminals>\n<nonterminals>\n<nt id=\"%s_X\" cat=\"X\"><edge label=\"--\" idref=\"%s_t0\"/></nt>\n</nonterminals>\n</graph>\n</s>\n", id, id)
	return b.String(), lastLine
}

// exportSecs returns an export sentence id of words tokens and the one
// node #500 (over the first token; the others are attached to the root),
// with secs secondary edges from the tokens to #500: words+1 edges and
// secs secondary ones. Line 1 is the #BOS line, the node line is line
// words+2.
func exportSecs(id string, words, secs int) string {
	per := make([]int, words)
	for j := range secs {
		per[j%words]++
	}
	var b strings.Builder
	b.WriteString("#BOS " + id + "\n")
	for i := range words {
		parent := 0
		if i == 0 {
			parent = 500
		}
		fmt.Fprintf(&b, "w\t--\tN\t--\t--\t%d%s\n", parent, strings.Repeat("\ts\t500", per[i]))
	}
	b.WriteString("#500\t--\tX\t--\t--\t0\n#EOS " + id + "\n")
	return b.String()
}

// TestReadBrackets: a tree as large as MaxBrackets allows, counting what a
// writer adds (the ROOT bracket around a bracketed tree whose outermost
// bracket is a phrase, the virtual root of a TIGER-XML graph, an <edge>
// to every TIGER-XML element below the root, the edge of every export
// token and node) reads in every format; one bracket, element or edge more
// is refused with an error naming the file, the line past the limit and
// the limit, standing for the tree; reading goes on with the next tree.
func TestReadBrackets(t *testing.T) {
	good := map[Format]string{
		Discbracket: "(ROOT (n 0=w))\n",
		PTB:         "(S (n w))\n",
		TigerXML:    sent("ok", "", `<t id="ok_1" word="a"/>`, ""),
		Export:      "#BOS ok\nw\t--\tN\t--\t--\t0\n#EOS ok\n",
	}
	type tcase struct {
		name   string
		format Format
		text   string // the tree; the good one follows it
		line   int    // of the error; 0 for none
		msg    string
	}
	tests := []tcase{
		{"discbracket: ROOT outermost, at the limit", Discbracket, "\n" + wideBrackets(MaxBrackets, "ROOT", true) + "\n", 0, ""},
		{"discbracket: ROOT outermost, one past", Discbracket, "\n" + wideBrackets(MaxBrackets+1, "ROOT", true) + "\n", 2, "more than 30000 brackets in one tree"},
		{"discbracket: a phrase outermost, at the limit", Discbracket, "\n" + wideBrackets(MaxBrackets-1, "S", true) + "\n", 0, ""},
		{"discbracket: a phrase outermost, one past", Discbracket, "\n" + wideBrackets(MaxBrackets, "S", true) + "\n", 2, "(S, the outermost bracket, is a phrase: with the (ROOT bracket around it, more than 30000 brackets in one tree"},
		{"ptb: unlabelled outermost, at the limit", PTB, "\n" + wideBrackets(MaxBrackets, "", false) + "\n", 0, ""},
		{"ptb: TOP outermost, one past", PTB, "\n" + wideBrackets(MaxBrackets+1, "TOP", false) + "\n", 2, "more than 30000 brackets in one tree"},
		{"ptb: a phrase outermost, at the limit", PTB, "\n" + wideBrackets(MaxBrackets-1, "S", false) + "\n", 0, ""},
		{"ptb: a phrase outermost, one past", PTB, "\n" + wideBrackets(MaxBrackets, "S", false) + "\n", 2, "(S, the outermost bracket, is a phrase: with the (ROOT bracket around it, more than 30000 brackets in one tree"},
		{"export: edges at the limit", Export, exportSecs("d", MaxTokens, MaxBrackets-MaxTokens-1), 0, ""},
		{"export: edges one past", Export, exportSecs("d", MaxTokens, MaxBrackets-MaxTokens), MaxTokens + 2, "sentence d: more than 30000 edges and secondary edges"},
	}
	for _, c := range []struct {
		name string
		n    int // elements below the root
		root string
		past bool
	}{
		{"virtual root, at the limit", MaxBrackets - 1, "VROOT", false},
		{"phrase root, at the limit", MaxBrackets - 1, "phrase", false},
		{"no root, at the limit", MaxBrackets - 1, "", false},
		{"virtual root, one past", MaxBrackets, "VROOT", true},
		{"phrase root, one past", MaxBrackets, "phrase", true},
		{"no root, one past", MaxBrackets, "", true},
	} {
		text, ids := tigerWide("d", c.n, c.root)
		tc := tcase{"TIGER-XML: " + c.name, TigerXML, "<corpus><body>\n" + text, 0, ""}
		if c.past {
			tc.line = lineOf(tc.text, fmt.Sprintf("id=%q", ids[MaxBrackets-1]))
			tc.msg = "sentence d: more than 30000 <t> and <nt> elements, counting the virtual root"
		}
		tests = append(tests, tc)
	}
	text, _ := tigerSecs("d", MaxTokens, MaxBrackets-MaxTokens-1)
	tests = append(tests, tcase{"TIGER-XML: edges at the limit", TigerXML, "<corpus><body>\n" + text, 0, ""})
	// One past at X, the last element, or at the last secondary edge.
	text, _ = tigerSecs("d", MaxTokens, MaxBrackets-MaxTokens)
	tests = append(tests, tcase{"TIGER-XML: edges one past at an element", TigerXML, "<corpus><body>\n" + text, 1 + lineOf(text, `id="d_X"`), "sentence d: more than 30000 <edge> and <secedge> elements"})
	text, line := tigerSecs("d", MaxTokens, MaxBrackets-MaxTokens+1)
	tests = append(tests, tcase{"TIGER-XML: edges one past at a secondary edge", TigerXML, "<corpus><body>\n" + text, 1 + line, "sentence d: more than 30000 <edge> and <secedge> elements"})

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.text + good[tc.format]
			if tc.format == TigerXML {
				in += "</body></corpus>\n"
			}
			trees, err := ReadAll(strings.NewReader(in), "wide", tc.format)
			if tc.msg == "" {
				if err != nil || len(trees) != 2 {
					t.Fatalf("%d trees, error %v; want 2 and no error", len(trees), err)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("%d trees, error %v; want a list of one error", len(trees), err)
			}
			if e := list[0]; e.Name != "wide" || e.Line != tc.line || !e.Tree || !strings.Contains(e.Msg, tc.msg) || !strings.Contains(e.Msg, "(the readers' limit)") {
				t.Errorf("error %q (line %d, Tree %v), want wide, line %d, Tree set, saying %q and naming the readers' limit", e, e.Line, e.Tree, tc.line, tc.msg)
			}
			if len(trees) != 1 || trees[0].Len() != 1 {
				t.Errorf("%d trees read after the error, want the good one", len(trees))
			}
		})
	}
}

// chainsTree returns a tree of words words under nodes nodes: each word
// under a unary chain of nodes/words or one more nodes, in post-order.
func chainsTree(words, nodes int) *tree.Tree {
	t := &tree.Tree{ID: "wide"}
	for i := range words {
		k := nodes / words
		if i < nodes%words {
			k++
		}
		parent := tree.Root
		if k > 0 {
			parent = len(t.Nodes)
		}
		t.Tokens = append(t.Tokens, tree.Token{Word: "w", Tag: "N", Parent: parent})
		for j := range k {
			p := len(t.Nodes) + 1
			if j == k-1 {
				p = tree.Root
			}
			t.Nodes = append(t.Nodes, tree.Node{Label: "X", Parent: p})
		}
	}
	return t
}

// secsTree returns a tree of words words, the first under the one node
// X, with secs secondary edges from the words to X.
func secsTree(words, secs int) *tree.Tree {
	t := &tree.Tree{ID: "secs", Nodes: []tree.Node{{Label: "X", Num: 500, Parent: tree.Root}}}
	for i := range words {
		t.Tokens = append(t.Tokens, tree.Token{Word: "w", Tag: "N", Parent: tree.Root})
		if i == 0 {
			t.Tokens[i].Parent = 0
		}
	}
	for j := range secs {
		tok := &t.Tokens[j%words]
		tok.Sec = append(tok.Sec, tree.SecEdge{Label: "s", Parent: 0})
	}
	return t
}

// TestWriteBrackets: the largest trees the readers accept are written by
// every writer that can hold them (export: at most 500 nodes) and read
// back the same; a tree built in memory that would be written past
// MaxBrackets (brackets or TIGER-XML elements with the root, or edges
// with the secondary ones) is refused with a *WriteError naming the limit,
// nothing of it is written and the Writer goes on.
func TestWriteBrackets(t *testing.T) {
	wideText, _ := tigerWide("d", MaxBrackets-1, "phrase")
	secsText, _ := tigerSecs("d", MaxTokens, MaxBrackets-MaxTokens-1)
	read := func(text string, f Format) *tree.Tree {
		if f == TigerXML {
			text = "<corpus><body>\n" + text + "</body></corpus>\n"
		}
		return mustRead(t, text, f)[0]
	}
	sources := []struct {
		name string
		tree *tree.Tree
		want map[Format]string // "" where it must read back, else the error
	}{
		{"discbracket, ROOT outermost, at the limit", read(wideBrackets(MaxBrackets, "ROOT", true), Discbracket),
			map[Format]string{Discbracket: "", TigerXML: "", Export: "export allows at most 500"}},
		{"discbracket, a phrase outermost, at the limit", read(wideBrackets(MaxBrackets-1, "S", true), Discbracket),
			map[Format]string{Discbracket: "", TigerXML: "", Export: "export allows at most 500"}},
		{"ptb, a phrase outermost, at the limit", read(wideBrackets(MaxBrackets-1, "S", false), PTB),
			map[Format]string{Discbracket: "", TigerXML: "", Export: "export allows at most 500"}},
		{"TIGER-XML, a phrase root, at the limit", read(wideText, TigerXML),
			map[Format]string{Discbracket: "", TigerXML: "", Export: "export allows at most 500"}},
		{"TIGER-XML, edges at the limit", read(secsText, TigerXML),
			map[Format]string{Discbracket: "", TigerXML: "", Export: ""}},
		{"export, edges at the limit", read(exportSecs("d", MaxTokens, MaxBrackets-MaxTokens-1), Export),
			map[Format]string{Discbracket: "", TigerXML: "", Export: ""}},
		{"in memory, brackets at the limit", chainsTree(MaxTokens, MaxBrackets-MaxTokens-1),
			map[Format]string{Discbracket: "", TigerXML: "", Export: "export allows at most 500"}},
		{"in memory, brackets one past", chainsTree(MaxTokens, MaxBrackets-MaxTokens),
			map[Format]string{Discbracket: "more than 30000 brackets in one tree", TigerXML: "more than 30000 <t> and <nt> elements, counting the virtual root", Export: "export allows at most 500"}},
		{"in memory, a phrase root, brackets one past", func() *tree.Tree { // the chains under one more node
			tr := chainsTree(MaxTokens, MaxBrackets-MaxTokens-1)
			for i := range tr.Nodes {
				if tr.Nodes[i].Parent == tree.Root {
					tr.Nodes[i].Parent = len(tr.Nodes)
				}
			}
			tr.Nodes = append(tr.Nodes, tree.Node{Label: "S", Parent: tree.Root})
			return tr
		}(),
			map[Format]string{Discbracket: "more than 30000 brackets in one tree", TigerXML: "more than 30000 <t> and <nt> elements, counting the virtual root", Export: "export allows at most 500"}},
		{"in memory, edges at the limit", secsTree(MaxTokens, MaxBrackets-MaxTokens-1),
			map[Format]string{Discbracket: "", TigerXML: "", Export: ""}},
		{"in memory, edges one past", secsTree(MaxTokens, MaxBrackets-MaxTokens),
			map[Format]string{Discbracket: "", TigerXML: "more than 30000 <edge> and <secedge> elements", Export: "more than 30000 edges and secondary edges"}},
	}
	// Node numbers and ids are given by each format; discbracket does not
	// write secondary edges.
	norm := func(tr *tree.Tree, f Format) *tree.Tree {
		c := tr.Clone()
		c.ID = ""
		for k := range c.Nodes {
			c.Nodes[k].Num = 0
			if f == Discbracket {
				c.Nodes[k].Sec = nil
			}
		}
		for k := range c.Tokens {
			if f == Discbracket {
				c.Tokens[k].Sec = nil
			}
		}
		return c
	}
	small := &tree.Tree{ID: "small", Tokens: []tree.Token{{Word: "a", Tag: "N", Parent: tree.Root}}}
	for _, src := range sources {
		for _, f := range []Format{Discbracket, TigerXML, Export} {
			wantErr := src.want[f]
			t.Run(src.name+"/"+f.String(), func(t *testing.T) {
				var buf strings.Builder
				w := NewWriter(&buf, f)
				err := w.Write(src.tree)
				if wantErr != "" {
					var we *WriteError
					if !errors.As(err, &we) || !strings.Contains(err.Error(), wantErr) {
						t.Fatalf("error %v, want a *WriteError saying %q", err, wantErr)
					}
				} else if err != nil {
					t.Fatalf("write: %v", err)
				}
				if err := w.Write(small); err != nil {
					t.Fatalf("write the next tree: %v", err)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				back, err := ReadAll(strings.NewReader(buf.String()), "written", f)
				if err != nil {
					t.Fatalf("read back: %v", err)
				}
				want := []*tree.Tree{norm(small, f)}
				if wantErr == "" {
					want = append([]*tree.Tree{norm(src.tree, f)}, want...)
				}
				for i := range back {
					back[i] = norm(back[i], f)
				}
				if diff := treesEqual(back, want, true); diff != "" {
					t.Errorf("read back differs: %.400s", diff)
				}
			})
		}
	}
}
