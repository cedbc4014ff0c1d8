package treebank

import (
	"fmt"

	"github.com/discspan/discspan/chart/tree"
)

// Limits of what the readers accept, far above any real treebank (the
// Alpino trees of shared/data have at most 135 words, 227 brackets, a
// depth of 24 and 2,242 bytes a line). They bound what one line or one
// sentence can make a reader spend, whatever the input: a longer line is
// not held in memory beyond MaxLineBytes, a tree past a limit is refused
// (an *Error naming its line, with Tree set) and only counted to its end,
// and a tree that is kept costs a small multiple of its own text.
//
// The same limits hold in every format: MaxTokens words (export tokens,
// bracketed preterminals, TIGER-XML <t> elements), MaxBrackets brackets
// (TIGER-XML: <t> and <nt> elements; also <edge> and <secedge> elements,
// and export edges and secondary edges, see below), MaxDepth levels of
// nesting, MaxLineBytes a line (TIGER-XML: a
// tag with its attributes, a text, a comment or a CDATA section, which the
// XML decoder holds whole; a longer one ends the input, as an XML syntax
// error does). A bracketed
// (PTB) line past MaxLineBytes refuses each tree it is part of; its
// brackets are still followed, piece by piece, to find where they end.
//
// The levels of a tree are the brackets its discbracket line nests: the
// ROOT bracket, one for each node on a path down and a word's preterminal.
// A bracketed tree whose outermost bracket is a phrase (not ROOT, VROOT,
// TOP or unlabelled) is a node under the root, so it takes one level more
// than its brackets; a TIGER-XML tree counts the same way (a VROOT is the
// root; an export tree, of at most 500 nodes, cannot reach MaxDepth).
//
// The brackets of a tree are counted the same way, as written: the ROOT
// bracket, one for each node and one for each word, so a bracketed tree
// whose outermost bracket is a phrase has one more than it is read with,
// and a TIGER-XML tree has one <nt> more when its graph has no virtual
// root. Its edges are counted as the TIGER-XML and export writers write
// them: one to each word and node (an <edge> of its parent's <nt>; the
// edge and parent columns of its export line) and its secondary edges. A
// bracketed tree has no secondary edges, and an export tree (at most
// MaxTokens words and 500 nodes) has far fewer brackets than MaxBrackets.
//
// The writers refuse a tree past one of these limits as they would write
// it (more than MaxTokens words, MaxBrackets brackets or edges, MaxDepth
// levels, a line or a TIGER-XML tag of more than MaxLineBytes bytes): what
// they write reads back. A line is measured without its "\n", a tag (with
// its attributes, escaped) between its '<' and '>', as the readers do; the
// TIGER-XML writer writes no text but white space between tags, and its
// header declares no value longer than a tag of the body that holds it.
// The TIGER-XML corpus id, in the <corpus> tag, is refused by every Write
// and Flush.
const (
	// MaxLineBytes is the longest line of export, discbracket and
	// bracketed (PTB) input.
	MaxLineBytes = 1 << 20
	// MaxTokens is the most tokens (words and punctuation) of a sentence.
	MaxTokens = 10000
	// MaxBrackets is the most brackets of a discbracket or bracketed tree
	// (phrases and preterminals, counting the ROOT bracket written around
	// a phrase), and the most edges of a tree (counting an edge to each
	// word and node, and the secondary edges).
	MaxBrackets = 3 * MaxTokens
	// MaxDepth is the most levels of a tree (brackets nested in one
	// another, counting the ROOT bracket written around a phrase).
	MaxDepth = 1000
)

// limitText is how errors name a limit.
func limitText(what string, limit int) string {
	return fmt.Sprintf("more than %d %s (the readers' limit)", limit, what)
}

// checkLine refuses the line of b from offset from to the "\n" that ends
// b when it is longer than the readers take (MaxLineBytes bytes before the
// "\n"). It takes constant time, so a writer checks each line it appends.
func checkLine(b []byte, from int) error {
	if n := len(b) - from - 1; n > MaxLineBytes {
		return fmt.Errorf("a line of %d bytes: %s", n, limitText("bytes in a line", MaxLineBytes))
	}
	return nil
}

// checkTag refuses the TIGER-XML tag of b from its '<' at offset from to
// the ">\n" that ends b when it is longer than the reader takes: more than
// MaxLineBytes bytes between '<' and '>', which boundedXML counts. name
// ("<t>") names the tag in the error. It takes constant time.
func checkTag(b []byte, from int, name string) error {
	if n := len(b) - from - len("<>\n"); n > MaxLineBytes {
		return fmt.Errorf("the %s tag has %d bytes: %s", name, n, limitText("bytes between '<' and '>'", MaxLineBytes))
	}
	return nil
}

// depthLimitText is how errors name MaxDepth for a tree (rather than for
// the brackets of a line).
func depthLimitText() string {
	return limitText("levels nested in one another, counting the root and a word's preterminal", MaxDepth)
}

// tigerElemsLimitText is how errors name MaxBrackets for the <t> and <nt>
// elements of a TIGER-XML sentence.
func tigerElemsLimitText() string {
	return limitText("<t> and <nt> elements, counting the virtual root", MaxBrackets)
}

// tigerEdgesLimitText is how errors name MaxBrackets for the <edge> and
// <secedge> elements of a TIGER-XML sentence, as written.
func tigerEdgesLimitText() string {
	return limitText("<edge> and <secedge> elements, counting an <edge> to each <t> and <nt> below the root", MaxBrackets)
}

// exportEdgesLimitText is how errors name MaxBrackets for the edges of an
// export sentence.
func exportEdgesLimitText() string {
	return limitText("edges and secondary edges, counting the edge of each token and node", MaxBrackets)
}

// checkSize refuses a tree that format f would write past a readers'
// limit on its size: more than MaxTokens words, more than MaxBrackets
// brackets (Discbracket) or <t> and <nt> elements (TigerXML) counting the
// root, or more than MaxBrackets edges counting the secondary ones
// (TigerXML, Export). It takes time linear in the number of nodes and
// words. Depth is checked with the tree's layout (layout.checkDepth),
// export's 500 nodes by appendExport.
func checkSize(t *tree.Tree, f Format) error {
	words, nodes := len(t.Tokens), len(t.Nodes)
	if words > MaxTokens {
		return fmt.Errorf("%d tokens: %s", words, limitText("tokens", MaxTokens))
	}
	switch brackets := 1 + words + nodes; {
	case brackets <= MaxBrackets:
	case f == Discbracket:
		return fmt.Errorf("%d tokens and %d nodes, %d brackets with the ROOT bracket: %s", words, nodes, brackets, limitText("brackets in one tree", MaxBrackets))
	case f == TigerXML:
		return fmt.Errorf("%d tokens and %d nodes, %d <t> and <nt> elements with the virtual root: %s", words, nodes, brackets, tigerElemsLimitText())
	}
	if f == Discbracket { // secondary edges are not written
		return nil
	}
	sec := 0
	for i := range t.Tokens {
		sec += len(t.Tokens[i].Sec)
	}
	for i := range t.Nodes {
		sec += len(t.Nodes[i].Sec)
	}
	if edges := words + nodes + sec; edges > MaxBrackets {
		what := exportEdgesLimitText()
		if f == TigerXML {
			what = tigerEdgesLimitText()
		}
		return fmt.Errorf("%d tokens and %d nodes with %d secondary edges, %d edges: %s", words, nodes, sec, edges, what)
	}
	return nil
}
