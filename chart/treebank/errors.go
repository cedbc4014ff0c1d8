package treebank

import (
	"errors"
	"fmt"
	"strings"
)

// maxErrors is the number of parse errors after which the Read functions
// stop reading and append a final "too many errors" entry.
const maxErrors = 10

// Error is a parse error at a position of a named input.
type Error struct {
	Name string // the name given to the reader, normally the file name
	Line int    // 1-based line number; 0 when unknown
	Col  int    // 1-based byte column; 0 when not meaningful
	Msg  string // what is wrong
	// Tree says that the error stands for one tree (sentence) of the
	// input, which was refused; it is false for text between trees that
	// holds none (a stray line or bracket, a header, a broken XML
	// prologue). A caller that keeps one output per input tree keeps a
	// place for each error with Tree set.
	Tree bool
	// Stopped says that reading stopped at the error: nothing after it
	// was read, and the next call of Reader.Next returns io.EOF. The
	// TIGER-XML reader stops at an XML syntax error, which the XML
	// decoder cannot go on after, and at a file that is not TIGER-XML.
	Stopped bool
}

// Error formats the error as "name:line:col: msg", leaving out the column
// (and the line) when it is zero.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Name)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ErrorList is a list of parse errors in input order, like go/scanner's.
// The Read functions return one (as an error) when a sentence could not be
// read; it holds at most maxErrors+1 entries.
type ErrorList []*Error

// Error returns the first error, followed by the number of further errors.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	case 2:
		return fmt.Sprintf("%s (and 1 more error)", l[0])
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors of the list, so that errors.As finds an *Error.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// treeError marks err, if it is an *Error, as standing for a refused tree
// and returns it.
func treeError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		e.Tree = true
	}
	return err
}

// stopError marks e as the error that reading stopped at (see
// Error.Stopped) and returns it.
func stopError(e *Error) *Error {
	e.Stopped = true
	return e
}

// errorf returns an *Error at the given position.
func errorf(name string, line, col int, format string, args ...any) *Error {
	return &Error{Name: name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
