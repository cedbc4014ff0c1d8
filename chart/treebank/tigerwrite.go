package treebank

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/tree"
)

// WriteTigerXML writes trees as a TIGER-XML document to w, with corpus id
// "corpus" (see NewTigerXMLWriter).
//
// The document has a header declaring the features (word, lemma, pos,
// morph, cat, and comment when there are comments) and the values used of
// pos, morph, cat, the edge labels and the secondary edge labels; then one
// <s> per tree. The element ids are the sentence id (an empty Tree.ID is
// written as the number of the tree, from 1, as for export) followed by
// "_1", "_2", ... for the terminals and "_" and the node number for the
// nonterminals ("_n" and the number when a sentence has 500 words or
// more). Node numbers are Node.Num when these are distinct and in
// 500..999, else numbers from 500 in post-order, as the export writer
// gives them. Every graph has a virtual root <nt cat="VROOT"> with id
// "<sentence id>_VROOT" above the elements attached to tree.Root. XML ids
// must not repeat: a sentence whose id is an earlier one's, or an element
// id of an earlier one ("7_1" after "7"), or whose element ids hold an
// earlier one's ("7" after "7_1"), is refused. The
// nonterminals are written in the order of Tree.Nodes and the edges of
// each in the order of the leftmost word of the child. Empty lemma, pos,
// morph, cat and edge labels are written "--". Tree.BOSExtra, Token.Comment
// and Node.Comment go to comment attributes, and Node.Lemma and Node.Morph
// to lemma and morph attributes of the <nt> when they are not empty.
//
// So ReadTigerXML gives back the trees that were written, field for field
// (but for a lemma "--", read as empty as in export files). A tree with a
// string that XML cannot hold (control characters, invalid UTF-8) or with
// bad parent links is refused with an error naming it.
func WriteTigerXML(w io.Writer, trees []*tree.Tree) error {
	return writeAll(NewWriter(w, TigerXML), trees)
}

// tigerVRoot is the category of the virtual root node that the writer puts
// at the top of every graph.
const tigerVRoot = "VROOT"

// tigerWriter collects the sentences of a TIGER-XML document. The header,
// which declares the values used in the body, can only be written once all
// sentences are known, so the body is kept until finish.
type tigerWriter struct {
	corpusID string
	idErr    error      // why corpusID cannot be written, or nil
	body     []byte     // the sentences not yet moved to spill
	spill    tigerSpill // the sentences before body, beyond spillAt bytes
	spillAt  int
	finished bool
	ids      map[string]elementIDs // the sentences written: XML ids must not repeat

	// Values used, for the header.
	pos, morph, cat, edge, secEdge map[string]bool
	// Which optional features occur on terminals (T) and nonterminals (NT).
	lemmaNT, morphNT, commentT, commentNT bool
}

func newTigerWriter(corpusID string) *tigerWriter {
	return &tigerWriter{
		corpusID: corpusID,
		idErr:    checkCorpusID(corpusID),
		spillAt:  tigerSpillAt,
		ids:      map[string]elementIDs{},
		pos:      map[string]bool{},
		morph:    map[string]bool{},
		cat:      map[string]bool{tigerVRoot: true},
		edge:     map[string]bool{},
		secEdge:  map[string]bool{},
	}
}

// add appends sentence t to the body; an empty t.ID is replaced by
// fallbackID. Nothing of t is added, to the body or to the values the
// header declares, when t cannot be written.
func (tw *tigerWriter) add(t *tree.Tree, fallbackID string) error {
	l, err := makeLayout(t)
	if err != nil {
		return err
	}
	if err := l.checkDepth(); err != nil {
		return err
	}
	id := t.ID
	if id == "" {
		id = fallbackID
	}
	if err := checkTigerTree(t, id); err != nil {
		return err
	}
	if _, ok := tw.ids[id]; ok {
		return fmt.Errorf("sentence id %q: an earlier sentence has it (TIGER-XML ids must not repeat)", id)
	}
	nums, _ := nodeNumbers(t, l)
	elems := newElementIDs(len(t.Tokens), nums)
	if err := tw.checkElementIDs(id, elems, nums); err != nil {
		return err
	}
	b, err := appendTigerSentence(tw.body, t, id, l, nums)
	if err != nil {
		return err // tw.body keeps its length: what was appended is dropped
	}
	tw.ids[id] = elems
	tw.declare(t)
	tw.body = b
	if len(tw.body) >= tw.spillAt && tw.spill.take(tw.body) {
		tw.body = tw.body[:0]
	}
	return nil
}

