package treebank

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// tigerChain returns a TIGER-XML sentence id whose one word is under a
// unary chain of n nonterminals n1 (the lowest) .. nn, one element a line.
// root is the graph root: "VROOT" adds a virtual root above nn, "phrase"
// makes nn the root (a real node), "" gives no root attribute.
func tigerChain(id string, n int, root string) string {
	var b strings.Builder
	rootID := ""
	switch root {
	case "VROOT":
		rootID = id + "_VROOT"
	case "phrase":
		rootID = fmt.Sprintf("%s_n%d", id, n)
	}
	fmt.Fprintf(&b, "<s id=%q>\n<graph root=%q>\n<terminals>\n<t id=\"%s_w\" word=\"w\" pos=\"N\"/>\n</terminals>\n<nonterminals>\n", id, rootID, id)
	below := id + "_w"
	for i := 1; i <= n; i++ {
		nid := fmt.Sprintf("%s_n%d", id, i)
		fmt.Fprintf(&b, "<nt id=%q cat=\"X\"><edge label=\"--\" idref=%q/></nt>\n", nid, below)
		below = nid
	}
	if root == "VROOT" {
		fmt.Fprintf(&b, "<nt id=%q cat=\"VROOT\"><edge label=\"--\" idref=%q/></nt>\n", rootID, below)
	}
	b.WriteString("</nonterminals>\n</graph>\n</s>\n")
	return b.String()
}

// lineOf returns the line of text on which s first occurs.
func lineOf(text, s string) int {
	i := strings.Index(text, s)
	if i < 0 {
		return 0
	}
	return 1 + strings.Count(text[:i], "\n")
}

// TestTigerXMLDepth: a TIGER-XML tree nested as deep as MaxDepth allows
// (counting, as the brackets of its discbracket line do, the root, the
// phrases on a path down and a word's preterminal) reads; a deeper one is
// refused with an error standing for the tree, naming the line of the
// first element past the limit; reading goes on with the next sentence.
func TestTigerXMLDepth(t *testing.T) {
	tests := []struct {
		name  string
		chain int    // nonterminals in the chain
		root  string // see tigerChain
		at    string // id of the element the error names; "" for no error
	}{
		{"virtual root, at the limit", MaxDepth - 2, "VROOT", ""},
		{"phrase root, at the limit", MaxDepth - 2, "phrase", ""},
		{"no root, at the limit", MaxDepth - 2, "", ""},
		{"virtual root, one past: the word", MaxDepth - 1, "VROOT", "d_w"},
		{"phrase root, one past: the word", MaxDepth - 1, "phrase", "d_w"},
		{"no root, two past: the lowest phrase", MaxDepth, "", "d_n1"},
		{"virtual root, a chain of 3000", 3000, "VROOT", fmt.Sprintf("d_n%d", 3000-MaxDepth+1)},
		{"phrase root, a chain of 3000", 3000, "phrase", fmt.Sprintf("d_n%d", 3000-MaxDepth+1)},
	}
	good := sent("ok", "", `<t id="ok_1" word="a"/>`, "")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := "<corpus><body>\n" + tigerChain("d", tc.chain, tc.root) + good + "</body></corpus>\n"
			trees, err := ReadTigerXML(strings.NewReader(text), "deep.xml")
			if tc.at == "" {
				if err != nil || len(trees) != 2 {
					t.Fatalf("%d trees, error %v; want 2 and no error", len(trees), err)
				}
				if d := nesting(trees[0]); d != MaxDepth {
					t.Errorf("the tree nests %d levels, want %d", d, MaxDepth)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("error %v, want a list of one error", err)
			}
			e := list[0]
			line := lineOf(text, fmt.Sprintf("id=%q", tc.at))
			if e.Name != "deep.xml" || e.Line != line || !e.Tree ||
				!strings.Contains(e.Msg, "sentence d:") || !strings.Contains(e.Msg, fmt.Sprintf("%q", tc.at)) ||
				!strings.Contains(e.Msg, "more than 1000 levels nested") {
				t.Errorf("error %q (line %d, Tree %v), want deep.xml, line %d, Tree set, naming sentence d, %q and the limit", e, e.Line, e.Tree, line, tc.at)
			}
			if len(trees) != 1 || trees[0].ID != "ok" {
				t.Errorf("read %d trees after the error, want the good one", len(trees))
			}
		})
	}
}

