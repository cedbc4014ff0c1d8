package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/annotate"
)

// storeOver is a Store over a mapStore.
type storeOver struct{ m mapStore }

func (s storeOver) StoreRead(key, prefix string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for k, v := range s.m {
		if k == key || strings.HasPrefix(k, prefix) {
			out[k] = v
		}
	}
	return out, nil
}

func (s storeOver) StoreUpdate(prefix string, decide StoreDecision) error {
	_, _, err := s.m.update(prefix, decide)
	return err
}

// failingHistories is a Store over a mapStore that refuses every update
// writing a history key (as a browser short of space may refuse the
// larger transaction).
type failingHistories struct{ storeOver }

func (s failingHistories) StoreUpdate(prefix string, decide StoreDecision) error {
	return s.storeOver.StoreUpdate(prefix, func(keys []string) (map[string][]byte, []string, error) {
		puts, deletes, err := decide(keys)
		for k := range puts {
			if strings.HasPrefix(k, HistoryKey) {
				return nil, nil, errors.New("no room")
			}
		}
		return puts, deletes, err
	})
}

// saveWith saves sp and the kept histories as app does (App.saveProject).
func (b *tab) saveWith(t *testing.T, st Store, app *App, sp savedProject, kept map[int]annotate.History) error {
	t.Helper()
	return b.saveBy(t, sp, func(p encoded, w saveWriter) error { return app.saveProject(st, p, w, kept) })
}

// A save writes the project and its histories in one transaction: another
// tab's save replaces both (no history of the first tab is left beside
// the second's project), a save refused because of another tab's writes
// neither, and a save whose histories the store refuses writes the
// project without them and removes those of earlier saves, so that its
// reload restores no history.
func TestHistoriesFollowTheProject(t *testing.T) {
	ca := devCorpus(t, annotate.Untouched)
	cb := ca.Snapshot()
	store := mapStore{}
	st := storeOver{store}
	note := func(c *annotate.Corpus, i int, text string) {
		t.Helper()
		if err := c.Do(t.Context(), i, annotate.SetNote{Note: text}); err != nil {
			t.Fatal(err)
		}
	}
	a, b := &tab{id: "a"}, &tab{id: "b"}
	appA, appB := &App{}, &App{}
	manifest := func() historyManifest {
		t.Helper()
		var m historyManifest
		if err := json.Unmarshal(store[HistoryKey], &m); err != nil {
			t.Fatal(err)
		}
		return m
	}

	note(ca, 2, "a")
	if err := a.saveWith(t, st, appA, savedProject{Corpus: ca.Snapshot()}, keptHistories(ca, 2)); err != nil {
		t.Fatal(err)
	}
	if m := manifest(); m.Writer != a.seen || writerOf(store.read()) != a.seen || len(m.Sentences) != 1 || store[m.Sentences[2]] == nil {
		t.Fatalf("A's manifest %+v, project's writer %s", m, writerOf(store.read()))
	}

	// B replaces the project, with its histories.
	b.open(store)
	note(cb, 4, "b")
	if err := b.saveWith(t, st, appB, savedProject{Corpus: cb.Snapshot()}, keptHistories(cb, 4)); err != nil {
		t.Fatal(err)
	}
	m := manifest()
	if m.Writer != b.seen || writerOf(store.read()) != b.seen || len(m.Sentences) != 1 || store[m.Sentences[4]] == nil {
		t.Fatalf("B's manifest %+v", m)
	}
	var rec historyRecord
	if err := json.Unmarshal(store[m.Sentences[4]], &rec); err != nil {
		t.Fatal(err)
	}
	for k := range store {
		if strings.HasPrefix(k, HistoryKey+"/") && k != m.Sentences[4] && !slices.Contains(rec.StateKeys, k) {
			t.Errorf("A's history %s left beside B's", k)
		}
	}

	// A saves again over B's save: refused, and nothing is written.
	before := maps.Clone(store)
	note(ca, 2, "a again")
	if err := a.saveWith(t, st, appA, savedProject{Corpus: ca.Snapshot()}, keptHistories(ca, 2)); !errors.Is(err, errOtherTab) {
		t.Errorf("A's save over B's: %v, want errOtherTab", err)
	}
	if !maps.EqualFunc(store, before, bytes.Equal) {
		t.Error("A's refused save wrote to the store")
	}

	// B's next save: the store refuses the histories. The project is
	// written without them, the histories the store held are removed (no
	// reload would restore them: their manifest names the previous save),
	// and a reload restores none.
	note(cb, 4, "b again")
	if err := b.saveWith(t, failingHistories{st}, appB, savedProject{Corpus: cb.Snapshot()}, keptHistories(cb, 4)); err != nil {
		t.Fatalf("B's save without its histories: %v", err)
	}
	if w := writerOf(store.read()); w != b.seen {
		t.Errorf("project's writer %s, want the new save's %s", w, b.seen)
	}
	if left := storeValues(store, HistoryKey); len(left) != 0 {
		t.Errorf("%d history records left after a save without histories", len(left))
	}
	sp, _, _, err := decodeStored(store.read(), nil)
	if err != nil {
		t.Fatal(err)
	}
	restoreHistories(sp.Corpus, writerOf(store.read()), storeValues(store, HistoryKey))
	if s := sp.Corpus.Sentences[4]; s.Note() != "b again" || len(s.UndoList()) != 0 {
		t.Errorf("after a save without histories: note %q, undo %q; want the note, no history", s.Note(), s.UndoList())
	}
	// The next save that can writes them again, and they restore.
	note(cb, 4, "b third")
	if err := b.saveWith(t, st, appB, savedProject{Corpus: cb.Snapshot()}, keptHistories(cb, 4)); err != nil {
		t.Fatal(err)
	}
	sp, _, _, err = decodeStored(store.read(), nil)
	if err != nil {
		t.Fatal(err)
	}
	restoreHistories(sp.Corpus, writerOf(store.read()), storeValues(store, HistoryKey))
	if s := sp.Corpus.Sentences[4]; len(s.UndoList()) != 3 {
		t.Errorf("after a save with histories: undo %q, want 3 steps", s.UndoList())
	}
}

