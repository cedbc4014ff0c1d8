package treebank

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"
)

// bom is the UTF-8 byte order mark, which some editors write at the start of
// a file; the readers skip it.
var bom = []byte("\xEF\xBB\xBF")

// lineReader returns the lines of an input one at a time, counting them.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte // holds lines longer than the bufio buffer
	line int    // number of the line last returned (1-based)
	err  error  // io.EOF or the read error that ended the input
	long bool   // the line last returned was longer than MaxLineBytes

	// pieces: the rest of a long line is not dropped but returned by
	// piece; inLong says that some of it is still unread, and pending
	// holds a part already taken from br (valid until br is read again).
	pieces  bool
	inLong  bool
	pending []byte
	pendErr error // the read error met with pending, reported after it
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(&loneCRReader{r: r}, 64<<10)}
}

// loneCRReader passes its input on with each "\r" that no "\n" follows
// turned into "\n": the line ends of files saved with old Mac line ends
// (and of a file whose line ends are mixed) end lines, as "\n" and "\r\n"
// do, instead of making the whole file one line. "a\r\r\nb" is then two
// lines and a blank one between them, as the text readers of internal/cli
// read it.
type loneCRReader struct {
	r      io.Reader
	in     [4 << 10]byte
	buf    [4<<10 + 1]byte // holds out: a read of in gives at most one byte more
	out    []byte          // translated bytes not yet returned
	heldCR bool            // the last byte read was "\r": what follows decides
	err    error           // the error that ended r, returned once out is empty
}

func (c *loneCRReader) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			if c.heldCR { // a "\r" at the very end ends its line
				c.heldCR = false
				c.out = append(c.buf[:0], '\n')
				break
			}
			return 0, c.err
		}
		n, err := c.r.Read(c.in[:])
		out := c.buf[:0]
		for _, b := range c.in[:n] {
			if c.heldCR {
				c.heldCR = false
				if b == '\n' {
					out = append(out, '\r')
				} else {
					out = append(out, '\n')
				}
			}
			if b == '\r' {
				c.heldCR = true
				continue
			}
			out = append(out, b)
		}
		c.out, c.err = out, err
		if n == 0 && err == nil {
			return 0, nil // as r did
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// rawLimit is the most bytes of a line held: MaxLineBytes and a "\r\n"
// (and a byte order mark on the first line). A line ending in more than
// one "\r" may be taken for too long a little before MaxLineBytes.
const rawLimit = MaxLineBytes + 2

// next returns the next line without its "\n" ending and without trailing
// "\r" characters, and without a byte order mark at the start of the input.
// The slice is valid until the next call. ok is false at the
// end of the input or after a read error; see ioErr. A line longer than
// MaxLineBytes is read to its end but only its first MaxLineBytes bytes
// are kept and returned; tooLong then reports it. In pieces mode the rest
// of such a line is not dropped but returned by piece.
func (l *lineReader) next() (line []byte, ok bool) {
	for l.inLong {
		l.piece()
	}
	if l.err != nil {
		return nil, false
	}
	l.long = false
	limit := rawLimit
	if l.line == 0 {
		limit += len(bom)
	}
	b, err := l.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		l.buf = append(l.buf[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = l.br.ReadSlice('\n')
			if keep := limit - len(l.buf); keep < len(b) {
				l.long = true
				keep = max(keep, 0)
				if l.pieces {
					l.buf = append(l.buf, b[:keep]...)
					l.pending, l.inLong = b[keep:], true
					if !errors.Is(err, bufio.ErrBufferFull) {
						l.pendErr = err // nil when pending holds the "\n"
					}
					break
				}
				b = b[:keep]
			}
			l.buf = append(l.buf, b...)
		}
		b = l.buf
	}
	if err != nil && !l.inLong {
		l.err = err
		if len(b) == 0 || err != io.EOF {
			return nil, false
		}
	}
	l.line++
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	// The end of a line, not of its first part (the columns of the
	// pieces that follow count from there).
	for n := len(b); n > 0 && b[n-1] == '\r' && !l.inLong; n-- {
		b = b[:n-1]
	}
	if l.line == 1 {
		b = bytes.TrimPrefix(b, bom)
	}
	if len(b) > MaxLineBytes {
		l.long = true
		if !l.pieces {
			b = b[:MaxLineBytes]
		}
	}
	return b, true
}

// piece returns the next part of the rest of the long line last returned
// by next, in pieces mode, with its "\n" ending removed; ok is false when
// the line has no more.
func (l *lineReader) piece() (part []byte, ok bool) {
	if !l.inLong {
		return nil, false
	}
	if p := l.pending; len(p) > 0 {
		l.pending = nil
		switch {
		case p[len(p)-1] == '\n':
			l.inLong = false
			p = p[:len(p)-1]
		case l.pendErr != nil: // the input ended (or failed) within the line
			l.inLong, l.err, l.pendErr = false, l.pendErr, nil
		}
		return p, true
	}
	b, err := l.br.ReadSlice('\n')
	if err == nil {
		l.inLong = false
		b = b[:len(b)-1]
	} else if !errors.Is(err, bufio.ErrBufferFull) {
		l.inLong, l.err = false, err
	}
	return b, len(b) > 0 || l.inLong
}

// tooLong reports whether the line last returned was cut at MaxLineBytes.
func (l *lineReader) tooLong() bool { return l.long }

// longLine is the error of a line longer than MaxLineBytes.
func (l *lineReader) longLine(name string) *Error {
	return errorf(name, l.line, 0, "the line is longer than %d bytes (the readers' limit)", MaxLineBytes)
}

// lineNo returns the number of the line last returned.
func (l *lineReader) lineNo() int { return l.line }

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

// checkLineBytes returns an *Error naming the line and byte column of the
// first byte of b that is not valid UTF-8, or of its first NUL byte, or
// nil when b has neither. Words, tags and labels become strings that the
// network's vocabulary splits into characters, and the writers refuse
// both (see checkText), so the readers refuse them instead of passing on
// a tree that could not be written back.
func checkLineBytes(name string, lineNo int, b []byte) *Error {
	nul := bytes.IndexByte(b, 0)
	if utf8.Valid(b) {
		if nul >= 0 {
			return errorf(name, lineNo, nul+1, "NUL byte: the treebank must be text")
		}
		return nil
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if nul >= 0 && nul < i {
				return errorf(name, lineNo, nul+1, "NUL byte: the treebank must be text")
			}
			return errorf(name, lineNo, i+1, "invalid UTF-8 (byte 0x%02x): the treebank must be UTF-8 text", b[i])
		}
		i += size
	}
	return nil
}
