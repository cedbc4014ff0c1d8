package app_test

import (
	"slices"
	"testing"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/ui/app"
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

	// The history of sentence 5 kept under sentence 3's key: it does not
	// fit sentence 3, which comes back without a history.
	kept.data[app.HistoryPrefix+"3"] = kept.data[app.HistoryPrefix+"5"]
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
