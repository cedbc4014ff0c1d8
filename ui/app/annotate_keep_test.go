package app_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// Importing a file while a corpus is open asks first: keeping the open
// corpus leaves it and its edits as they were (in the store too);
// replacing it opens the file.
func TestAnnotateImportAsksBeforeReplacing(t *testing.T) {
	export, disc10 := otherData(t, 10)
	disc := disc10[:bytes.Index(disc10, []byte("\n"))+1] // one sentence
	store := &memStore{}
	a, env := annApp(t, store)
	if p := importWait(t, a, env, "dev10.export", export, false); p.Err != "" || p.Waiting || a.Annotate.PendingImport != nil {
		t.Fatalf("first import into no corpus: %+v, pending %v", p, a.Annotate.PendingImport)
	}
	env.Do(func() { a.AnnGo(3); a.AnnSetStatus(annotate.Checked.String()) })
	first := corpusWords(a)

	p := importWait(t, a, env, "other.discbracket", disc, false)
	env.Do(func() {
		if !p.Waiting || a.Annotate.PendingImport == nil {
			t.Fatalf("the second import did not wait: %+v", p)
		}
		q := a.AnnImportQuestion()
		for _, want := range []string{"Replace the open corpus, dev10.export (10 sentences: 1 checked, 0 pre-annotated)", "with other.discbracket", "export it first"} {
			if !strings.Contains(q, want) {
				t.Errorf("question %q lacks %q", q, want)
			}
		}
		if got := corpusWords(a); !slices.Equal(got, first) || a.Annotate.Index != 3 {
			t.Errorf("the open corpus changed before the answer: at %d", a.Annotate.Index)
		}
		a.AnnKey("Escape", false, false) // answers the question: keep the open corpus
		if a.Annotate.PendingImport != nil || p.Waiting || p.Err == "" {
			t.Errorf("after keeping the open corpus: pending %v, progress %+v", a.Annotate.PendingImport, p)
		}
		if got := corpusWords(a); !slices.Equal(got, first) || a.Annotate.Corpus.Sentences[3].Status() != annotate.Checked {
			t.Error("keeping the open corpus changed it")
		}
	})
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	b, _ := annApp(t, store)
	if got := corpusWords(b); !slices.Equal(got, first) || b.Annotate.Corpus.Sentences[3].Status() != annotate.Checked {
		t.Errorf("the store lost the open corpus: %q", got)
	}

	p = importWait(t, a, env, "other.discbracket", disc, false)
	env.Do(func() {
		if !p.Waiting {
			t.Fatalf("the third import did not wait: %+v", p)
		}
		a.AnnConfirmImport()
		want := readTrees(t, "other.discbracket", disc)
		if c := a.Annotate.Corpus; c == nil || c.Name != "other.discbracket" || len(c.Sentences) != len(want) || p.Waiting {
			t.Fatalf("replacing did not open the file: %+v", p)
		}
		if a.Annotate.Gold == nil || len(a.Annotate.Gold.Sentences) != len(want) || a.Annotate.Corpus.Counts()[annotate.Checked] != 0 {
			t.Error("the file's reference analyses or statuses are wrong")
		}
	})
}

// Removing a sentence can be undone: Ctrl+Z right after it, or the
// "put back" button later, restores the sentence where it was with its
// reference analysis and its edits; Ctrl+Z after another edit undoes that
// edit instead. Removing the only sentence and putting it back restores
// the corpus.
func TestAnnotateRemoveUndo(t *testing.T) {
	export, _ := otherData(t, 5)
	a, env := annApp(t, &memStore{})
	importWait(t, a, env, "dev5.export", export, false)
	var all []string
	var removed *annotate.Sentence
	env.Do(func() {
		all = corpusWords(a)
		a.AnnGo(2)
		a.AnnSetNote("checked by hand")
		removed = a.AnnSentence()
		a.AnnRemove()
		if got := corpusWords(a); len(got) != 4 || a.AnnRemovedID() != removed.ID() {
			t.Fatalf("after the removal: %d sentences, removed %q", len(got), a.AnnRemovedID())
		}
		a.AnnKey("z", false, true)
		if got := corpusWords(a); !slices.Equal(got, all) || a.Annotate.Index != 2 || a.AnnSentence() != removed || a.AnnSentence().Note() != "checked by hand" {
			t.Fatalf("Ctrl+Z after a removal: %q at %d", got, a.Annotate.Index)
		}
		if len(a.Annotate.Gold.Sentences) != 5 || a.Annotate.Gold.Sentences[2].Tree().Words()[0] != removed.Tree().Words()[0] {
			t.Error("the reference analysis was not put back")
		}
		if a.AnnRemovedID() != "" {
			t.Error("a sentence put back can be put back again")
		}

		// Remove, then edit another sentence: Ctrl+Z undoes the edit.
		a.AnnRemove()
		a.AnnGo(0)
		a.AnnSetStatus(annotate.Checked.String())
		a.AnnKey("z", false, true)
		if len(a.Annotate.Corpus.Sentences) != 4 || a.AnnSentence().Status() == annotate.Checked {
			t.Fatalf("Ctrl+Z after another edit: %d sentences, status %v", len(a.Annotate.Corpus.Sentences), a.AnnSentence().Status())
		}
		// Search hits found while the sentence was out point past it: they
		// go when it is put back.
		a.AnnSetQuery(all[3][:strings.IndexByte(all[3]+" ", ' ')])
		a.AnnSearch()
		if len(a.Annotate.Hits) == 0 {
			t.Fatalf("search %q found nothing", a.Annotate.Query)
		}
		a.AnnRestoreRemoved()
		if got := corpusWords(a); !slices.Equal(got, all) || a.Annotate.Index != 2 {
			t.Fatalf("put back later: %q at %d", got, a.Annotate.Index)
		}
		if len(a.Annotate.Hits) != 0 {
			t.Errorf("hits %v kept after the sentence was put back; they point at the wrong sentences", a.Annotate.Hits)
		}
	})

	// The only sentence.
	one, _ := otherData(t, 1)
	b, envB := annApp(t, &memStore{})
	importWait(t, b, envB, "dev1.export", one, false)
	envB.Do(func() {
		b.AnnRemove()
		if b.Annotate.Corpus != nil || b.AnnRemovedID() == "" {
			t.Fatal("removing the only sentence")
		}
		b.AnnKey("z", false, true)
		if c := b.Annotate.Corpus; c == nil || len(c.Sentences) != 1 || c.Name != "dev1.export" || b.Annotate.Gold == nil {
			t.Fatal("the emptied corpus was not restored")
		}
	})
}