// elementIDs describes the element ids of a sentence written (see
// WriteTigerXML): its terminals' numbers run from 1 to terms, its
// nonterminals' from minNode to maxNode (some numbers between may be
// unused), after "_n" when nodeN is set, else after "_".
type elementIDs struct {
	terms            int
	minNode, maxNode int
	nodeN            bool
}

// newElementIDs describes the element ids of a sentence of terms
// terminals and nonterminals numbered nums.
func newElementIDs(terms int, nums []int) elementIDs {
	e := elementIDs{terms: terms, minNode: 1, maxNode: 0, nodeN: terms >= minNodeNum}
	if len(nums) > 0 {
		e.minNode, e.maxNode = slices.Min(nums), slices.Max(nums)
	}
	return e
}

// has reports whether suffix, what follows the sentence id and "_" in an
// element id, may be one of the sentence's ("VROOT", "3", "n512").
func (e elementIDs) has(suffix string) bool {
	if suffix == tigerVRoot {
		return true
	}
	node := false
	if rest, ok := strings.CutPrefix(suffix, "n"); ok && e.nodeN {
		suffix, node = rest, true
	}
	n, err := strconv.Atoi(suffix)
	if err != nil || strconv.Itoa(n) != suffix {
		return false
	}
	inNodes := n >= e.minNode && n <= e.maxNode
	if node || e.nodeN {
		return node && inNodes || !node && n >= 1 && n <= e.terms
	}
	return n >= 1 && n <= e.terms || inNodes
}

// checkElementIDs refuses sentence id, of terms terminals and
// nonterminals numbered nums (described by e), when an element id of it is
// an earlier sentence's id, or id is an element id of an earlier sentence:
// "7_1" is the first terminal of sentence "7".
func (tw *tigerWriter) checkElementIDs(id string, e elementIDs, nums []int) error {
	if i := strings.LastIndexByte(id, '_'); i >= 0 {
		if earlier, ok := tw.ids[id[:i]]; ok && earlier.has(id[i+1:]) {
			return fmt.Errorf("sentence id %q: an element of sentence %q has it (TIGER-XML ids must not repeat)", id, id[:i])
		}
	}
	buf := append(make([]byte, 0, len(id)+8), id...)
	taken := func(b []byte) error {
		if _, ok := tw.ids[string(b)]; ok {
			return fmt.Errorf("sentence id %q: its element %q has the id of an earlier sentence (TIGER-XML ids must not repeat)", id, b)
		}
		return nil
	}
	if err := taken(append(append(buf, '_'), tigerVRoot...)); err != nil {
		return err
	}
	for k := 1; k <= e.terms; k++ {
		if err := taken(strconv.AppendInt(append(buf, '_'), int64(k), 10)); err != nil {
			return err
		}
	}
	sep := "_"
	if e.nodeN {
		sep = "_n"
	}
	for _, n := range nums {
		if err := taken(strconv.AppendInt(append(buf, sep...), int64(n), 10)); err != nil {
			return err
		}
	}
	return nil
}

// declare records the values and optional features of sentence t, which
// the header declares.
func (tw *tigerWriter) declare(t *tree.Tree) {
	sec := func(sec []tree.SecEdge) {
		for _, s := range sec {
			tw.secEdge[optValue(s.Label)] = true
		}
	}
	// Every token and node is a child of a node or of the virtual root,
	// so its edge label is that of one <edge>.
	for i := range t.Tokens {
		tok := &t.Tokens[i]
		tw.pos[optValue(tok.Tag)] = true
		tw.morph[optValue(tok.Morph)] = true
		tw.edge[optValue(tok.Edge)] = true
		tw.commentT = tw.commentT || tok.Comment != ""
		sec(tok.Sec)
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		tw.cat[optValue(nd.Label)] = true
		tw.edge[optValue(nd.Edge)] = true
		if nd.Morph != "" {
			tw.morphNT = true
			tw.morph[nd.Morph] = true
		}
		tw.lemmaNT = tw.lemmaNT || nd.Lemma != ""
		tw.commentNT = tw.commentNT || nd.Comment != ""
		sec(nd.Sec)
	}
}

