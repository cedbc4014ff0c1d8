package app

import (
	"bytes"
	"encoding/json"
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

// A tab's histories are written only while its project is the one saved:
// when another tab replaced the project between this tab's project save
// and its histories' save, the histories' save writes nothing, and the
// store keeps the other tab's project with its histories.
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
	if err := a.save(t, store, savedProject{Corpus: ca.Snapshot()}); err != nil {
		t.Fatal(err)
	}
	appA.saveHistories(st, a.seen, keptHistories(ca, 2))
	if m := manifest(); m.Writer != a.seen || len(m.Sentences) != 1 || store[m.Sentences[2]] == nil {
		t.Fatalf("A's manifest %+v", m)
	}

	// B replaces the project, with its histories.
	b.open(store)
	note(cb, 4, "b")
	if err := b.save(t, store, savedProject{Corpus: cb.Snapshot()}); err != nil {
		t.Fatal(err)
	}
	appB.saveHistories(st, b.seen, keptHistories(cb, 4))
	m := manifest()
	if m.Writer != b.seen || len(m.Sentences) != 1 || store[m.Sentences[4]] == nil {
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

	// A's histories for its older project save come late: refused.
	before := maps.Clone(store)
	note(ca, 2, "a again")
	appA.saveHistories(st, a.seen, keptHistories(ca, 2))
	if !maps.EqualFunc(store, before, bytes.Equal) {
		t.Error("histories written over another tab's project")
	}
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
	if assembleHistory(kept.data, values) == nil {
		t.Fatal("a kept history was refused")
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
	if assembleHistory(forged, values) != nil {
		t.Errorf("a record naming %d states was read", len(rec.StateKeys))
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
