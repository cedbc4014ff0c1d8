package app

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/discspan/discspan/annotate"
)

// Merging with another tab's save. When two tabs edit one project, the
// save of the second is refused (errOtherTab). Besides reloading (this
// tab's changes are lost) or replacing (the other tab's are), the tab can
// merge: each sentence is compared with its state in the project as this
// tab last read or wrote it (App.savedBase), and takes the other tab's
// analysis where only the other tab changed it, keeps its own where only
// it changed it, and keeps its own where both did (the other tab's save
// then becomes the second file of a comparison, unless one is open, so
// that its versions can be diffed). A merge needs the same sentences in
// the three: a tab that added or removed sentences since cannot merge.

// mergePlan is what a merge does to each sentence, worked out apart from
// the page's lock from the other tab's save and the base.
type mergePlan struct {
	theirs    *annotate.Corpus // the other tab's corpus, as saved
	writer    string           // the writer key of its save
	theirsNew []bool           // sentences the other tab changed since the base
}

// mergeResult counts what a merge did; the numbers are 1-based sentence
// numbers.
type mergeResult struct {
	taken, kept, both []int
	// otherShown is set when the other tab's save became the second file
	// of the comparison.
	otherShown bool
}

// AnnMergeSaved merges this tab's work with the project another tab saved
// meanwhile (see AnnotateState.SaveConflict) and saves the result; Msg
// says what came from where, Err why a merge is not possible.
func (a *App) AnnMergeSaved() {
	s := &a.Annotate
	if !s.SaveConflict || s.merging {
		return
	}
	if s.Busy {
		s.Err = "wait for the re-parse to end, then merge"
		return
	}
	s.merging = true
	s.Msg, s.Err = "merging with the other tab's save…", ""
	go a.annMergeSaved()
}

// annMergeSaved is AnnMergeSaved's work, in its own goroutine.
func (a *App) annMergeSaved() {
	a.saveMu.Lock()
	plan, err := a.planMerge(a.store())
	a.env.Lock()
	s := &a.Annotate
	s.merging = false
	var res mergeResult
	if err == nil {
		res, err = a.applyMerge(plan)
	}
	if err != nil {
		s.Msg, s.Err = "", "cannot merge: "+err.Error()+"; reload this page to take that tab's work, or replace the saved project with this tab's"
	} else {
		s.Msg = mergeMessage(res)
	}
	a.env.UnlockRender()
	a.saveMu.Unlock()
	if err == nil {
		_ = a.annSave() // annSaved shows the outcome
	}
}

// planMerge reads the project the store holds and finds the sentences the
// other tab changed since this tab's base (the caller holds saveMu).
func (a *App) planMerge(st Store) (*mergePlan, error) {
	if st == nil {
		return nil, errors.New("no store")
	}
	base := a.savedBase
	if base == nil {
		return nil, errors.New("this tab has not saved or restored this corpus before: there is nothing to tell its changes by")
	}
	values, err := st.StoreRead(StoreKey, chunkPrefix)
	if err != nil {
		return nil, fmt.Errorf("reading the saved project: %w", err)
	}
	pace := a.newPacer()
	sp, _, _, err := decodeStored(values, func(int, int) { pace.pause() })
	switch {
	case err != nil:
		return nil, err
	case sp.Corpus == nil:
		return nil, errors.New("the other tab's save holds no corpus")
	}
	if err := sameSentences(base, sp.Corpus, "the other tab's save"); err != nil {
		return nil, err
	}
	plan := &mergePlan{theirs: sp.Corpus, writer: writerOf(values), theirsNew: make([]bool, len(base.Sentences))}
	for i, b := range base.Sentences {
		t := sp.Corpus.Sentences[i]
		same, err := sameContent(b, t)
		if err != nil {
			return nil, fmt.Errorf("sentence %d: %w", i+1, err)
		}
		plan.theirsNew[i] = !same
		if i%chunkSize == chunkSize-1 {
			pace.pause()
		}
	}
	return plan, nil
}

