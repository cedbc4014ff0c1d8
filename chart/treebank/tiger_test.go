package treebank

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
)

// tigerSample is a small TIGER-XML file in the style of the TIGER corpus:
// a VROOT node, a secondary edge, "--" for absent values, attributes and
// elements this package does not keep, no graph root for the second
// sentence and a real phrase as the root of the third.
const tigerSample = `<?xml version="1.0" encoding="UTF-8"?>
<corpus id="sample">
 <head>
  <meta><name>sample</name></meta>
  <annotation>
   <feature name="word" domain="T"/>
   <feature name="pos" domain="T"><value name="ART">article</value></feature>
   <edgelabel><value name="NK"/></edgelabel>
  </annotation>
 </head>
 <body>
  <s id="s1" art_id="7">
   <graph root="s1_VROOT">
    <terminals>
     <t id="s1_1" word="Das" lemma="der" pos="ART" morph="Nom.Sg.Neut" case="Nom"/>
     <t id="s1_2" word="Haus" lemma="Haus" pos="NN" morph="--">
      <secedge label="OA" idref="s1_501"/>
     </t>
     <t id="s1_3" word="ist" lemma="--" pos="VAFIN" morph="--"/>
     <t id="s1_4" word="." lemma="--" pos="$." morph="--"/>
    </terminals>
    <nonterminals>
     <nt id="s1_500" cat="NP">
      <edge label="NK" idref="s1_1"/>
      <edge label="NK" idref="s1_2"/>
     </nt>
     <nt id="s1_501" cat="S">
      <edge label="SB" idref="s1_500"/>
      <edge label="HD" idref="s1_3"/>
     </nt>
     <nt id="s1_VROOT" cat="VROOT">
      <edge label="--" idref="s1_501"/>
      <edge label="--" idref="s1_4"/>
     </nt>
    </nonterminals>
   </graph>
   <sem><frame name="x"/></sem>
  </s>
  <s id="s2">
   <graph>
    <terminals>
     <t id="s2_1" word="Ja" pos="ITJ"/>
    </terminals>
   </graph>
  </s>
  <s id="s3">
   <graph root="n3">
    <terminals>
     <t id="w1" word="a" pos="X"/>
     <t id="w2" word="b" pos="Y"/>
    </terminals>
    <nonterminals>
     <nt id="n3" cat="S"><edge label="HD" idref="w2"/></nt>
    </nonterminals>
   </graph>
  </s>
 </body>
</corpus>
`

func TestReadTigerXML(t *testing.T) {
	trees, err := ReadTigerXML(strings.NewReader(tigerSample), "sample.xml")
	if err != nil {
		t.Fatal(err)
	}
	r := tree.Root
	want := []*tree.Tree{
		{ID: "s1",
			Tokens: []tree.Token{
				{Word: "Das", Lemma: "der", Tag: "ART", Morph: "Nom.Sg.Neut", Edge: "NK", Parent: 0},
				{Word: "Haus", Lemma: "Haus", Tag: "NN", Edge: "NK", Parent: 0, Sec: []tree.SecEdge{{Label: "OA", Parent: 1}}},
				{Word: "ist", Tag: "VAFIN", Edge: "HD", Parent: 1},
				{Word: ".", Tag: "$.", Parent: r},
			},
			Nodes: []tree.Node{
				{Num: 500, Label: "NP", Edge: "SB", Parent: 1},
				{Num: 501, Label: "S", Parent: r},
			}},
		{ID: "s2", Tokens: []tree.Token{{Word: "Ja", Tag: "ITJ", Parent: r}}},
		// The root "n3" is a phrase, so it is a node; its id gives no
		// number, so the node is numbered 500.
		{ID: "s3",
			Tokens: []tree.Token{{Word: "a", Tag: "X", Parent: r}, {Word: "b", Tag: "Y", Edge: "HD", Parent: 0}},
			Nodes:  []tree.Node{{Num: 500, Label: "S", Parent: r}}},
	}
	if diff := treesEqual(trees, want, false); diff != "" {
		t.Error(diff)
	}
}