// failingStore is a store whose saves fail, as a browser without IndexedDB
// or with a full quota.
type failingStore struct {
	memStore
	mu   sync.Mutex
	fail bool
}

func (f *failingStore) StoreUpdate(prefix string, decide app.StoreDecision) error {
	f.mu.Lock()
	fail := f.fail
	f.mu.Unlock()
	if fail {
		return errors.New("quota exceeded")
	}
	return f.memStore.StoreUpdate(prefix, decide)
}

// annAppWith is annApp with any store and options; it waits for the
// model, and for the restore unless the store holds it back.
func annAppWith(t *testing.T, st app.Store, opts app.Options) (*app.App, *apptest.Env) {
	t.Helper()
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 61.25)
	env := &apptest.Env{}
	var platform app.Platform = struct {
		*apptest.Platform
		app.Store
	}{plat, st}
	if ps, ok := st.(app.PersistentStore); ok {
		platform = struct {
			*apptest.Platform
			app.Store
			app.PersistentStore
		}{plat, st, ps}
	}
	a := app.New(env, platform, opts)
	env.Do(a.Start)
	env.Wait(t, "the model", wait, func() bool { return a.Model.Ready() })
	if _, held := st.(blockingStore); !held {
		env.Wait(t, "the restore", wait, func() bool { return a.Annotate.Restored })
	}
	return a, env
}

// What the tab says about saving follows the store: saving, saved, and
// not saved when the store refuses (the page then warns before it is
// closed); a flush saves at once (the debounced save would wait an hour
// here).
func TestAnnotateSaveState(t *testing.T) {
	export, _ := otherData(t, 2)
	store := &memStore{}
	a, env := annAppWith(t, store, app.Options{SaveDelay: time.Hour})
	env.Do(func() {
		if a.AnnUnsaved() || a.AnnUnsavedNow() {
			t.Error("unsaved before any change")
		}
	})
	importWait(t, a, env, "dev2.export", export, false)
	env.Do(func() {
		a.AnnSetStatus(annotate.Checked.String())
		if !a.AnnUnsaved() || !a.AnnUnsavedNow() || a.AnnSaveState() != "saving…" || store.count() != 0 {
			t.Errorf("after an edit: unsaved %v/%v, %q, %d saves", a.AnnUnsaved(), a.AnnUnsavedNow(), a.AnnSaveState(), store.count())
		}
		a.AnnFlush()
	})
	env.Wait(t, "the flush", wait, func() bool { return !a.AnnUnsaved() })
	env.Do(func() {
		if got := a.AnnSaveState(); got != "saved in this browser" || a.AnnUnsavedNow() || store.count() != 1 {
			t.Errorf("after the flush: %q, unsaved %v, %d saves", got, a.AnnUnsavedNow(), store.count())
		}
		// A note being typed (the field sets it only when it loses the
		// focus, which closing the page never does) counts as unsaved, is
		// what the field shows, and a flush (the page hidden or closed)
		// sets and saves it.
		a.AnnNoteInput("half a thought")
		if !a.AnnUnsaved() || !a.AnnUnsavedNow() || a.AnnNoteText() != "half a thought" || a.AnnSentence().Note() != "" {
			t.Errorf("while a note is typed: unsaved %v/%v, field %q, note %q", a.AnnUnsaved(), a.AnnUnsavedNow(), a.AnnNoteText(), a.AnnSentence().Note())
		}
		a.AnnFlush()
		if got := a.AnnSentence().Note(); got != "half a thought" {
			t.Errorf("after the flush the note is %q; want the one typed", got)
		}
	})
	env.Wait(t, "the note's save", wait, func() bool { return !a.AnnUnsaved() })
	b, _ := annAppWith(t, store, app.Options{})
	if got := b.Annotate.Corpus.Sentences[0].Note(); got != "half a thought" {
		t.Errorf("the saved project's note is %q; want the one typed before the page was hidden", got)
	}

	fs := &failingStore{}
	c, envC := annAppWith(t, fs, app.Options{})
	importWait(t, c, envC, "dev2.export", export, false)
	envC.Wait(t, "the first save", wait, func() bool { return !c.AnnUnsaved() })
	fs.mu.Lock()
	fs.fail = true
	fs.mu.Unlock()
	envC.Do(func() { c.AnnSetStatus(annotate.Checked.String()) })
	envC.Wait(t, "the failed save", wait, func() bool { return c.Annotate.SaveErr != "" })
	envC.Do(func() {
		if got := c.AnnSaveState(); !strings.HasPrefix(got, "NOT saved") || !c.AnnUnsaved() || !strings.Contains(c.Annotate.SaveErr, "quota exceeded") {
			t.Errorf("after a failed save: %q, unsaved %v, %q", got, c.AnnUnsaved(), c.Annotate.SaveErr)
		}
	})
}

