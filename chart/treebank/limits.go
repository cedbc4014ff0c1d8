package treebank

import "fmt"

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
// (TIGER-XML: <t> and <nt> elements; also <edge> and <secedge> elements),
// MaxDepth levels of nesting, MaxLineBytes a line (TIGER-XML: a
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
// root; an export tree, of at most 500 nodes, cannot reach MaxDepth). The writers refuse a tree deeper than MaxDepth, as they refuse
// one of more than MaxTokens words: what they write reads back.
const (
	// MaxLineBytes is the longest line of export, discbracket and
	// bracketed (PTB) input.
	MaxLineBytes = 1 << 20
	// MaxTokens is the most tokens (words and punctuation) of a sentence.
	MaxTokens = 10000
	// MaxBrackets is the most brackets of a discbracket or bracketed tree
	// (phrases and preterminals).
	MaxBrackets = 3 * MaxTokens
	// MaxDepth is the most levels of a tree (brackets nested in one
	// another, counting the ROOT bracket written around a phrase).
	MaxDepth = 1000
)

// limitText is how errors name a limit.
func limitText(what string, limit int) string {
	return fmt.Sprintf("more than %d %s (the readers' limit)", limit, what)
}

// depthLimitText is how errors name MaxDepth for a tree (rather than for
// the brackets of a line).
func depthLimitText() string {
	return limitText("levels nested in one another, counting the root and a word's preterminal", MaxDepth)
}