// appendTigerSentence appends sentence t as an <s> element (see
// WriteTigerXML), with sentence id id, layout l and node numbers nums. A
// tag that the reader would refuse (see checkTag) is an error naming it:
// each tag is measured as it ends, and nothing else (white space between
// tags) can be long.
func appendTigerSentence(b []byte, t *tree.Tree, id string, l *layout, nums []int) ([]byte, error) {
	sep := "_"
	if len(t.Tokens) >= minNodeNum {
		sep = "_n" // terminal ids would collide with node ids
	}
	eid := string(appendAttr(nil, id)) // element ids start with the sentence id
	nodeID := func(dst []byte, p int) []byte {
		dst = append(dst, eid...)
		if p == tree.Root {
			return append(append(dst, '_'), tigerVRoot...)
		}
		return strconv.AppendInt(append(dst, sep...), int64(nums[p]), 10)
	}
	termID := func(dst []byte, i int) []byte {
		return strconv.AppendInt(append(append(dst, eid...), '_'), int64(i+1), 10)
	}
	secEdges := func(b []byte, sec []tree.SecEdge) ([]byte, error) {
		for k, s := range sec {
			b = append(b, "            "...)
			at := len(b)
			b = appendAttr(append(b, `<secedge label="`...), optValue(s.Label))
			b = nodeID(append(b, `" idref="`...), s.Parent)
			b = append(b, "\"/>\n"...)
			if err := checkTag(b, at, "<secedge>"); err != nil {
				return b, fmt.Errorf("secondary edge %d: %w", k, err)
			}
		}
		return b, nil
	}
	// slotName names node slot, or the virtual root, in errors.
	slotName := func(slot int) string {
		if slot == len(t.Nodes) {
			return "the virtual root"
		}
		return fmt.Sprintf("node %d (%s)", slot, clipStr(t.Nodes[slot].Label))
	}
	edges := func(b []byte, slot int) ([]byte, error) {
		for _, c := range l.kids[slot] {
			label := ""
			if c.node {
				label = t.Nodes[c.idx].Edge
			} else {
				label = t.Tokens[c.idx].Edge
			}
			b = append(b, "            "...)
			at := len(b)
			b = appendAttr(append(b, `<edge label="`...), optValue(label))
			b = append(b, `" idref="`...)
			if c.node {
				b = nodeID(b, c.idx)
			} else {
				b = termID(b, c.idx)
			}
			b = append(b, "\"/>\n"...)
			if err := checkTag(b, at, "<edge>"); err != nil {
				kind := "token"
				if c.node {
					kind = "node"
				}
				return b, fmt.Errorf("%s: the edge to %s %d: %w", slotName(slot), kind, c.idx, err)
			}
		}
		return b, nil
	}

	b = append(b, "    "...)
	at := len(b)
	b = append(append(b, `<s id="`...), eid...)
	if t.BOSExtra != "" {
		b = appendAttr(append(b, `" comment="`...), t.BOSExtra)
	}
	b = append(b, "\">\n"...)
	if err := checkTag(b, at, "<s>"); err != nil {
		return b, err
	}
	b = append(b, "      "...)
	at = len(b)
	b = nodeID(append(b, `<graph root="`...), tree.Root)
	b = append(b, "\">\n"...)
	if err := checkTag(b, at, "<graph>"); err != nil {
		return b, err
	}
	b = append(b, "        <terminals>\n"...)
	var err error
	for i := range t.Tokens {
		tok := &t.Tokens[i]
		b = append(b, "          "...)
		at := len(b)
		b = termID(append(b, `<t id="`...), i)
		b = appendAttr(append(b, `" word="`...), tok.Word)
		b = appendAttr(append(b, `" lemma="`...), optValue(tok.Lemma))
		b = appendAttr(append(b, `" pos="`...), optValue(tok.Tag))
		b = appendAttr(append(b, `" morph="`...), optValue(tok.Morph))
		if tok.Comment != "" {
			b = appendAttr(append(b, `" comment="`...), tok.Comment)
		}
		if len(tok.Sec) == 0 {
			b = append(b, "\"/>\n"...)
		} else {
			b = append(b, "\">\n"...)
		}
		if err = checkTag(b, at, "<t>"); err == nil && len(tok.Sec) > 0 {
			b, err = secEdges(b, tok.Sec)
			b = append(b, "          </t>\n"...)
		}
		if err != nil {
			return b, fmt.Errorf("token %d (%q): %w", i, clipStr(tok.Word), err)
		}
	}
	b = append(b, "        </terminals>\n        <nonterminals>\n"...)
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		b = append(b, "          "...)
		at := len(b)
		b = nodeID(append(b, `<nt id="`...), i)
		b = appendAttr(append(b, `" cat="`...), optValue(nd.Label))
		if nd.Lemma != "" {
			b = appendAttr(append(b, `" lemma="`...), nd.Lemma)
		}
		if nd.Morph != "" {
			b = appendAttr(append(b, `" morph="`...), nd.Morph)
		}
		if nd.Comment != "" {
			b = appendAttr(append(b, `" comment="`...), nd.Comment)
		}
		b = append(b, "\">\n"...)
		if err := checkTag(b, at, "<nt>"); err != nil {
			return b, fmt.Errorf("%s: %w", slotName(i), err)
		}
		if b, err = edges(b, i); err != nil {
			return b, err
		}
		if b, err = secEdges(b, nd.Sec); err != nil {
			return b, fmt.Errorf("%s: %w", slotName(i), err)
		}
		b = append(b, "          </nt>\n"...)
	}
	b = append(b, "          "...)
	at = len(b)
	b = nodeID(append(b, `<nt id="`...), tree.Root)
	b = append(b, `" cat="`+tigerVRoot+"\">\n"...)
	if err := checkTag(b, at, "<nt>"); err != nil {
		return b, fmt.Errorf("the virtual root: %w", err)
	}
	if b, err = edges(b, len(t.Nodes)); err != nil {
		return b, err
	}
	return append(b, "          </nt>\n        </nonterminals>\n      </graph>\n    </s>\n"...), nil
}

