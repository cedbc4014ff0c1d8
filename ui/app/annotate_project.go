package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/discspan/discspan/annotate"
)

// The annotation project is kept in pieces, so that a change of one
// sentence rewrites one piece and not the whole corpus (a big corpus takes
// seconds to encode and write in the browser, and the page is frozen
// meanwhile). StoreKey holds the manifest: the sentence shown and, for the
// corpus, its reference analyses and the second file of a comparison, the
// chunks that hold their sentences. A chunk holds chunkSize sentences (the
// last one fewer) as a JSON array (annotate.LoadParts); its key is
// chunkPrefix and a hash of its bytes, so the chunks that did not change
// keep their keys and are not written again, and identical chunks (a
// corpus and its reference trees before any edit) are stored once.
const (
	projectVersion = 2
	chunkSize      = 100
	chunkPrefix    = StoreKey + "/"
)

// manifest is the saved form of the annotation tab (version 2).
type manifest struct {
	Version int           `json:"version"`
	Index   int           `json:"index"`
	Corpus  *storedCorpus `json:"corpus"` // null: the annotator emptied the tab
	Gold    *storedCorpus `json:"gold,omitempty"`
	Other   *storedCorpus `json:"other,omitempty"`
}

// storedCorpus names a corpus and its chunks, in order.
type storedCorpus struct {
	Name   string     `json:"name"`
	Chunks []chunkRef `json:"chunks"`
}

// chunkRef is a chunk's key and its number of sentences.
type chunkRef struct {
	Key string `json:"key"`
	N   int    `json:"n"`
}

// projectV1 is the saved form before version 2: the whole project in
// StoreKey, the corpora as annotate's JSON. Projects saved before Other
// existed have no "other" and load as they were.
type projectV1 struct {
	Version int             `json:"version"`
	Index   int             `json:"index"`
	Corpus  json.RawMessage `json:"corpus"`
	Gold    json.RawMessage `json:"gold,omitempty"`
	Other   json.RawMessage `json:"other,omitempty"`
}

// savedProject is what a project holds: the corpus, its reference analyses
// and the second file of a comparison (both may be nil), and the sentence
// shown.
type savedProject struct {
	Corpus, Gold, Other *annotate.Corpus
	Index               int
}

// corpora returns the project's three corpora in the order of
// projectEncoder.last.
func (sp *savedProject) corpora() [3]**annotate.Corpus {
	return [3]**annotate.Corpus{&sp.Corpus, &sp.Gold, &sp.Other}
}

// chunk is an encoded chunk and the revisions of the sentences it holds.
type chunk struct {
	revs []annotate.Revision
	ref  chunkRef
	data []byte
}

// projectEncoder encodes projects as a manifest and chunks. It keeps the
// chunks of the last project it encoded (or restored), and encodes again
// only the chunks whose sentences changed since. It is not safe for
// concurrent use (App.saveMu guards it).
type projectEncoder struct {
	last [3][]chunk // corpus, reference trees, second file
	// pause, when not nil, is called after each chunk encoded (see
	// pacer).
	pause func()
}

// encoded is a project ready for the store: its manifest and its chunks
// by key.
type encoded struct {
	manifest []byte
	chunks   map[string][]byte
}

// encode returns the manifest and chunks of sp; a nil Corpus writes an
// empty project (the annotator started a new corpus: nothing to restore).
func (e *projectEncoder) encode(sp savedProject) (encoded, error) {
	out := encoded{chunks: map[string][]byte{}}
	m := manifest{Version: projectVersion, Index: sp.Index}
	refs := [3]**storedCorpus{&m.Corpus, &m.Gold, &m.Other}
	var earlier [][]chunk // the chunks of the corpora encoded before
	for role, cp := range sp.corpora() {
		c := *cp
		if c == nil || (role > 0 && sp.Corpus == nil) {
			e.last[role] = nil
			continue
		}
		chunks, err := encodeChunks(c, append(earlier, e.last[role]), e.pause)
		if err != nil {
			return encoded{}, fmt.Errorf("%s: %w", roleNames[role], err)
		}
		e.last[role] = chunks
		earlier = append(earlier, chunks)
		sc := &storedCorpus{Name: c.Name, Chunks: make([]chunkRef, len(chunks))}
		for i, ch := range chunks {
			sc.Chunks[i] = ch.ref
			out.chunks[ch.ref.Key] = ch.data
		}
		*refs[role] = sc
	}
	var err error
	out.manifest, err = json.Marshal(m)
	return out, err
}