func TestTigerXMLLatin1(t *testing.T) {
	text := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<corpus><body><s id=\"s1\"><graph><terminals>" +
		"<t id=\"s1_1\" word=\"Stra\xdfe\" pos=\"NN\"/><t id=\"s1_2\" word=\"\xe4\" pos=\"X\"/></terminals></graph></s></body></corpus>\n"
	trees, err := ReadTigerXML(strings.NewReader(text), "latin1.xml")
	if err != nil {
		t.Fatal(err)
	}
	if got := trees[0].Words(); !reflect.DeepEqual(got, []string{"Straße", "ä"}) {
		t.Errorf("words %q, want Straße ä", got)
	}
	_, err = ReadTigerXML(strings.NewReader(`<?xml version="1.0" encoding="KOI8-R"?><corpus/>`), "koi.xml")
	if err == nil || !strings.Contains(err.Error(), "KOI8-R") {
		t.Errorf("error %v, want one naming the encoding", err)
	}
}

// TestTigerXMLRoundTrip writes trees with awkward values and reads them
// back.
func TestTigerXMLRoundTrip(t *testing.T) {
	r := tree.Root
	big := &tree.Tree{ID: "big"}
	for i := range 600 {
		big.Tokens = append(big.Tokens, tree.Token{Word: "w", Tag: "T", Parent: i % 3})
	}
	big.Nodes = []tree.Node{{Num: 500, Label: "A", Parent: 2}, {Num: 501, Label: "B", Parent: 2}, {Num: 502, Label: "C", Parent: r}}
	trees := []*tree.Tree{
		{ID: `a"b&c<d>'e`, BOSExtra: "editor 3\tdate",
			Tokens: []tree.Token{
				{Word: "x\ty\nz\r", Lemma: "--x", Tag: "&", Morph: "<m>", Edge: `"e"`, Parent: 1, Comment: "note 'q'"},
				{Word: "--", Tag: "T", Parent: r, Sec: []tree.SecEdge{{Label: "", Parent: r}, {Label: "S2", Parent: 0}}},
				{Word: "", Tag: "", Parent: 0},
			},
			Nodes: []tree.Node{
				{Num: 501, Label: "NP", Lemma: "nl", Morph: "nm", Edge: "E", Parent: 1, Comment: "c", Sec: []tree.SecEdge{{Label: "X", Parent: 1}}},
				{Num: 500, Label: "", Parent: r},
				{Num: 502, Label: "EMPTY", Parent: r},
			}},
		// Numbers that cannot be kept are given in post-order.
		{ID: "renumbered", Tokens: []tree.Token{{Word: "a", Parent: 1}, {Word: "b", Parent: 0}},
			Nodes: []tree.Node{{Num: 500, Label: "A", Parent: r}, {Num: 500, Label: "B", Parent: 0}}},
		{ID: "", Tokens: []tree.Token{{Word: "a", Parent: r}}},
		{ID: "nothing"},
		big,
	}
	var buf bytes.Buffer
	if err := WriteTigerXML(&buf, trees); err != nil {
		t.Fatal(err)
	}
	written := buf.String()
	back, err := ReadTigerXML(&buf, "written")
	if err != nil {
		t.Fatalf("read back: %v\n%s", err, written)
	}
	want := make([]*tree.Tree, len(trees))
	for i, tr := range trees {
		want[i] = tr.Clone()
	}
	want[0].Tokens[0].Lemma = "--x"
	want[1].Nodes[0].Num, want[1].Nodes[1].Num = 501, 500
	want[2].ID = "3"
	if diff := treesEqual(back, want, false); diff != "" {
		t.Errorf("%s\n%s", diff, written)
	}
	if !strings.Contains(written, `idref="big_n500"`) {
		t.Errorf("sentence of 600 words: node ids do not avoid the terminal ids")
	}
}