// nesting returns how deep t nests as the brackets of its discbracket
// line: the root, the nodes on the longest path down and a preterminal.
func nesting(t *tree.Tree) int {
	deepest := 1
	for _, tok := range t.Tokens {
		d := 2
		for p := tok.Parent; p != tree.Root; p = t.Nodes[p].Parent {
			d++
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// chainTree returns a tree of one word under a unary chain of n nodes.
func chainTree(n int) *tree.Tree {
	t := &tree.Tree{ID: "chain", Tokens: []tree.Token{{Word: "w", Tag: "N", Parent: tree.Root}}}
	if n > 0 {
		t.Tokens[0].Parent = 0
	}
	for i := range n {
		p := i + 1
		if p == n {
			p = tree.Root
		}
		t.Nodes = append(t.Nodes, tree.Node{Label: "X", Parent: p})
	}
	return t
}

// TestWriteDepth: the deepest tree the readers accept, read from TIGER-XML,
// is written by every writer that can hold it and reads back the same; a
// tree built in memory one level deeper is refused by every writer (what
// is written must read back), naming the limit, and nothing of it is
// written. Export holds at most 500 nodes, so its deepest tree is that.
func TestWriteDepth(t *testing.T) {
	text := "<corpus><body>\n" + tigerChain("d", MaxDepth-2, "VROOT") + "</body></corpus>\n"
	deepest := mustRead(t, text, TigerXML)
	tests := []struct {
		name    string
		format  Format
		trees   []*tree.Tree
		wantErr string // "" when the trees must read back
	}{
		{"discbracket, the deepest tree", Discbracket, deepest, ""},
		{"TIGER-XML, the deepest tree", TigerXML, deepest, ""},
		{"export, the deepest tree", Export, deepest, "export allows at most 500"},
		{"export, the deepest export tree", Export, []*tree.Tree{chainTree(maxNodes)}, ""},
		{"discbracket, one level deeper", Discbracket, []*tree.Tree{chainTree(MaxDepth - 1)}, "more than 1000 levels nested"},
		{"TIGER-XML, one level deeper", TigerXML, []*tree.Tree{chainTree(MaxDepth - 1)}, "more than 1000 levels nested"},
		{"discbracket, a chain of 3000", Discbracket, []*tree.Tree{chainTree(3000)}, "more than 1000 levels nested"},
		{"TIGER-XML, a chain of 3000", TigerXML, []*tree.Tree{chainTree(3000)}, "more than 1000 levels nested"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Write(&buf, tc.trees, tc.format)
			if tc.wantErr != "" {
				var we *WriteError
				if !errors.As(err, &we) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want a *WriteError saying %q", err, tc.wantErr)
				}
				// Write stops at the error, before Flush: nothing reaches buf.
				if buf.Len() != 0 {
					t.Errorf("the refused tree was written:\n%.200s", buf.String())
				}
				return
			}
			if err != nil {
				t.Fatalf("write: %v", err)
			}
			back, err := ReadAll(&buf, "written", tc.format)
			if err != nil {
				t.Fatalf("read back: %v", err)
			}
			// Node numbers and ids are given by each format (discbracket:
			// from 500 in post-order, TIGER-XML past 500 nodes: 0).
			want := make([]*tree.Tree, len(tc.trees))
			for i, tr := range tc.trees {
				want[i], back[i] = tr.Clone(), back[i].Clone()
				for _, tt := range []*tree.Tree{want[i], back[i]} {
					tt.ID = ""
					for k := range tt.Nodes {
						tt.Nodes[k].Num = 0
					}
				}
			}
			if diff := treesEqual(back, want, true); diff != "" {
				t.Errorf("read back differs: %.400s", diff)
			}
			if d := nesting(back[0]); d != nesting(tc.trees[0]) {
				t.Errorf("read back nests %d levels, want %d", d, nesting(tc.trees[0]))
			}
		})
	}
}