// applyMerge merges plan into the tab's corpus (the caller holds saveMu
// and the lock): the other tab's analyses where only it changed a
// sentence. The other tab's save becomes the project this tab has seen.
func (a *App) applyMerge(plan *mergePlan) (mergeResult, error) {
	s := &a.Annotate
	var res mergeResult
	if s.Corpus == nil {
		return res, errors.New("this tab has no corpus")
	}
	if s.Busy {
		return res, errors.New("a re-parse is running: merge when it ends")
	}
	base := a.savedBase
	if err := sameSentences(base, s.Corpus, "this tab's corpus"); err != nil {
		return res, err
	}
	for i, b := range base.Sentences {
		ours := s.Corpus.Sentences[i]
		oursNew := ours.Revision() != b.Revision()
		if oursNew {
			same, err := sameContent(ours, b)
			if err != nil {
				return res, fmt.Errorf("sentence %d: %w", i+1, err)
			}
			oursNew = !same
		}
		theirs := plan.theirs.Sentences[i]
		switch {
		case plan.theirsNew[i] && !oursNew:
			s.Corpus.Sentences[i] = theirs
			if d := s.noteDraft; d != nil && d.sent == ours {
				d.sent = theirs // a note being typed goes to the sentence taken
			}
			res.taken = append(res.taken, i+1)
		case plan.theirsNew[i]:
			if same, err := sameContent(ours, theirs); err != nil || !same {
				res.both = append(res.both, i+1)
			}
		case oursNew:
			res.kept = append(res.kept, i+1)
		}
	}
	// The other tab's corpus is now what this tab has seen saved; the
	// sentences taken from it share its states, so that a later merge
	// tells them unchanged.
	a.savedBase = plan.theirs.Snapshot()
	a.seenWriter = plan.writer
	s.SaveConflict, s.conflictKey, s.SaveErr = false, "", ""
	if len(res.both) > 0 && s.Other == nil {
		other := plan.theirs.Snapshot() // not the sentences the corpus now holds: an edit there must not change it
		other.Name = "the other tab's save"
		a.annSetOther(other)
		res.otherShown = true
	}
	if slices.Contains(res.taken, s.Index+1) {
		a.AnnGo(s.Index) // the sentence shown was replaced: its selection goes
	}
	a.annChanged()
	return res, nil
}

// sameSentences says how corpus c (named what) differs from base in its
// sentences (ids and words), nil when it holds the same ones in the same
// order.
func sameSentences(base, c *annotate.Corpus, what string) error {
	if len(base.Sentences) != len(c.Sentences) {
		return fmt.Errorf("%s has %s, this tab's last save or restore %d: sentences were added or removed", what, Count(len(c.Sentences), "sentence"), len(base.Sentences))
	}
	for i, b := range base.Sentences {
		o := c.Sentences[i]
		if b.ID() != o.ID() || !slices.Equal(b.Tree().Words(), o.Tree().Words()) {
			return fmt.Errorf("sentence %d of %s (%s) is not sentence %d of this tab's last save or restore (%s)", i+1, what, o.ID(), i+1, b.ID())
		}
	}
	return nil
}

// sameContent reports whether two sentences are in the same state: the
// same revision, or the same saved form (tree, status, note, fixed and
// forbidden constituents).
func sameContent(x, y *annotate.Sentence) (bool, error) {
	if x.Revision() == y.Revision() {
		return true, nil
	}
	bx, err := x.MarshalJSON()
	if err != nil {
		return false, err
	}
	by, err := y.MarshalJSON()
	if err != nil {
		return false, err
	}
	return bytes.Equal(bx, by), nil
}

// mergeMessage says what a merge did.
func mergeMessage(r mergeResult) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%s from the other tab's save%s", Count(len(r.taken), "sentence"), sentenceList(r.taken)))
	parts = append(parts, fmt.Sprintf("%s changed here kept%s", Count(len(r.kept), "sentence"), sentenceList(r.kept)))
	msg := "merged: " + strings.Join(parts, ", ")
	if len(r.both) > 0 {
		msg += fmt.Sprintf("; %s changed in both tabs: this tab's analyses kept%s", Count(len(r.both), "sentence"), sentenceList(r.both))
		if r.otherShown {
			msg += ", the other tab's save is the second file of the comparison (diff the current analysis with it)"
		} else {
			msg += ", the other tab's versions are not kept (a second file is open; export that tab's corpus to keep them)"
		}
	}
	return msg
}

// sentenceList lists sentence numbers for a message: " (3, 7, 12)", the
// first ten and how many more; "" for none.
func sentenceList(nums []int) string {
	if len(nums) == 0 {
		return ""
	}
	const most = 10
	var b strings.Builder
	b.WriteString(" (")
	for i, n := range nums[:min(len(nums), most)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	if len(nums) > most {
		fmt.Fprintf(&b, " and %d more", len(nums)-most)
	}
	b.WriteString(")")
	return b.String()
}
