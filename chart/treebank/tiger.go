package treebank

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/tree"
)

// ReadTigerXML reads a TIGER-XML file, UTF-8 or ISO-8859-1, one <s>
// element at a time (the document is never held in memory whole). See
// ReadAll for errors; an XML syntax error ends reading, since the XML
// decoder cannot go on after one.
//
// A file that is not TIGER-XML is refused with an error that ends reading
// too: one with text outside any element (a bracketed or export file named
// .xml), one whose root element is not <corpus> (a <subcorpus>, the root
// of a corpus's part in a file of its own, and a lone <s> are read too),
// and one without any element (an empty file, or only an XML declaration
// and comments). These errors, like XML syntax errors, have Error.Stopped
// set.
//
// Mapping: <s id> is Tree.ID and its comment attribute Tree.BOSExtra.
// Terminals <t> in document order are the tokens: word is Token.Word, lemma
// Lemma, pos Tag, morph Morph, comment Comment. Nonterminals <nt> in
// document order are the nodes: cat is Node.Label, and lemma, morph and
// comment attributes fill the fields of the same names. Other attributes
// and elements (<sem>, <matches>, the <head>) are ignored, and the header
// may be missing. In lemma, pos, morph, cat and edge labels "--" is read
// as the empty string; words are kept as they are. An <edge label idref>
// of an <nt> makes the element idref names a child of the <nt>, with the
// label as its Edge. A <secedge label idref> inside a <t> or <nt> is a
// secondary edge of that element (Token.Sec, Node.Sec) to the parent
// nonterminal idref names.
//
// The <nt> named by <graph root> is the virtual root when its cat is
// VROOT, ROOT, TOP or empty ("--"): it is not a node, its children are
// attached to tree.Root with their edge labels, and secondary edges to it
// have parent tree.Root. An element that no edge points to is attached to
// tree.Root. Node.Num is the number that ends the id of each <nt> ("s1_502"
// gives 502) when these are distinct and in 500..999, else the nodes are
// numbered from 500 in post-order as for discbracket (0 when there are
// more than 500).
//
// Errors (with the line of the element): an <s> or an element without an
// id, duplicate ids in a sentence, an edge or secondary edge to an id
// that is not in the sentence, a secondary edge to a terminal, an element
// with two parents, an edge to the virtual root, parent links that form a
// cycle, TIGER-XML elements in the wrong place, and a sentence past a limit
// (see MaxTokens; MaxBrackets counts the elements and edges as written,
// with a virtual root and an <edge> to each element below it, and names
// the first element past it; a tree nested deeper than MaxDepth names the
// first element one level past it).
func ReadTigerXML(r io.Reader, name string) ([]*tree.Tree, error) {
	return ReadAll(r, name, TigerXML)
}

// tigerReader reads the sentences of a TIGER-XML file one <s> element at a
// time with an encoding/xml token stream; the document is never held in
// memory whole.
type tigerReader struct {
	name   string
	d      *xml.Decoder
	bound  *boundedXML // the decoder's input
	intern map[string]string
	done   bool  // the input has ended: its end, a syntax error, not TIGER-XML
	err    error // a read error, returned again by later calls

	line, col int // start of the token being read

	depth  int  // elements open around the next token, outside <s> and <head>
	rooted bool // a root element has been read
}

func newTigerReader(r io.Reader, name string) *tigerReader {
	bound := &boundedXML{r: r}
	d := xml.NewDecoder(bound)
	d.CharsetReader = tigerCharset
	return &tigerReader{name: name, d: d, bound: bound, intern: make(map[string]string)}
}

// token returns the next XML token and records where it starts. A syntax
// error becomes an *Error and ends the input; a read error is returned as
// it is. A syntax error before the root element, in a file with text
// before its first tag, is reported as that text: the file is not XML (a
// bracketed or export file with a '&' in it, or one too long to be read
// as one text). Invalid UTF-8 is reported as it is, since it may be the
// whole trouble (a UTF-16 file).
func (x *tigerReader) token() (xml.Token, error) {
	x.line, x.col = x.d.InputPos()
	tok, err := x.d.Token()
	if err == nil {
		return tok, nil
	}
	if err == io.EOF {
		x.done = true
		return nil, io.EOF
	}
	var se *xml.SyntaxError
	var le *longXMLError
	switch {
	case errors.As(err, &se):
		x.done = true
		if text := x.bound.textLine; !x.rooted && text > 0 && text <= se.Line && se.Msg != "invalid UTF-8" {
			return nil, stopError(errorf(x.name, text, 0, "not TIGER-XML: text outside any element"))
		}
		return nil, stopError(errorf(x.name, se.Line, 0, "XML: %s", se.Msg))
	case errors.As(err, &le):
		x.done = true
		if text := x.bound.textLine; !x.rooted && text > 0 && text <= le.line {
			return nil, stopError(errorf(x.name, text, 0, "not TIGER-XML: text outside any element"))
		}
		return nil, stopError(errorf(x.name, le.line, 0, "XML: a tag, text or comment longer than %d bytes (the readers' limit)", MaxLineBytes))
	}
	x.err = err
	return nil, err
}

