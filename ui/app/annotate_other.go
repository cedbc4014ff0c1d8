package app

import (
	"fmt"
	"strings"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/vugu/vugu/js"
)

// OtherScore is the corpus-level score of the second file of a comparison
// (AnnotateState.Other) against the first file as imported: the counts of
// annotate.Diff summed over the sentences, whose precision, recall and F1
// are those of chart/eval with Params{Labeled: true, KeepFunctionTags:
// true} over the same sentences.
type OtherScore struct {
	// Name is the second file's name; Against names the trees it is
	// scored against (the first file as imported, or the current analyses
	// where the corpus has no imported trees).
	Name, Against string
	// Err says why nothing could be compared (the files hold different
	// numbers of sentences); the other fields are then zero.
	Err string
	// Sentences is the number of sentences compared; Mismatched the number
	// left out because their words differ, Mismatch what differs in the
	// first of them ("" when none).
	Sentences, Mismatched int
	Mismatch              string
	// Matched, Gold and Test count the constituents in both files, in the
	// first and in the second.
	Matched, Gold, Test int
	// Precision, Recall and F1 of the second file against the first, in
	// percent (0 when undefined).
	Precision, Recall, F1 float64
}

// AnnImportOtherFiles imports the first file of a FileList (the "compare
// with another file" picker) as the second file of a comparison.
func (a *App) AnnImportOtherFiles(files js.Value) { a.annReadFiles(files, a.annImportOther) }

// AnnImportOther imports a second treebank file of the corpus's sentences
// (export, discbracket, TIGER-XML, PTB), in the background with progress,
// to compare with the first: it becomes Annotate.Other, scored against the
// first file as imported (Annotate.OtherScore), and DiffOther and
// DiffOtherCurrent then diff the current sentence with it. Sentences are
// matched by position. The corpus is not changed.
func (a *App) AnnImportOther(name string, data []byte) { go a.annImportOther(name, data) }

// annImportOther is AnnImportOther in the calling goroutine (which must
// not hold the lock).
func (a *App) annImportOther(name string, data []byte) {
	a.annRead(name, data, true, func(c *annotate.Corpus, _ *ImportProgress) string {
		s := &a.Annotate
		if s.Corpus == nil {
			return "open or import a corpus first: the second file is compared with it"
		}
		a.annSetOther(c)
		a.annChanged()
		sc := s.OtherScore
		switch {
		case sc.Err != "":
			s.Msg, s.Err = "", sc.Err
		default:
			s.Msg = fmt.Sprintf("%s: %s, F1 %.2f against %s", name, Count(len(c.Sentences), "sentence"), sc.F1, sc.Against)
		}
		return ""
	})
}

// AnnClearOther drops the second file of a comparison.
func (a *App) AnnClearOther() {
	s := &a.Annotate
	if s.Other == nil {
		return
	}
	s.Other, s.OtherScore, s.Diff = nil, nil, nil
	s.Msg = "the second file was dropped"
	a.annChanged()
}

// annSetOther makes c the second file of the comparison and scores it (the
// caller holds the lock; it does not save).
func (a *App) annSetOther(c *annotate.Corpus) {
	s := &a.Annotate
	s.Other, s.Diff = c, nil
	ref, against := a.annFirstTrees()
	s.OtherScore = scoreOther(ref, c, against)
}

// annFirstTrees returns the trees of the first file as imported
// (Annotate.Gold) and what to call them; without them, the current trees.
func (a *App) annFirstTrees() ([]*tree.Tree, string) {
	s := &a.Annotate
	if s.Gold != nil && s.Corpus != nil && len(s.Gold.Sentences) == len(s.Corpus.Sentences) {
		return s.Gold.Trees(), "the first file (" + s.Gold.Name + ", as imported)"
	}
	if s.Corpus == nil {
		return nil, ""
	}
	return s.Corpus.Trees(), "the current analyses"
}

