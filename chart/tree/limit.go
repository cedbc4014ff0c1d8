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
// limit max: 0 means DefaultMaxWords, a negative max means no limit.
func CheckLength(n, max int) error {
	if max == 0 {
		max = DefaultMaxWords
	}
	if max > 0 && n > max {
		return &LengthError{Words: n, Max: max}
	}
	return nil
}
