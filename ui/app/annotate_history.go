package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/discspan/discspan/annotate"
)

// HistoryKey is the Store key of the record that names the sentences'
// undo and redo histories kept between visits (historyManifest). Each
// history is a record of its own, under HistoryKey + "/" and a hash of
// its bytes (historyRecord: its steps, and its states by key), and each
// state one under HistoryStatePrefix and a hash of the state's JSON: a
// save writes the manifest, which is small, the record of each history
// that changed, and the states the store lacks (after an edit, one).
const HistoryKey = "annotate-history"

// HistoryStatePrefix begins the keys of the histories' states.
const HistoryStatePrefix = HistoryKey + "/state-"

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

// historyRecord is a kept history: its states by key
// (HistoryStatePrefix...), the current one and the steps by the states'
// numbers (annotate.HistoryParts).
type historyRecord struct {
	StateKeys []string               `json:"state_keys"`
	Current   int                    `json:"current"`
	Undo      []annotate.HistoryStep `json:"undo,omitempty"`
	Redo      []annotate.HistoryStep `json:"redo,omitempty"`
}

// keptHistory is one history as saveHistories last encoded it: the key
// and bytes of its record, and its states by key.
type keptHistory struct {
	history annotate.History
	key     string
	data    []byte
	states  map[string][]byte
}

// encodeHistory returns h as a record and its states.
func (a *App) encodeHistory(h annotate.History) (keptHistory, error) {
	p, err := a.historyEncoder.Parts(h)
	if err != nil {
		return keptHistory{}, err
	}
	rec := historyRecord{StateKeys: make([]string, len(p.States)), Current: p.Current, Undo: p.Undo, Redo: p.Redo}
	states := make(map[string][]byte, len(p.States))
	for i, st := range p.States {
		rec.StateKeys[i] = hashKey(HistoryStatePrefix, st.Sum)
		states[rec.StateKeys[i]] = st.JSON
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return keptHistory{}, fmt.Errorf("app: history record: %w", err)
	}
	return keptHistory{history: h, key: hashKey(HistoryKey+"/", sha256.Sum256(data)), data: data, states: states}, nil
}

// hashKey returns the key of a record or state whose bytes have the
// SHA-256 sum: prefix and the sum's first 16 bytes in hex.
func hashKey(prefix string, sum [sha256.Size]byte) string {
	return prefix + hex.EncodeToString(sum[:16])
}

// saveHistories writes the kept histories with the project that writer
// names, just saved (saveMu held): the manifest, and the records and
// states the store lacks; it removes those no kept history names. It
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
			e, err := a.encodeHistory(h)
			if err != nil {
				return
			}
			encoded[i] = e
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
		for _, e := range encoded {
			puts[e.key] = e.data
			maps.Copy(puts, e.states)
		}
		var deletes []string
		latest := ""
		for _, k := range keys {
			switch {
			case strings.HasPrefix(k, writerPrefix):
				latest = max(latest, k)
			case !strings.HasPrefix(k, HistoryKey), k == HistoryKey:
			case puts[k] != nil:
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

// maxHistoryStates is the most states a kept history's record may name:
// the current one and two for each step of the undo depth. A record
// naming more is refused before anything is read for it.
const maxHistoryStates = 2*annotate.DefaultUndoDepth + 1

// restoreHistories gives the sentences of c the histories the store kept
// (values: what StoreRead(HistoryKey, HistoryKey) returned) with the
// project that writer names, each only where it fits the sentence
// (annotate.Sentence.RestoreHistory); the others are left out, and the
// next save removes them. Histories kept with another save than the
// project's (a visit that ended between a project's save and its
// histories', another tab) are all left out: they may be another corpus's
// (an import replaces the corpus under the same writer).
func restoreHistories(c *annotate.Corpus, writer string, values map[string][]byte) {
	var m historyManifest
	if c == nil || writer == "" || json.Unmarshal(values[HistoryKey], &m) != nil || m.Writer != writer || len(m.Sentences) > MaxKeptHistories {
		return // a manifest naming more was not written by saveHistories
	}
	for i, key := range m.Sentences {
		b, ok := values[key]
		if !ok || i < 0 || i >= len(c.Sentences) || !namedBy(b, key, HistoryKey+"/") {
			continue
		}
		if b = assembleHistory(b, values); b != nil {
			_ = c.Sentences[i].RestoreHistory(b)
		}
	}
}

// namedBy reports whether key is prefix and the hash of data, as
// saveHistories names records and states: a record that another one's
// bytes replaced, or that names states in another order, is refused.
func namedBy(data []byte, key, prefix string) bool {
	return key == hashKey(prefix, sha256.Sum256(data))
}

// assembleHistory returns the history's JSON (annotate.History's) from
// its record and the states the record names in values; nil when a state
// is missing or not what its key says, or the record names more than
// maxHistoryStates. A record written whole, states and all (as the app
// did before records named their states), is that JSON already.
func assembleHistory(record []byte, values map[string][]byte) []byte {
	var rec historyRecord
	if json.Unmarshal(record, &rec) != nil || rec.StateKeys == nil {
		return record // RestoreHistory says whether it is a history
	}
	if len(rec.StateKeys) > maxHistoryStates {
		return nil
	}
	p := annotate.HistoryParts{States: make([]annotate.HistoryState, len(rec.StateKeys)), Current: rec.Current, Undo: rec.Undo, Redo: rec.Redo}
	for i, k := range rec.StateKeys {
		data, ok := values[k]
		if !ok || !namedBy(data, k, HistoryStatePrefix) {
			return nil
		}
		p.States[i].JSON = data
	}
	b, err := p.MarshalJSON()
	if err != nil {
		return nil
	}
	return b
}