// roleNames names the corpora of a project in errors.
var roleNames = [3]string{"corpus", "reference trees", "second file"}

// encodeChunks cuts c into chunks, reusing those of any of known (the
// last chunks of this corpus, those of another corpus sharing its states)
// that hold the same sentences in the same state at the same place; pause
// (when not nil) is called after each chunk encoded.
func encodeChunks(c *annotate.Corpus, known [][]chunk, pause func()) ([]chunk, error) {
	var out []chunk
	for j, from := 0, 0; from < len(c.Sentences); j, from = j+1, from+chunkSize {
		sents := c.Sentences[from:min(from+chunkSize, len(c.Sentences))]
		revs := make([]annotate.Revision, len(sents))
		for i, s := range sents {
			revs[i] = s.Revision()
		}
		if ch, ok := knownChunk(known, j, revs); ok {
			out = append(out, ch)
			continue
		}
		data := []byte{'['}
		for i, s := range sents {
			if i > 0 {
				data = append(data, ',')
			}
			b, err := s.MarshalJSON()
			if err != nil {
				return nil, fmt.Errorf("sentence %d: %w", from+i+1, err)
			}
			data = append(data, b...)
		}
		data = append(data, ']')
		sum := sha256.Sum256(data)
		out = append(out, chunk{revs: revs, ref: chunkRef{Key: chunkPrefix + hex.EncodeToString(sum[:16]), N: len(sents)}, data: data})
		if pause != nil {
			pause()
		}
	}
	return out, nil
}

// knownChunk returns chunk j of one of known if it holds the sentences
// whose revisions are revs.
func knownChunk(known [][]chunk, j int, revs []annotate.Revision) (chunk, bool) {
	for _, chunks := range known {
		if j < len(chunks) && slices.Equal(chunks[j].revs, revs) {
			return chunks[j], true
		}
	}
	return chunk{}, false
}

// writerPrefix begins the key that names the save that wrote the project
// last: writerPrefix, the app's id, "." and the number of the app's save
// (see App.writerID). It is kept among the chunks, so that a save sees it
// in the listing of its transaction.
const writerPrefix = chunkPrefix + "writer-"

// errOtherTab is the error of a save refused because another tab saved
// the project since this tab read or saved it.
var errOtherTab = errors.New("another tab saved this project after this tab opened or saved it")

// otherTabError is errOtherTab with the key of the other tab's save.
type otherTabError struct{ key string }

func (e *otherTabError) Error() string        { return errOtherTab.Error() }
func (e *otherTabError) Is(target error) bool { return target == errOtherTab }

// saveWriter says who saves: key is this save's writer key, seen the key of
// the save this app last read or wrote ("" for none), own the beginning of
// this app's keys.
type saveWriter struct{ key, seen, own string }

// decision returns the StoreUpdate decision that saves p as w.key: the
// manifest, the chunks that the store does not have (those of an earlier
// save are kept, unless another tab removed them meanwhile), the writer's
// key, and the removal of what no longer belongs to the project (the
// earlier writer's key included). It refuses with an otherTabError when
// the project was last written by another save than w.seen, unless by
// this app (a save of its own that reported an error after all).
func (p encoded) decision(w saveWriter) StoreDecision {
	return func(keys []string) (puts map[string][]byte, deletes []string, err error) {
		puts = map[string][]byte{StoreKey: p.manifest, w.key: []byte(w.key)}
		have := make(map[string]bool, len(keys))
		// Every save removes the other writer keys: the key seen (or one of
		// this app's) still there means that nobody saved since, whatever
		// stray key may be beside it.
		var foreign []string
		known := false
		for _, k := range keys {
			have[k] = true
			if strings.HasPrefix(k, writerPrefix) {
				if k == w.seen || strings.HasPrefix(k, w.own) {
					known = true
				} else {
					foreign = append(foreign, k)
				}
			}
			if _, ok := puts[k]; !ok && p.chunks[k] == nil {
				deletes = append(deletes, k)
			}
		}
		if len(foreign) > 0 && !known {
			return nil, nil, &otherTabError{key: slices.Max(foreign)}
		}
		for k, data := range p.chunks {
			if !have[k] {
				puts[k] = data
			}
		}
		return puts, deletes, nil
	}
}

