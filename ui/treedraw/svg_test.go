package treedraw

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// svgDoc is what the tests read back from an SVG drawing.
type svgDoc struct {
	root  xml.StartElement
	texts []svgText
	lines []map[string]string // attributes of the <line> elements, in order
	style string
}

type svgText struct {
	attrs map[string]string
	text  string
}

func attrMap(se xml.StartElement) map[string]string {
	m := map[string]string{}
	for _, a := range se.Attr {
		m[a.Name.Local] = a.Value
	}
	return m
}

// readSVG parses s as XML, failing the test if it is not well formed.
func readSVG(t *testing.T, s string) svgDoc {
	t.Helper()
	var doc svgDoc
	d := xml.NewDecoder(strings.NewReader(s))
	var in string // element whose text is being read
	var cur *svgText
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, s)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			in = tk.Name.Local
			switch in {
			case "svg":
				doc.root = tk.Copy()
			case "text":
				doc.texts = append(doc.texts, svgText{attrs: attrMap(tk)})
				cur = &doc.texts[len(doc.texts)-1]
			case "line":
				doc.lines = append(doc.lines, attrMap(tk))
			}
		case xml.CharData:
			switch in {
			case "text":
				cur.text += string(tk)
			case "style":
				doc.style += string(tk)
			}
		case xml.EndElement:
			in = ""
		}
	}
	return doc
}

func TestSVGWellFormed(t *testing.T) {
	hard := &tree.Tree{
		Tokens: []tree.Token{
			{Word: `<b>&amp;`, Tag: `"q"`, Parent: 0},
			{Word: "it's", Tag: "x\x01y", Parent: 1},
			{Word: "naïve 日本", Tag: "N]", Parent: 0},
		},
		Nodes: []tree.Node{{Label: "A&B/<C>", Parent: tree.Root}, {Label: "D'", Parent: tree.Root}},
	}
	tests := []struct {
		name string
		tree *tree.Tree
	}{
		{"characters to escape", hard},
		{"synthetic 60 words", synthetic(12)},
	}
	for _, tc := range layoutCases {
		tr := &tree.Tree{}
		if tc.tree != "" {
			tr = parse(t, tc.tree)
		}
		tests = append(tests, struct {
			name string
			tree *tree.Tree
		}{tc.name, tr})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Layout(tc.tree, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			doc := readSVG(t, SVG(g, SVGOptions{Title: "a <title>"}))
			root := attrMap(doc.root)
			if doc.root.Name.Space != "http://www.w3.org/2000/svg" || root["viewBox"] == "" || root["class"] != "treedraw" {
				t.Errorf("root element %v %v lacks the SVG namespace, viewBox or class", doc.root.Name, root)
			}
			// Every word, tag and label exactly once, with its data attribute.
			want := map[string]int{}
			for i, tok := range tc.tree.Tokens {
				want["word "+strconv.Itoa(i)+" "+tok.Word]++
				if tok.Tag != "" {
					want["tag "+strconv.Itoa(i)+" "+xmlSafe(tok.Tag)]++
				}
			}
			for j, n := range tc.tree.Nodes {
				for _, part := range splitChain(n.Label) {
					want["phrase "+strconv.Itoa(j)+" "+part]++
				}
			}
			if len(g.Nodes) > 0 && g.Nodes[len(g.Nodes)-1].Kind == Root {
				want["root  ROOT"]++
			}
			got := map[string]int{}
			for _, tx := range doc.texts {
				kind, _, _ := strings.Cut(tx.attrs["class"], " ")
				id := tx.attrs["data-word"] + tx.attrs["data-node"]
				got[kind+" "+id+" "+tx.text]++
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%q drawn %d times, want %d", k, got[k], n)
				}
			}
			for k, n := range got {
				if want[k] == 0 {
					t.Errorf("unexpected text %q (%d times)", k, n)
				}
			}
			// Crossing edges come last, each right over its halo.
			seenCross := false
			for k, ln := range doc.lines {
				class := ln["class"]
				switch {
				case class == "halo":
					if k+1 >= len(doc.lines) || doc.lines[k+1]["class"] != "edge cross" || doc.lines[k+1]["x1"] != ln["x1"] {
						t.Errorf("line %d: halo not followed by its crossing edge", k)
					}
					seenCross = true
				case class == "edge cross":
					seenCross = true
				case seenCross:
					t.Errorf("line %d (%s) drawn after a crossing edge", k, class)
				}
			}
			crossing := 0
			for _, e := range g.Edges {
				if e.Crossing {
					crossing++
				}
			}
			n := 0
			for _, ln := range doc.lines {
				if ln["class"] == "edge cross" {
					n++
				}
			}
			if n != crossing {
				t.Errorf("%d crossing edges drawn, want %d", n, crossing)
			}
		})
	}
}

// xmlSafe is s as it reads back from XML: characters XML cannot hold
// become U+FFFD.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if !xmlChar(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

func TestSVGClasses(t *testing.T) {
	g, err := Layout(parse(t, "(S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?))"), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	doc := readSVG(t, SVG(g, SVGOptions{
		Classes:      map[int]string{0: "match", 1: `miss "x"`}, // nodes in post-order: VP, S
		TokenClasses: map[int]string{2: "extra"},
		ID:           "t1",
	}))
	if got := attrMap(doc.root)["id"]; got != "t1" {
		t.Errorf("svg id: got %q, want %q", got, "t1")
	}
	tests := []struct {
		name, text, class, data string
	}{
		{"phrase with class", "VP", "phrase disc match", "data-node=0"},
		{"escaped class", "S", `phrase miss "x"`, "data-node=1"},
		{"word with class", "rich", "word extra", "data-word=2"},
		{"tag with class", "JJ", "tag extra", "data-word=2"},
		{"word without class", "is", "word", "data-word=0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			found := false
			for _, tx := range doc.texts {
				if tx.text != tc.text {
					continue
				}
				found = true
				name, val, _ := strings.Cut(tc.data, "=")
				if got := tx.attrs["class"]; got != tc.class {
					t.Errorf("class: got %q, want %q", got, tc.class)
				}
				if got := tx.attrs[name]; got != val {
					t.Errorf("%s: got %q, want %q", name, got, val)
				}
			}
			if !found {
				t.Errorf("no text %q", tc.text)
			}
		})
	}
	// The bar of the VP carries its class and a gap piece.
	var vpBar, gap int
	for _, ln := range doc.lines {
		if ln["data-node"] == "0" && strings.HasSuffix(ln["class"], "match") {
			vpBar++
		}
		if strings.HasPrefix(ln["class"], "bar gap") {
			gap++
		}
	}
	if vpBar != 4 || gap != 1 {
		t.Errorf("VP stem and bar lines with class: got %d, want 4; gap pieces: got %d, want 1", vpBar, gap)
	}
}

func TestSVGStyle(t *testing.T) {
	g, err := Layout(parse(t, "(ROOT (N 0=x))"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opt  SVGOptions
		want string
	}{
		{"default", SVGOptions{}, DefaultCSS},
		{"own style", SVGOptions{Style: ".treedraw text{fill:red}"}, ".treedraw text{fill:red}"},
		{"no style", SVGOptions{NoStyle: true}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := readSVG(t, SVG(g, tc.opt)).style; got != tc.want {
				t.Errorf("style: got %q, want %q", got, tc.want)
			}
		})
	}
}
