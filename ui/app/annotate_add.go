package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/tokenize"
)

// AnnNew adds the Sentence tab's sentence to the corpus (a new corpus of
// that one sentence when there is none), parsed with the model.
func (a *App) AnnNew() {
	a.Parse.settle()
	words := a.Parse.Words()
	if len(words) == 0 {
		a.Annotate.Msg, a.Annotate.Err = "", "the Sentence tab has no sentence: type one there, or in the box below"
		return
	}
	a.annAdd([][]string{words})
}

// AnnSetAddText sets the text of the box that adds sentences.
func (a *App) AnnSetAddText(text string) { a.Annotate.AddText = text }

// AnnAddText adds the sentences of the box (one or more a line: each line
// is cut into sentences by the tokenizer's rule, and a sentence never runs
// on to the next line, unlike in the Sentence tab, where only a blank line
// ends one; as `discspan parse --split-sentences`) to the corpus, parsed
// with the model, and empties the box.
func (a *App) AnnAddText() {
	sents := splitLines(a.Annotate.AddText)
	if len(sents) == 0 {
		a.Annotate.Msg, a.Annotate.Err = "", "type or paste the sentences to add first"
		return
	}
	if a.annAdd(sents) {
		a.Annotate.AddText = ""
	}
}

// splitLines tokenizes text line by line into sentences of words: a
// sentence never spans two lines, whichever line end a pasted text has
// (CR LF, a lone CR, NEL, U+2028: tokenize.Lines).
func splitLines(text string) [][]string {
	var out [][]string
	for _, line := range tokenize.Lines(text) {
		out = append(out, sentenceWords(line)...)
	}
	return out
}

// annAdd parses sentences with the model in the background and appends
// them to the corpus (a new one when there is none), showing the first of
// them; it reports whether the work started. Without a usable model (none
// on the server, or its load failed) the sentences are added as flat
// trees and the message says so; while the model loads, or during a
// re-parse, nothing is added and the error says why.
func (a *App) annAdd(sents [][]string) bool {
	s := &a.Annotate
	switch {
	case a.annBusy():
		return false
	case !s.Restored:
		// A corpus started now would hide the saved one being restored.
		s.Msg, s.Err = "", "looking for saved work: add the sentences once it is restored"
		return false
	case a.Model.Phase == PhaseFailed || a.Model.Phase == PhaseNoModel:
		trees := make([]*tree.Tree, len(sents))
		for i, w := range sents {
			trees[i] = flatTree(w)
		}
		a.annAppend(trees, annotate.Untouched)
		s.Msg = fmt.Sprintf("no model: %s added unparsed (flat trees)", Count(len(sents), "sentence"))
		return true
	case !a.Model.Ready():
		s.Msg, s.Err = "", "the model is still loading: add the sentences once it is ready"
		return false
	}
	v := a.annVariant()
	for i, w := range sents {
		if err := a.checkBudget(len(w), v); err != nil {
			s.Msg, s.Err = "", fmt.Sprintf("sentence %d: %v", i+1, err)
			return false
		}
	}
	s.Busy, s.Msg, s.Err = true, fmt.Sprintf("parsing %s with %s…", Count(len(sents), "sentence"), v), ""
	if a.Job != nil {
		s.Msg += " (after the job running: " + a.Job.What + ")"
	}
	gen := a.loadGen // the model parsing them
	go func() {
		var trees []*tree.Tree
		var err error
		for i, w := range sents {
			var p *parser.Parse
			if p, err = a.engine.Parse(context.Background(), parser.Request{Words: w, Variant: v.String()}); err != nil {
				err = fmt.Errorf("sentence %d: %s", i+1, describeParseError(err, len(w)))
				break
			}
			trees = append(trees, p.Tree)
		}
		a.update(func() {
			s.Busy = false
			if a.loadGen != gen {
				// Some may be parsed by the model given up, some by the
				// new one (or by none while it loaded).
				s.Msg, s.Err = "", errModelChanged
				return
			}
			if err != nil {
				s.Msg, s.Err = "", err.Error()
				return
			}
			a.annAppend(trees, annotate.PreAnnotated)
			s.Msg = fmt.Sprintf("added %s, parsed with %s; edit them", Count(len(trees), "sentence"), v)
		})
	}()
	return true
}

