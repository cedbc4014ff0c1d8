package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/discspan/discspan/chart/treebank"
)

// LineReader reads a text of one sentence a line, a line at a time.
// Lines end in "\n", "\r\n" or a lone "\r" (old Mac files); a byte order
// mark opening the text is dropped. A line holding invalid UTF-8, a NUL
// byte or another control character than tab, more than
// treebank.MaxLineBytes bytes (the readers' limit, so that what is written
// can be read back; the rest of such a line is skipped, not kept) is
// refused. A line split finds no words in (only spaces such as U+200B,
// which the tokenizer counts as white space) is blank.
type LineReader struct {
	sc    *bufio.Scanner
	lines *lineSplitter
	name  string
	split func(string) []string
	line  int
}

// NewLineReader returns a LineReader of r, named name in its messages,
// whose lines split cuts into words.
func NewLineReader(r io.Reader, name string, split func(string) []string) *LineReader {
	sc := bufio.NewScanner(r)
	lines := &lineSplitter{limit: treebank.MaxLineBytes}
	sc.Split(lines.split)
	sc.Buffer(make([]byte, 1<<16), 2*lines.limit+2)
	return &LineReader{sc: sc, lines: lines, name: name, split: split}
}

// Line is the number of the line Next returned last (from 1).
func (l *LineReader) Line() int { return l.line }

// Next returns the words of the next line: none for a blank line, none
// and why ("name:line:col: what") for a refused one; err is io.EOF after
// the last line, or a reading failure.
func (l *LineReader) Next() (words []string, why string, err error) {
	if !l.sc.Scan() {
		if err := l.sc.Err(); err != nil {
			return nil, "", fmt.Errorf("%s: %w", l.name, err)
		}
		return nil, "", io.EOF
	}
	l.line++
	raw := l.sc.Text()
	if l.line == 1 {
		raw = strings.TrimPrefix(raw, "\uFEFF")
	}
	if l.lines.long {
		return nil, fmt.Sprintf("%s:%d: line longer than %d bytes (the treebank readers' limit)", l.name, l.line, l.lines.limit), nil
	}
	if col, what := badText(raw); what != "" {
		return nil, fmt.Sprintf("%s:%d:%d: %s: a treebank file cannot hold it", l.name, l.line, col, what), nil
	}
	text := strings.TrimSpace(raw)
	if text == "" {
		return nil, "", nil
	}
	return l.split(text), "", nil // none: only spaces split knows (U+200B)
}

// lineSplitter is a bufio.SplitFunc (split) for lines ending in "\n",
// "\r\n" or "\r", which gives a line over limit bytes as an empty token
// with long set, skipping the rest of it without keeping it.
type lineSplitter struct {
	limit    int
	long     bool // the token returned last stands for a line over limit
	skipping bool // in the rest of a line over limit
}

func (l *lineSplitter) split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	l.long = false
	i := bytes.IndexAny(data, "\r\n")
	if i >= 0 && data[i] == '\r' && i+1 == len(data) && !atEOF {
		return 0, nil, nil // "\r" or "\r\n": wait for the next byte
	}
	end := i + 1 // past the line end
	if i >= 0 && data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
		end++
	}
	switch {
	case l.skipping && i < 0:
		return len(data), nil, nil
	case l.skipping:
		l.skipping = false
		return end, nil, nil
	case i > l.limit || (i < 0 && len(data) > l.limit):
		l.long, l.skipping = true, i < 0
		if i >= 0 {
			return end, []byte{}, nil
		}
		return len(data), []byte{}, nil
	case i >= 0:
		return end, data[:i], nil
	case atEOF && len(data) > 0:
		return len(data), data, nil
	}
	return 0, nil, nil
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
