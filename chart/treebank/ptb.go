package treebank

import (
	"io"

	"github.com/discspan/discspan/chart/tree"
)

// ptbReader reads Penn Treebank style bracketed trees, which may span
// several lines and share lines.
type ptbReader struct {
	name     string
	lr       *lineReader
	p        bracketParser
	line     []byte // the current line (valid until the next lr.next)
	pos      int    // position in line
	lineNo   int
	n        int  // number of trees seen
	skipping bool // after text outside brackets: skip to the next "("
}

func newPTBReader(r io.Reader, name string) *ptbReader {
	return &ptbReader{name: name, lr: newLineReader(r), p: bracketParser{name: name}}
}

// next returns the next tree, an *Error for a malformed one (the next call
// goes on after it), a read error, or io.EOF.
func (r *ptbReader) next() (*tree.Tree, error) {
	p := &r.p
	for {
		kind, start, end := scan(r.line, r.pos)
		r.pos = end
		col := start + 1
		switch kind {
		case tokNone:
			line, ok := r.lr.next()
			if !ok {
				if err := r.lr.ioErr(); err != nil {
					return nil, err
				}
				if p.depth() > 0 {
					open := p.brs[p.stack[0]]
					p.reset()
					return nil, errorf(r.name, open.line, open.col, "'(' not closed at the end of the input")
				}
				return nil, io.EOF
			}
			r.line, r.pos, r.lineNo = line, 0, r.lr.line
			if r.lr.tooLong() {
				// Drop the line and the tree it is part of.
				r.line = nil
				p.reset()
				r.skipping = true
				return nil, r.lr.longLine(r.name)
			}
			if err := checkUTF8(r.name, r.lineNo, line); err != nil {
				// Drop the line and the tree it is part of.
				r.line = nil
				p.reset()
				r.skipping = true
				return nil, err
			}
		case tokOpen:
			if p.depth() == 0 {
				p.reset()
				r.skipping = false
			}
			p.open(r.lineNo, col)
		case tokClose:
			if p.depth() == 0 {
				if !r.skipping {
					r.skipping = true
					return nil, errorf(r.name, r.lineNo, col, "unbalanced ')'")
				}
				continue
			}
			if p.close() {
				r.n++
				t, err := p.build(orderedLeaves, r.n)
				if err != nil {
					return nil, err
				}
				return t, nil
			}
		case tokAtom:
			if p.depth() == 0 {
				if !r.skipping {
					r.skipping = true
					return nil, errorf(r.name, r.lineNo, col, "%q outside brackets", clip(r.line[start:end]))
				}
				continue
			}
			p.atom(r.line[start:end], r.lineNo, col)
		}
	}
}