// next returns the next sentence, an *Error for a malformed one (the
// following call goes on with the next <s>), a read error, or io.EOF. After
// an XML syntax error, which the decoder cannot recover from, or an input
// that is not TIGER-XML, it returns io.EOF.
func (x *tigerReader) next() (*tree.Tree, error) {
	if x.err != nil {
		return nil, x.err
	}
	for !x.done {
		tok, err := x.token()
		if err == io.EOF && !x.rooted {
			line, _ := x.d.InputPos()
			return nil, stopError(errorf(x.name, line, 0, "not TIGER-XML: the file ends without a root element (<corpus>)"))
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.CharData:
			if x.depth == 0 {
				if line, ok := x.outsideText(tok); !ok {
					x.done = true
					return nil, stopError(errorf(x.name, line, 0, "not TIGER-XML: text outside any element"))
				}
			}
		case xml.EndElement:
			x.depth--
		case xml.StartElement:
			name := tok.Name.Local
			if x.depth == 0 && name != "corpus" && name != "subcorpus" && name != "s" {
				x.done = true
				return nil, stopError(errorf(x.name, x.line, 0, "not TIGER-XML: the root element is <%s>, not <corpus>", clipStr(name)))
			}
			x.rooted = true
			switch name {
			case "s":
				t, err := x.sentence(tok)
				return t, treeError(err)
			case "head":
				// The header declares features and their values; the
				// trees do not need it.
				if err := x.skip(); err != nil {
					return nil, err
				}
			default:
				x.depth++
			}
		}
	}
	return nil, io.EOF
}

// outsideText checks text read outside any element: only white space may
// be there, and a byte order mark at the start of the file. It returns
// the line of the first other character and false, or true.
func (x *tigerReader) outsideText(text []byte) (int, bool) {
	if x.line == 1 && x.col == 1 {
		text = bytes.TrimPrefix(text, bom)
	}
	i := bytes.IndexFunc(text, func(r rune) bool {
		return r != ' ' && r != '\t' && r != '\r' && r != '\n'
	})
	if i < 0 {
		return 0, true
	}
	return x.line + bytes.Count(text[:i], []byte{'\n'}), false
}