// scoreOther scores the trees of other against ref, matched by position:
// the annotate.Diff counts summed over the sentences whose words agree.
func scoreOther(ref []*tree.Tree, other *annotate.Corpus, against string) *OtherScore {
	sc := &OtherScore{Name: other.Name, Against: against}
	if err := countMismatch(len(ref), other); err != "" {
		sc.Err = err
		return sc
	}
	for i, o := range other.Trees() {
		if msg := wordMismatch(i, ref[i], o); msg != "" {
			if sc.Mismatched == 0 {
				sc.Mismatch = msg
			}
			sc.Mismatched++
			continue
		}
		r, err := annotate.Diff(ref[i], o)
		if err != nil {
			if sc.Mismatched == 0 {
				sc.Mismatch = fmt.Sprintf("sentence %d: %v", i+1, err)
			}
			sc.Mismatched++
			continue
		}
		sc.Sentences++
		sc.Matched += len(r.Matched)
		sc.Gold += len(r.Matched) + len(r.OnlyA)
		sc.Test += len(r.Matched) + len(r.OnlyB)
	}
	sc.Precision, sc.Recall = pct(sc.Matched, sc.Test), pct(sc.Matched, sc.Gold)
	if sc.Matched > 0 {
		sc.F1 = 100 * 2 * float64(sc.Matched) / float64(sc.Gold+sc.Test)
	}
	return sc
}

// pct is num/den in percent, 0 when den is 0.
func pct(num, den int) float64 {
	if den == 0 {
		return 0
	}
	return 100 * float64(num) / float64(den)
}

// countMismatch says why the second file cannot be matched with a corpus
// of n sentences by position ("" when it can).
func countMismatch(n int, other *annotate.Corpus) string {
	if m := len(other.Sentences); m != n {
		return fmt.Sprintf("%s has %s, the corpus %d: sentences are compared by position, so both files must hold the same sentences in the same order", other.Name, Count(m, "sentence"), n)
	}
	return ""
}

// wordMismatch says how the words of sentence i (0-based) differ between
// the first file's tree a and the second file's b ("" when they agree).
func wordMismatch(i int, a, b *tree.Tree) string {
	wa, wb := a.Words(), b.Words()
	id := a.ID
	if b.ID != "" && b.ID != a.ID {
		id += " / " + b.ID
	}
	where := fmt.Sprintf("sentence %d (%s)", i+1, id)
	for k := range min(len(wa), len(wb)) {
		if wa[k] != wb[k] {
			return fmt.Sprintf("%s: word %d is %q in the corpus but %q in the second file", where, k+1, wa[k], wb[k])
		}
	}
	if len(wa) != len(wb) {
		return fmt.Sprintf("%s: %d words in the corpus but %d in the second file (%s | %s)", where, len(wa), len(wb), clip(wa), clip(wb))
	}
	return ""
}

// clip is the end of a word list, for messages.
func clip(words []string) string {
	if len(words) > 6 {
		return "… " + strings.Join(words[len(words)-6:], " ")
	}
	return strings.Join(words, " ")
}

// annDiffOther shows a diff of the current sentence with the second file:
// DiffOther (the first file as imported against it) or DiffOtherCurrent
// (the current analysis against it); where the sentences cannot be
// matched it says why instead.
func (a *App) annDiffOther(kind string) {
	s := &a.Annotate
	s.Diff = nil
	if s.Other == nil {
		s.Err = "no second file (compare with another file first)"
		return
	}
	if msg := countMismatch(len(s.Corpus.Sentences), s.Other); msg != "" {
		s.Err = msg
		return
	}
	b := s.Other.Sentences[s.Index].Tree()
	nameB := "second file (" + s.Other.Name + ")"
	var ref *tree.Tree
	var title, nameA string
	switch kind {
	case DiffOther:
		if s.Gold == nil || s.Index >= len(s.Gold.Sentences) {
			s.Err = "the first file's trees as imported are not kept; compare the current analysis instead"
			return
		}
		ref = s.Gold.Sentences[s.Index].Tree()
		nameA = "first file (" + s.Gold.Name + ", as imported)"
		title = nameA + " vs " + nameB
	default:
		ref = a.annSentence().Tree()
		nameA = "current analysis"
		title = "current analysis vs " + nameB
	}
	if msg := wordMismatch(s.Index, ref, b); msg != "" {
		s.Err = "cannot diff: " + msg
		return
	}
	s.Diff = makeDiff(title, nameA, nameB, ref, b)
	if s.Diff == nil {
		s.Err = "the trees cannot be compared"
		return
	}
	s.Err = ""
}
