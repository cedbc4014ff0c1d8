package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/parser"
	"github.com/vugu/vugu/js"
)

// ImportProgress is an import of a treebank file into the annotation tab.
type ImportProgress struct {
	Name      string
	Sentences int   // read so far
	Bytes     int64 // read so far
	Total     int64 // size of the file
	Done      bool
	Err       string
	// Second is set for the second file of a comparison (AnnImportOther).
	Second bool
}

// Percent is the share of the file read, in percent.
func (p *ImportProgress) Percent() int {
	if p == nil || p.Total <= 0 {
		return 0
	}
	return int(100 * p.Bytes / p.Total)
}

// progressReader reads data, reporting the bytes read every
// progressBytes.
type progressReader struct {
	data   []byte
	off    int64
	last   int64
	report func(read int64)
}

// progressBytes is the step of the import's progress reports.
const progressBytes = 256 << 10

// Read implements io.Reader.
func (r *progressReader) Read(p []byte) (int, error) {
	if r.off >= int64(len(r.data)) {
		return 0, io.EOF
	}
	n := copy(p, r.data[r.off:])
	r.off += int64(n)
	if r.off-r.last >= progressBytes {
		r.last = r.off
		r.report(r.off)
	}
	return n, nil
}

// AnnImportFiles imports the first file of a FileList (the file picker).
func (a *App) AnnImportFiles(files js.Value) { a.annReadFiles(files, a.annImport) }

// annReadFiles reads the first file of a FileList in the background and
// hands its name and bytes to use (in that goroutine, without the lock).
func (a *App) annReadFiles(files js.Value, use func(name string, data []byte)) {
	a.Annotate.Msg = "reading the file…"
	go func() {
		name, data, err := a.plat.ReadFile(files)
		if err != nil {
			a.update(func() { a.Annotate.Err = "could not read the file: " + err.Error() })
			return
		}
		use(name, data)
	}()
}

// AnnImport imports a treebank file (export, discbracket, TIGER-XML, PTB)
// from its bytes in the background, with progress, and opens it as the
// corpus to annotate (its trees also kept as the reference analyses).
func (a *App) AnnImport(name string, data []byte) { go a.annImport(name, data) }

// annImport is AnnImport in the calling goroutine (which must not hold
// the lock).
func (a *App) annImport(name string, data []byte) {
	a.annRead(name, data, false, func(c *annotate.Corpus) string {
		gold := annotate.NewCorpus(name, c.Trees(), annotate.Untouched)
		a.AnnSetCorpus(c, gold, 0)
		a.Annotate.Msg = fmt.Sprintf("imported %s from %s", Count(len(c.Sentences), "sentence"), name)
		return ""
	})
}

// annRead reads a treebank file (export, discbracket, TIGER-XML, PTB) in
// the calling goroutine (which must not hold the lock), showing its
// progress in Annotate.Import (second marks the second file of a
// comparison), and hands the corpus read to use, with the lock held; use
// returns why it could not take the corpus ("" when it did). A file with
// some malformed sentences still gives the others, with the errors shown.
func (a *App) annRead(name string, data []byte, second bool, use func(*annotate.Corpus) string) {
	f, err := treebank.FormatOf(name)
	if err != nil {
		f = sniffFormat(data)
		if f == treebank.Unknown && bytes.Contains(data[:min(len(data), 4096)], []byte("<corpus")) {
			f = treebank.TigerXML
		}
	}
	p := &ImportProgress{Name: name, Total: int64(len(data)), Second: second}
	a.update(func() { a.Annotate.Import, a.Annotate.Msg, a.Annotate.Err = p, "importing "+name+"…", "" })
	if f == treebank.Unknown {
		a.update(func() {
			p.Done, p.Err = true, name+": not a treebank this app reads (export, discbracket, TIGER-XML or PTB)"
		})
		return
	}
	r := &progressReader{data: data, report: func(n int64) {
		a.update(func() { p.Bytes = n })
		time.Sleep(time.Millisecond) // let the page show it (one thread in wasm)
	}}
	c, err := annotate.Import(r, name, int64(len(data)), annotate.ImportOptions{
		Format: f,
		Progress: func(pr annotate.Progress) {
			a.update(func() { p.Sentences = pr.Sentences })
		},
	})
	a.update(func() {
		p.Done = true
		if err != nil {
			p.Err = err.Error()
		}
		if c == nil || len(c.Sentences) == 0 {
			if p.Err == "" {
				p.Err = name + ": no trees"
			}
			return
		}
		if a.Annotate.Busy {
			p.Err = "a re-parse is running; import again"
			return
		}
		p.Sentences, p.Bytes = len(c.Sentences), p.Total
		if msg := use(c); msg != "" {
			p.Err = msg
		}
	})
}

