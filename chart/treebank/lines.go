package treebank

import (
	"bufio"
	"errors"
	"io"
)

// lineReader returns the lines of an input one at a time, counting them.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte // holds lines longer than the bufio buffer
	line int    // number of the line last returned (1-based)
	err  error  // io.EOF or the read error that ended the input
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its "\n" ending and without trailing
// "\r" characters. The slice is valid until the next call. ok is false at the
// end of the input or after a read error; see ioErr.
func (l *lineReader) next() (line []byte, ok bool) {
	if l.err != nil {
		return nil, false
	}
	b, err := l.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		l.buf = append(l.buf[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = l.br.ReadSlice('\n')
			l.buf = append(l.buf, b...)
		}
		b = l.buf
	}
	if err != nil {
		l.err = err
		if len(b) == 0 || err != io.EOF {
			return nil, false
		}
	}
	l.line++
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	for n := len(b); n > 0 && b[n-1] == '\r'; n-- {
		b = b[:n-1]
	}
	return b, true
}

// ioErr returns the read error that ended the input, or nil at a clean end.
func (l *lineReader) ioErr() error {
	if l.err == io.EOF {
		return nil
	}
	return l.err
}

// isSpace reports whether c separates fields or tokens: ASCII white space.
func isSpace(c byte) bool {
	return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
}

// isBlank reports whether b holds nothing but white space.
func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}
