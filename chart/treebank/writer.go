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
	tiger   *tigerWriter // TigerXML: the document being collected
	ptb     bool         // discbracket: parentheses as -LRB- and -RRB-
}

// NewWriter returns a Writer of format f (Export writes version 4; see
// NewExportWriter; TigerXML: see NewTigerXMLWriter, with corpus id
// "corpus") to w.
func NewWriter(w io.Writer, f Format) *Writer {
	if f == TigerXML {
		return NewTigerXMLWriter(w, "corpus")
	}
	return &Writer{w: bufio.NewWriter(w), format: f, version: 4}
}

// NewTigerXMLWriter returns a Writer of TIGER-XML to w, with the given
// corpus id. The header of a TIGER-XML file declares the values used in its
// body, so the Writer keeps the sentences (as text) until Flush, which
// writes the whole document; it takes no more trees after that. Beyond
// 32 MiB the sentences are kept in a temporary file (in os.TempDir, removed
// at once where the system allows, else by Flush), so memory does not grow
// with the document; where no such file can be made they stay in memory.
func NewTigerXMLWriter(w io.Writer, corpusID string) *Writer {
	return &Writer{w: bufio.NewWriter(w), format: TigerXML, tiger: newTigerWriter(corpusID)}
}

// NewExportWriter returns a Writer of export format version 3 or 4 to w.
// Version 3 has no lemma column, so lemmas are not written.
func NewExportWriter(w io.Writer, version int) *Writer {
	return &Writer{w: bufio.NewWriter(w), format: Export, version: version}
}

// WriteError is the error of a tree the format cannot hold (in export, a
// word "#BOS" or "#501", which would read back as something else); nothing
// of the tree was written, and the Writer takes more trees.
type WriteError struct {
	Format Format
	N      int    // the tree's number among those written, from 1
	ID     string // the tree's id
	Err    error  // what cannot be written
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("treebank: write %v: tree %d (id %q): %v", e.Format, e.N, clipStr(e.ID), e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// Write writes one tree. A tree the format cannot hold gives a
// *WriteError, which names the tree (its number, from 1, and its id) and
// what cannot be written; nothing of that tree is written then.
//
// Export: the file starts with a "%%" comment naming the columns; empty
// fields are written "--"; an empty ID is written as the number of the
// tree. Discbracket: see the package documentation. TigerXML: see
// WriteTigerXML.
func (w *Writer) Write(t *tree.Tree) error {
	if err := w.check(); err != nil {
		return err
	}
	// What is written must read back: the readers take no larger tree.
	err := checkSize(t, w.format)
	switch {
	case err != nil:
	case w.format == Export:
		w.writeHeader()
		w.buf, err = appendExport(w.buf[:0], t, w.version, strconv.Itoa(w.n+1))
	case w.format == Discbracket:
		p := discoParens
		if w.ptb {
			p = ptbParens
		}
		if w.buf, err = appendDiscbracket(w.buf[:0], t, p); err == nil {
			err = checkLine(w.buf, 0)
		}
	case w.format == TigerXML:
		err = w.tiger.add(t, strconv.Itoa(w.n+1))
	}
	w.n++
	if err != nil {
		return &WriteError{Format: w.format, N: w.n, ID: t.ID, Err: err}
	}
	if w.format == TigerXML {
		return nil
	}
	if _, err := w.w.Write(w.buf); err != nil {
		return fmt.Errorf("treebank: write %v: %w", w.format, err)
	}
	return nil
}

// PTBParens makes a discbracket Writer write ( and ) in words, tags and
// labels as -LRB- and -RRB-, as the Alpino cdb discbracket files do,
// instead of disco-dop's #LRB# and #RRB#. The readers keep -LRB- as it is,
// so a word "(" then reads back as "-LRB-" (evaluation counts the two as
// equal). Other formats are not affected.
func (w *Writer) PTBParens() { w.ptb = true }

// Blank stands for a sentence left out, so that a discbracket file keeps
// one line per input line: it writes an empty line in discbracket (which
// readers skip) and nothing in the other formats, whose trees carry ids.
// It does not count as a tree.
func (w *Writer) Blank() error {
	if err := w.check(); err != nil {
		return err
	}
	if w.format != Discbracket {
		return nil
	}
	if err := w.w.WriteByte('\n'); err != nil {
		return fmt.Errorf("treebank: write %v: %w", w.format, err)
	}
	return nil
}

// check reports a format or version that cannot be written.
func (w *Writer) check() error {
	switch {
	case w.format != Export && w.format != Discbracket && w.format != TigerXML:
		return fmt.Errorf("treebank: cannot write format %v", w.format)
	case w.format == Export && w.version != 3 && w.version != 4:
		return fmt.Errorf("treebank: export format version %d: want 3 or 4", w.version)
	case w.format == TigerXML && w.tiger.finished:
		return fmt.Errorf("treebank: write %v: the document was completed by Flush", w.format)
	case w.format == TigerXML && w.tiger.idErr != nil:
		return w.tiger.idErr
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

// Discard frees what a Writer abandoned before Flush holds: a TIGER-XML
// body's temporary file. It does nothing after Flush, so a caller may
// defer it.
func (w *Writer) Discard() {
	if w.tiger != nil {
		w.tiger.spill.close()
	}
}

// FlushTrees writes the trees written so far to the underlying writer, so
// that a reader at the other end of a pipe gets them now. Unlike Flush it
// does not complete anything: a TigerXML document keeps its sentences
// until Flush, and an export file gets its header with its first tree.
func (w *Writer) FlushTrees() error {
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("treebank: write %v: %w", w.format, err)
	}
	return nil
}

// Flush writes buffered data to the underlying writer. An export file gets
// its header even when no tree was written. TigerXML: the first Flush
// writes the whole document (header, sentences, end tags); later ones
// only flush.
func (w *Writer) Flush() error {
	if done := w.format == TigerXML && w.tiger.finished; !done {
		if err := w.check(); err != nil {
			w.Discard()
			return err
		}
		if w.format == TigerXML {
			if err := w.tiger.finish(w.w); err != nil {
				return err
			}
		}
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
