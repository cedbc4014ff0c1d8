package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
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
	// Skipped says what of the file was left out, the file read all the
	// same: malformed sentences and other errors, with the first one
	// (see annotate.ImportError); "" when nothing was.
	Skipped string
	// Second is set for the second file of a comparison (AnnImportOther).
	Second bool
	// Waiting is set while the file read waits for the annotator to say
	// whether it replaces the open corpus (AnnotateState.PendingImport).
	Waiting bool
}

// PendingImport is a treebank read, or a project kept aside opened, while
// a corpus was open: it replaces that corpus, and its edits, only when the
// annotator confirms (AnnConfirmImport).
type PendingImport struct {
	Name   string
	Corpus *annotate.Corpus

	progress *ImportProgress // the file's; nil for a project kept aside
	kept     *KeptProject    // the project kept aside; nil for a file
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

// progressBytes is the step of the import's progress reports (and pauses:
// pacer).
const progressBytes = 64 << 10

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
		name, data, err := a.plat.ReadFile(files, MaxFileBytes)
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
// While another corpus is open, the file read waits for the annotator to
// confirm that it replaces it (AnnConfirmImport, AnnCancelImport).
func (a *App) AnnImport(name string, data []byte) { go a.annImport(name, data) }

// annImport is AnnImport in the calling goroutine (which must not hold
// the lock). While a corpus is open, the file read waits in PendingImport
// for the annotator's answer: it would discard that corpus.
func (a *App) annImport(name string, data []byte) {
	a.annRead(name, data, false, func(c *annotate.Corpus, p *ImportProgress) string {
		s := &a.Annotate
		// Before the restore ends, the saved project may be about to
		// open: ask then too; and while sentences are being added (the
		// first ones of a corpus too), which would go into the file.
		if s.Corpus != nil && len(s.Corpus.Sentences) > 0 || !s.Restored || s.Busy {
			a.annDropPending("another file was imported")
			s.PendingImport = &PendingImport{Name: name, Corpus: c, progress: p}
			p.Waiting = true
			s.Msg, s.Err, s.ConfirmNew = "", "", false
			return ""
		}
		a.annOpenImport(name, c)
		return ""
	})
}

// annOpenImport makes an imported corpus the one annotated, its trees as
// imported kept as the reference analyses. The import waiting, if any, is
// settled: opened when it is c, dropped otherwise.
func (a *App) annOpenImport(name string, c *annotate.Corpus) {
	if pi := a.Annotate.PendingImport; pi != nil && pi.Corpus == c {
		pi.progress.Waiting = false
		a.Annotate.PendingImport = nil
	}
	a.annDropPending("another file was opened")
	// The reference trees share the imported sentences' states (which
	// never change; edits make new ones): no copy of the corpus is kept
	// until sentences are edited.
	gold := c.Snapshot()
	gold.Name = name
	a.AnnSetCorpus(c, gold, 0)
	a.Annotate.Msg = fmt.Sprintf("imported %s from %s", Count(len(c.Sentences), "sentence"), name)
	if p := a.Annotate.Import; p != nil && p.Name == name && p.Skipped != "" {
		a.Annotate.Msg += "; " + p.Skipped
	}
}

// AnnImportQuestion asks whether the pending import replaces the open
// corpus ("" when none waits).
func (a *App) AnnImportQuestion() string {
	s := &a.Annotate
	pi := s.PendingImport
	if pi == nil {
		return ""
	}
	q := fmt.Sprintf("Open %s (%s)?", pi.Name, Count(len(pi.Corpus.Sentences), "sentence")) // the open corpus was given up meanwhile
	if s.Corpus != nil {
		n := s.Corpus.Counts()
		q = fmt.Sprintf("Replace the open corpus, %s (%s: %d checked, %d pre-annotated), with %s (%s)? The open corpus and its edits are discarded: export it first to keep them.",
			s.Corpus.Name, Count(len(s.Corpus.Sentences), "sentence"), n[annotate.Checked], n[annotate.PreAnnotated], pi.Name, Count(len(pi.Corpus.Sentences), "sentence"))
	}
	return q
}

// AnnConfirmImport opens the pending import in place of the open corpus.
func (a *App) AnnConfirmImport() {
	s := &a.Annotate
	pi := s.PendingImport
	if pi == nil || a.annBusy() {
		return
	}
	a.annOpenPending(pi)
}

// annOpenPending opens what waits in pi: a file read or a project kept
// aside.
func (a *App) annOpenPending(pi *PendingImport) {
	if pi.kept != nil {
		a.annOpenKept(*pi.kept)
		return
	}
	a.annOpenImport(pi.Name, pi.Corpus)
}

// annDropPending drops the import waiting, if any, saying why in its
// progress.
func (a *App) annDropPending(why string) {
	if pi := a.Annotate.PendingImport; pi != nil {
		if pi.progress != nil {
			pi.progress.Waiting, pi.progress.Err = false, "not opened: "+why
		}
		a.Annotate.PendingImport = nil
	}
}

// AnnCancelImport drops the pending import and keeps the open corpus.
func (a *App) AnnCancelImport() {
	s := &a.Annotate
	pi := s.PendingImport
	if pi == nil {
		return
	}
	a.annDropPending("the open corpus was kept")
	s.Msg, s.Err = pi.Name+" was not opened; the open corpus is unchanged", ""
}

// annRead reads a treebank file (export, discbracket, TIGER-XML, PTB) in
// the calling goroutine (which must not hold the lock), showing its
// progress in Annotate.Import (second marks the second file of a
// comparison), and hands the corpus read to use, with the lock held; use
// returns why it could not take the corpus ("" when it did). A file with
// some malformed sentences still gives the others, with the errors shown.
func (a *App) annRead(name string, data []byte, second bool, use func(*annotate.Corpus, *ImportProgress) string) {
	f, err := treebank.FormatOf(name)
	if err != nil {
		f, err = sniffFormat(name, data)
	}
	p := &ImportProgress{Name: name, Total: int64(len(data)), Second: second}
	a.update(func() { a.Annotate.Import, a.Annotate.Msg, a.Annotate.Err = p, "importing "+name+"…", "" })
	if err != nil {
		a.update(func() { p.Done, p.Err = true, err.Error() })
		return
	}
	// The page runs between work slices, and shows the progress at most
	// every progressEvery (each update renders the page).
	pace := a.newPacer()
	pace.shown = time.Now() // the start is shown already
	var bytesRead int64
	var sentences int
	progress := func() {
		pace.progress(func() {
			n, k := bytesRead, sentences
			a.update(func() { p.Bytes, p.Sentences = n, k })
		})
	}
	r := &progressReader{data: data, report: func(n int64) { bytesRead = n; progress() }}
	c, err := annotate.Import(r, name, int64(len(data)), annotate.ImportOptions{
		Format:   f,
		Progress: func(pr annotate.Progress) { sentences = pr.Sentences; progress() },
	})
	a.update(func() {
		p.Done = true
		var skipped *annotate.ImportError
		switch {
		case errors.As(err, &skipped) && c != nil && len(c.Sentences) > 0:
			p.Skipped = describeSkipped(skipped)
		case err != nil:
			p.Err = err.Error()
		}
		if c == nil || len(c.Sentences) == 0 {
			if p.Err == "" {
				p.Err = name + ": no trees"
			}
			return
		}
		// A file to annotate waits for the annotator's answer (the
		// open corpus has sentences while a re-parse runs), which waits
		// for the re-parse; a second file to compare with cannot wait.
		if a.Annotate.Busy && second {
			p.Err = "a re-parse is running; import again"
			return
		}
		p.Sentences, p.Bytes = len(c.Sentences), p.Total
		if msg := use(c, p); msg != "" {
			p.Err = msg
		}
	})
}

// describeSkipped says what an import left out, and where the first
// error is.
func describeSkipped(e *annotate.ImportError) string {
	var what []string
	if e.Sentences > 0 {
		what = append(what, fmt.Sprintf("%s left out", Count(e.Sentences, "malformed sentence")))
	}
	if e.Other > 0 {
		what = append(what, fmt.Sprintf("%s outside sentences", Count(e.Other, "error")))
	}
	out := strings.Join(what, " and ")
	if len(e.First) > 0 {
		first := e.First[0] // the file is named beside it: the line only
		where := "first"
		if first.Line > 0 {
			where = fmt.Sprintf("first at line %d", first.Line)
		}
		out += fmt.Sprintf(" (%s: %s)", where, first.Msg)
	}
	return out
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
	var we *treebank.WriteError
	if errors.As(err, &we) {
		// Said in the tab, with the sentence, which the problems list of
		// that sentence explains too.
		a.Annotate.Err = fmt.Sprintf("cannot export as %s: sentence %d: %v; correct it, or export in another format", format, we.N, we.Err)
		return
	}
	a.save(stem(c.Name)+"."+ext, mime, buf.Bytes(), err)
}

// AnnPreAnnotate parses every untouched sentence with the model, in the
// background with progress; the parses become the sentences' trees, marked
// pre-annotated. An untouched sentence the annotator has edited (see
// annotate.Sentence.Edited) is left alone: its edits are work that a
// parse would replace.
func (a *App) AnnPreAnnotate() {
	s := &a.Annotate
	c := s.Corpus
	if c == nil || !a.Model.Ready() || a.Job != nil || s.Busy {
		return
	}
	// The sentences, not their positions: sentences may be removed or
	// added while the job runs.
	var todo []*annotate.Sentence
	edited := 0
	for _, sent := range c.Sentences {
		switch {
		case sent.Status() != annotate.Untouched:
		case sent.Edited():
			edited++
		default:
			todo = append(todo, sent)
		}
	}
	kept := ""
	if edited > 0 {
		kept = fmt.Sprintf("; kept as you edited them: %s", Count(edited, "untouched sentence"))
	}
	if len(todo) == 0 {
		s.Msg = "no untouched sentences to pre-annotate" + kept
		return
	}
	v := a.annVariant()
	s.Msg = strings.TrimPrefix(kept, "; ")
	ctx, job := a.startJob(fmt.Sprintf("pre-annotating %s with %s", Count(len(todo), "sentence"), v), len(todo))
	go func() {
		defer a.update(func() { a.finishJob(job) })
		for k, sent := range todo {
			var old *tree.Tree
			a.update(func() { old = sent.Tree() })
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
				i := slices.Index(c.Sentences, sent)
				if s.Corpus != c || s.Busy || i < 0 {
					return // another corpus, a re-parse running, or the sentence removed
				}
				if err != nil {
					s.Err = fmt.Sprintf("sentence %d: %s", i+1, describeParseError(err, old.Len()))
					return
				}
				if sent.Status() != annotate.Untouched || sent.Tree() != old || sent.Edited() {
					return // edited meanwhile
				}
				c.Sentences[i] = sent.WithTree(preTree(old, p.Tree), annotate.PreAnnotated) // the note stays
				if d := s.noteDraft; d != nil && d.sent == sent {
					d.sent = c.Sentences[i] // a note being typed goes to the new state
				}
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
		idx, gen := s.Index, a.loadGen
		go func() {
			p, err := a.engine.Parse(context.Background(), parser.Request{Words: cur.Words(), Variant: v.String()})
			a.update(func() {
				switch {
				case s.Index != idx:
					return // another sentence is shown
				case a.loadGen != gen:
					s.Err = "the model was changed meanwhile: ask for the comparison again"
					return
				case err != nil:
					s.Err = describeParseError(err, cur.Len())
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

// ListRows is the number of sentences the corpus view lists at a time: a
// page of a big corpus, so that every change does not redraw thousands of
// rows.
const ListRows = 100

// ListRow is a sentence of the corpus view's list.
type ListRow struct {
	Index    int // in the corpus
	Sentence *annotate.Sentence
}

// AnnListRows returns the page of the corpus view's list.
func (a *App) AnnListRows() []ListRow {
	s := &a.Annotate
	if s.Corpus == nil {
		return nil
	}
	from := min(max(s.ListFrom, 0), len(s.Corpus.Sentences))
	to := min(from+ListRows, len(s.Corpus.Sentences))
	rows := make([]ListRow, 0, to-from)
	for i := from; i < to; i++ {
		rows = append(rows, ListRow{i, s.Corpus.Sentences[i]})
	}
	return rows
}

// AnnListPage shows the previous (delta -1) or next (+1) page of the
// corpus view's list, without changing the sentence shown.
func (a *App) AnnListPage(delta int) {
	s := &a.Annotate
	if s.Corpus == nil {
		return
	}
	last := max(len(s.Corpus.Sentences)-1, 0) / ListRows * ListRows
	s.ListFrom = min(max(s.ListFrom+delta*ListRows, 0), last)
}

// AnnListRange says which sentences the list shows: "sentences 101–200
// of 5,803" ("" when they all fit on one page).
func (a *App) AnnListRange() string {
	s := &a.Annotate
	if s.Corpus == nil || len(s.Corpus.Sentences) <= ListRows {
		return ""
	}
	rows := a.AnnListRows()
	if len(rows) == 0 {
		return ""
	}
	return fmt.Sprintf("sentences %d–%d of %d", rows[0].Index+1, rows[len(rows)-1].Index+1, len(s.Corpus.Sentences))
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