// checkCorpusID reports a corpus id that the document cannot hold: one
// that XML cannot hold (see checkXMLString) or whose <corpus> tag (see
// finish) is longer than the reader takes. The id is also the text of the
// <name> element, which is shorter.
func checkCorpusID(id string) error {
	if err := checkXMLString(id); err != nil {
		return fmt.Errorf("treebank: TigerXML corpus id %q: %w", id, err)
	}
	tag := appendAttr([]byte(`<corpus id="`), id)
	if err := checkTag(append(tag, "\">\n"...), 0, "<corpus>"); err != nil {
		return fmt.Errorf("treebank: TigerXML corpus id %q: %w", clipStr(id), err)
	}
	return nil
}

// checkTigerTree checks that every string of t can be written in XML.
func checkTigerTree(t *tree.Tree, id string) error {
	if err := checkXMLString(id); err != nil {
		return fmt.Errorf("sentence id %q: %w", id, err)
	}
	if err := checkXMLString(t.BOSExtra); err != nil {
		return fmt.Errorf("comment (BOSExtra) %q: %w", t.BOSExtra, err)
	}
	for i := range t.Tokens {
		tok := &t.Tokens[i]
		for _, f := range []string{tok.Word, tok.Lemma, tok.Tag, tok.Morph, tok.Edge, tok.Comment} {
			if err := checkXMLString(f); err != nil {
				return fmt.Errorf("token %d: field %q: %w", i, f, err)
			}
		}
		if err := checkSecXML(tok.Sec); err != nil {
			return fmt.Errorf("token %d: %w", i, err)
		}
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		for _, f := range []string{nd.Label, nd.Lemma, nd.Morph, nd.Edge, nd.Comment} {
			if err := checkXMLString(f); err != nil {
				return fmt.Errorf("node %d: field %q: %w", i, f, err)
			}
		}
		if err := checkSecXML(nd.Sec); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	return nil
}

func checkSecXML(sec []tree.SecEdge) error {
	for _, s := range sec {
		if err := checkXMLString(s.Label); err != nil {
			return fmt.Errorf("secondary edge label %q: %w", s.Label, err)
		}
	}
	return nil
}

// checkXMLString reports a string that XML 1.0 cannot hold: invalid UTF-8
// or a character outside the XML character range (most control
// characters).
func checkXMLString(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !isRealRuneError(s[i:]):
			return errors.New("invalid UTF-8")
		case !isXMLChar(r):
			return fmt.Errorf("character %U cannot be written in XML", r)
		}
	}
	return nil
}