// storeValues returns the values whose key begins with prefix.
func storeValues(m mapStore, prefix string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range m {
		if strings.HasPrefix(k, prefix) {
			out[k] = v
		}
	}
	return out
}

// A record naming more states than any kept history has is refused before
// a state is read (a forged one could name ten thousand).
func TestHistoryRecordBounded(t *testing.T) {
	c := devCorpus(t, annotate.Untouched)
	for i := range 3 {
		if err := c.Do(t.Context(), 1, annotate.SetNote{Note: strings.Repeat("n", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
	kept, err := (&App{}).encodeHistory(c.Sentences[1].History())
	if err != nil {
		t.Fatal(err)
	}
	values := maps.Clone(kept.states)
	if err := restoreHistory(c.Snapshot().Sentences[1], kept.data, values, damagedHistories(values)); err != nil {
		t.Fatalf("a kept history was refused: %v", err)
	}
	var rec historyRecord
	if err := json.Unmarshal(kept.data, &rec); err != nil {
		t.Fatal(err)
	}
	for len(rec.StateKeys) <= maxHistoryStates {
		rec.StateKeys = append(rec.StateKeys, rec.StateKeys[0])
	}
	forged, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := restoreHistory(c.Snapshot().Sentences[1], forged, values, damagedHistories(values)); !errors.Is(err, errHistoryParts) {
		t.Errorf("a record naming %d states: %v, want errHistoryParts", len(rec.StateKeys), err)
	}

	// A manifest naming more histories than a save keeps is not read.
	values[kept.key] = kept.data
	for _, n := range []int{1, MaxKeptHistories + 1} {
		m := historyManifest{Writer: "w", Sentences: map[int]string{}}
		for i := range n {
			m.Sentences[1+i] = kept.key
		}
		values[HistoryKey], _ = json.Marshal(m)
		back := c.Snapshot()
		restoreHistories(back, "w", values)
		if got := len(back.Sentences[1].UndoList()); (got == 3) != (n == 1) {
			t.Errorf("a manifest of %d histories: %d steps restored", n, got)
		}
	}
}
