package app_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// The undo and redo histories of the sentences edited come back after a
// reload (they are kept in the store beside the project); a history kept
// for another state of its sentence (another tab saved the project since,
// say) is left out, and the sentence has none.
func TestAnnotateUndoKept(t *testing.T) {
	export, _ := otherData(t, 10)
	store := &memStore{}
	a, env := annApp(t, store)
	if p := importWait(t, a, env, "dev10.export", export, false); p.Err != "" {
		t.Fatal(p.Err)
	}
	var undo3, redo3, undo5 []string
	env.Do(func() {
		a.AnnGo(5)
		a.AnnSetNote("five")
		a.AnnGo(3)
		a.AnnSetStatus(annotate.Checked.String())
		a.AnnSetNote("look at the PP")
		a.AnnSetNote("the PP is right")
		a.AnnUndo()
		undo3, redo3 = a.AnnUndoList(), a.AnnRedoList()
		a.AnnGo(5)
		undo5 = a.AnnUndoList()
		a.AnnGo(3)
	})
	if len(undo3) != 2 || len(redo3) != 1 || len(undo5) != 1 {
		t.Fatalf("undo %q, redo %q, sentence 5: %q", undo3, redo3, undo5)
	}
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	kept, keptWhole := store.clone(), store.clone()

	b, envB := annApp(t, store)
	envB.Do(func() {
		if b.Annotate.Index != 3 {
			t.Fatalf("restored at sentence %d", b.Annotate.Index)
		}
		if got, got2 := b.AnnUndoList(), b.AnnRedoList(); !slices.Equal(got, undo3) || !slices.Equal(got2, redo3) {
			t.Errorf("after a reload: undo %q, redo %q; want %q, %q", got, got2, undo3, redo3)
		}
		b.AnnRedo()
		if note := b.AnnSentence().Note(); note != "the PP is right" {
			t.Errorf("redone: note %q", note)
		}
		b.AnnUndo()
		b.AnnUndo()
		b.AnnUndo()
		if s := b.AnnSentence(); s.Note() != "" || s.Status() == annotate.Checked {
			t.Errorf("undone to the import: note %q, status %s", s.Note(), s.Status())
		}
		b.AnnGo(5)
		if got := b.AnnUndoList(); !slices.Equal(got, undo5) {
			t.Errorf("sentence 5 after a reload: undo %q, want %q", got, undo5)
		}
	})

	// The manifest naming sentence 5's history for sentence 3: it does not
	// fit sentence 3, which comes back without a history.
	var m struct {
		Writer    string         `json:"writer"`
		Sentences map[int]string `json:"sentences"`
	}
	if err := json.Unmarshal(kept.data[app.HistoryKey], &m); err != nil || len(m.Sentences) != 2 || m.Writer == "" {
		t.Fatalf("manifest %s (%v)", kept.data[app.HistoryKey], err)
	}
	m.Sentences[3] = m.Sentences[5]
	kept.data[app.HistoryKey], _ = json.Marshal(m)
	c, envC := annApp(t, kept)
	envC.Do(func() {
		if got := c.AnnUndoList(); c.Annotate.Index != 3 || len(got) != 0 || c.AnnSentence().Note() != "look at the PP" {
			t.Errorf("sentence %d, a history that is not its own: undo %q", c.Annotate.Index, got)
		}
		c.AnnGo(5)
		if got := c.AnnUndoList(); !slices.Equal(got, undo5) {
			t.Errorf("sentence 5: undo %q, want %q", got, undo5)
		}
	})

	// A history written whole, states and all, as the app wrote it before
	// each state had a record of its own, comes back too.
	var whole []byte
	env.Do(func() {
		var err error
		if whole, err = json.Marshal(a.Annotate.Corpus.Sentences[5].History()); err != nil {
			t.Fatal(err)
		}
	})
	sum := sha256.Sum256(whole) // named as that version named it
	wholeKey := app.HistoryKey + "/" + hex.EncodeToString(sum[:16])
	m.Sentences = map[int]string{5: wholeKey}
	keptWhole.data[app.HistoryKey], _ = json.Marshal(m)
	keptWhole.data[wholeKey] = whole
	d, envD := annApp(t, keptWhole)
	envD.Do(func() {
		d.AnnGo(5)
		if got := d.AnnUndoList(); !slices.Equal(got, undo5) {
			t.Errorf("sentence 5, its history written whole: undo %q, want %q", got, undo5)
		}
	})
}

