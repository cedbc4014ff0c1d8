package annotate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/bankfile"
)

// Progress reports how far an import has come.
type Progress struct {
	Sentences int   // sentences read so far
	Bytes     int64 // bytes read so far
	Total     int64 // size of the input; 0 when not known
}

// ImportOptions are the options of Import and ImportFile.
type ImportOptions struct {
	// Format of the input; Unknown means: from the file extension
	// (ImportFile only).
	Format treebank.Format
	// Status given to every imported sentence (Untouched for a treebank,
	// PreAnnotated for a parser's output).
	Status Status
	// Progress, when not nil, is called every ProgressEvery sentences and
	// once at the end.
	Progress func(Progress)
}

// ProgressEvery is the number of sentences between two Progress calls.
const ProgressEvery = 100

// maxImportErrors is the number of errors an ImportError lists; the
// others are counted.
const maxImportErrors = 10

// ImportError is Import's error for an input of which some parts could
// not be read: malformed sentences, left out of the corpus (which holds
// every other sentence), and text between sentences that holds none.
type ImportError struct {
	Name string
	// Sentences is the number of malformed sentences left out, Other the
	// number of other errors (stray text, a header).
	Sentences, Other int
	// First lists the first errors (at most 10), each naming its line.
	First treebank.ErrorList
	// Stopped, when not nil, is the error at which reading stopped (an
	// XML syntax error): nothing after it was read.
	Stopped *treebank.Error
}

func (e *ImportError) Error() string {
	var what []string
	if e.Sentences > 0 {
		what = append(what, fmt.Sprintf("%d malformed %s left out", e.Sentences, plural(e.Sentences, "sentence")))
	}
	if e.Other > 0 {
		what = append(what, fmt.Sprintf("%d other %s", e.Other, plural(e.Other, "error")))
	}
	first := ""
	if len(e.First) > 0 {
		first = "; first: " + e.First[0].Error()
	}
	stopped := ""
	if e.Stopped != nil {
		stopped = fmt.Sprintf("; reading stopped at line %d (%s): the sentences after it were not read", e.Stopped.Line, e.Stopped.Msg)
	}
	return fmt.Sprintf("%s: %s%s%s", e.Name, strings.Join(what, " and "), first, stopped)
}

// Unwrap returns the listed errors, so that errors.As finds a
// treebank.ErrorList and its *treebank.Error values.
func (e *ImportError) Unwrap() error { return e.First }

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// ImportFile reads a treebank file into a corpus named after the file.
// The format comes from opt.Format or else from the extension (see
// treebank.FormatOf). Errors are as for Import and name the file.
func ImportFile(path string, opt ImportOptions) (*Corpus, error) {
	if opt.Format == treebank.Unknown {
		f, err := treebank.FormatOf(path)
		if err != nil {
			return nil, fmt.Errorf("annotate: %w", err)
		}
		opt.Format = f
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("annotate: %w", err)
	}
	defer fh.Close()
	var size int64
	if fi, err := fh.Stat(); err == nil {
		size = fi.Size()
	}
	return Import(fh, path, size, opt)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Import reads a treebank in format opt.Format from r, one tree at a time,
// into a corpus called name; size is the size of the input for progress
// reports (0 if not known). Malformed sentences are skipped and reading
// goes on to the end of the input: the corpus of every sentence read is
// then returned with an *ImportError, which counts what was left out and
// lists the first errors. A read error returns no corpus. A sentence
// whose comment carries a status and note written by Export gets them
// (in place of opt.Status), and its comment loses that field.
func Import(r io.Reader, name string, size int64, opt ImportOptions) (*Corpus, error) {
	if !opt.Status.valid() {
		return nil, fmt.Errorf("annotate: invalid status %d", int(opt.Status))
	}
	cr := &countingReader{r: r}
	rd := treebank.NewReader(bufio.NewReaderSize(cr, 1<<16), name, opt.Format)
	c := &Corpus{Name: name}
	skipped := &ImportError{Name: name}
	report := func() {
		if opt.Progress != nil {
			opt.Progress(Progress{Sentences: len(c.Sentences), Bytes: cr.n, Total: size})
		}
	}
	for {
		t, err := rd.Next()
		if err == nil {
			st := &state{tree: t, status: opt.Status}
			if rest, status, note, ok := splitMeta(t.BOSExtra); ok { // written by Export
				t.BOSExtra, st.status, st.note = rest, status, note
			}
			c.Sentences = append(c.Sentences, &Sentence{cur: st, depth: DefaultUndoDepth})
			if len(c.Sentences)%ProgressEvery == 0 {
				report()
			}
			continue
		}
		if err == io.EOF {
			break
		}
		var e *treebank.Error
		if !errors.As(err, &e) {
			return nil, fmt.Errorf("annotate: import %s: %w", name, err)
		}
		if e.Tree {
			skipped.Sentences++
		} else {
			skipped.Other++
		}
		if len(skipped.First) < maxImportErrors {
			skipped.First = append(skipped.First, e)
		}
		if e.Stopped {
			skipped.Stopped = e
		}
	}
	report()
	if len(skipped.First) > 0 {
		return c, skipped
	}
	return c, nil
}

// Export writes the current trees of the corpus to w in format f (see
// chart/treebank; export is written as version 4), each sentence's status
// and note in its comment (see metaPrefix), where Import reads them back.
func (c *Corpus) Export(w io.Writer, f treebank.Format) error {
	if err := treebank.Write(w, c.exportTrees(), f); err != nil {
		return fmt.Errorf("annotate: export: %w", err)
	}
	return nil
}

// ExportFile writes the current trees to a file whose format comes from
// its extension, replacing it atomically (see internal/bankfile).
func (c *Corpus) ExportFile(path string) error {
	if err := bankfile.Write(path, c.exportTrees(), bankfile.Options{}); err != nil {
		return fmt.Errorf("annotate: export: %w", err)
	}
	return nil
}

// exportTrees returns the current trees with each sentence's status and
// note in its comment.
func (c *Corpus) exportTrees() []*tree.Tree {
	out := make([]*tree.Tree, len(c.Sentences))
	for i, s := range c.Sentences {
		out[i] = withMeta(s.Tree(), s.Status(), s.Note())
	}
	return out
}

// Tree returns the current tree of sentence i, or nil when i is out of
// range.
func (c *Corpus) Tree(i int) *tree.Tree {
	if i < 0 || i >= len(c.Sentences) {
		return nil
	}
	return c.Sentences[i].Tree()
}