// A saved project that cannot be read is set aside, not overwritten by
// the next save.
func TestAnnotateUnreadableProjectKept(t *testing.T) {
	bad := []byte(`{"version": 99, "corpus": {}}`)
	store := &memStore{data: map[string][]byte{app.StoreKey: bad}}
	a, env := annApp(t, store)
	env.Do(func() {
		if !strings.Contains(a.Annotate.SaveErr, app.UnreadableKey) {
			t.Errorf("restore error %q does not say where the project is kept", a.Annotate.SaveErr)
		}
	})
	export, _ := otherData(t, 1)
	importWait(t, a, env, "dev1.export", export, false)
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	kept, ok := store.load(app.UnreadableKey)
	if !ok || string(kept) != string(bad) {
		t.Errorf("kept %q", kept)
	}
}

// The corpus view lists a big corpus a page at a time: the page of the
// sentence shown, or the one the annotator turns to.
func TestAnnotateListPages(t *testing.T) {
	const n = 2*app.ListRows + app.ListRows/2
	export, _ := otherData(t, n)
	a, env := annApp(t, &memStore{})
	importWait(t, a, env, "dev.export", export, false)
	env.Do(func() {
		if len(a.Annotate.Corpus.Sentences) != n {
			t.Fatalf("%d sentences imported, want %d", len(a.Annotate.Corpus.Sentences), n)
		}
		steps := []struct {
			name     string
			do       func()
			from, to int // the rows listed, 0-based, to exclusive
			at       int // the sentence shown
		}{
			{"at the start", func() {}, 0, app.ListRows, 0},
			{"going to a sentence on the second page", func() { a.AnnGo(app.ListRows + 7) }, app.ListRows, 2 * app.ListRows, app.ListRows + 7},
			{"turning to the next page", func() { a.AnnListPage(1) }, 2 * app.ListRows, n, app.ListRows + 7},
			{"past the last page", func() { a.AnnListPage(1) }, 2 * app.ListRows, n, app.ListRows + 7},
			{"back past the first", func() { a.AnnListPage(-5) }, 0, app.ListRows, app.ListRows + 7},
			{"the next sentence from a page elsewhere", func() { a.AnnGo(a.Annotate.Index + 1) }, app.ListRows, 2 * app.ListRows, app.ListRows + 8},
		}
		for _, st := range steps {
			st.do()
			rows := a.AnnListRows()
			if len(rows) != st.to-st.from || rows[0].Index != st.from || rows[len(rows)-1].Index != st.to-1 || a.Annotate.Index != st.at {
				t.Errorf("%s: %d rows from %d, at %d; want %d-%d at %d", st.name, len(rows), rows[0].Index, a.Annotate.Index, st.from, st.to, st.at)
			}
			for _, r := range rows {
				if r.Sentence != a.Annotate.Corpus.Sentences[r.Index] {
					t.Fatalf("%s: row %d is not sentence %d", st.name, r.Index, r.Index)
				}
			}
		}
		if got, want := a.AnnListRange(), "sentences 101–200 of 250"; got != want {
			t.Errorf("range %q, want %q", got, want)
		}
	})
}