// writerOf returns the writer's key among the keys read (the greatest,
// should there be several), "" for none.
func writerOf(values map[string][]byte) string {
	w := ""
	for k := range values {
		if strings.HasPrefix(k, writerPrefix) && k > w {
			w = k
		}
	}
	return w
}

// decodeStored reads a project from what StoreRead(StoreKey, chunkPrefix)
// returned; found is false when nothing was saved. progress (when not
// nil) is called after each chunk read with the number of sentences read
// and the total. It also returns the
// chunks read, for the encoder (so that the first save after a restore
// writes only what changed). Reference trees that do not fit the corpus
// are dropped; the second file is kept whatever its size (the comparison
// says what does not match).
func decodeStored(values map[string][]byte, progress func(done, total int)) (sp savedProject, last [3][]chunk, found bool, err error) {
	defer func() {
		// Whatever damaged data may still upset, it must not stop the
		// page: the project is then set aside like any unreadable one.
		if r := recover(); r != nil {
			sp, last, err = savedProject{}, [3][]chunk{}, fmt.Errorf("saved project: %v", r)
		}
	}()
	data, found := values[StoreKey]
	if !found {
		return savedProject{}, last, false, nil
	}
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return savedProject{}, last, true, fmt.Errorf("saved project: %w", err)
	}
	switch v.Version {
	case 1:
		sp, err = decodeProjectV1(data)
		return sp, last, true, err
	case projectVersion:
	default:
		return savedProject{}, last, true, fmt.Errorf("saved project: version %d, want %d or 1", v.Version, projectVersion)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return savedProject{}, last, true, fmt.Errorf("saved project: %w", err)
	}
	sp.Index = m.Index
	if m.Corpus == nil {
		return sp, last, true, nil // emptied
	}
	stored := [3]*storedCorpus{m.Corpus, m.Gold, m.Other}
	done, total := 0, 0
	for _, sc := range stored {
		if sc != nil {
			for _, ref := range sc.Chunks {
				total += ref.N
			}
		}
	}
	chunkRead := func(n int) {
		done += n
		if progress != nil {
			progress(done, total)
		}
	}
	decoded := map[string][]*annotate.Sentence{}
	for role, sc := range stored {
		if sc == nil {
			continue
		}
		c, chunks, err := decodeChunks(sc, values, decoded, chunkRead)
		if err != nil {
			return savedProject{}, [3][]chunk{}, true, fmt.Errorf("saved project: %s: %w", roleNames[role], err)
		}
		*sp.corpora()[role], last[role] = c, chunks
	}
	if sp.Gold != nil && len(sp.Gold.Sentences) != len(sp.Corpus.Sentences) {
		sp.Gold, last[1] = nil, nil
	}
	return sp, last, true, nil
}

// decodeChunks loads a stored corpus from its chunks, calling chunkRead
// with the number of sentences of each chunk read. A chunk read before (in
// decoded, by key: a corpus and its reference trees share the chunks of
// the sentences not yet edited) is not decoded again: its sentences'
// states are shared.
func decodeChunks(sc *storedCorpus, values map[string][]byte, decoded map[string][]*annotate.Sentence, chunkRead func(n int)) (*annotate.Corpus, []chunk, error) {
	parts := make([][]byte, len(sc.Chunks))
	for i, ref := range sc.Chunks {
		data, ok := values[ref.Key]
		switch {
		case !ok || !strings.HasPrefix(ref.Key, chunkPrefix) || strings.HasPrefix(ref.Key, writerPrefix):
			return nil, nil, fmt.Errorf("chunk %d of %d (%s) is missing", i+1, len(sc.Chunks), ref.Key)
		case ref.N < 1 || ref.N > len(data):
			return nil, nil, fmt.Errorf("chunk %d of %d (%s): %d sentences", i+1, len(sc.Chunks), ref.Key, ref.N)
		}
		parts[i] = data
	}
	l := annotate.NewPartsLoader(sc.Name)
	for i, ref := range sc.Chunks {
		if prev, ok := decoded[ref.Key]; ok && len(prev) == ref.N {
			l.AddCopies(prev)
		} else {
			if err := l.Add(parts[i], ref.N); err != nil {
				return nil, nil, err
			}
			all := l.Corpus().Sentences
			decoded[ref.Key] = all[len(all)-ref.N:]
		}
		chunkRead(ref.N)
	}
	c := l.Corpus()
	chunks := make([]chunk, len(sc.Chunks))
	from := 0
	for i, ref := range sc.Chunks {
		revs := make([]annotate.Revision, ref.N)
		for k, s := range c.Sentences[from : from+ref.N] {
			revs[k] = s.Revision()
		}
		chunks[i] = chunk{revs: revs, ref: ref, data: parts[i]}
		from += ref.N
	}
	return c, chunks, nil
}