func TestTigerXMLWriteErrors(t *testing.T) {
	tests := []struct {
		name string
		tr   *tree.Tree
		msg  string
	}{
		{"control character", &tree.Tree{ID: "1", Tokens: []tree.Token{{Word: "a\x01", Parent: tree.Root}}}, "U+0001"},
		{"invalid UTF-8", &tree.Tree{ID: "1", Tokens: []tree.Token{{Word: "a", Tag: "\xff", Parent: tree.Root}}}, "invalid UTF-8"},
		{"bad parent", &tree.Tree{ID: "1", Tokens: []tree.Token{{Word: "a", Parent: 3}}}, "out of range"},
		{"cycle", &tree.Tree{ID: "1", Nodes: []tree.Node{{Parent: 0}}}, "cycle"},
		{"bad id", &tree.Tree{ID: "\x00", Tokens: []tree.Token{{Word: "a", Parent: tree.Root}}}, "sentence id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteTigerXML(io.Discard, []*tree.Tree{tc.tr})
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want one containing %q", err, tc.msg)
			}
		})
	}
	// A repeated sentence id is refused (XML ids must not repeat); the
	// document keeps the first and stays readable.
	var twice bytes.Buffer
	tw := NewTigerXMLWriter(&twice, "c")
	one := func(word string) *tree.Tree {
		return &tree.Tree{ID: "7", Tokens: []tree.Token{{Word: word, Tag: "N", Parent: tree.Root}}}
	}
	if err := tw.Write(one("a")); err != nil {
		t.Fatal(err)
	}
	var repeated *WriteError
	if err := tw.Write(one("b")); !errors.As(err, &repeated) || !strings.Contains(err.Error(), "an earlier sentence has it") {
		t.Errorf("a repeated id: %v", err)
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	if trees, err := ReadTigerXML(&twice, "twice"); err != nil || len(trees) != 1 || trees[0].Tokens[0].Word != "a" {
		t.Errorf("after a repeated id: %d trees, %v", len(trees), err)
	}
	var buf bytes.Buffer
	w := NewTigerXMLWriter(&buf, "c")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&tree.Tree{ID: "1"}); err == nil {
		t.Error("Write after Flush: no error")
	}
	if err := w.Flush(); err != nil {
		t.Errorf("second Flush: %v", err)
	}
	if trees, err := ReadTigerXML(&buf, "empty"); err != nil || len(trees) != 0 {
		t.Errorf("empty document: %d trees, %v", len(trees), err)
	}
	if err := NewTigerXMLWriter(io.Discard, "a\x00").Flush(); err == nil {
		t.Error("bad corpus id: no error")
	}
}

// sent wraps terminals and nonterminals into a sentence with the given
// graph root.
func sent(id, root, terms, nts string) string {
	return `<s id="` + id + `"><graph root="` + root + `"><terminals>` + terms + "</terminals><nonterminals>" + nts + "</nonterminals></graph></s>\n"
}

func TestTigerXMLReadErrors(t *testing.T) {
	good := sent("ok", "ok_VROOT", `<t id="ok_1" word="a"/>`, `<nt id="ok_VROOT" cat="VROOT"><edge label="--" idref="ok_1"/></nt>`)
	a := `<t id="x_1" word="a"/>`
	tests := []struct {
		name string
		text string // between <corpus><body> and the good sentence
		line int
		msg  string
	}{
		{"duplicate id", sent("x", "", a+"\n"+`<t id="x_1" word="b"/>`, ""), 2, `duplicate id "x_1"`},
		{"unknown idref", sent("x", "", a, "\n"+`<nt id="x_500" cat="NP"><edge label="HD" idref="x_9"/></nt>`), 2, `edge to "x_9"`},
		{"two parents", sent("x", "", a, `<nt id="x_500" cat="A"><edge idref="x_1"/></nt>`+"\n"+`<nt id="x_501" cat="B"><edge idref="x_1"/></nt>`), 2, "two parents (first edge on line 1)"},
		{"cycle", sent("x", "", a, `<nt id="x_500" cat="A"><edge idref="x_501"/></nt><nt id="x_501" cat="B"><edge idref="x_500"/></nt>`), 1, "cycle"},
		{"edge to root", sent("x", "x_VROOT", a, `<nt id="x_VROOT" cat="VROOT"><edge idref="x_VROOT"/></nt>`), 1, "edge to the root"},
		{"secedge to terminal", sent("x", "", `<t id="x_1" word="a"><secedge label="L" idref="x_1"/></t>`, ""), 1, "secondary edge to the terminal"},
		{"secedge to nothing", sent("x", "", `<t id="x_1" word="a"><secedge label="L" idref="zz"/></t>`, ""), 1, `secondary edge to "zz"`},
		{"secedge from root", sent("x", "r", a, `<nt id="r" cat="VROOT"><secedge label="L" idref="r"/></nt>`), 1, "secondary edge from the root"},
		{"unknown root", sent("x", "nope", a, ""), 1, `graph root "nope"`},
		{"no s id", "<s>\n" + `<graph><terminals>` + a + "</terminals></graph></s>\n", 1, "<s> without an id"},
		{"no t id", sent("x", "", "\n"+`<t word="a"/>`, ""), 2, "<t> without an id"},
		{"no idref", sent("x", "", a, `<nt id="x_500" cat="NP">`+"\n"+`<edge label="HD"/></nt>`), 2, "<edge> without an idref"},
		{"t in nonterminals", sent("x", "", a, "\n"+`<t id="x_2" word="b"/>`), 2, "<t> inside <nonterminals>"},
		{"edge in t", sent("x", "", `<t id="x_1" word="a">`+"\n"+`<edge idref="x_1"/></t>`, ""), 2, "<edge> inside <t>"},
		{"second graph", `<s id="x"><graph/>` + "\n<graph/></s>\n", 2, "second <graph>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := "<corpus><body>" + tc.text + good + "</body></corpus>\n"
			trees, err := ReadTigerXML(strings.NewReader(text), "in.xml")
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("error %v, want a list of one error", err)
			}
			e := list[0]
			if e.Name != "in.xml" || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error %q (line %d), want line %d and a message containing %q", e, e.Line, tc.line, tc.msg)
			}
			if e.Stopped {
				t.Errorf("error %q says reading stopped; it goes on with the next sentence", e)
			}
			// Reading goes on with the next sentence.
			if len(trees) != 1 || trees[0].ID != "ok" {
				t.Errorf("read %d trees after the error, want the good one", len(trees))
			}
		})
	}
}

