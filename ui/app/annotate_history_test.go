package app_test

import (
	"encoding/json"
	"slices"
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
	kept := store.clone()

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