// An edit of a tree imported from a file changes only what it says: the
// model does not re-parse it, so the other constituents and the function
// labels stay (a pre-annotated tree is re-parsed, as the other tests show).
func TestAnnotateImportedTreeEditedAsItIs(t *testing.T) {
	export, _ := otherData(t, 10)
	a, env := annApp(t, &memStore{})
	importWait(t, a, env, "dev10.export", export, false)
	env.Do(func() {
		// Two neighbouring words that are both direct children of one node.
		words := selectWords(t, a, func(tr *tree.Tree, p int) bool {
			return tr.Tokens[p].Parent != tree.Root && tr.Tokens[p].Parent == tr.Tokens[p+1].Parent && len(tr.Yields()[tr.Tokens[p].Parent]) > 2
		})
		before := a.AnnSentence().Tree()
		label := a.AnnLabels()[0]
		a.AnnCreate(label)
		if a.Annotate.Busy || a.Annotate.Err != "" {
			t.Fatalf("the edit re-parses (busy %v) or fails: %q", a.Annotate.Busy, a.Annotate.Err)
		}
		after := a.AnnSentence().Tree()
		if len(after.Nodes) != len(before.Nodes)+1 || nodeOver(after, label, words) < 0 {
			t.Fatalf("after creating %s over %v: %d nodes, had %d", label, words, len(after.Nodes), len(before.Nodes))
		}
		for i, n := range before.Nodes {
			if after.Nodes[i].Label != n.Label || after.Nodes[i].Edge != n.Edge || !slices.Equal(after.Yields()[i], before.Yields()[i]) {
				t.Errorf("node %d %s/%s %v became %s/%s %v", i, n.Label, n.Edge, before.Yields()[i], after.Nodes[i].Label, after.Nodes[i].Edge, after.Yields()[i])
			}
		}
		for i, tok := range before.Tokens {
			if after.Tokens[i].Edge != tok.Edge {
				t.Errorf("word %d's function %q became %q", i, tok.Edge, after.Tokens[i].Edge)
			}
		}
	})
}

// A constituent that crosses a node of an imported tree is refused with
// what to do: delete that node first, or mark the sentence pre-annotated
// and let the model re-parse it, which then builds the constituent.
func TestAnnotateCrossingOnImportedTree(t *testing.T) {
	export, _ := otherData(t, 10)
	a, env := annApp(t, &memStore{})
	importWait(t, a, env, "dev10.export", export, false)
	var words []int
	var label, crossed string
	env.Do(func() {
		// The last word p of a node of several words, and the word after
		// it, outside that node: a selection that crosses the node.
		words = selectWords(t, a, func(tr *tree.Tree, p int) bool {
			for n, y := range tr.Yields() {
				if len(y) >= 2 && y[len(y)-1] == p && !slices.Contains(y, p+1) {
					crossed = tr.Nodes[n].Label
					return true
				}
			}
			return false
		})
		label = a.AnnLabels()[0]
		a.AnnCreate(label)
		msg := a.Annotate.Err
		if !strings.Contains(msg, "came from a file") || !strings.Contains(msg, "delete "+crossed+" first") || !strings.Contains(msg, "mark the sentence pre-annotated") {
			t.Errorf("crossing %s: %q", crossed, msg)
		}
		a.AnnSetStatus(annotate.Checked.String())
		a.AnnCreate(label)
		if msg := a.Annotate.Err; !strings.Contains(msg, "marked checked") {
			t.Errorf("on a checked tree: %q", msg)
		}
		a.AnnSetStatus(annotate.PreAnnotated.String())
		a.AnnCreate(label)
	})
	idle(t, a, env)
	env.Do(func() {
		if tr := a.AnnSentence().Tree(); nodeOver(tr, label, words) < 0 {
			t.Errorf("pre-annotated: the re-parse did not build %s over %v", label, words)
		}
	})
}

// selectWords shows the first sentence of the corpus with a word p for
// which pick(tree, p) holds (p+1 being a word too), and selects words p
// and p+1, which it returns (the caller holds the lock).
func selectWords(t *testing.T, a *app.App, pick func(tr *tree.Tree, p int) bool) []int {
	t.Helper()
	for i, s := range a.Annotate.Corpus.Sentences {
		tr := s.Tree()
		for p := 0; p+1 < tr.Len(); p++ {
			if pick(tr, p) {
				a.AnnGo(i)
				a.Annotate.Sel = app.NewSelection(tr.Len())
				a.AnnClickWord(p, false, false)
				a.AnnClickWord(p+1, true, false)
				return []int{p, p + 1}
			}
		}
	}
	t.Fatal("no sentence to edit")
	return nil
}

// blockingStore is a store whose first load waits for release: the
// restore at start-up is slow.
type blockingStore struct {
	*memStore
	release chan struct{}
}

func (b blockingStore) StoreRead(key, prefix string) (map[string][]byte, error) {
	<-b.release
	return b.memStore.StoreRead(key, prefix)
}