func TestTigerXMLSyntaxErrors(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		line  int
		msg   string
		trees int
	}{
		{"unclosed element", "<corpus><body>\n" + sent("a", "", `<t id="a_1" word="a"/>`, "") + "<s id=\"b\">\n<graph>\n</body>", 5, "XML", 1},
		{"bad attribute", "<corpus>\n<s id=a></s></corpus>", 2, "XML", 0},
		{"unknown entity", "<corpus>\n\n<s id=\"&nbsp;\"></s></corpus>", 3, "XML", 0},
		{"EOF inside s", "<corpus><s id=\"x\">", 1, "XML", 0},
		{"invalid UTF-8", "<corpus>\n" + sent("x", "", `<t id="x_1" word="`+"\xff"+`"/>`, ""), 2, "invalid UTF-8", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trees, err := ReadTigerXML(strings.NewReader(tc.text), "in.xml")
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error %v, want line %d and %q", err, tc.line, tc.msg)
			} else if !e.Stopped {
				t.Errorf("error %v does not say that reading stopped", err)
			}
			if len(trees) != tc.trees {
				t.Errorf("%d trees, want %d", len(trees), tc.trees)
			}
		})
	}
}

// TestTigerXMLNotTiger: a file named .xml that is not TIGER-XML (another
// treebank format, plain text, an empty file, a file with only an XML
// declaration and comments, another XML format) is refused with one error
// that names the file and the line and ends reading, instead of reading
// as an empty treebank; a UTF-16 file keeps the decoder's message on its
// encoding.
func TestTigerXMLNotTiger(t *testing.T) {
	data := func(file string) func(t *testing.T) string {
		return func(t *testing.T) string {
			b, err := os.ReadFile(filepath.Join(dataDir(t), file))
			if err != nil {
				t.Skipf("skipping: %v", err)
			}
			return string(b)
		}
	}
	text := func(s string) func(*testing.T) string { return func(*testing.T) string { return s } }
	const (
		outside = "not TIGER-XML: text outside any element"
		noRoot  = "not TIGER-XML: the file ends without a root element (<corpus>)"
	)
	tests := []struct {
		name  string
		text  func(t *testing.T) string
		line  int
		msg   string
		trees int // read before the error
	}{
		{"plain text", text("this is not XML at all\n"), 1, outside, 0},
		{"discbracket trees", func(t *testing.T) string { return strings.Join(headLines(t, "alpino-cdb/dev.discbracket", 5), "") }, 1, outside, 0},
		// A '&' on line 7167 is an XML syntax error, met before the
		// text ends; the text began on line 1.
		{"an export file with a '&'", data("alpino-cdb/dev.export"), 1, outside, 0},
		// Longer than MaxLineBytes without a '<': too long for one text.
		{"a discbracket file past the token limit", data("alpino-cdb/train.discbracket"), 1, outside, 0},
		{"text after the prolog", text("<?xml version=\"1.0\"?>\n<!-- c -->\n\n  stray <corpus/>\n"), 4, outside, 0},
		{"text after the root", text(tigerSample + "\ntrailing\n"), strings.Count(tigerSample, "\n") + 2, outside, 3},
		{"empty file", text(""), 1, noRoot, 0},
		{"white space only", text("\n \n\t\n"), 4, noRoot, 0},
		{"declaration and comments only", text("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- no trees -->\n"), 3, noRoot, 0},
		// TIGER-XML in UTF-16, which this reader does not take: the
		// decoder's message names the trouble.
		{"UTF-16", func(*testing.T) string {
			b := []byte("\xff\xfe")
			for _, c := range []byte(tigerSample) {
				b = append(b, c, 0)
			}
			return string(b)
		}, 1, "XML: invalid UTF-8", 0},
		{"another XML format", text("<?xml version=\"1.0\"?>\n<alpino_ds version=\"1.3\">\n<node/></alpino_ds>\n"), 2, "not TIGER-XML: the root element is <alpino_ds>, not <corpus>", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trees, err := ReadAll(strings.NewReader(tc.text(t)), "in.xml", TigerXML)
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("%d trees, error %v; want a list of one error", len(trees), err)
			}
			if e := list[0]; e.Name != "in.xml" || e.Line != tc.line || e.Msg != tc.msg || !e.Stopped {
				t.Errorf("error %q (line %d, Stopped %v), want in.xml:%d: %s, reading stopped", e, e.Line, e.Stopped, tc.line, tc.msg)
			}
			if len(trees) != tc.trees {
				t.Errorf("%d trees, want %d", len(trees), tc.trees)
			}
		})
	}
}

