package treebank

import (
	"io"

	"github.com/discspan/discspan/chart/tree"
)

// ptbReader reads Penn Treebank style bracketed trees, which may span
// several lines and share lines.
//
// A line that cannot be read as text (longer than MaxLineBytes, or not
// UTF-8) refuses every tree it is part of, but its brackets are still
// followed (a long line piece by piece, none of it held), so that reading
// goes on after the end of those trees and each refused tree gives one
// error.
type ptbReader struct {
	name     string
	lr       *lineReader
	p        bracketParser
	line     []byte // the current line or piece of a long line (valid until the next lr call)
	pos      int    // position in line
	colBase  int    // column of line[0] minus 1 (the pieces of a long line)
	lineNo   int
	lineErr  *Error // why the current line refuses its trees, or nil
	n        int    // number of trees seen
	skipping bool   // after text outside brackets: skip to the next "("
	start    int    // line of the open bracket of the tree being read or last returned
}

// startLine returns the line where the last tree returned began.
func (r *ptbReader) startLine() int { return r.start }

func newPTBReader(r io.Reader, name string) *ptbReader {
	lr := newLineReader(r)
	lr.pieces = true
	return &ptbReader{name: name, lr: lr, p: bracketParser{name: name}}
}

// next returns the next tree, an *Error for a malformed one (the next call
// goes on after it), a read error, or io.EOF.
func (r *ptbReader) next() (*tree.Tree, error) {
	p := &r.p
	for {
		kind, start, end := scan(r.line, r.pos)
		r.pos = end
		col := r.colBase + start + 1
		switch kind {
		case tokNone:
			if piece, ok := r.lr.piece(); ok {
				r.colBase += len(r.line)
				r.line, r.pos = piece, 0
				continue
			}
			line, ok := r.lr.next()
			if !ok {
				if err := r.lr.ioErr(); err != nil {
					return nil, err
				}
				if e := p.err; p.depth() > 0 && e != nil {
					p.reset()
					return nil, treeError(e)
				}
				if p.depth() > 0 {
					open := p.brs[p.stack[0]]
					p.reset()
					return nil, treeError(errorf(r.name, open.line, open.col, "'(' not closed at the end of the input"))
				}
				return nil, io.EOF
			}
			r.line, r.pos, r.colBase, r.lineNo = line, 0, 0, r.lr.line
			r.lineErr = nil
			if r.lr.tooLong() {
				r.lineErr = r.lr.longLine(r.name)
			} else if err := checkLineBytes(r.name, r.lineNo, line); err != nil {
				r.lineErr = err
			}
			if r.lineErr != nil && p.depth() > 0 {
				p.refuse(r.lineErr)
			}
		case tokOpen:
			if p.depth() == 0 {
				p.reset()
				r.start = r.lineNo
				r.skipping = false
				if r.lineErr != nil {
					p.refuse(r.lineErr)
				}
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
					return nil, treeError(err)
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
