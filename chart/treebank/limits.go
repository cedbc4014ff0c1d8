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
// MaxDepth nesting (bracketed formats), MaxLineBytes a line (TIGER-XML: a
// tag with its attributes, a text, a comment or a CDATA section, which the
// XML decoder holds whole; a longer one ends the input, as an XML syntax
// error does). A bracketed
// (PTB) line past MaxLineBytes refuses each tree it is part of; its
// brackets are still followed, piece by piece, to find where they end.
const (
	// MaxLineBytes is the longest line of export, discbracket and
	// bracketed (PTB) input.
	MaxLineBytes = 1 << 20
	// MaxTokens is the most tokens (words and punctuation) of a sentence.
	MaxTokens = 10000
	// MaxBrackets is the most brackets of a discbracket or bracketed tree
	// (phrases and preterminals).
	MaxBrackets = 3 * MaxTokens
	// MaxDepth is the deepest nesting of brackets of a tree.
	MaxDepth = 1000
)

// limitText is how errors name a limit.
func limitText(what string, limit int) string {
	return fmt.Sprintf("more than %d %s (the readers' limit)", limit, what)
}