// errModelChanged says why sentences parsed while the model was changed
// are not added.
const errModelChanged = "the model was changed while the sentences were parsed: nothing was added; add them again"

// annAppend appends trees to the corpus (and to its reference analyses)
// with fresh ids and shows the first of them. A second file compared by
// position no longer matches and is closed.
func (a *App) annAppend(trees []*tree.Tree, status annotate.Status) {
	s := &a.Annotate
	if s.Corpus == nil {
		s.Corpus, s.Gold = &annotate.Corpus{Name: "sentences"}, &annotate.Corpus{Name: "sentences"}
		s.removed = nil // from a corpus given up
	}
	a.annEdited()
	if s.Gold != nil && len(s.Gold.Sentences) != len(s.Corpus.Sentences) {
		s.Gold = nil // no longer parallel
	}
	next := nextID(s.Corpus)
	if r := a.annRemoved(); r != nil {
		// The sentence removed last may be put back: its id stays its own.
		if id, err := strconv.Atoi(r.sent.ID()); err == nil && id >= next {
			next = id + 1
		}
	}
	first := len(s.Corpus.Sentences)
	for i, t := range trees {
		t.ID = strconv.Itoa(next + i)
		s.Corpus.Sentences = append(s.Corpus.Sentences, annotate.NewSentence(t, status))
		if s.Gold != nil {
			s.Gold.Sentences = append(s.Gold.Sentences, annotate.NewSentence(t, status))
		}
	}
	s.Other, s.OtherScore, s.Hits, s.ConfirmNew = nil, nil, nil, false
	a.AnnGo(first)
	a.annChanged()
}

// nextID returns a number above every numeric sentence id of c.
func nextID(c *annotate.Corpus) int {
	n := len(c.Sentences)
	for _, sent := range c.Sentences {
		if id, err := strconv.Atoi(sent.ID()); err == nil && id > n {
			n = id
		}
	}
	return n + 1
}

// removedSentence is a sentence removed from the corpus, kept so that the
// removal can be undone: the sentence, its reference analysis (nil when
// the reference analyses did not follow the corpus), where it was, the
// corpus it was removed from (nil when the removal emptied it: name is
// then its name) and the second file the removal closed.
type removedSentence struct {
	sent, gold *annotate.Sentence
	index      int
	corpus     *annotate.Corpus
	name       string
	other      *annotate.Corpus
	// size is the number of sentences before the removal: the second file
	// is re-attached only when the corpus has that many again.
	size int
	// latest is set while the removal is the annotator's last change:
	// Ctrl+Z then puts the sentence back (annEdited clears it; changes
	// made by background work, such as pre-annotation, do not).
	latest bool
}

// annEdited records a change made by the annotator (the caller holds the
// lock): Ctrl+Z no longer undoes the last removal.
func (a *App) annEdited() {
	if r := a.Annotate.removed; r != nil {
		r.latest = false
	}
}