// TestTigerXMLDocuments: what may stand around the trees of a TIGER-XML
// document reads: a byte order mark, the XML declaration, a DOCTYPE,
// comments and processing instructions, white space; a <subcorpus> root
// (a corpus's part in a file of its own) or a lone <s>; and a corpus
// without sentences, as the writer writes one, reads as no trees.
func TestTigerXMLDocuments(t *testing.T) {
	one := sent("a", "", `<t id="a_1" word="a"/>`, "")
	tests := []struct {
		name  string
		text  string
		trees int
	}{
		{"sample", tigerSample, 3},
		{"byte order mark", "\xEF\xBB\xBF" + tigerSample, 3},
		{"byte order mark, no declaration", "\xEF\xBB\xBF<corpus>" + one + "</corpus>", 1},
		{"markup and white space around the root",
			"<?xml version=\"1.0\"?>\n<!DOCTYPE corpus [ <!ENTITY x \"y\"> ]>\n\t<!-- before -->\r\n<?pi data?>\n" +
				"<corpus>\n<body>\n" + one + "</body></corpus>\n<!-- after -->\n\n", 1},
		{"subcorpus root", "<subcorpus name=\"part\">\n" + one + sent("b", "", `<t id="b_1" word="b"/>`, "") + "</subcorpus>\n", 2},
		{"lone sentence", one, 1},
		{"empty corpus written", mustWrite(t, nil, TigerXML), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trees, err := ReadAll(strings.NewReader(tc.text), "in.xml", TigerXML)
			if err != nil || len(trees) != tc.trees {
				t.Errorf("%d trees, error %v; want %d and no error", len(trees), err, tc.trees)
			}
		})
	}
}

func TestTigerXMLReadError(t *testing.T) {
	r := NewReader(&failingReader{"<corpus><body>" + sent("a", "", `<t id="a_1" word="a"/>`, "")}, "in.xml", TigerXML)
	if tr, err := r.Next(); err != nil || tr.ID != "a" {
		t.Fatalf("first tree: %v", err)
	}
	for range 2 { // final: returned again
		if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "disk on fire") {
			t.Fatalf("error %v, want the read error", err)
		}
	}
	_, err := ReadAll(&failingReader{"<corpus>"}, "broken", TigerXML)
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || !strings.Contains(err.Error(), "broken") {
		t.Errorf("error %v, want the read error with the name", err)
	}
}

