package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	"github.com/discspan/discspan/annotate"
)

// HistoryKey is the Store key of the record that names the sentences'
// undo and redo histories kept between visits (historyManifest); each
// history is a record of its own under HistoryKey + "/" and a hash of its
// bytes (annotate.History's JSON), so that a save writes only the
// histories that changed, and the manifest, which is small.
const HistoryKey = "annotate-history"

// HistoryScope begins the keys of the project's writer (writerPrefix)
// and of the histories: the histories' transaction lists both, so that it
// writes nothing once another tab's save has replaced the project that
// the histories go with.
const HistoryScope = "annotate-"

// errHistoriesStale refuses to write histories over another tab's: the
// project they go with is no longer the one saved.
var errHistoriesStale = errors.New("another tab saved the project since")

// MaxKeptHistories is how many sentences' histories are kept between
// visits: those nearest the sentence shown (an annotator works through
// the corpus in order), each with at most annotate.DefaultUndoDepth
// steps.
const MaxKeptHistories = 20

// historyManifest names the kept histories: by sentence number, the key
// of each; and the writer key of the project they were kept with (a
// reload restores them only with that project: another tab's save since
// would make them another project's).
type historyManifest struct {
	Writer    string         `json:"writer"`
	Sentences map[int]string `json:"sentences"`
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
		for _, i := range []int{index - d, index + d}[:min(d+1, 2)] { // d = 0: the sentence shown, once
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

// keptHistory is one history as saveHistories last encoded it.
type keptHistory struct {
	history annotate.History
	key     string
	data    []byte
}

// saveHistories writes the kept histories with the project that writer
// names, just saved (saveMu held): the manifest, and the histories the
// store lacks; it removes the histories the manifest no longer names. It
// writes nothing when that project is no longer the one saved (another
// tab replaced it in between). It encodes again only the histories that
// changed, and of them only the new states (annotate.HistoryEncoder). The
// histories are a convenience: a failure is not shown, and the next
// edit's save writes them again.
func (a *App) saveHistories(st Store, writer string, kept map[int]annotate.History) {
	manifest := historyManifest{Writer: writer, Sentences: map[int]string{}}
	encoded := map[int]keptHistory{}
	all := make([]annotate.History, 0, len(kept))
	for i, h := range kept {
		all = append(all, h)
		if old, ok := a.historiesKept[i]; ok && old.history.Same(h) {
			encoded[i] = old
		} else {
			data, err := a.historyEncoder.Encode(h)
			if err != nil {
				return
			}
			sum := sha256.Sum256(data)
			encoded[i] = keptHistory{history: h, key: HistoryKey + "/" + hex.EncodeToString(sum[:16]), data: data}
		}
		manifest.Sentences[i] = encoded[i].key
	}
	a.historyEncoder.Retain(all...)
	mb, err := json.Marshal(manifest)
	if err != nil {
		return
	}
	err = st.StoreUpdate(HistoryScope, func(keys []string) (map[string][]byte, []string, error) {
		puts := map[string][]byte{HistoryKey: mb}
		named := map[string]bool{}
		for _, e := range encoded {
			named[e.key] = true
			puts[e.key] = e.data
		}
		var deletes []string
		latest := ""
		for _, k := range keys {
			switch {
			case strings.HasPrefix(k, writerPrefix):
				latest = max(latest, k)
			case !strings.HasPrefix(k, HistoryKey), k == HistoryKey:
			case named[k]:
				delete(puts, k) // held already
			default:
				deletes = append(deletes, k)
			}
		}
		if latest != writer {
			return nil, nil, errHistoriesStale
		}
		return puts, deletes, nil
	})
	if err == nil {
		a.historiesKept = encoded
	}
}

// restoreHistories gives the sentences of c the histories the store kept
// (values: what StoreRead(HistoryKey, HistoryKey) returned) with the
// project that writer names, each only where it fits the sentence
// (annotate.Sentence.RestoreHistory); the others are left out, and the
// next save removes them.
func restoreHistories(c *annotate.Corpus, writer string, values map[string][]byte) {
	var m historyManifest
	if c == nil || writer == "" || json.Unmarshal(values[HistoryKey], &m) != nil || m.Writer != writer {
		return
	}
	for i, key := range m.Sentences {
		if b, ok := values[key]; ok && i >= 0 && i < len(c.Sentences) {
			_ = c.Sentences[i].RestoreHistory(b)
		}
	}
}
