package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// maxLineErrors caps the errors ReadLinesRefusing lists.
const maxLineErrors = 10

// LineErrors lists the lines of a text input that cannot be parsed, each
// as "name:line:col: what", capped at ten (then "and N more").
type LineErrors struct {
	List  []string
	Total int
}

func (e *LineErrors) Error() string {
	s := strings.Join(e.List, "\n")
	if more := e.Total - len(e.List); more > 0 {
		s += fmt.Sprintf("\n(and %d more lines)", more)
	}
	return s
}

func (e *LineErrors) add(msg string) {
	if e.Total++; len(e.List) < maxLineErrors {
		e.List = append(e.List, msg)
	}
}

// ReadLinesRefusing reads a text of one sentence a line and returns the
// words of each line, split by split, one entry per line: a blank line
// gives an entry with no words, so that the output keeps one line per
// input line. A line holding invalid UTF-8, a NUL byte or another control
// character than tab, or no words at all although it is not blank, is
// refused: it gets an entry with no words too and is listed in refused
// (up to ten, named name:line:col); err is for reading failures only.
// Lines may hold up to 16 MiB.
func ReadLinesRefusing(r io.Reader, name string, split func(string) []string) (sents [][]string, refused *LineErrors, err error) {
	refused = &LineErrors{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for line := 1; sc.Scan(); line++ {
		raw := sc.Text()
		if col, what := badText(raw); what != "" {
			refused.add(fmt.Sprintf("%s:%d:%d: %s: a treebank file cannot hold it", name, line, col, what))
			sents = append(sents, nil)
			continue
		}
		text := strings.TrimSpace(raw)
		if text == "" {
			sents = append(sents, nil)
			continue
		}
		words := split(text)
		if len(words) == 0 {
			refused.add(fmt.Sprintf("%s:%d: no words", name, line))
		}
		sents = append(sents, words)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return sents, refused, nil
}

// badText returns the column (in bytes, from 1) and a description of the
// first invalid UTF-8 sequence, NUL byte or control character other than
// tab and carriage return in s; what is empty when there is none.
func badText(s string) (col int, what string) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return i + 1, fmt.Sprintf("invalid UTF-8 (byte %#02x)", s[i])
		case r == 0:
			return i + 1, "NUL byte"
		case (r < ' ' && r != '\t' && r != '\r') || r == 0x7f:
			return i + 1, fmt.Sprintf("control character U+%04X", r)
		}
	}
	return 0, ""
}