func TestTigerXMLFiles(t *testing.T) {
	for _, name := range []string{"a.xml", "b.TigerXML"} {
		if f, err := FormatOf(name); f != TigerXML || err != nil {
			t.Errorf("FormatOf(%q) = %v, %v", name, f, err)
		}
	}
	if s := TigerXML.String(); s != "tigerxml" {
		t.Errorf("String() = %q", s)
	}
	trees := mustRead(t, exportSample, Export)
	path := filepath.Join(t.TempDir(), "out.xml")
	if err := os.WriteFile(path, []byte(mustWrite(t, trees, TigerXML)), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := treesEqual(back, trees, false); diff != "" {
		t.Error(diff)
	}
}

// TestDataTigerXMLRoundTrip converts the export files to TIGER-XML and
// back: the trees must be equal field for field (node numbers included),
// and writing them as export must give the bytes of the original file.
func TestDataTigerXMLRoundTrip(t *testing.T) {
	dir := dataDir(t)
	files := []string{"alpino-cdb/dev.export", "alpino-cdb/test.export", "disco-dop-alpinosample/alpinosample.export"}
	if !testing.Short() {
		files = append(files, "alpino-cdb/train.export")
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join(dir, file)
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Skipf("skipping: %v", err)
			}
			trees, err := ReadExport(bytes.NewReader(orig), path)
			if err != nil {
				t.Fatal(err)
			}
			var xmlBuf bytes.Buffer
			if err := WriteTigerXML(&xmlBuf, trees); err != nil {
				t.Fatal(err)
			}
			back, err := ReadTigerXML(&xmlBuf, "converted.xml")
			if err != nil {
				t.Fatal(err)
			}
			if diff := treesEqual(back, trees, false); diff != "" {
				t.Fatal(diff)
			}
			var exp bytes.Buffer
			if err := WriteExport(&exp, back, 4); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(exp.Bytes(), orig) {
				t.Errorf("export written from TIGER-XML differs from %s at %s", path, firstDiff(exp.Bytes(), orig))
			}
		})
	}
}

// TestDataTigerXMLDiscbracket converts discbracket trees through TIGER-XML.
func TestDataTigerXMLDiscbracket(t *testing.T) {
	path := filepath.Join(dataDir(t), "alpino-cdb", "dev.punctmoved.discbracket")
	trees, err := ReadFile(path)
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteTigerXML(&buf, trees); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTigerXML(&buf, "converted.xml")
	if err != nil {
		t.Fatal(err)
	}
	if diff := treesEqual(back, trees, false); diff != "" {
		t.Fatal(diff)
	}
}