// decodeProjectV1 reads a project saved in version 1.
func decodeProjectV1(data []byte) (savedProject, error) {
	var p projectV1
	if err := json.Unmarshal(data, &p); err != nil {
		return savedProject{}, fmt.Errorf("saved project: %w", err)
	}
	if len(p.Corpus) == 0 {
		return savedProject{}, errors.New("saved project: no corpus")
	}
	sp := savedProject{Index: p.Index}
	if string(p.Corpus) == "null" { // emptied
		return sp, nil
	}
	var err error
	if sp.Corpus, err = annotate.Load(bytes.NewReader(p.Corpus)); err != nil {
		return savedProject{}, fmt.Errorf("saved project: %w", err)
	}
	if len(p.Gold) > 0 {
		if sp.Gold, err = annotate.Load(bytes.NewReader(p.Gold)); err != nil {
			return savedProject{}, fmt.Errorf("saved project: reference trees: %w", err)
		}
		if len(sp.Gold.Sentences) != len(sp.Corpus.Sentences) {
			sp.Gold = nil
		}
	}
	if len(p.Other) > 0 {
		if sp.Other, err = annotate.Load(bytes.NewReader(p.Other)); err != nil {
			return savedProject{}, fmt.Errorf("saved project: second file: %w", err)
		}
	}
	return sp, nil
}

// setAside returns the StoreUpdate decision (for StoreUpdate(UnreadableKey,
// ...)) that keeps an unreadable project, its manifest and chunks as
// StoreRead returned them, under the first free name among UnreadableKey,
// UnreadableKey-2, UnreadableKey-3...: the manifest under the name, each
// chunk under the name, "/" and its hash. A project set aside earlier is
// kept, and one kept already (the same manifest and chunks, marked by a
// fingerprint key under its name) is not kept twice. The name chosen is
// written to *name. Without a manifest there is nothing to keep.
func setAside(values map[string][]byte, name *string) StoreDecision {
	return func(keys []string) (map[string][]byte, []string, error) {
		manifest, ok := values[StoreKey]
		if !ok {
			return nil, nil, nil
		}
		h := sha256.New()
		h.Write(manifest)
		for _, k := range slices.Sorted(maps.Keys(values)) {
			h.Write([]byte{0})
			h.Write([]byte(k))
		}
		marker := "/fp-" + hex.EncodeToString(h.Sum(nil)[:16])
		for _, k := range keys {
			if kept, ok := strings.CutSuffix(k, marker); ok && slices.Contains(keys, kept) {
				*name = kept
				return nil, nil, nil // kept already
			}
		}
		taken := func(n string) bool {
			for _, k := range keys {
				if k == n || strings.HasPrefix(k, n+"/") {
					return true
				}
			}
			return false
		}
		*name = UnreadableKey
		for i := 2; taken(*name); i++ {
			*name = fmt.Sprintf("%s-%d", UnreadableKey, i)
		}
		puts := map[string][]byte{*name + marker: nil}
		for k, v := range values {
			switch {
			case k == StoreKey:
				puts[*name] = v
			case strings.HasPrefix(k, chunkPrefix+"fp-"):
				// a marker copied by hand: not part of the project
			default:
				puts[*name+"/"+strings.TrimPrefix(k, chunkPrefix)] = v
			}
		}
		return puts, nil, nil
	}
}
