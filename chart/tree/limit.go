package tree

import "fmt"

// DefaultMaxWords is the longest sentence, in words, that the commands, the
// server and training accept unless told otherwise (--max-words): more than
// twice the longest sentence of the Alpino treebanks (135 words), and short
// enough that the network and the charts of one sentence stay far below a
// gigabyte. Longer input is refused before anything of its size is
// allocated.
const DefaultMaxWords = 300

// LengthError is the error of a sentence longer than the word limit.
type LengthError struct {
	Words, Max int
}

func (e *LengthError) Error() string {
	return fmt.Sprintf("sentence of %d words: longer than the limit of %d words (--max-words)", e.Words, e.Max)
}

// CheckLength returns a *LengthError when a sentence of n words exceeds the
// limit: 0 means DefaultMaxWords, a negative limit means none.
func CheckLength(n, limit int) error {
	if limit == 0 {
		limit = DefaultMaxWords
	}
	if limit > 0 && n > limit {
		return &LengthError{Words: n, Max: limit}
	}
	return nil
}