func BenchmarkReadTigerXML(b *testing.B) {
	trees, err := ReadFile(filepath.Join(dataDir(b), "alpino-cdb", "dev.export"))
	if err != nil {
		b.Skipf("skipping: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteTigerXML(&buf, trees); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadTigerXML(bytes.NewReader(data), "dev.xml"); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzReadTigerXML checks that reading never panics and that every tree
// read is written and read back unchanged. The seed corpus is in
// testdata/fuzz/FuzzReadTigerXML/.
func FuzzReadTigerXML(f *testing.F) {
	f.Add([]byte(tigerSample))
	f.Fuzz(func(t *testing.T, data []byte) {
		trees, _ := ReadTigerXML(bytes.NewReader(data), "fuzz")
		var buf bytes.Buffer
		if err := WriteTigerXML(&buf, trees); err != nil {
			t.Fatalf("write: %v", err)
		}
		written := buf.String()
		back, err := ReadTigerXML(&buf, "written")
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, written)
		}
		if diff := treesEqual(back, trees, false); diff != "" {
			t.Fatalf("read back differs: %s\n%s", diff, written)
		}
		_ = WriteExport(io.Discard, trees, 4)   // must not panic
		_ = WriteDiscbracket(io.Discard, trees) // must not panic
	})
}

// TestTigerXMLSpill writes the dev treebank as TIGER-XML with the body
// moved to a temporary file every 100 kB: the document must be the bytes
// written from memory, and no file may be left behind; where no file can
// be made or written, the body stays in memory and the document is the same.
func TestTigerXMLSpill(t *testing.T) {
	path := filepath.Join(dataDir(t), "alpino-cdb", "dev.export")
	trees, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := WriteTigerXML(&want, trees); err != nil {
		t.Fatal(err)
	}
	if want.Len() >= tigerSpillAt {
		t.Fatalf("the reference document (%d bytes) was itself spilled", want.Len())
	}
	tests := []struct {
		name      string
		tmp       func(t *testing.T) string // TMPDIR
		readOnly  bool                      // the spill file cannot be written
		wantSpill bool
	}{
		{"in a temporary file", func(t *testing.T) string { return t.TempDir() }, false, true},
		{"no temporary file can be made", func(t *testing.T) string { return filepath.Join(t.TempDir(), "missing") }, false, false},
		{"the temporary file cannot be written", func(t *testing.T) string { return t.TempDir() }, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := tc.tmp(t)
			t.Setenv("TMPDIR", tmp)
			var got bytes.Buffer
			w := NewTigerXMLWriter(&got, "corpus")
			w.tiger.spillAt = 100_000
			if tc.readOnly {
				f, err := os.CreateTemp(tmp, "ro-*")
				if err != nil {
					t.Fatal(err)
				}
				f.Close()
				ro, err := os.Open(f.Name())
				if err != nil {
					t.Fatal(err)
				}
				w.tiger.spill.file = ro
			}
			spilled := false
			for _, tr := range trees {
				if err := w.Write(tr); err != nil {
					t.Fatal(err)
				}
				if w.tiger.spill.size > 0 {
					spilled = true
					if len(w.tiger.body) >= 2*w.tiger.spillAt {
						t.Fatalf("%d bytes kept in memory after spilling", len(w.tiger.body))
					}
				}
			}
			if spilled != tc.wantSpill {
				t.Errorf("spilled %v, want %v (failure: %v)", spilled, tc.wantSpill, w.tiger.spill.failed)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("document differs from the one written in memory at %s", firstDiff(got.Bytes(), want.Bytes()))
			}
			left, _ := os.ReadDir(tmp)
			if len(left) != 0 {
				t.Errorf("%d files left in %s: %v", len(left), tmp, left[0].Name())
			}
		})
	}
}

// TestTigerXMLElementIDs: a sentence id that is an element id of another
// sentence ("7_1", the first terminal of sentence "7") is refused, in
// either order, so that no XML id of a document repeats; ids that only
// look alike are written.
func TestTigerXMLElementIDs(t *testing.T) {
	sentence := func(id string) *tree.Tree { // elements ID_1, ID_2, ID_500, ID_VROOT
		return &tree.Tree{ID: id, Tokens: []tree.Token{{Word: "a", Tag: "N", Parent: 0}, {Word: "b", Tag: "N", Parent: 0}},
			Nodes: []tree.Node{{Label: "NP", Parent: tree.Root}}}
	}
	idAttr := regexp.MustCompile(`<(?:s|t|nt) id="([^"]*)"`)
	for _, tc := range []struct {
		ids  []string
		want string // part of the error of the last; "" for none
	}{
		{[]string{"7", "7_1"}, `sentence id "7_1": an element of sentence "7" has it`},
		{[]string{"7", "7_500"}, `an element of sentence "7" has it`},
		{[]string{"7", "7_VROOT"}, `an element of sentence "7" has it`},
		{[]string{"7_2", "7"}, `sentence id "7": its element "7_2" has the id of an earlier sentence`},
		{[]string{"7_VROOT", "8", "7"}, `its element "7_VROOT"`},
		{[]string{"7", "7_3", "7_01", "7_n500", "7_1_1", "8"}, ""},
	} {
		t.Run(strings.Join(tc.ids, ","), func(t *testing.T) {
			var buf bytes.Buffer
			w := NewTigerXMLWriter(&buf, "c")
			var err error
			for _, id := range tc.ids {
				if err = w.Write(sentence(id)); err != nil {
					break
				}
			}
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, m := range idAttr.FindAllStringSubmatch(buf.String(), -1) {
				if seen[m[1]] {
					t.Errorf("id %q repeats", m[1])
				}
				seen[m[1]] = true
			}
			want := len(tc.ids)
			if tc.want != "" {
				want--
			}
			if trees, err := ReadTigerXML(&buf, "ids"); err != nil || len(trees) != want {
				t.Errorf("read back %d trees, %v; want %d", len(trees), err, want)
			}
		})
	}
}
