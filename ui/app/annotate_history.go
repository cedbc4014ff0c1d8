package app

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/discspan/discspan/annotate"
)

// HistoryPrefix begins the Store keys that keep sentences' undo and redo
// histories between visits: HistoryPrefix and the sentence's number from 0
// ("annotate-history.12"), each holding annotate.History's JSON.
const HistoryPrefix = "annotate-history."

// MaxKeptHistories is how many sentences' histories are kept between
// visits: those nearest the sentence shown (an annotator works through
// the corpus in order), each with at most annotate.DefaultUndoDepth
// steps.
const MaxKeptHistories = 20

// historyKey is the Store key of sentence i's history.
func historyKey(i int) string { return HistoryPrefix + strconv.Itoa(i) }

// historyIndex returns the sentence number of a history key.
func historyIndex(key string) (int, bool) {
	i, err := strconv.Atoi(strings.TrimPrefix(key, HistoryPrefix))
	return i, err == nil && i >= 0 && strings.HasPrefix(key, HistoryPrefix)
}

// keptHistories returns the histories to keep: of the sentences that have
// one, the MaxKeptHistories nearest sentence index (the caller holds the
// lock; the histories are copies).
func keptHistories(c *annotate.Corpus, index int) map[int]annotate.History {
	kept := map[int]annotate.History{}
	if c == nil {
		return kept
	}
	for d := 0; len(kept) < MaxKeptHistories && (index-d >= 0 || index+d < len(c.Sentences)); d++ {
		for _, i := range []int{index - d, index + d} {
			if i < 0 || i >= len(c.Sentences) || len(kept) == MaxKeptHistories {
				continue
			}
			if h := c.Sentences[i].History(); !h.Empty() {
				kept[i] = h
			}
		}
	}
	return kept
}

// saveHistories writes to the store the kept histories that changed since
// this app last wrote them and removes the others (saveMu held). The
// histories are a convenience: a failure is not shown, and the next save
// tries again.
func (a *App) saveHistories(st Store, kept map[int]annotate.History) {
	puts := map[string][]byte{}
	for i, h := range kept {
		if old, ok := a.historiesKept[i]; ok && old.Same(h) {
			continue
		}
		b, err := json.Marshal(h)
		if err != nil {
			return
		}
		puts[historyKey(i)] = b
	}
	if len(puts) == 0 && a.historiesKept != nil && slices.Equal(slices.Sorted(maps.Keys(kept)), slices.Sorted(maps.Keys(a.historiesKept))) {
		return // the store holds these already
	}
	err := st.StoreUpdate(HistoryPrefix, func(keys []string) (map[string][]byte, []string, error) {
		var deletes []string
		for _, k := range keys {
			if i, ok := historyIndex(k); !ok || kept[i].Empty() {
				deletes = append(deletes, k)
			}
		}
		return puts, deletes, nil
	})
	if err == nil {
		a.historiesKept = kept
	}
}

// restoreHistories gives the sentences of c the histories the store kept
// (values by key), each only when it was kept for the sentence's present
// state (annotate.Sentence.RestoreHistory: another tab may have saved the
// project since, or the sentences moved); the others are left out, and
// the next save removes them.
func restoreHistories(c *annotate.Corpus, values map[string][]byte) {
	if c == nil {
		return
	}
	for k, b := range values {
		if i, ok := historyIndex(k); ok && i < len(c.Sentences) {
			_ = c.Sentences[i].RestoreHistory(b)
		}
	}
}