// A file imported before the saved project is restored waits: it would
// otherwise open, and the saved project be dropped and overwritten. With
// nothing saved, it opens once the restore ends. A file waiting is
// dropped when another one opens.
func TestAnnotateImportDuringRestore(t *testing.T) {
	export, disc10 := otherData(t, 3)
	disc := disc10[:bytes.Index(disc10, []byte("\n"))+1]
	saved := &memStore{}
	a0, env0 := annApp(t, saved)
	importWait(t, a0, env0, "dev3.export", export, false)
	if err := a0.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	for _, withSaved := range []bool{true, false} {
		store := &memStore{}
		if withSaved {
			store = saved
		}
		bs := blockingStore{store, make(chan struct{})}
		a, env := annAppWith(t, bs, app.Options{})
		p := importWait(t, a, env, "one.discbracket", disc, false)
		env.Do(func() {
			if a.Annotate.Corpus != nil || a.Annotate.PendingImport == nil || !p.Waiting {
				t.Fatalf("saved %v: an import before the restore opened at once", withSaved)
			}
		})
		close(bs.release)
		env.Wait(t, "the restore", wait, func() bool { return a.Annotate.Restored })
		env.Do(func() {
			c := a.Annotate.Corpus
			switch {
			case withSaved && (c == nil || c.Name != "dev3.export" || a.Annotate.PendingImport == nil || !strings.Contains(a.AnnImportQuestion(), "Replace the open corpus, dev3.export")):
				t.Errorf("with a saved project: corpus %v, question %q", c, a.AnnImportQuestion())
			case !withSaved && (c == nil || c.Name != "one.discbracket" || a.Annotate.PendingImport != nil || p.Waiting):
				t.Errorf("with nothing saved: corpus %v, pending %v", c, a.Annotate.PendingImport)
			}
		})
		if !withSaved {
			continue
		}
		// The file waits; the corpus is given up, another file opens: the
		// question goes.
		env.Do(func() { a.AnnNewCorpus(); a.AnnNewCorpus() })
		q := importWait(t, a, env, "dev3.export", export, false)
		env.Do(func() {
			if c := a.Annotate.Corpus; c == nil || c.Name != "dev3.export" || a.Annotate.PendingImport != nil || p.Waiting || q.Waiting {
				t.Errorf("after another file opened: corpus %v, pending %v, first %+v", c, a.Annotate.PendingImport, p)
			}
		})
	}
}

// Removing sentences while pre-annotation runs: the job parses the
// sentences that are left, each into its own place, and Ctrl+Z still puts
// the removed sentence back (the job's changes are not the annotator's).
func TestAnnotateRemoveDuringPreAnnotation(t *testing.T) {
	export, _ := otherData(t, 4)
	a, env := annApp(t, &memStore{})
	importWait(t, a, env, "dev4.export", export, false)
	var words []string
	env.Do(func() {
		words = corpusWords(a)
		a.AnnGo(1)
		a.AnnSetNote("ask the teacher")
		a.AnnPreAnnotate() // its parses wait for the lock
		a.AnnGo(3)
		a.AnnRemove() // the last: its position no longer exists
		a.AnnGo(0)
		a.AnnRemove()
	})
	env.Wait(t, "the pre-annotation", wait, func() bool { return a.Job == nil })
	env.Do(func() {
		if got := corpusWords(a); !slices.Equal(got, words[1:3]) || a.AnnCounts() != [3]int{0, 2, 0} {
			t.Fatalf("after the job: %q, counts %v", got, a.AnnCounts())
		}
		if got := a.Annotate.Corpus.Sentences[0].Note(); got != "ask the teacher" {
			t.Errorf("pre-annotation lost the note: %q", got)
		}
		a.AnnKey("z", false, true)
		if got := corpusWords(a); !slices.Equal(got, words[:3]) {
			t.Errorf("Ctrl+Z after the job: %q", got)
		}
	})
}

// clone returns a copy of the store's contents as a new store.
func (m *memStore) clone() *memStore {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &memStore{data: maps.Clone(m.data)}
}

// savedDev3 returns a store holding a saved project of three Alpino dev
// sentences.
func savedDev3(t *testing.T) *memStore {
	t.Helper()
	export, _ := otherData(t, 3)
	store := &memStore{}
	a, env := annApp(t, store)
	importWait(t, a, env, "dev3.export", export, false)
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	return store
}

// Sentences added while the saved work is being restored would start a
// corpus that hides it (and the next save would replace it): they are
// refused until the restore ends.
func TestAnnotateAddDuringRestore(t *testing.T) {
	bs := blockingStore{savedDev3(t), make(chan struct{})}
	a, env := annAppWith(t, bs, app.Options{})
	env.Do(func() {
		a.AnnSetAddText("de man slaapt")
		a.AnnAddText()
		if a.Annotate.Corpus != nil || !strings.Contains(a.Annotate.Err, "looking for saved work") {
			t.Errorf("added during the restore: corpus %v, error %q", a.Annotate.Corpus, a.Annotate.Err)
		}
	})
	close(bs.release)
	env.Wait(t, "the restore", wait, func() bool { return a.Annotate.Restored })
	env.Do(func() {
		if c := a.Annotate.Corpus; c == nil || c.Name != "dev3.export" || len(c.Sentences) != 3 {
			t.Fatalf("restored %v", c)
		}
		a.AnnAddText()
	})
	idle(t, a, env)
	env.Do(func() {
		if n := len(a.Annotate.Corpus.Sentences); n != 4 {
			t.Errorf("after the restore, the sentence is not added: %d sentences", n)
		}
	})
}

// readFailStore is a store whose first reads of the project fail.
type readFailStore struct {
	*memStore
	mu    sync.Mutex
	fails int
}

func (r *readFailStore) StoreRead(key, prefix string) (map[string][]byte, error) {
	r.mu.Lock()
	fail := r.fails > 0 && key == app.StoreKey
	if fail {
		r.fails--
	}
	r.mu.Unlock()
	if fail {
		return nil, errors.New("the database is blocked")
	}
	return r.memStore.StoreRead(key, prefix)
}

