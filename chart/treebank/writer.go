package treebank

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/discspan/discspan/chart/tree"
)

// Writer writes trees one at a time. Call Flush at the end.
type Writer struct {
	w       *bufio.Writer
	format  Format
	version int // export version
	n       int // trees written
	header  bool
	buf     []byte
}

// NewWriter returns a Writer of format f (Export writes version 4; see
// NewExportWriter) to w.
func NewWriter(w io.Writer, f Format) *Writer {
	return &Writer{w: bufio.NewWriter(w), format: f, version: 4}
}

// NewExportWriter returns a Writer of export format version 3 or 4 to w.
// Version 3 has no lemma column, so lemmas are not written.
func NewExportWriter(w io.Writer, version int) *Writer {
	return &Writer{w: bufio.NewWriter(w), format: Export, version: version}
}

// Write writes one tree. An error names the tree (its number, from 1, and
// its id) and what cannot be written; nothing of that tree is written then.
//
// Export: the file starts with a "%%" comment naming the columns; empty
// fields are written "--"; an empty ID is written as the number of the
// tree. Discbracket: see the package documentation.
func (w *Writer) Write(t *tree.Tree) error {
	if err := w.check(); err != nil {
		return err
	}
	var err error
	switch w.format {
	case Export:
		w.writeHeader()
		w.buf, err = appendExport(w.buf[:0], t, w.version, strconv.Itoa(w.n+1))
	case Discbracket:
		w.buf, err = appendDiscbracket(w.buf[:0], t)
	}
	w.n++
	if err != nil {
		return fmt.Errorf("treebank: write %v: tree %d (id %q): %w", w.format, w.n, t.ID, err)
	}
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("treebank: write %v: %w", w.format, err)
	}
	return nil
}

// check reports a format or version that cannot be written.
func (w *Writer) check() error {
	switch {
	case w.format != Export && w.format != Discbracket:
		return fmt.Errorf("treebank: cannot write format %v", w.format)
	case w.format == Export && w.version != 3 && w.version != 4:
		return fmt.Errorf("treebank: export format version %d: want 3 or 4", w.version)
	}
	return nil
}

// writeHeader writes the export column comment once.
func (w *Writer) writeHeader() {
	if w.format == Export && !w.header {
		w.header = true
		w.w.WriteString(exportHeader(w.version)) // errors are kept by bufio
	}
}

// Flush writes buffered data to the underlying writer. An export file gets
// its header even when no tree was written.
func (w *Writer) Flush() error {
	if err := w.check(); err != nil {
		return err
	}
	w.writeHeader()
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("treebank: write %v: %w", w.format, err)
	}
	return nil
}

// Write writes trees in format f (Export: version 4) to w.
func Write(w io.Writer, trees []*tree.Tree, f Format) error {
	return writeAll(NewWriter(w, f), trees)
}

// WriteExport writes trees in export format version 3 or 4 to w: a "%%"
// column comment, then one #BOS ... #EOS block per tree, fields separated
// by single TABs. Node numbers are kept when they are valid (distinct, in
// 500..999) and otherwise assigned in post-order (children before parents,
// siblings by leftmost word), as disco-dop does.
func WriteExport(w io.Writer, trees []*tree.Tree, version int) error {
	return writeAll(NewExportWriter(w, version), trees)
}

// WriteDiscbracket writes trees in discbracket format to w, one per line.
func WriteDiscbracket(w io.Writer, trees []*tree.Tree) error {
	return writeAll(NewWriter(w, Discbracket), trees)
}

func writeAll(w *Writer, trees []*tree.Tree) error {
	for _, t := range trees {
		if err := w.Write(t); err != nil {
			return err
		}
	}
	return w.Flush()
}