// isRealRuneError reports whether s starts with an encoded U+FFFD rather
// than an invalid byte.
func isRealRuneError(s string) bool {
	_, size := utf8.DecodeRuneInString(s)
	return size == 3
}

// isXMLChar reports whether r is in the XML 1.0 Char production.
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// optValue writes the empty value as "--", as TIGER-XML files do.
func optValue(s string) string {
	if s == "" {
		return "--"
	}
	return s
}

// appendAttr appends s escaped for a double-quoted attribute value. TAB,
// LF and CR are written as character references so that they survive
// attribute value normalization.
func appendAttr(dst []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&quot;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			continue
		}
		dst = append(append(dst, s[last:i]...), esc...)
		last = i + 1
	}
	return append(dst, s[last:]...)
}

// finish writes the whole document: the XML declaration, the header
// declaring the features and the values used, the body and the end tags.
// Errors of w are kept by bufio; the error returned is one of reading back
// the body's temporary file.
func (tw *tigerWriter) finish(w *bufio.Writer) error {
	tw.finished = true
	defer tw.spill.close()
	var b []byte
	b = append(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"...)
	b = appendAttr(append(b, `<corpus id="`...), tw.corpusID)
	b = append(b, "\">\n  <head>\n    <meta>\n      <name>"...)
	b = appendAttr(b, tw.corpusID)
	b = append(b, "</name>\n      <format>TIGER-XML, written by discspan</format>\n    </meta>\n    <annotation>\n"...)
	domain := func(t, nt bool) string {
		switch {
		case t && nt:
			return "FREC"
		case nt:
			return "NT"
		}
		return "T"
	}
	feature := func(name, dom string, values map[string]bool) {
		b = append(b, `      <feature name="`+name+`" domain="`+dom+`"`...)
		if len(values) == 0 {
			b = append(b, "/>\n"...)
			return
		}
		b = append(b, ">\n"...)
		b = appendValues(b, values, "        ")
		b = append(b, "      </feature>\n"...)
	}
	feature("word", "T", nil)
	feature("lemma", domain(true, tw.lemmaNT), nil)
	feature("pos", "T", tw.pos)
	feature("morph", domain(true, tw.morphNT), tw.morph)
	feature("cat", "NT", tw.cat)
	if tw.commentT || tw.commentNT {
		feature("comment", domain(tw.commentT, tw.commentNT), nil)
	}
	for _, el := range []struct {
		name   string
		values map[string]bool
	}{{"edgelabel", tw.edge}, {"secedgelabel", tw.secEdge}} {
		if len(el.values) == 0 {
			b = append(b, "      <"+el.name+"/>\n"...)
			continue
		}
		b = append(b, "      <"+el.name+">\n"...)
		b = appendValues(b, el.values, "        ")
		b = append(b, "      </"+el.name+">\n"...)
	}
	b = append(b, "    </annotation>\n  </head>\n  <body>\n"...)
	w.Write(b) // errors are kept by bufio
	if err := tw.spill.copyTo(w); err != nil {
		tw.body = nil
		return err
	}
	w.Write(tw.body)
	w.WriteString("  </body>\n</corpus>\n")
	tw.body = nil
	return nil
}

// appendValues appends <value name="..."/> elements in sorted order.
func appendValues(b []byte, values map[string]bool, indent string) []byte {
	names := make([]string, 0, len(values))
	for v := range values {
		names = append(names, v)
	}
	slices.Sort(names)
	for _, v := range names {
		b = appendAttr(append(b, indent+`<value name="`...), v)
		b = append(b, "\"/>\n"...)
	}
	return b
}