// A saved project that the restore could not read is not replaced by the
// next save: that save sets it aside first, and fails (the work stays
// unsaved, and the page says so) while the store still cannot read it.
func TestAnnotateRestoreReadFails(t *testing.T) {
	saved := savedDev3(t)
	manifest, _ := saved.load(app.StoreKey)
	for _, tc := range []struct {
		name  string
		fails int // reads that fail: the restore's, then the saves'
	}{
		{"read again at the first save", 1},
		{"still unreadable at the first save", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &readFailStore{memStore: saved.clone(), fails: tc.fails}
			a, env := annAppWith(t, store, app.Options{SaveDelay: time.Hour})
			env.Do(func() {
				if msg := a.Annotate.SaveErr; !strings.Contains(msg, "the database is blocked") || !strings.Contains(msg, "before anything replaces it") {
					t.Errorf("restore error %q", msg)
				}
				a.AnnSetAddText("de man slaapt")
				a.AnnAddText()
			})
			idle(t, a, env)
			err := a.AnnSaveNow()
			kept, _ := store.load(app.UnreadableKey)
			now, _ := store.load(app.StoreKey)
			if tc.fails > 1 {
				if err == nil || !strings.Contains(err.Error(), "not replaced") || !bytes.Equal(now, manifest) {
					t.Fatalf("saved over the unread project: %v", err)
				}
				env.Do(func() {
					if st := a.AnnSaveState(); !strings.HasPrefix(st, "NOT saved") {
						t.Errorf("save state %q", st)
					}
				})
				// Once the store reads again, the next save sets it aside.
				if err = a.AnnSaveNow(); err != nil {
					t.Fatal(err)
				}
				kept, _ = store.load(app.UnreadableKey)
				now, _ = store.load(app.StoreKey)
			}
			if err != nil || !bytes.Equal(kept, manifest) || bytes.Equal(now, manifest) {
				t.Fatalf("the unread project is not set aside before the save (%v)", err)
			}
			env.Do(func() {
				if msg := a.Annotate.Msg; !strings.Contains(msg, "dev3.export (3 sentences)") || !strings.Contains(msg, app.UnreadableKey) {
					t.Errorf("the tab does not say what was kept: %q", msg)
				}
			})
			b, envB := annApp(t, store.memStore)
			envB.Do(func() {
				if c := b.Annotate.Corpus; c == nil || len(c.Sentences) != 1 {
					t.Errorf("the new work is not saved: %v (%s)", c, b.Annotate.SaveErr)
				}
			})
		})
	}
}

// persistStore is a store that answers whether it is persistent.
type persistStore struct {
	*memStore
	mu     sync.Mutex
	answer bool
	err    error
	asked  int
	block  chan struct{} // when not nil, the answer waits for it
}

func (p *persistStore) StorePersist() (bool, error) {
	p.mu.Lock()
	p.asked++
	block := p.block
	p.mu.Unlock()
	if block != nil {
		<-block // the user has not answered the browser's question
	}
	return p.answer, p.err
}

// After the first save of a corpus, the browser is asked once to protect
// the saved work; the tab warns when it may clear it.
func TestAnnotateAsksPersistence(t *testing.T) {
	export, _ := otherData(t, 2)
	for _, tc := range []struct {
		name   string
		answer bool
		err    error
		note   string
	}{
		{"granted", true, nil, ""},
		{"refused", false, nil, "may clear saved work when it is short of space"},
		{"failed", false, errors.New("no Storage API"), "may clear saved work (no Storage API)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &persistStore{memStore: &memStore{}, answer: tc.answer, err: tc.err}
			a, env := annAppWith(t, store, app.Options{SaveDelay: time.Hour})
			importWait(t, a, env, "dev2.export", export, false)
			for range 2 {
				env.Do(func() { a.AnnSetStatus(annotate.Checked.String()); a.AnnGo(1) })
				if err := a.AnnSaveNow(); err != nil {
					t.Fatal(err)
				}
			}
			env.Wait(t, "the answer", wait, func() bool { return a.Annotate.Persistence != app.PersistUnknown })
			env.Do(func() {
				note := a.AnnStorageNote()
				store.mu.Lock()
				defer store.mu.Unlock()
				if store.asked != 1 || (tc.note == "") != (note == "") || !strings.Contains(note, tc.note) {
					t.Errorf("asked %d times; note %q, want %q", store.asked, note, tc.note)
				}
			})
		})
	}
}

// Saves go on while the browser waits for the user's answer about
// persistent storage (Firefox asks; the answer may never come).
func TestAnnotatePersistenceQuestionDoesNotBlockSaves(t *testing.T) {
	export, _ := otherData(t, 2)
	store := &persistStore{memStore: &memStore{}, block: make(chan struct{})}
	defer close(store.block)
	a, env := annAppWith(t, store, app.Options{SaveDelay: time.Hour})
	importWait(t, a, env, "dev2.export", export, false)
	for i := range 3 {
		env.Do(func() {
			a.AnnGo(i % 2)
			a.AnnSetStatus(annotate.Checked.String())
			a.AnnSetNote(fmt.Sprint("note ", i))
		})
		if err := a.AnnSaveNow(); err != nil {
			t.Fatal(err)
		}
		env.Do(func() {
			if st := a.AnnSaveState(); st != "saved in this browser" {
				t.Errorf("save %d: %q", i, st)
			}
		})
	}
}