// AnnRemove removes the sentence shown from the corpus; removing the last
// one leaves no corpus. A second file compared by position is closed.
// AnnRestoreRemoved (or Ctrl+Z before any other change) puts the
// sentence back.
func (a *App) AnnRemove() {
	s := &a.Annotate
	sent := a.annSentence()
	if sent == nil {
		return
	}
	if a.annBusy() {
		return
	}
	id, i := sent.ID(), s.Index
	r := &removedSentence{sent: sent, index: i, corpus: s.Corpus, name: s.Corpus.Name, other: s.Other, size: len(s.Corpus.Sentences), latest: true}
	if s.Gold != nil && len(s.Gold.Sentences) == len(s.Corpus.Sentences) {
		r.gold = s.Gold.Sentences[i]
		s.Gold.Sentences = append(s.Gold.Sentences[:i:i], s.Gold.Sentences[i+1:]...)
	} else {
		s.Gold = nil
	}
	s.Corpus.Sentences = append(s.Corpus.Sentences[:i:i], s.Corpus.Sentences[i+1:]...)
	s.Other, s.OtherScore, s.Hits, s.Diff, s.ConfirmNew = nil, nil, nil, nil, false
	if len(s.Corpus.Sentences) == 0 {
		s.Corpus, s.Gold, r.corpus = nil, nil, nil
		s.Index = 0
		a.annChanged()
		s.removed = r
		s.Msg, s.Err = fmt.Sprintf("removed sentence %s: the corpus is empty (Ctrl+Z puts it back)", id), ""
		return
	}
	a.AnnGo(min(i, len(s.Corpus.Sentences)-1))
	a.annChanged()
	s.removed = r
	s.Msg = fmt.Sprintf("removed sentence %s (%s left; Ctrl+Z puts it back)", id, Count(len(s.Corpus.Sentences), "sentence"))
}

// AnnRemovedID is the id of the sentence AnnRestoreRemoved would put back,
// "" when there is none.
func (a *App) AnnRemovedID() string {
	if r := a.annRemoved(); r != nil {
		return r.sent.ID()
	}
	return ""
}

// annRemoved returns the last removal while it can still be undone: the
// corpus it emptied is still empty, or the corpus it was removed from is
// still open.
func (a *App) annRemoved() *removedSentence {
	s := &a.Annotate
	r := s.removed
	if r == nil || r.corpus != s.Corpus {
		return nil
	}
	return r
}

// AnnRestoreRemoved puts the last sentence removed back where it was, with
// its reference analysis and its undo history, and shows it.
func (a *App) AnnRestoreRemoved() {
	s := &a.Annotate
	r := a.annRemoved()
	if r == nil || a.annBusy() {
		return
	}
	s.removed = nil
	if s.Corpus == nil {
		s.Corpus = &annotate.Corpus{Name: r.name}
		if r.gold != nil {
			s.Gold = &annotate.Corpus{Name: r.name}
		}
	}
	i := min(r.index, len(s.Corpus.Sentences))
	if s.Gold != nil && r.gold != nil && len(s.Gold.Sentences) == len(s.Corpus.Sentences) {
		s.Gold.Sentences = slices.Insert(s.Gold.Sentences, i, r.gold)
	} else {
		s.Gold = nil
	}
	s.Corpus.Sentences = slices.Insert(s.Corpus.Sentences, i, r.sent)
	s.Hits = nil // their positions moved
	if r.other != nil && s.Other == nil && len(s.Corpus.Sentences) == r.size {
		a.annSetOther(r.other) // the positions match again
	}
	a.AnnGo(i)
	a.annChanged()
	s.Msg = fmt.Sprintf("put sentence %s back", r.sent.ID())
}

// AnnNewCorpus starts a new, empty corpus. The first call only asks for
// confirmation (the corpus is discarded: export it first); the second
// discards it.
func (a *App) AnnNewCorpus() {
	s := &a.Annotate
	if s.Corpus == nil {
		return
	}
	if a.annBusy() {
		return
	}
	if !s.ConfirmNew {
		s.ConfirmNew = true
		s.Msg, s.Err = fmt.Sprintf("Start a new corpus? This one (%s) is discarded: export it first to keep it. Click \"new corpus\" again to confirm.", Count(len(s.Corpus.Sentences), "sentence")), ""
		return
	}
	s.Corpus, s.Gold, s.Other, s.OtherScore, s.Hits, s.Diff, s.removed = nil, nil, nil, nil, nil, nil, nil
	s.Index, s.ConfirmNew = 0, false
	a.annChanged()
	s.Msg, s.Err = "started a new corpus: add sentences below or import a treebank", ""
}

// flatTree returns a tree of the words with no structure.
func flatTree(words []string) *tree.Tree {
	t := &tree.Tree{ID: "1", Tokens: make([]tree.Token, len(words))}
	for i, w := range words {
		t.Tokens[i] = tree.Token{Word: w, Parent: tree.Root}
	}
	return t
}
