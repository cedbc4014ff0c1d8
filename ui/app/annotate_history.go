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

// saveScope begins the keys of the project (StoreKey and its chunks) and
// of the histories: a save lists both in one transaction, which writes the
// project and its histories together (App.saveProject).
const saveScope = "annotate-"

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

// keptHistory is one history as the last save that wrote it encoded it: the key
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

// historyUpdate is the histories' part of a save: what kept holds, encoded,
// and the manifest that names it with the project's writer key.
type historyUpdate struct {
	encoded  map[int]keptHistory
	manifest []byte
}

// encodeHistories encodes the kept histories for the save whose writer key
// is writer. It encodes again only the histories that changed since the
// last save that wrote them, and of them only the new states
// (annotate.HistoryEncoder).
func (a *App) encodeHistories(writer string, kept map[int]annotate.History) (historyUpdate, error) {
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
				return historyUpdate{}, err
			}
			encoded[i] = e
		}
		manifest.Sentences[i] = encoded[i].key
	}
	a.historyEncoder.Retain(all...)
	mb, err := json.Marshal(manifest)
	if err != nil {
		return historyUpdate{}, fmt.Errorf("app: history manifest: %w", err)
	}
	return historyUpdate{encoded: encoded, manifest: mb}, nil
}

// decide returns the histories' writes and removals, given the history
// keys the store holds (HistoryKey...): the manifest, the records and
// states the store lacks or holds damaged, and the removal of those no
// kept history names.
func (h historyUpdate) decide(keys []string, damaged map[string]bool) (map[string][]byte, []string) {
	puts := map[string][]byte{HistoryKey: h.manifest}
	for _, e := range h.encoded {
		puts[e.key] = e.data
		maps.Copy(puts, e.states)
	}
	var deletes []string
	for _, k := range keys {
		switch {
		case k == HistoryKey:
		case puts[k] != nil && !damaged[k]:
			delete(puts, k) // held already
		default:
			deletes = append(deletes, k)
		}
	}
	return puts, deletes
}

// saveProject writes the project p as w says (encoded.decision) and, in
// the same transaction, the kept histories: a reload finds either both or
// neither, never a project without its histories (a visit that ended in
// between). The histories are a convenience: when that transaction fails
// (the histories' bytes may be what the store has no room for), the
// project is written without them, and the histories the store holds are
// removed in that transaction (a reload would not restore them: their
// manifest names an earlier save), which also frees their room. A conflict
// with another tab's save is not tried again. The caller holds saveMu.
func (a *App) saveProject(st Store, p encoded, w saveWriter, kept map[int]annotate.History) error {
	// update writes the project and, with h, its histories; without, it
	// removes every history.
	update := func(h *historyUpdate) error {
		return st.StoreUpdate(saveScope, func(keys []string) (map[string][]byte, []string, error) {
			var project, histories []string
			for _, k := range keys {
				switch {
				case strings.HasPrefix(k, chunkPrefix):
					project = append(project, k)
				case strings.HasPrefix(k, HistoryKey):
					histories = append(histories, k)
				}
			}
			puts, deletes, err := p.decision(w)(project)
			if err != nil {
				return nil, nil, err
			}
			if h == nil {
				return puts, append(deletes, histories...), nil
			}
			hputs, hdeletes := h.decide(histories, a.historiesDamaged)
			maps.Copy(puts, hputs)
			return puts, append(deletes, hdeletes...), nil
		})
	}
	h, err := a.encodeHistories(w.key, kept)
	if err == nil {
		err = update(&h)
		if err == nil {
			a.historiesKept, a.historiesDamaged = h.encoded, nil
			return nil
		}
		if errors.Is(err, errOtherTab) {
			return err
		}
	}
	return update(nil)
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
// project's (one that wrote the project alone: App.saveProject) are all
// left out: they may be another corpus's (an import replaces the corpus
// under the same writer). It returns the records and states whose bytes
// are not what their keys say (damaged), which the next save writes again
// where a kept history names them.
func restoreHistories(c *annotate.Corpus, writer string, values map[string][]byte) (damaged map[string]bool) {
	damaged = damagedHistories(values)
	var m historyManifest
	if c == nil || writer == "" || json.Unmarshal(values[HistoryKey], &m) != nil || m.Writer != writer || len(m.Sentences) > MaxKeptHistories {
		return damaged // a manifest naming more was not written by encodeHistories
	}
	for i, key := range m.Sentences {
		b, ok := values[key]
		if !ok || i < 0 || i >= len(c.Sentences) || damaged[key] || !strings.HasPrefix(key, HistoryKey+"/") {
			continue
		}
		_ = restoreHistory(c.Sentences[i], b, values, damaged)
	}
	return damaged
}

// damagedHistories returns the keys of the records and states among values
// (HistoryKey + "/...") whose bytes are not what their keys say: a record
// that another one's bytes replaced, a state edited in place.
func damagedHistories(values map[string][]byte) map[string]bool {
	damaged := map[string]bool{}
	for k, v := range values {
		prefix := HistoryKey + "/"
		if strings.HasPrefix(k, HistoryStatePrefix) {
			prefix = HistoryStatePrefix
		}
		if strings.HasPrefix(k, HistoryKey+"/") && !namedBy(v, k, prefix) {
			damaged[k] = true
		}
	}
	return damaged
}

// namedBy reports whether key is prefix and the hash of data, as
// encodeHistory names records and states: a record that another one's
// bytes replaced, or that names states in another order, is refused.
func namedBy(data []byte, key, prefix string) bool {
	return key == hashKey(prefix, sha256.Sum256(data))
}

// errHistoryParts refuses a kept history whose states are missing, are
// not what their keys say, or are more than maxHistoryStates.
var errHistoryParts = errors.New("app: a kept history's states are missing, damaged or too many")

// restoreHistory gives s the history of a kept record, its states read
// from values (annotate.Sentence.RestoreHistoryParts); it refuses a record
// naming more than maxHistoryStates before a state is read, and one whose
// states are missing or damaged (damagedHistories). A record written
// whole, states and all (as the app did before records named their
// states), is the history's JSON (annotate.Sentence.RestoreHistory).
func restoreHistory(s *annotate.Sentence, record []byte, values map[string][]byte, damaged map[string]bool) error {
	var rec historyRecord
	if json.Unmarshal(record, &rec) != nil || rec.StateKeys == nil {
		return s.RestoreHistory(record) // it says whether it is a history
	}
	if len(rec.StateKeys) > maxHistoryStates {
		return errHistoryParts
	}
	p := annotate.HistoryParts{States: make([]annotate.HistoryState, len(rec.StateKeys)), Current: rec.Current, Undo: rec.Undo, Redo: rec.Redo}
	for i, k := range rec.StateKeys {
		data, ok := values[k]
		if !ok || damaged[k] || !strings.HasPrefix(k, HistoryStatePrefix) {
			return errHistoryParts
		}
		p.States[i].JSON = data
	}
	return s.RestoreHistoryParts(p)
}
