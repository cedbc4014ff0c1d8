package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// Two tabs on one project of ten dev sentences, each editing some
// sentences: the tab whose save is refused merges. It takes the other
// tab's analyses of the sentences only that tab changed, keeps its own,
// and keeps its own where both changed (the other tab's save then is the
// second file of the comparison, so its version can be diffed). The other
// tab merges in turn, and a reload holds both tabs' work. A tab that
// added a sentence since cannot merge, and says why.
func TestAnnotateMergeTwoTabs(t *testing.T) {
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
	// note sets the note of sentence i (0-based) of a tab.
	note := func(x *app.App, env *apptest.Env, i int, text string) {
		env.Do(func() { x.AnnGo(i); x.AnnSetNote(text) })
	}
	// merge saves a tab, which must be refused, and merges.
	merge := func(x *app.App, env *apptest.Env, name string) string {
		t.Helper()
		if err := x.AnnSaveNow(); err == nil || !x.Annotate.SaveConflict {
			t.Fatalf("%s: save %v, conflict %v; want a conflict", name, err, x.Annotate.SaveConflict)
		}
		env.Do(x.AnnMergeSaved)
		env.Wait(t, name+"'s merge", wait, func() bool {
			return x.Annotate.Err != "" || !x.Annotate.SaveConflict && x.Annotate.Saved >= x.Annotate.Seq && x.Annotate.SaveErr == ""
		})
		var msg string
		env.Do(func() {
			if x.Annotate.Err != "" {
				t.Fatalf("%s's merge: %s", name, x.Annotate.Err)
			}
			msg = x.Annotate.Msg
		})
		return msg
	}
	note(a, envA, 1, "A2")
	note(a, envA, 6, "A7")
	envA.Do(func() { a.AnnGo(4); a.AnnSetStatus(annotate.Checked.String()) })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	note(b, envB, 2, "B3")
	note(b, envB, 6, "B7")
	envB.Do(func() { b.AnnGo(4); b.AnnSetStatus(annotate.Checked.String()) }) // the same change as A's
	// A note being typed into a sentence the merge takes from A goes to
	// the sentence taken.
	envB.Do(func() { b.AnnGo(1); b.AnnNoteInput("typed in B") })
	msg := merge(b, envB, "B")
	want := "merged: 1 sentence from the other tab's save (2), 1 sentence changed here kept (3); 1 sentence changed in both tabs: this tab's analyses kept (7), the other tab's save is the second file of the comparison"
	if !strings.HasPrefix(msg, want) {
		t.Errorf("B's merge says %q, want it to begin %q", msg, want)
	}
	envB.Do(func() {
		c := b.Annotate.Corpus
		if got := []string{c.Sentences[1].Note(), c.Sentences[2].Note(), c.Sentences[6].Note()}; strings.Join(got, ",") != "A2,B3,B7" {
			t.Errorf("B's notes of sentences 2, 3, 7 after the merge: %q, want A2, B3, B7", got)
		}
		if c.Sentences[4].Status() != annotate.Checked {
			t.Errorf("sentence 5: %v", c.Sentences[4].Status())
		}
		if b.AnnSentence().Note() != "A2" || b.AnnNoteText() != "typed in B" || !b.AnnUnsaved() {
			t.Errorf("the sentence shown (2) has note %q after the merge, the field %q (unsaved %v); want the other tab's A2, the note being typed", b.AnnSentence().Note(), b.AnnNoteText(), b.AnnUnsaved())
		}
		o := b.Annotate.Other
		if o == nil || o.Sentences[6].Note() != "A7" || o.Sentences[2].Note() != "" {
			t.Fatalf("the second file after a merge with a sentence changed in both: %v", o)
		}
		// Editing the merged corpus leaves the other tab's version alone.
		b.AnnGo(1)
		b.AnnSetNote("B2")
		if o.Sentences[1].Note() != "A2" {
			t.Errorf("an edit of a sentence taken from the other tab changed the second file: %q", o.Sentences[1].Note())
		}
	})
	if err := b.AnnSaveNow(); err != nil {
		t.Fatalf("B's save after its merge: %v", err)
	}
	// A merges B's work: sentence 7 is B's now (A did not change it since
	// its save), sentence 2 B's B2, and A's new note on 4 stays.
	note(a, envA, 3, "A4")
	msg = merge(a, envA, "A")
	if want := "merged: 3 sentences from the other tab's save (2, 3, 7), 1 sentence changed here kept (4)"; msg != want {
		t.Errorf("A's merge says %q, want %q", msg, want)
	}
	c, envC := annApp(t, store)
	envC.Do(func() {
		got := []string{}
		for _, s := range c.Annotate.Corpus.Sentences[:7] {
			got = append(got, s.Note())
		}
		if strings.Join(got, ",") != ",B2,B3,A4,,,B7" {
			t.Errorf("notes after a reload: %q", got)
		}
		if c.Annotate.Corpus.Sentences[4].Status() != annotate.Checked {
			t.Errorf("sentence 5 after a reload: %v", c.Annotate.Corpus.Sentences[4].Status())
		}
	})

	// B adds a sentence; A saves meanwhile: B cannot merge.
	envB.Do(func() { b.AnnSetAddText("de man slaapt"); b.AnnAddText() })
	idle(t, b, envB)
	note(a, envA, 8, "A9")
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	if err := b.AnnSaveNow(); err == nil || !b.Annotate.SaveConflict {
		t.Fatalf("B's save after A's: %v", err)
	}
	envB.Do(b.AnnMergeSaved)
	envB.Wait(t, "B's refused merge", wait, func() bool { return b.Annotate.Err != "" })
	envB.Do(func() {
		if e := b.Annotate.Err; !strings.Contains(e, "cannot merge: this tab's corpus has 11 sentences, this tab's last save or restore 10: sentences were added or removed") {
			t.Errorf("B's merge after adding a sentence: %q", e)
		}
		if !b.Annotate.SaveConflict || len(b.Annotate.Corpus.Sentences) != 11 {
			t.Errorf("after a refused merge: conflict %v, %d sentences", b.Annotate.SaveConflict, len(b.Annotate.Corpus.Sentences))
		}
	})
}
