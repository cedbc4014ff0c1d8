package treebank

import (
	"errors"
	"fmt"
	"io"

	"github.com/discspan/discspan/chart/tree"
)

// Reader reads trees one at a time.
type Reader struct {
	name    string
	next    func() (*tree.Tree, error)
	version func() int
	line    func() int
	start   func() int
}

// NewReader returns a Reader of trees in format f from r. name is used in
// error messages (normally the file name).
func NewReader(r io.Reader, name string, f Format) *Reader {
	switch f {
	case Export:
		x := newExportReader(r, name)
		return &Reader{name: name, next: x.next, version: x.versionSeen, line: x.lr.lineNo, start: x.startLine}
	case Discbracket:
		d := newDiscReader(r, name)
		return &Reader{name: name, next: d.next, line: d.lr.lineNo, start: d.lr.lineNo}
	case PTB:
		p := newPTBReader(r, name)
		return &Reader{name: name, next: p.next, line: p.lr.lineNo, start: p.startLine}
	case TigerXML:
		return &Reader{name: name, next: newTigerReader(r, name).next}
	}
	err := fmt.Errorf("treebank: %s: cannot read format %v", name, f)
	return &Reader{name: name, next: func() (*tree.Tree, error) { return nil, err }}
}

// Next returns the next tree. At the end of the input it returns io.EOF. A
// malformed sentence gives an *Error (with file name and line), and the
// following call goes on with the next sentence, unless the error's
// Stopped is set: then the input after it is not read, and the following
// call returns io.EOF. Any other error (from the underlying reader) is
// final and is returned again by later calls.
func (r *Reader) Next() (*tree.Tree, error) {
	return r.next()
}

// Name returns the name given to NewReader (normally the file name).
func (r *Reader) Name() string { return r.name }

// Line returns the number (1-based) of the last line read: after Next has
// returned a tree, the tree's last line (its #EOS line in export, its line
// in discbracket). It is 0 for TIGER-XML, whose reader counts no lines.
func (r *Reader) Line() int {
	if r.line == nil {
		return 0
	}
	return r.line()
}

// StartLine returns the number (1-based) of the line where the tree last
// returned by Next began: its #BOS line in export, the line of its opening
// bracket in PTB, its line in discbracket. This is the line that names a
// tree to a person (two trees of one id are told apart by it). It is 0
// before the first tree and for TIGER-XML, whose reader counts no lines.
func (r *Reader) StartLine() int {
	if r.start == nil {
		return 0
	}
	return r.start()
}

// ExportVersion returns the export format version (3 or 4) that the Reader
// has seen, from a #FORMAT line or from the number of fields of the lines
// read so far; 0 if not known yet or if the format is not Export.
func (r *Reader) ExportVersion() int {
	if r.version == nil {
		return 0
	}
	return r.version()
}

// ReadAll reads all trees of format f from r. name is used in error messages.
//
// Parse errors do not stop reading at once: a malformed sentence is skipped
// and reported, and reading stops after 10 errors. The error is then an
// ErrorList of *Error values ("name:line: message" or
// "name:line:column: message"); the trees returned are those read without
// error, so a caller may go on leniently, but one that needs all of the
// data must check the error. A read error from r stops reading; it is
// returned wrapped, with the name.
func ReadAll(r io.Reader, name string, f Format) ([]*tree.Tree, error) {
	if f != Export && f != Discbracket && f != PTB && f != TigerXML {
		return nil, fmt.Errorf("treebank: %s: cannot read format %v", name, f)
	}
	var trees []*tree.Tree
	err := NewReader(r, name, f).Each(func(t *tree.Tree) error {
		trees = append(trees, t)
		return nil
	})
	return trees, err
}

// Each calls fn with each tree read, in order, to the end of the input,
// with ReadAll's treatment of errors: a malformed sentence is skipped and
// reading goes on, until 10 of them stop it; the error returned is then an
// ErrorList (the trees given to fn are those read without error). A read
// error of the underlying reader stops reading and is returned wrapped,
// with the name. An error of fn stops reading and is returned as it is.
func (r *Reader) Each(fn func(*tree.Tree) error) error {
	return r.each(nil, fn)
}

// Rest reads the rest of the input, as Each does, and returns the number of
// trees read. first, when not nil, is a parse error that Next has just
// returned: it heads the list of errors.
func (r *Reader) Rest(first *Error) (int, error) {
	var errs ErrorList
	if first != nil {
		errs = ErrorList{first}
	}
	n := 0
	err := r.each(errs, func(*tree.Tree) error { n++; return nil })
	return n, err
}

func (r *Reader) each(errs ErrorList, fn func(*tree.Tree) error) error {
	if len(errs) >= maxErrors {
		return errs
	}
	for {
		t, err := r.Next()
		if err == nil {
			if err := fn(t); err != nil {
				return err
			}
			continue
		}
		if err == io.EOF {
			return errs.Err()
		}
		var e *Error
		if !errors.As(err, &e) {
			return fmt.Errorf("treebank: reading %s: %w", r.name, err)
		}
		errs = append(errs, e)
		if len(errs) >= maxErrors {
			errs = append(errs, &Error{Name: r.name, Line: e.Line, Msg: "too many errors"})
			return errs
		}
	}
}

// ReadExport reads a NEGRA export file (format 3 or 4). The version comes
// from a "#FORMAT 3|4" line or else from the number of fields of the first
// token or node line (export 4 has a lemma column: 6 fields plus 2 per
// secondary edge; export 3 has 5 plus 2 per secondary edge). See ReadAll
// for errors, and the package documentation for the conventions.
func ReadExport(r io.Reader, name string) ([]*tree.Tree, error) {
	return ReadAll(r, name, Export)
}

// ReadDiscbracket reads a discbracket file: one tree per line, blank lines
// skipped. See ReadAll for errors, and the package documentation for the
// conventions.
func ReadDiscbracket(r io.Reader, name string) ([]*tree.Tree, error) {
	return ReadAll(r, name, Discbracket)
}

// ReadPTB reads Penn Treebank style bracketed trees. See ReadAll for
// errors, and the package documentation for the conventions.
func ReadPTB(r io.Reader, name string) ([]*tree.Tree, error) {
	return ReadAll(r, name, PTB)
}