// skip skips the rest of the element whose start tag was just read.
func (x *tigerReader) skip() error {
	for depth := 1; depth > 0; {
		tok, err := x.token()
		if err != nil {
			if err == io.EOF {
				return errorf(x.name, x.line, 0, "XML: unexpected end of input")
			}
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

// tigerEdge is an <edge> or <secedge> element.
type tigerEdge struct {
	label, idref string
	line         int
}

// tigerElem is a <t> or an <nt> element of the sentence being read.
type tigerElem struct {
	nt    bool
	id    string
	line  int
	attrs tigerAttrs
	edges []tigerEdge // <edge> children of an <nt>
	sec   []tigerEdge // <secedge> children
}

// tigerAttrs holds the attributes of a <t> or <nt> that are kept.
type tigerAttrs struct {
	word, lemma, pos, morph, cat, comment string
}

// tigerSentence collects the elements of one <s>.
type tigerSentence struct {
	id, comment string
	line        int
	root        string // the root attribute of <graph>
	rootLine    int
	hasGraph    bool
	elems       []tigerElem
	nts         int
	edges       int  // <edge> and <secedge> elements
	rootSeen    bool // the element root names has been read
	below       int  // elements but the virtual root: each has an <edge> as written
	secs        int  // <secedge> elements
}

// count counts element e of the sentence, which is either the virtual
// root or below it, as the writers would write the tree (see MaxBrackets):
// with the virtual root (an <nt> more when it has none) and with an
// <edge> to each element below the root. It reports the limit that e
// takes the sentence past, or "".
func (s *tigerSentence) count(e *tigerElem) string {
	vroot := false
	if s.root != "" && !s.rootSeen && e.id == s.root {
		s.rootSeen = true
		vroot = e.nt && isVirtualRoot(e.attrs.cat)
	}
	if vroot {
		return ""
	}
	s.below++
	switch {
	case s.below+1 > MaxBrackets:
		return tigerElemsLimitText()
	case s.below+s.secs > MaxBrackets:
		return tigerEdgesLimitText()
	}
	return ""
}

// sentence reads an <s> element up to its end tag. After an error in the
// sentence it reads on to the end tag, so that the next call goes on with
// the next sentence.
func (x *tigerReader) sentence(start xml.StartElement) (*tree.Tree, error) {
	s := &tigerSentence{line: x.line}
	var sentErr *Error
	fail := func(e *Error) {
		if sentErr == nil {
			sentErr = e
		}
	}
	hasID := false
	for _, a := range start.Attr {
		switch a.Name.Local {
		case "id":
			s.id, hasID = a.Value, true
		case "comment":
			s.comment = a.Value
		}
	}
	if !hasID || s.id == "" {
		fail(errorf(x.name, s.line, 0, "<s> without an id"))
	}
	// stack holds the names of the open elements inside <s>.
	var stack []string
	cur := -1 // index into s.elems of the open <t> or <nt>
	for {
		tok, err := x.token()
		if err == io.EOF {
			return nil, errorf(x.name, s.line, 0, "sentence %s: <s> is not closed", s.id)
		}
		if err != nil {
			return nil, err
		}
		switch el := tok.(type) {
		case xml.EndElement:
			if len(stack) == 0 { // </s>
				if sentErr != nil {
					return nil, sentErr
				}
				t, err := x.build(s)
				if err != nil {
					return nil, err
				}
				return t, nil
			}
			if name := stack[len(stack)-1]; name == "t" || name == "nt" {
				cur = -1
			}
			stack = stack[:len(stack)-1]
		case xml.StartElement:
			name := el.Name.Local
			parent := ""
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			switch {
			case name == "graph" && parent == "":
				if s.hasGraph {
					fail(errorf(x.name, x.line, 0, "sentence %s: second <graph>", s.id))
				}
				s.hasGraph = true
				s.root, s.rootLine = attr(el, "root"), x.line
			case name == "terminals" && parent == "graph", name == "nonterminals" && parent == "graph":
			case name == "t" && parent == "terminals", name == "nt" && parent == "nonterminals":
				e := tigerElem{nt: name == "nt", line: x.line}
				for _, a := range el.Attr {
					x.setAttr(&e, a)
				}
				if e.id == "" {
					fail(errorf(x.name, x.line, 0, "sentence %s: <%s> without an id", s.id, name))
				}
				if e.nt {
					s.nts++
				}
				// The elements kept are at most MaxBrackets: those below
				// the root and one virtual root.
				if !e.nt && len(s.elems)-s.nts >= MaxTokens {
					fail(errorf(x.name, x.line, 0, "sentence %s: %s", s.id, limitText("<t> elements", MaxTokens)))
				} else if past := s.count(&e); past != "" {
					fail(errorf(x.name, x.line, 0, "sentence %s: %s", s.id, past))
				}
				if sentErr != nil { // only read on to the end of the sentence
					if err := x.skip(); err != nil {
						return nil, err
					}
					continue
				}
				cur = len(s.elems)
				s.elems = append(s.elems, e)
			case name == "edge" && parent == "nt", name == "secedge" && (parent == "t" || parent == "nt"):
				ed := tigerEdge{label: x.opt(attr(el, "label")), idref: attr(el, "idref"), line: x.line}
				if ed.idref == "" {
					fail(errorf(x.name, x.line, 0, "sentence %s: <%s> without an idref", s.id, name))
				}
				if name == "secedge" {
					s.secs++
				}
				switch s.edges++; {
				case s.edges > MaxBrackets: // edges that are not kept (a second parent) count too
					fail(errorf(x.name, x.line, 0, "sentence %s: %s", s.id, limitText("<edge> and <secedge> elements", MaxBrackets)))
				case s.below+s.secs > MaxBrackets:
					fail(errorf(x.name, x.line, 0, "sentence %s: %s", s.id, tigerEdgesLimitText()))
				}
				if sentErr != nil {
					if err := x.skip(); err != nil {
						return nil, err
					}
					continue
				}
				if name == "edge" {
					s.elems[cur].edges = append(s.elems[cur].edges, ed)
				} else {
					s.elems[cur].sec = append(s.elems[cur].sec, ed)
				}
			case isTigerElem(name):
				where := "<s>"
				if parent != "" {
					where = "<" + parent + ">"
				}
				fail(errorf(x.name, x.line, 0, "sentence %s: <%s> inside %s", s.id, name, where))
				if err := x.skip(); err != nil {
					return nil, err
				}
				continue
			default:
				// Elements TIGER-XML does not define here (<sem>,
				// <matches>, ...) are skipped.
				if err := x.skip(); err != nil {
					return nil, err
				}
				continue
			}
			stack = append(stack, name)
		}
	}
}

// isTigerElem reports whether name is an element of the TIGER-XML graph.
func isTigerElem(name string) bool {
	switch name {
	case "s", "graph", "terminals", "nonterminals", "t", "nt", "edge", "secedge":
		return true
	}
	return false
}

// attr returns the value of the attribute with the given local name, or "".
func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// setAttr keeps the attributes of a <t> or <nt> that the tree has fields
// for; others are ignored.
func (x *tigerReader) setAttr(e *tigerElem, a xml.Attr) {
	switch a.Name.Local {
	case "id":
		e.id = a.Value
	case "word":
		e.attrs.word = a.Value
	case "lemma":
		e.attrs.lemma = x.optWord(a.Value)
	case "pos":
		e.attrs.pos = x.opt(a.Value)
	case "morph":
		e.attrs.morph = x.opt(a.Value)
	case "cat":
		e.attrs.cat = x.opt(a.Value)
	case "comment":
		e.attrs.comment = a.Value
	}
}

// opt returns a value shared with earlier equal values; "--" stands for
// the empty string.
func (x *tigerReader) opt(s string) string {
	if s == "--" {
		return ""
	}
	if v, ok := x.intern[s]; ok {
		return v
	}
	if len(x.intern) < maxInterned {
		x.intern[s] = s
	}
	return s
}

// optWord is opt for open-class values (lemmas), which are not shared.
func (x *tigerReader) optWord(s string) string {
	if s == "--" {
		return ""
	}
	return s
}

// isVirtualRoot reports whether the category of a graph's root node marks it
// as the virtual root rather than a phrase.
func isVirtualRoot(cat string) bool {
	switch cat {
	case "", "VROOT", "ROOT", "TOP":
		return true
	}
	return false
}

// build turns the elements of a sentence into a tree: terminals in document
// order, nonterminals in document order (but for a virtual root), parents
// from the <edge> elements, secondary parents from the <secedge> elements.
func (x *tigerReader) build(s *tigerSentence) (*tree.Tree, *Error) {
	t := &tree.Tree{ID: s.id, BOSExtra: s.comment}
	type ref struct {
		nt  bool
		idx int // into Tokens or Nodes; tree.Root for the virtual root
	}
	refs := make(map[string]ref, len(s.elems))
	// The graph root: a virtual root unless it is a phrase.
	rootElem := -1
	if s.root != "" {
		for i := range s.elems {
			if s.elems[i].id == s.root {
				rootElem = i
				break
			}
		}
		if rootElem < 0 {
			return nil, errorf(x.name, s.rootLine, 0, "sentence %s: graph root %q is not an element of the sentence", s.id, s.root)
		}
		if e := &s.elems[rootElem]; !e.nt || !isVirtualRoot(e.attrs.cat) {
			rootElem = -1
		}
	}
	t.Tokens = make([]tree.Token, 0, len(s.elems)-s.nts)
	t.Nodes = make([]tree.Node, 0, s.nts)
	for i := range s.elems {
		e := &s.elems[i]
		var r ref
		switch {
		case i == rootElem:
			r = ref{nt: true, idx: tree.Root}
		case e.nt:
			r = ref{nt: true, idx: len(t.Nodes)}
			t.Nodes = append(t.Nodes, tree.Node{Label: e.attrs.cat, Lemma: e.attrs.lemma, Morph: e.attrs.morph, Comment: e.attrs.comment, Parent: tree.Root})
		default:
			r = ref{idx: len(t.Tokens)}
			t.Tokens = append(t.Tokens, tree.Token{Word: e.attrs.word, Lemma: e.attrs.lemma, Tag: e.attrs.pos, Morph: e.attrs.morph, Comment: e.attrs.comment, Parent: tree.Root})
		}
		if _, dup := refs[e.id]; dup {
			return nil, errorf(x.name, e.line, 0, "sentence %s: duplicate id %q", s.id, e.id)
		}
		refs[e.id] = r
	}
	if len(t.Tokens) == 0 {
		t.Tokens = nil
	}
	if len(t.Nodes) == 0 {
		t.Nodes = nil
	}
	hasParent := make(map[ref]int) // line of the edge that gave the parent
	for i := range s.elems {
		e := &s.elems[i]
		self := refs[e.id]
		for _, ed := range e.edges {
			c, ok := refs[ed.idref]
			switch {
			case !ok:
				return nil, errorf(x.name, ed.line, 0, "sentence %s: edge to %q, which is not an element of the sentence", s.id, ed.idref)
			case c.nt && c.idx == tree.Root:
				return nil, errorf(x.name, ed.line, 0, "sentence %s: edge to the root %q", s.id, ed.idref)
			}
			if l, dup := hasParent[c]; dup {
				return nil, errorf(x.name, ed.line, 0, "sentence %s: %q has two parents (first edge on line %d)", s.id, ed.idref, l)
			}
			hasParent[c] = ed.line
			if c.nt {
				t.Nodes[c.idx].Parent, t.Nodes[c.idx].Edge = self.idx, ed.label
			} else {
				t.Tokens[c.idx].Parent, t.Tokens[c.idx].Edge = self.idx, ed.label
			}
		}
		if len(e.sec) == 0 {
			continue
		}
		if self.nt && self.idx == tree.Root {
			return nil, errorf(x.name, e.sec[0].line, 0, "sentence %s: secondary edge from the root", s.id)
		}
		sec := make([]tree.SecEdge, 0, len(e.sec))
		for _, ed := range e.sec {
			p, ok := refs[ed.idref]
			switch {
			case !ok:
				return nil, errorf(x.name, ed.line, 0, "sentence %s: secondary edge to %q, which is not an element of the sentence", s.id, ed.idref)
			case !p.nt:
				return nil, errorf(x.name, ed.line, 0, "sentence %s: secondary edge to the terminal %q (want a nonterminal)", s.id, ed.idref)
			}
			sec = append(sec, tree.SecEdge{Label: ed.label, Parent: p.idx})
		}
		if self.nt {
			t.Nodes[self.idx].Sec = sec
		} else {
			t.Tokens[self.idx].Sec = sec
		}
	}
	l, err := makeLayout(t)
	if err != nil {
		return nil, errorf(x.name, s.line, 0, "sentence %s: %v", s.id, err)
	}
	if l.depth > MaxDepth {
		// Name the first element, in document order, one level past the
		// limit: every deeper one is below such an element.
		for i := range s.elems {
			e := &s.elems[i]
			r := refs[e.id]
			var d int
			switch {
			case i == rootElem:
				continue
			case r.nt:
				d = l.nodeDepth(r.idx)
			default:
				d = l.tokenDepth(t.Tokens[r.idx].Parent)
			}
			if d == MaxDepth+1 {
				return nil, errorf(x.name, e.line, 0, "sentence %s: <%s> %q: %s", s.id, e.tag(), e.id, depthLimitText())
			}
		}
		return nil, errorf(x.name, s.line, 0, "sentence %s: %s", s.id, depthLimitText()) // not reached
	}
	tigerNumbers(t, s, rootElem, l)
	return t, nil
}

// tag returns the element's name, "t" or "nt".
func (e *tigerElem) tag() string {
	if e.nt {
		return "nt"
	}
	return "t"
}

// tigerNumbers sets the export numbers of the nodes: the numbers at the end
// of the <nt> ids when these are distinct and in 500..999, else numbers
// from 500 in post-order (as for discbracket), or 0 when there are more
// than 500 nodes. The nodes stay in document order.
func tigerNumbers(t *tree.Tree, s *tigerSentence, rootElem int, l *layout) {
	var seen [maxNodes]bool
	k := 0
	ok := true
	for i := range s.elems {
		e := &s.elems[i]
		if !e.nt || i == rootElem {
			continue
		}
		n, valid := idNumber(e.id)
		if !valid || n < minNodeNum || n > maxNodeNum || seen[n-minNodeNum] {
			ok = false
			break
		}
		seen[n-minNodeNum] = true
		t.Nodes[k].Num = n
		k++
	}
	if ok {
		return
	}
	for i := range t.Nodes {
		t.Nodes[i].Num = 0
	}
	if len(t.Nodes) > maxNodes {
		return
	}
	for k, i := range l.postOrder() {
		t.Nodes[i].Num = minNodeNum + k
	}
}

// idNumber returns the number that ends an element id ("s1_502" gives 502).
func idNumber(id string) (int, bool) {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' {
		i--
	}
	return parseNum([]byte(id[i:]))
}

// longXMLError is the error of boundedXML: an XML token (a tag with its
// attributes, a text, a comment) longer than MaxLineBytes.
type longXMLError struct{ line int }

func (e *longXMLError) Error() string {
	return fmt.Sprintf("a tag, text or comment longer than %d bytes (the readers' limit) starts at line %d", MaxLineBytes, e.line)
}

// States of boundedXML.
const (
	xmlText     = iota // between tags
	xmlOpen            // after '<'
	xmlBang            // after "<!"
	xmlBangDash        // after "<!-"
	xmlTag             // in a tag (quote: in a quoted value)
	xmlComment         // in <!-- ... -->
	xmlCDATA           // in <![CDATA[ ... ]]>
	xmlPI              // in <? ... ?>
	xmlDecl            // in a declaration such as <!DOCTYPE ... [ ... ]>
)

// boundedXML passes an XML input on but refuses a token (a tag with its
// attributes, a text, a comment, a CDATA section, a declaration with its
// internal subset) of more than MaxLineBytes bytes, which encoding/xml
// would hold in memory whole. It follows the markup as the decoder does,
// just enough to know where its tokens end: quoted attribute values may
// hold '>', comments and CDATA '<', and a declaration nested markup and
// comments. Its error is returned by every later read.
type boundedXML struct {
	r         io.Reader
	state     int
	quote     byte    // in a tag or declaration: the quote of the value being read, or 0
	last      [2]byte // the two bytes before, in a comment, CDATA section or PI
	run       int     // bytes of the token being read
	line      int     // newlines read
	startLine int     // newlines read before the token began
	err       error

	// In a declaration: the nesting of '<' and '>', how much of "!--"
	// follows a '<', and whether in a comment.
	declDepth   int
	declLt      int
	declComment bool

	// Before the first tag: whether one has begun, how many bytes were
	// read before the current Read, and the line of the first character
	// of text that is neither white space nor a byte order mark (0: none
	// yet), which makes the input something other than XML.
	tagSeen  bool
	read     int64
	textLine int
}

func (b *boundedXML) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	for i := 0; i < n; {
		at := i
		if k := b.plain(p[i:n]); k > 0 {
			// Bytes that leave the state as it is (most of a text or a
			// tag) are taken in one go.
			if !b.tagSeen && b.textLine == 0 && b.state == xmlText {
				b.findText(p[i:i+k], b.read+int64(i))
			}
			b.line += bytes.Count(p[i:i+k], []byte{'\n'})
			b.run += k
			i += k
		} else {
			c := p[i]
			i++
			if c == '\n' {
				b.line++
			}
			if b.step(c) {
				b.run, b.startLine = 0, b.line
				continue
			}
			b.run++
		}
		if b.run > MaxLineBytes {
			b.err = &longXMLError{line: b.startLine + 1}
			return at, b.err
		}
	}
	b.read += int64(n)
	return n, err
}

// findText looks for text before the first tag in q, which starts at byte
// off of the input and is all text, and records the line of its first
// character other than white space or the byte order mark at the start.
func (b *boundedXML) findText(q []byte, off int64) {
	line := b.line + 1
	for j, c := range q {
		switch {
		case off+int64(j) < int64(len(bom)) && c == bom[off+int64(j)]:
		case c == '\n':
			line++
		case c == ' ' || c == '\t' || c == '\r':
		default:
			b.textLine = line
			return
		}
	}
}

// plain returns how many bytes at the start of q cannot change the state.
func (b *boundedXML) plain(q []byte) int {
	var k int
	switch {
	case b.state == xmlText:
		k = bytes.IndexByte(q, '<')
	case b.state == xmlTag && b.quote != 0:
		k = bytes.IndexByte(q, b.quote)
	case b.state == xmlTag:
		k = bytes.IndexAny(q, "\"'>")
	default:
		return 0
	}
	if k < 0 {
		return len(q)
	}
	return k
}

// step moves the state over c and reports whether a token ends or begins
// with it.
func (b *boundedXML) step(c byte) (boundary bool) {
	prev := b.last
	b.last = [2]byte{prev[1], c}
	switch b.state {
	case xmlText:
		if c == '<' {
			b.state = xmlOpen
			return true
		}
	case xmlOpen:
		switch c {
		case '!':
			b.state = xmlBang
		case '?':
			b.state, b.last = xmlPI, [2]byte{}
		default:
			b.state, b.tagSeen = xmlTag, true
			return b.tag(c)
		}
	case xmlBang:
		switch c {
		case '-':
			b.state = xmlBangDash
		case '[':
			b.state, b.last = xmlCDATA, [2]byte{}
		default: // c is the first byte of the declaration's name
			b.state, b.quote, b.declDepth, b.declLt, b.declComment = xmlDecl, 0, 0, 0, false
		}
	case xmlBangDash:
		if c == '-' {
			b.state, b.last = xmlComment, [2]byte{}
		} else {
			b.state = xmlTag // a syntax error for the decoder
			return b.tag(c)
		}
	case xmlTag:
		return b.tag(c)
	case xmlComment:
		if c == '>' && prev == [2]byte{'-', '-'} {
			b.state = xmlText
			return true
		}
	case xmlCDATA:
		if c == '>' && prev == [2]byte{']', ']'} {
			b.state = xmlText
			return true
		}
	case xmlPI:
		if c == '>' && prev[1] == '?' {
			b.state = xmlText
			return true
		}
	case xmlDecl:
		return b.decl(c, prev)
	}
	return false
}

// quoted moves over c as a quote of a tag or declaration and reports
// whether c is quoted or a quote (a quoted value may hold '<' and '>').
func (b *boundedXML) quoted(c byte) bool {
	switch {
	case b.quote != 0:
		if c == b.quote {
			b.quote = 0
		}
	case c == '"' || c == '\'':
		b.quote = c
	default:
		return false
	}
	return true
}

// tag moves over c in a tag.
func (b *boundedXML) tag(c byte) bool {
	if !b.quoted(c) && c == '>' {
		b.state = xmlText
		return true
	}
	return false
}

// decl moves over c in a declaration, which ends at a '>' outside quotes
// and nested markup; comments inside it are skipped (prev: the two bytes
// before c).
func (b *boundedXML) decl(c byte, prev [2]byte) bool {
	if b.declComment { // ends at the first "-->", as the decoder reads it
		if c == '>' && prev == [2]byte{'-', '-'} {
			b.declComment = false
		}
		return false
	}
	if b.declLt > 0 {
		if c == "!--"[b.declLt-1] {
			if b.declLt++; b.declLt == 4 {
				b.declLt, b.declComment, b.last = 0, true, [2]byte{}
			}
			return false
		}
		b.declLt = 0
		b.declDepth++
	}
	switch {
	case b.quoted(c):
	case c == '>' && b.declDepth == 0:
		b.state = xmlText
		return true
	case c == '>':
		b.declDepth--
	case c == '<':
		b.declLt = 1
	}
	return false
}

// tigerCharset lets the decoder read ISO-8859-1 (Latin-1) files, the
// encoding of older TIGER releases, besides UTF-8.
func tigerCharset(label string, r io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
		return &latin1Reader{r: bufio.NewReader(r)}, nil
	case "us-ascii", "ascii":
		return r, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q (want UTF-8 or ISO-8859-1)", label)
}

// latin1Reader decodes ISO-8859-1 into UTF-8.
type latin1Reader struct {
	r       io.ByteReader
	pending byte // second byte of a two-byte character not yet returned
	has     bool
	err     error // the read error that ended the input
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if l.has {
			p[n] = l.pending
			n++
			l.has = false
			continue
		}
		if l.err != nil {
			break
		}
		c, err := l.r.ReadByte()
		if err != nil {
			l.err = err // returned once the bytes before it are
			break
		}
		if c < utf8.RuneSelf {
			p[n] = c
			n++
			continue
		}
		var buf [2]byte
		utf8.EncodeRune(buf[:], rune(c))
		p[n] = buf[0]
		n++
		l.pending, l.has = buf[1], true
	}
	if n == 0 && l.err != nil {
		return 0, l.err
	}
	return n, nil
}