// A project the restore read but could not set aside is set aside by the
// first save; a save by another tab since the restore is still refused
// (the first save does not take it as seen).
func TestAnnotateSetAsideLaterStillAsks(t *testing.T) {
	fs := &failingStore{fail: true}
	fs.data = map[string][]byte{app.StoreKey: []byte(`{"version": 99}`)}
	a, env := annAppWith(t, fs, app.Options{SaveDelay: time.Hour})
	env.Do(func() {
		if msg := a.Annotate.SaveErr; !strings.Contains(msg, "could not be set aside yet") {
			t.Fatalf("restore: %q", msg)
		}
	})
	// Another tab (a newer version, say) saves meanwhile.
	fs.mu.Lock()
	fs.fail = false
	fs.mu.Unlock()
	fs.memStore.mu.Lock()
	fs.data[app.StoreKey+"/writer-other.1"] = nil
	fs.memStore.mu.Unlock()
	env.Do(func() { a.AnnSetAddText("de man slaapt"); a.AnnAddText() })
	idle(t, a, env)
	err := a.AnnSaveNow()
	env.Do(func() {
		if err == nil || !a.Annotate.SaveConflict {
			t.Errorf("the other tab's save is replaced without asking (%v)", err)
		}
	})
	if _, ok := fs.load(app.UnreadableKey); !ok {
		t.Error("the unreadable project is not set aside")
	}
}

// The projects kept aside are listed: one that this version cannot read,
// with why, and one it can, which opens as it was saved, reference trees
// included (over an open corpus after the import's question); each can be
// deleted (a second click confirms).
func TestAnnotateKeptProjects(t *testing.T) {
	saved := savedDev3(t)
	store := &readFailStore{memStore: saved.clone(), fails: 1}
	store.data[app.UnreadableKey] = []byte(`{"version": 99}`) // kept aside by an earlier visit
	a, env := annAppWith(t, store, app.Options{SaveDelay: time.Hour})
	env.Wait(t, "the list of kept projects", wait, func() bool { return len(a.Annotate.Kept) == 1 })
	env.Do(func() {
		if k := a.Annotate.Kept[0]; k.Key != app.UnreadableKey || k.Readable || !strings.Contains(k.What, "version 99") {
			t.Errorf("kept %+v", k)
		}
		a.AnnSetAddText("de man slaapt")
		a.AnnAddText()
	})
	idle(t, a, env)
	if err := a.AnnSaveNow(); err != nil { // sets the unread project aside first
		t.Fatal(err)
	}
	env.Wait(t, "the list of kept projects", wait, func() bool { return len(a.Annotate.Kept) == 2 })
	second := app.UnreadableKey + "-2"
	env.Do(func() {
		k := a.Annotate.Kept[1]
		if k.Key != second || !k.Readable || k.What != "dev3.export (3 sentences)" {
			t.Fatalf("kept %+v", k)
		}
		// Over the open corpus: the tab asks first, as for a file.
		a.AnnOpenKept(second)
		if a.Annotate.Corpus.Name == "dev3.export" || a.Annotate.PendingImport == nil {
			t.Fatalf("opened over the open corpus without asking (%q)", a.Annotate.Err)
		}
		if q := a.AnnImportQuestion(); !strings.Contains(q, "Replace the open corpus") || !strings.Contains(q, "with dev3.export, kept aside under "+second+" (3 sentences)?") {
			t.Errorf("question %q", q)
		}
		a.AnnCancelImport()
		if a.Annotate.PendingImport != nil || len(a.Annotate.Corpus.Sentences) != 1 {
			t.Fatal("the open corpus was not kept")
		}
		a.AnnOpenKept(second)
		a.AnnConfirmImport()
		if c := a.Annotate.Corpus; a.Annotate.PendingImport != nil || c == nil || c.Name != "dev3.export" || len(c.Sentences) != 3 || a.Annotate.Gold == nil {
			t.Fatalf("opened %v (reference trees %v)", c, a.Annotate.Gold != nil)
		}
		// With an empty corpus open, it opens at once.
		a.AnnNewCorpus()
		a.AnnNewCorpus() // confirmed
		a.AnnOpenKept(second)
		if c := a.Annotate.Corpus; a.Annotate.PendingImport != nil || c == nil || c.Name != "dev3.export" || len(c.Sentences) != 3 || a.Annotate.Gold == nil {
			t.Fatalf("opened %v (reference trees %v)", c, a.Annotate.Gold != nil)
		}
		a.AnnDeleteKept(app.UnreadableKey)
		if len(a.Annotate.Kept) != 2 || a.Annotate.ConfirmDeleteKept != app.UnreadableKey {
			t.Error("deleted at the first click")
		}
		a.AnnDeleteKept(app.UnreadableKey)
	})
	env.Wait(t, "the deletion", wait, func() bool { return len(a.Annotate.Kept) == 1 })
	if _, ok := store.load(app.UnreadableKey); ok {
		t.Error("the project deleted is still in the store")
	}
	if _, ok := store.load(second); !ok {
		t.Error("the other kept project went too")
	}
	// A question about a project kept aside ends when it is deleted.
	env.Do(func() {
		a.AnnOpenKept(second)
		if a.Annotate.PendingImport == nil {
			t.Fatal("no question over the open corpus")
		}
		a.AnnDeleteKept(second)
		a.AnnDeleteKept(second)
	})
	env.Wait(t, "the deletion", wait, func() bool { return len(a.Annotate.Kept) == 0 })
	env.Do(func() {
		if a.Annotate.PendingImport != nil {
			t.Error("the question about the deleted project is still asked")
		}
	})
}

