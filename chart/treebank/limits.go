package treebank

import "fmt"

// Limits of what the readers accept, far above any real treebank (the
// Alpino trees of shared/data have at most 135 words, 227 brackets, a
// depth of 24 and 2,242 bytes a line). They bound the memory that one
// line or one sentence of an input can make a reader spend, whatever the
// input: a longer line is not held in memory beyond MaxLineBytes, and a
// tree past a limit is refused (an *Error naming its line) and only
// counted to its end.
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