// Formats of the annotation tab's corpus export.
const FormatTigerXML = "tigerxml"

// AnnExport offers the whole corpus as a file: FormatExport,
// FormatDiscbracket or FormatTigerXML.
func (a *App) AnnExport(format string) {
	c := a.Annotate.Corpus
	if c == nil {
		return
	}
	var f treebank.Format
	ext, mime := format, "text/plain"
	switch format {
	case FormatExport:
		f = treebank.Export
	case FormatDiscbracket:
		f = treebank.Discbracket
	case FormatTigerXML:
		f, ext, mime = treebank.TigerXML, "xml", "application/xml"
	default:
		a.Annotate.Err = fmt.Sprintf("cannot export as %q", format)
		return
	}
	var buf bytes.Buffer
	err := c.Export(&buf, f)
	a.save(stem(c.Name)+"."+ext, mime, buf.Bytes(), err)
}

// AnnPreAnnotate parses every untouched sentence with the model, in the
// background with progress; the parses become the sentences' trees, marked
// pre-annotated.
func (a *App) AnnPreAnnotate() {
	s := &a.Annotate
	c := s.Corpus
	if c == nil || !a.Model.Ready() || a.Job != nil || s.Busy {
		return
	}
	var todo []int
	for i, sent := range c.Sentences {
		if sent.Status() == annotate.Untouched {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		s.Msg = "no untouched sentences"
		return
	}
	v := a.annVariant()
	ctx, job := a.startJob(fmt.Sprintf("pre-annotating %s with %s", Count(len(todo), "sentence"), v), len(todo))
	go func() {
		defer a.update(func() { a.finishJob(job) })
		for k, i := range todo {
			var old *tree.Tree
			a.update(func() { old = c.Sentences[i].Tree() })
			var p *parser.Parse
			err := a.checkBudget(old.Len(), v)
			if err == nil {
				p, err = a.engine.Parse(ctx, parser.Request{Words: old.Words(), Variant: v.String()})
			}
			if ctx.Err() != nil {
				return
			}
			a.update(func() {
				job.Done = k + 1
				if s.Corpus != c || s.Busy {
					return
				}
				if err != nil {
					s.Err = fmt.Sprintf("sentence %d: %s", i+1, describeParseError(err, old.Len()))
					return
				}
				if c.Sentences[i].Status() != annotate.Untouched {
					return
				}
				c.Sentences[i] = annotate.NewSentence(preTree(old, p.Tree), annotate.PreAnnotated)
				if i == s.Index {
					a.AnnGo(i)
				}
				a.annChanged()
			})
		}
	}()
}

// preTree returns the parse with the old tree's id and token annotation
// (its tags where it has them).
func preTree(old, parse *tree.Tree) *tree.Tree {
	t := parse.Clone()
	t.ID = old.ID
	for i := range t.Tokens {
		if i >= len(old.Tokens) {
			break
		}
		o := old.Tokens[i]
		tok := o
		tok.Parent, tok.Edge, tok.Sec = t.Tokens[i].Parent, "", nil
		if tok.Tag == "" {
			tok.Tag = t.Tokens[i].Tag
		}
		t.Tokens[i] = tok
	}
	return t
}

// SearchHit is a search result: a sentence, with what was found.
type SearchHit struct {
	Sentence int
	Text     string
}

// AnnSetQuery keeps the search text.
func (a *App) AnnSetQuery(q string) { a.Annotate.Query = q }

// AnnSearch finds the search text in the corpus: "label:NP" (or a single
// upper-case or known label) finds nodes with the label, anything else the
// word sequence.
func (a *App) AnnSearch() {
	s := &a.Annotate
	c := s.Corpus
	if c == nil {
		return
	}
	q := strings.TrimSpace(s.Query)
	s.Hits = nil
	if q == "" {
		return
	}
	label, isLabel := strings.CutPrefix(q, "label:")
	if !isLabel && !strings.Contains(q, " ") && a.knownLabels()[q] {
		label, isLabel = q, true
	}
	if isLabel {
		for _, h := range c.FindLabel(strings.TrimSpace(label)) {
			t := c.Sentences[h.Sentence].Tree()
			s.Hits = append(s.Hits, SearchHit{h.Sentence, fmt.Sprintf("%s: %s %s", t.ID, t.Nodes[h.Node].Label, coveredWords(t, tree.Blocks(t.Yields()[h.Node])))})
		}
	} else {
		for _, h := range c.FindWords(strings.Fields(q)) {
			t := c.Sentences[h.Sentence].Tree()
			s.Hits = append(s.Hits, SearchHit{h.Sentence, fmt.Sprintf("%s: %s", t.ID, strings.Join(t.Words()[h.Start:h.End], " "))})
		}
	}
	s.Msg = fmt.Sprintf("%d found", len(s.Hits))
}

// AnnConsistency lists word sequences analysed differently in different
// places (annotate.Corpus.Inconsistencies), one hit per occurrence.
func (a *App) AnnConsistency() {
	s := &a.Annotate
	c := s.Corpus
	if c == nil {
		return
	}
	s.Hits = nil
	groups := c.Inconsistencies(annotate.ConsistencyOptions{})
	for _, g := range groups {
		for _, an := range g.Analyses {
			label := an.Label
			if label == "" {
				label = "no constituent"
			}
			for _, o := range an.Occurrences {
				s.Hits = append(s.Hits, SearchHit{o.Sentence, fmt.Sprintf("%q as %s in %s", strings.Join(g.Words, " "), label, o.ID)})
			}
		}
	}
	s.Msg = fmt.Sprintf("%d word sequences analysed in more than one way", len(groups))
}

// AnnDiff compares two analyses of the current sentence.
type AnnDiff struct {
	// Title says what is compared; A is the reference.
	Title string
	A, B  *TreeView
	F1    float64
	// Precision and Recall of B against A, and the constituent counts.
	Precision, Recall     float64
	Matched, OnlyA, OnlyB int
}

// Diff kinds.
const (
	DiffGold   = "gold"   // the reference (imported) tree against the current one
	DiffParser = "parser" // the annotator's tree against the model's parse
	// DiffOther is the first file's tree (as imported) against the second
	// file's (AnnImportOther).
	DiffOther = "other"
	// DiffOtherCurrent is the current tree against the second file's.
	DiffOtherCurrent = "other-current"
)

// AnnShowDiff shows a diff of the current sentence (DiffGold, DiffParser,
// DiffOther or DiffOtherCurrent; "" hides it).
func (a *App) AnnShowDiff(kind string) {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil || kind == "" {
		s.Diff = nil
		return
	}
	cur := sent.Tree()
	switch kind {
	case DiffGold:
		if s.Gold == nil || s.Index >= len(s.Gold.Sentences) {
			s.Err = "no reference trees (import a treebank)"
			return
		}
		s.Diff = makeDiff("reference (as imported) against the current analysis", "reference", "current", s.Gold.Sentences[s.Index].Tree(), cur)
		if s.Diff == nil {
			s.Err = "the trees cannot be compared"
		}
	case DiffOther, DiffOtherCurrent:
		a.annDiffOther(kind)
	case DiffParser:
		if !a.Model.Ready() || s.Busy {
			s.Err = "the model is not ready"
			return
		}
		v := a.annVariant()
		idx := s.Index
		go func() {
			p, err := a.engine.Parse(context.Background(), parser.Request{Words: cur.Words(), Variant: v.String()})
			a.update(func() {
				if err != nil {
					s.Err = describeParseError(err, cur.Len())
					return
				}
				if s.Index != idx {
					return
				}
				s.Diff = makeDiff("the annotator's analysis against the parser's ("+v.String()+")", "annotator", "parser", cur, p.Tree)
			})
		}()
	}
}

// makeDiff compares a (the reference) and b and draws both with the
// matched constituents in green ("match"), those only in a in red
// ("miss") and those only in b in orange ("extra"); nil if they cannot be
// compared.
func makeDiff(title, nameA, nameB string, a, b *tree.Tree) *AnnDiff {
	r, err := annotate.Diff(a, b)
	if err != nil {
		return nil
	}
	ca, cb := map[int]string{}, map[int]string{}
	for _, p := range r.Matched {
		ca[p.A], cb[p.B] = "match", "match"
	}
	for _, c := range r.OnlyA {
		ca[c.Node] = "miss"
	}
	for _, c := range r.OnlyB {
		cb[c.Node] = "extra"
	}
	return &AnnDiff{
		Title: title,
		A:     newTreeView("diff-a", nameA, a, nil, nil, ca),
		B:     newTreeView("diff-b", nameB, b, nil, nil, cb),
		F1:    r.F1, Precision: r.Precision, Recall: r.Recall,
		Matched: len(r.Matched), OnlyA: len(r.OnlyA), OnlyB: len(r.OnlyB),
	}
}

// AnnCounts returns the number of sentences per status: untouched,
// pre-annotated, checked.
func (a *App) AnnCounts() [3]int {
	if a.Annotate.Corpus == nil {
		return [3]int{}
	}
	n := a.Annotate.Corpus.Counts()
	return [3]int{n[0], n[1], n[2]}
}