// With two tabs on one project, the histories a reload restores are those
// of the tab whose save is the project: a tab that replaces the project
// writes its own histories, and the other tab's are left out even where
// they end at the same state.
func TestAnnotateUndoKeptTwoTabs(t *testing.T) {
	export, _ := otherData(t, 10)
	store := &memStore{}
	opts := app.Options{SaveDelay: time.Hour} // saved by hand only
	a, envA := annAppWith(t, store, opts)
	if p := importWait(t, a, envA, "dev10.export", export, false); p.Err != "" {
		t.Fatal(p.Err)
	}
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	b, envB := annAppWith(t, store, opts)
	replace := func(x *app.App, env *apptest.Env, name string) {
		t.Helper()
		if err := x.AnnSaveNow(); err == nil || !x.Annotate.SaveConflict {
			t.Fatalf("%s: save %v, conflict %v; want a conflict", name, err, x.Annotate.SaveConflict)
		}
		env.Do(x.AnnReplaceSaved)
		env.Wait(t, name+"'s replacing save", wait, func() bool { return !x.Annotate.SaveConflict && x.Annotate.Saved >= x.Annotate.Seq })
	}
	envB.Do(func() { b.AnnGo(3); b.AnnSetNote("seen by B") })
	if err := b.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	// A reaches the same state of sentence 3, goes on and comes back:
	// its history ends where B's does, with a step to redo.
	envA.Do(func() { a.AnnGo(3); a.AnnSetNote("seen by B"); a.AnnSetNote("A again"); a.AnnUndo() })
	replace(a, envA, "A")
	envB.Do(func() { b.AnnGo(6); b.AnnSetNote("six") })
	replace(b, envB, "B")

	c, envC := annApp(t, store)
	envC.Do(func() {
		s3, s6 := c.Annotate.Corpus.Sentences[3], c.Annotate.Corpus.Sentences[6]
		if s3.Note() != "seen by B" || len(s3.UndoList()) != 1 || len(s3.RedoList()) != 0 {
			t.Errorf("sentence 3: note %q, undo %q, redo %q; want B's history, nothing to redo", s3.Note(), s3.UndoList(), s3.RedoList())
		}
		if len(s6.UndoList()) != 1 {
			t.Errorf("sentence 6: undo %q", s6.UndoList())
		}
	})
}

// Each state of a kept history is a record of its own, written once: the
// save after an edit writes, in the project's own transaction, the
// manifest, the edited sentence's history record and the one new state,
// however long the history; the states no kept history holds (the redo
// steps an edit dropped) are removed. A reload puts the history back
// together.
func TestAnnotateUndoKeptStateByState(t *testing.T) {
	store, a, env := handSavedDev10(t)
	const edits = 30
	env.Do(func() { a.AnnGo(4) })
	for i := range edits {
		env.Do(func() { a.AnnSetNote("note " + strconv.Itoa(i)) })
		updates := store.count()
		if err := a.AnnSaveNow(); err != nil {
			t.Fatal(err)
		}
		// One transaction: the project and its histories together.
		if n := store.count() - updates; n != 1 {
			t.Fatalf("save after edit %d: %d store updates, want 1", i+1, n)
		}
		puts := store.lastHistoryPuts()
		var records, states int
		for _, k := range puts {
			switch {
			case strings.HasPrefix(k, app.HistoryStatePrefix):
				states++
			case strings.HasPrefix(k, app.HistoryKey+"/"):
				records++
			}
		}
		want := 1
		if i == 0 {
			want = 2 // the imported state too
		}
		if records != 1 || states != want || len(puts) != 2+want {
			t.Fatalf("save after edit %d wrote %q; want the manifest, one record and %d state(s)", i+1, puts, want)
		}
	}
	stored := func() (n int) {
		for k := range store.data {
			if strings.HasPrefix(k, app.HistoryStatePrefix) {
				n++
			}
		}
		return n
	}
	if n := stored(); n != edits+1 {
		t.Errorf("%d states stored, want %d", n, edits+1)
	}
	env.Do(func() { a.AnnUndo(); a.AnnUndo(); a.AnnUndo(); a.AnnSetNote("after three undos") })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	if n := stored(); n != edits+1-3+1 {
		t.Errorf("after three undos and an edit: %d states stored, want %d", n, edits-1)
	}
	var undo []string
	env.Do(func() { undo = a.AnnUndoList() })
	swapped := store.clone()
	b, envB := annApp(t, store)
	envB.Do(func() {
		if got := b.AnnUndoList(); b.Annotate.Index != 4 || !slices.Equal(got, undo) {
			t.Errorf("after a reload, sentence %d: undo %q, want %q", b.Annotate.Index, got, undo)
		}
	})

	// Two states' records swapped (damaged, or forged): each is checked
	// against its name, and the history is refused rather than replayed
	// in another order.
	var states []string
	for k := range swapped.data {
		if strings.HasPrefix(k, app.HistoryStatePrefix) {
			states = append(states, k)
		}
	}
	slices.Sort(states)
	edited := swapped.clone()
	swapped.data[states[0]], swapped.data[states[1]] = swapped.data[states[1]], swapped.data[states[0]]
	c, envC := annApp(t, swapped)
	envC.Do(func() {
		if got := c.AnnUndoList(); c.Annotate.Index != 4 || len(got) != 0 {
			t.Errorf("states swapped: sentence %d restored undo %q", c.Annotate.Index, got)
		}
	})

	// A record edited in place (a step's description): it still chains
	// and fits, but it is not what its name says.
	var m struct {
		Sentences map[int]string `json:"sentences"`
	}
	if err := json.Unmarshal(edited.data[app.HistoryKey], &m); err != nil {
		t.Fatal(err)
	}
	key := m.Sentences[4]
	var rec map[string]any
	if err := json.Unmarshal(edited.data[key], &rec); err != nil {
		t.Fatal(err)
	}
	rec["undo"].([]any)[0].(map[string]any)["desc"] = "Forged"
	edited.data[key], _ = json.Marshal(rec)
	d, envD := annApp(t, edited)
	envD.Do(func() {
		if got := d.AnnUndoList(); d.Annotate.Index != 4 || len(got) != 0 {
			t.Errorf("record edited: sentence %d restored undo %q", d.Annotate.Index, got)
		}
	})
}

