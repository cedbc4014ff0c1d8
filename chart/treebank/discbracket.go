package treebank

import (
	"bytes"
	"io"

	"github.com/discspan/discspan/chart/tree"
)

// discReader reads discbracket trees, one per line.
type discReader struct {
	name string
	lr   *lineReader
	p    bracketParser
	n    int // number of trees (non-blank lines) seen
}

func newDiscReader(r io.Reader, name string) *discReader {
	lr := newLineReader(r)
	lr.pieces = true // to tell a long blank line (skipped) from a long tree
	return &discReader{name: name, lr: lr, p: bracketParser{name: name}}
}

// next returns the tree of the next non-blank line, an *Error for a
// malformed line (the next call goes on with the following line), a read
// error, or io.EOF.
func (d *discReader) next() (*tree.Tree, error) {
	for {
		line, ok := d.lr.next()
		if !ok {
			if err := d.lr.ioErr(); err != nil {
				return nil, err
			}
			return nil, io.EOF
		}
		if d.lr.tooLong() {
			blank := isBlank(line)
			for blank {
				piece, ok := d.lr.piece()
				if !ok {
					break
				}
				blank = isBlank(piece)
			}
			if blank {
				continue
			}
			d.n++
			return nil, treeError(d.lr.longLine(d.name))
		}
		if isBlank(line) {
			continue
		}
		d.n++
		text, comment := line, []byte(nil)
		if i := bytes.IndexByte(line, '\t'); i >= 0 {
			text, comment = line[:i], line[i+1:]
		}
		t, err := d.parseLine(text, d.lr.line)
		if err != nil {
			return nil, treeError(err)
		}
		if err := checkLineBytes(d.name, d.lr.line, line); err != nil {
			return nil, treeError(err)
		}
		t.BOSExtra = string(comment)
		return t, nil
	}
}

// parseLine parses the tree text of one line.
func (d *discReader) parseLine(b []byte, lineNo int) (*tree.Tree, *Error) {
	p := &d.p
	p.reset()
	done := false
	for pos := 0; ; {
		kind, start, end := scan(b, pos)
		col := start + 1
		pos = end
		if kind == tokNone {
			break
		}
		if done {
			return nil, errorf(d.name, lineNo, col, "text after the end of the tree (one tree per line; a comment follows a TAB)")
		}
		switch kind {
		case tokOpen:
			p.open(lineNo, col)
		case tokClose:
			if p.depth() == 0 {
				return nil, errorf(d.name, lineNo, col, "unbalanced ')'")
			}
			done = p.close()
		case tokAtom:
			if p.depth() == 0 {
				return nil, errorf(d.name, lineNo, col, "%q outside brackets: want a tree such as (ROOT (NN 0=word))", clipStr(string(b[start:end])))
			}
			p.atom(b[start:end], lineNo, col)
		}
	}
	switch {
	case p.err != nil:
		return nil, p.err // the first error of the line
	case p.depth() > 0:
		open := p.brs[p.stack[len(p.stack)-1]]
		return nil, errorf(d.name, lineNo, len(b)+1, "unbalanced brackets: %d '(' not closed at the end of the line (the innermost at column %d)", p.depth(), open.col)
	case !done:
		return nil, errorf(d.name, lineNo, 1, "no tree before the TAB")
	}
	return p.build(indexedLeaves, d.n)
}