// TestAnnotateImportSkipsMalformed: a file with more than ten malformed
// sentences opens with every good sentence, the ones after the errors
// included, and the import and the message say how many were left out
// and where the first is.
func TestAnnotateImportSkipsMalformed(t *testing.T) {
	_, disc := otherData(t, 10)
	lines := strings.SplitAfter(strings.TrimSuffix(string(disc), "\n"), "\n")
	var in strings.Builder
	for range 12 {
		in.WriteString("(ROOT (S 0=a)\n") // unbalanced
	}
	for _, l := range lines {
		in.WriteString(strings.TrimSuffix(l, "\n") + "\n")
	}
	a, env := annApp(t, &memStore{})
	p := importWait(t, a, env, "bad.discbracket", []byte(in.String()), false)
	env.Do(func() {
		if p.Err != "" || p.Sentences != len(lines) || a.Annotate.Corpus == nil || len(a.Annotate.Corpus.Sentences) != len(lines) {
			t.Fatalf("import %+v; want the %d good sentences opened", p, len(lines))
		}
		for _, got := range []string{p.Skipped, a.Annotate.Msg} {
			if !strings.Contains(got, "12 malformed sentences left out (first at line 1: ") {
				t.Errorf("%q; want it to say 12 malformed sentences were left out, the first at line 1", got)
			}
		}
	})
}

// TestAnnotateExportUnwritable: a sentence export cannot hold (a word
// "#1") is listed among its problems, and exporting the corpus as export
// says in the tab which sentence and why; discbracket still exports it.
func TestAnnotateExportUnwritable(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 61.25)
	env := &apptest.Env{}
	a := app.New(env, storePlatform{plat, &memStore{}}, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the model", wait, func() bool { return a.Model.Ready() && a.Annotate.Restored })
	env.Do(func() { a.SetTab(app.TabAnnotate) })
	in := "(ROOT (S (N 0=Hij) (V 1=belt)))\n(ROOT (S (N 0=Hij) (V 1=belt) (N 2=#1)))\n"
	if p := importWait(t, a, env, "hash.discbracket", []byte(in), false); p.Err != "" || p.Sentences != 2 {
		t.Fatalf("import %+v", p)
	}
	env.Do(func() {
		a.AnnGo(1)
		found := false
		for _, p := range a.Annotate.Problems {
			found = found || (p.Kind == annotate.Unwritable && strings.Contains(p.Msg, "export"))
		}
		if !found {
			t.Errorf("problems %v; want one saying export cannot hold the sentence", a.Annotate.Problems)
		}
		a.AnnExport(app.FormatExport)
		if want := `cannot export as export: sentence 2: token 2: word "#1"`; !strings.Contains(a.Annotate.Err, want) {
			t.Errorf("error %q; want it to contain %q", a.Annotate.Err, want)
		}
		a.AnnExport(app.FormatDiscbracket)
	})
	if got := plat.SavedNames(); !slices.Equal(got, []string{"hash.discbracket"}) {
		t.Errorf("saved %v; want only the discbracket file", got)
	}
}

// TestRemoveAddPutBackKeepsIDsUnique: a sentence added while the last one
// removed (the highest id) may still be put back gets an id of its own, so
// that putting it back leaves no two sentences with one id, and the corpus
// exports as TIGER-XML (which refuses repeated ids).
func TestRemoveAddPutBackKeepsIDsUnique(t *testing.T) {
	a, env := annApp(t, &memStore{})
	s0, s1, s2 := strings.Join(apptest.Sentences[0], " "), strings.Join(apptest.Sentences[1], " "), strings.Join(apptest.Sentences[2], " ")
	env.Do(func() { a.SetTab(app.TabAnnotate); a.AnnSetAddText(s0 + "\n" + s1); a.AnnAddText() })
	idle(t, a, env)
	env.Do(func() { a.AnnGo(1); a.AnnRemove() })
	env.Do(func() { a.AnnSetAddText(s2); a.AnnAddText() })
	idle(t, a, env)
	env.Do(func() {
		a.AnnGo(0)
		a.AnnRestoreRemoved()
		var ids []string
		for _, s := range a.Annotate.Corpus.Sentences {
			ids = append(ids, s.ID())
		}
		if len(ids) != 3 || len(slices.Compact(slices.Sorted(slices.Values(ids)))) != 3 {
			t.Fatalf("ids %v after remove, add, put back: want 3 ids, none repeated", ids)
		}
		a.AnnExport(app.FormatTigerXML)
		if a.Annotate.Err != "" {
			t.Errorf("TIGER-XML export: %s", a.Annotate.Err)
		}
	})
}