// handSavedDev10 returns a store and an app, saved by hand only, that
// imported the first 10 sentences of the Alpino dev set.
func handSavedDev10(t *testing.T) (*memStore, *app.App, *apptest.Env) {
	t.Helper()
	export, _ := otherData(t, 10)
	store := &memStore{}
	a, env := annAppWith(t, store, app.Options{SaveDelay: time.Hour})
	if p := importWait(t, a, env, "dev10.export", export, false); p.Err != "" {
		t.Fatal(p.Err)
	}
	return store, a, env
}

// A state record damaged in place (its bytes no longer what its key says)
// makes the history that names it be refused at the reload; the next save
// writes it again when a kept history names it (the first state of the
// next edit's history is the sentence's state the damaged one was), so
// that history restores at the reload after.
func TestAnnotateDamagedStateWrittenAgain(t *testing.T) {
	store, a, env := handSavedDev10(t)
	env.Do(func() { a.AnnGo(4); a.AnnSetNote("one"); a.AnnSetNote("two") })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	// The history's current state, damaged in place.
	var m struct {
		Sentences map[int]string `json:"sentences"`
	}
	var rec struct {
		StateKeys []string `json:"state_keys"`
		Current   int      `json:"current"`
	}
	if err := json.Unmarshal(store.data[app.HistoryKey], &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(store.data[m.Sentences[4]], &rec); err != nil {
		t.Fatal(err)
	}
	current := rec.StateKeys[rec.Current]
	good := store.data[current]
	store.data[current] = bytes.Replace(good, []byte(`"two"`), []byte(`"owt"`), 1)
	if bytes.Equal(store.data[current], good) {
		t.Fatalf("the state %s does not hold the note: %s", current, good)
	}

	b, envB := annAppWith(t, store, app.Options{SaveDelay: time.Hour})
	envB.Do(func() {
		if got := b.AnnUndoList(); b.Annotate.Index != 4 || len(got) != 0 {
			t.Errorf("a damaged state: sentence %d restored undo %q", b.Annotate.Index, got)
		}
		b.AnnSetNote("three")
	})
	if err := b.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(store.data[current], good) {
		t.Errorf("the damaged state %s was not written again", current)
	}
	c, envC := annApp(t, store)
	envC.Do(func() {
		if got := c.AnnUndoList(); c.Annotate.Index != 4 || len(got) != 1 {
			t.Errorf("after the save that wrote the state again: sentence %d undo %q, want one step", c.Annotate.Index, got)
		}
	})
}

// A save whose histories the store refuses (short of space) writes the
// project without them and removes those of earlier saves (a manifest of
// an earlier save is never read, as it may be another corpus's: an import
// replaces the corpus under the same writer), so no sentence gets a
// history back, not even one that would fit its state.
func TestAnnotateUndoAfterAnUnfinishedSave(t *testing.T) {
	store, a, env := handSavedDev10(t)
	env.Do(func() { a.AnnGo(3); a.AnnSetNote("three"); a.AnnSetNote("three again") })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	env.Do(func() { a.AnnGo(5); a.AnnSetNote("five") })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	store.setFailHistories(true)
	env.Do(func() { a.AnnSetNote("five again") })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	store.setFailHistories(false)

	b, envB := annApp(t, store)
	envB.Do(func() {
		s3, s5 := b.Annotate.Corpus.Sentences[3], b.Annotate.Corpus.Sentences[5]
		if s5.Note() != "five again" || s3.Note() != "three again" {
			t.Fatalf("notes %q, %q: the project was not saved", s3.Note(), s5.Note())
		}
		if u3, u5 := s3.UndoList(), s5.UndoList(); len(u3)+len(u5) != 0 {
			t.Errorf("histories of an earlier save restored: sentence 3 %q, sentence 5 %q", u3, u5)
		}
	})
}
