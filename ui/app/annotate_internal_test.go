package app

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
)

func TestSelection(t *testing.T) {
	type op func(s *Selection)
	move := func(d int, ext bool) op { return func(s *Selection) { s.Move(d, ext) } }
	tests := []struct {
		name   string
		ops    []op
		words  []int
		cursor int
		second bool
	}{
		{"start", nil, []int{0}, 0, false},
		{"arrows move", []op{move(1, false), move(1, false)}, []int{2}, 2, false},
		{"clamped left", []op{move(-1, false)}, []int{0}, 0, false},
		{"clamped right", []op{move(20, false)}, []int{9}, 9, false},
		{"shift extends", []op{move(1, false), move(1, true), move(1, true)}, []int{1, 2, 3}, 3, false},
		{"shift back shrinks", []op{move(3, true), move(-1, true)}, []int{0, 1, 2}, 2, false},
		{"shift left of anchor", []op{move(4, false), move(-2, true)}, []int{2, 3, 4}, 2, false},
		{"plain move collapses", []op{move(2, true), move(1, false)}, []int{3}, 3, false},
		{"second block", []op{move(1, true), func(s *Selection) { s.ToggleSecond() }}, []int{0, 1, 3}, 3, true},
		{"second block extends", []op{move(1, true), func(s *Selection) { s.ToggleSecond() }, move(1, true)}, []int{0, 1, 3, 4}, 4, true},
		{"second block moves", []op{func(s *Selection) { s.ToggleSecond() }, move(3, false)}, []int{0, 5}, 5, true},
		{"toggle twice", []op{func(s *Selection) { s.ToggleSecond() }, func(s *Selection) { s.ToggleSecond() }}, []int{0}, 0, false},
		{"click", []op{move(3, true), func(s *Selection) { s.Click(6) }}, []int{6}, 6, false},
		{"shift-click", []op{func(s *Selection) { s.Click(6) }, func(s *Selection) { s.ShiftClick(4) }}, []int{4, 5, 6}, 4, false},
		{"ctrl-click", []op{func(s *Selection) { s.Click(1) }, func(s *Selection) { s.ShiftClick(2) }, func(s *Selection) { s.CtrlClick(5) }, func(s *Selection) { s.ShiftClick(6) }}, []int{1, 2, 5, 6}, 6, true},
		{"ctrl-click again", []op{func(s *Selection) { s.CtrlClick(5) }, func(s *Selection) { s.CtrlClick(7) }}, []int{0, 7}, 7, true},
		{"collapse", []op{move(2, true), func(s *Selection) { s.ToggleSecond() }, func(s *Selection) { s.Collapse() }}, []int{4}, 4, false},
		{"set words", []op{func(s *Selection) { s.SetWords([]int{1, 2, 5, 6, 7}) }}, []int{1, 2, 5, 6, 7}, 7, true},
		{"set words one block", []op{func(s *Selection) { s.SetWords([]int{3, 4}) }}, []int{3, 4}, 4, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSelection(10)
			for _, o := range tc.ops {
				o(&s)
			}
			if got := s.Words(); !slices.Equal(got, tc.words) {
				t.Errorf("words %v, want %v", got, tc.words)
			}
			if s.Cursor() != tc.cursor || s.Second() != tc.second {
				t.Errorf("cursor %d second %v, want %d %v", s.Cursor(), s.Second(), tc.cursor, tc.second)
			}
			for i := range 10 {
				if s.Has(i) != slices.Contains(tc.words, i) {
					t.Errorf("Has(%d) = %v", i, s.Has(i))
				}
			}
		})
	}
	empty := NewSelection(0)
	empty.Move(1, true)
	empty.Click(0)
	empty.ToggleSecond()
	if empty.Cursor() != -1 || len(empty.Words()) != 0 {
		t.Errorf("empty selection: cursor %d words %v", empty.Cursor(), empty.Words())
	}
}

// mapStore applies StoreUpdate decisions to a map, as the browser's
// IndexedDB would, and returns what StoreRead(StoreKey, chunkPrefix) would.
type mapStore map[string][]byte

func (m mapStore) update(prefix string, decide StoreDecision) (puts map[string][]byte, deletes []string, err error) {
	var keys []string
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	puts, deletes, err = decide(keys)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range deletes {
		delete(m, k)
	}
	maps.Copy(m, puts)
	return puts, deletes, nil
}

func (m mapStore) read() map[string][]byte {
	out := map[string][]byte{}
	for k, v := range m {
		if k == StoreKey || strings.HasPrefix(k, chunkPrefix) {
			out[k] = v
		}
	}
	return out
}

// testWriter is the writer of the projects saved by save.
const testWriter = writerPrefix + "test"

// save encodes sp with e and applies it to the store as testWriter; it
// returns the chunks (and manifest) written and the chunks removed.
func (m mapStore) save(t *testing.T, e *projectEncoder, sp savedProject) (puts map[string][]byte, deletes []string) {
	t.Helper()
	p, err := e.encode(sp)
	if err != nil {
		t.Fatal(err)
	}
	puts, deletes, err = m.update(chunkPrefix, p.decision(saveWriter{key: testWriter, seen: testWriter}))
	if err != nil {
		t.Fatal(err)
	}
	delete(puts, testWriter)
	return puts, slices.DeleteFunc(deletes, func(k string) bool { return k == testWriter })
}

func TestProjectEncoding(t *testing.T) {
	tr, err := tree.FromConstituents([]string{"de", "man", "slaapt"}, []string{"LID", "N", "WW"},
		[]tree.Labelled{{Label: "np", Blocks: []tree.Span{{Start: 0, End: 2}}}, {Label: "smain", Blocks: []tree.Span{{Start: 0, End: 3}}}})
	if err != nil {
		t.Fatal(err)
	}
	tr.ID = "s1"
	c := annotate.NewCorpus("test", []*tree.Tree{tr, tr}, annotate.PreAnnotated)
	if err := c.Do(t.Context(), 1, annotate.SetNote{Note: "check np"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(t.Context(), 1, annotate.FixNode{Node: 0}); err != nil {
		t.Fatal(err)
	}
	gold := annotate.NewCorpus("test", []*tree.Tree{tr, tr}, annotate.Untouched)
	other := annotate.NewCorpus("other.export", []*tree.Tree{tr}, annotate.Untouched)
	tests := []struct {
		name        string
		gold, other *annotate.Corpus
	}{
		{"corpus only", nil, nil},
		{"with reference trees", gold, nil},
		{"with a second file", gold, other},
		{"second file without reference trees", nil, other},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			store := mapStore{}
			store.save(t, &projectEncoder{}, savedProject{Corpus: c, Gold: tc.gold, Other: tc.other, Index: 1})
			sp, _, found, err := decodeStored(store.read(), nil)
			if err != nil || !found {
				t.Fatal(found, err)
			}
			back := sp.Corpus
			if sp.Index != 1 || len(back.Sentences) != 2 || back.Sentences[1].Note() != "check np" || len(back.Sentences[1].Fixed()) != 1 {
				t.Errorf("decoded index %d, %d sentences, note %q, fixed %v", sp.Index, len(back.Sentences), back.Sentences[1].Note(), back.Sentences[1].Fixed())
			}
			if (sp.Gold == nil) != (tc.gold == nil) {
				t.Errorf("reference trees: got %v, want %v", sp.Gold != nil, tc.gold != nil)
			}
			if (sp.Other == nil) != (tc.other == nil) {
				t.Fatalf("second file: got %v, want %v", sp.Other != nil, tc.other != nil)
			}
			if sp.Other != nil && (sp.Other.Name != "other.export" || len(sp.Other.Sentences) != 1) {
				t.Errorf("second file %q with %d sentences", sp.Other.Name, len(sp.Other.Sentences))
			}
		})
	}
	// Nothing saved; an emptied tab.
	if _, _, found, err := decodeStored(map[string][]byte{}, nil); found || err != nil {
		t.Errorf("empty store: found %v, %v", found, err)
	}
	store := mapStore{}
	store.save(t, &projectEncoder{}, savedProject{Index: 3})
	if sp, _, found, err := decodeStored(store.read(), nil); !found || err != nil || sp.Corpus != nil {
		t.Errorf("emptied tab: %+v, found %v, %v", sp, found, err)
	}

	// Projects saved in version 1 (with or without the second file) still
	// load.
	var buf bytes.Buffer
	if err := c.Save(&buf); err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{
		`{"version":1,"index":1,"corpus":` + buf.String() + `}`,
		`{"version":1,"index":1,"corpus":` + buf.String() + `,"other":` + buf.String() + `}`,
	} {
		sp, _, _, err := decodeStored(map[string][]byte{StoreKey: []byte(old)}, nil)
		if err != nil || sp.Corpus == nil || sp.Gold != nil || sp.Index != 1 || sp.Corpus.Sentences[1].Note() != "check np" {
			t.Errorf("version 1 project: %+v, %v", sp, err)
		}
	}
	for _, bad := range []string{``, `{}`, `{"version":9,"corpus":{}}`, `{"version":1}`, `{"version":1,"corpus":"x"}`,
		`{"version":2,"corpus":{"name":"x","chunks":[{"key":"annotate-project/00","n":1}]}}`,
		`{"version":2,"corpus":{"name":"x","chunks":[{"key":"elsewhere","n":1}]}}`,
		`{"version":2,"corpus":"x"}`,
		`{"version":2,"corpus":{"name":"x","chunks":[{"key":"annotate-project/c","n":-1}]}}`,
		`{"version":2,"corpus":{"name":"x","chunks":[{"key":"annotate-project/c","n":0}]}}`,
		`{"version":2,"corpus":{"name":"x","chunks":[{"key":"annotate-project/c","n":1000000000}]}}`} {
		if _, _, _, err := decodeStored(map[string][]byte{StoreKey: []byte(bad), "elsewhere": buf.Bytes(), chunkPrefix + "c": []byte("[]")}, nil); err == nil {
			t.Errorf("decodeStored(%q): no error", bad)
		}
	}
}

// devCorpus imports the Alpino dev set (when $DATA or ../../../shared/data
// has it; the test is skipped otherwise).
func devCorpus(t *testing.T, status annotate.Status) *annotate.Corpus {
	t.Helper()
	dir := os.Getenv("DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	c, err := annotate.ImportFile(filepath.Join(dir, "alpino-cdb", "dev.export"), annotate.ImportOptions{Status: status})
	if err != nil {
		t.Skipf("no Alpino dev set: %v", err)
	}
	return c
}

// A save after an edit encodes and writes only the chunk of the sentence
// edited and removes the chunk it replaces; a chunk that another tab
// removed is written again; the first save after a restore writes only
// the manifest; a corpus and its untouched reference trees share chunks.
func TestProjectIncremental(t *testing.T) {
	c := devCorpus(t, annotate.PreAnnotated)
	gold := c.Snapshot()
	n := len(c.Sentences)
	chunks := (n + chunkSize - 1) / chunkSize
	if chunks < 3 {
		t.Fatalf("%d sentences: too few for the test", n)
	}
	store := mapStore{}
	encodings := 0
	e := projectEncoder{pause: func() { encodings++ }} // pause follows each chunk encoded
	puts, deletes := store.save(t, &e, savedProject{Corpus: c, Gold: gold, Index: 5})
	if len(puts) != chunks+1 || len(deletes) != 0 || encodings != chunks {
		t.Errorf("first save: %d puts, %d deletes, %d chunks encoded; want %d (shared chunks), 0, %d (the reference trees' are the corpus's)",
			len(puts), len(deletes), encodings, chunks+1, chunks)
	}
	total := 0
	for _, v := range puts {
		total += len(v)
	}

	edited := chunkSize + 7
	if err := c.Do(t.Context(), edited, annotate.SetStatus{Status: annotate.Checked}); err != nil {
		t.Fatal(err)
	}
	before := maps.Clone(store)
	puts, deletes = store.save(t, &e, savedProject{Corpus: c.Snapshot(), Gold: gold, Index: 5})
	if len(puts) != 2 || len(deletes) != 0 {
		t.Errorf("after an edit: %d puts, %d deletes; want the manifest and one chunk (the old one is the reference trees')", len(puts), len(deletes))
	}
	written := 0
	for k, v := range puts {
		written += len(v)
		if k != StoreKey && before[k] != nil {
			t.Errorf("chunk %s written again", k)
		}
	}
	t.Logf("%d sentences in %d chunks, %d bytes; an edit writes %d bytes", n, chunks, total, written)
	if written > 2*total/chunks {
		t.Errorf("an edit writes %d of %d bytes", written, total)
	}
	// Editing it again: its previous chunk is no one's any more.
	if err := c.Do(t.Context(), edited, annotate.SetNote{Note: "checked twice"}); err != nil {
		t.Fatal(err)
	}
	puts, deletes = store.save(t, &e, savedProject{Corpus: c.Snapshot(), Gold: gold, Index: 5})
	if len(puts) != 2 || len(deletes) != 1 {
		t.Errorf("after a second edit: %d puts, %d deletes; want 2 and 1", len(puts), len(deletes))
	}

	// Another tab's save removed a chunk of this project: it is written
	// again, although it did not change.
	var gone string
	for k := range store {
		if k != StoreKey && k != testWriter {
			gone = k
			break
		}
	}
	delete(store, gone)
	puts, _ = store.save(t, &e, savedProject{Corpus: c.Snapshot(), Gold: gold, Index: 6})
	if _, ok := puts[gone]; !ok || len(puts) != 2 {
		t.Errorf("a chunk removed meanwhile is not written again (%d puts)", len(puts))
	}

	// The restored project is the one saved, and saving it again (with a
	// new encoder, as after a reload) writes only the manifest.
	var reported [][2]int
	sp, last, _, err := decodeStored(store.read(), func(done, total int) { reported = append(reported, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	// Progress after each chunk, of the corpus and then the reference
	// trees.
	if len(reported) != 2*chunks || reported[0] != [2]int{chunkSize, 2 * n} || reported[len(reported)-1] != [2]int{2 * n, 2 * n} {
		t.Errorf("progress reported %v", reported)
	}
	if sp.Index != 6 || len(sp.Corpus.Sentences) != n || sp.Gold == nil {
		t.Fatalf("restored index %d, %d sentences, reference trees %v", sp.Index, len(sp.Corpus.Sentences), sp.Gold != nil)
	}
	if s := sp.Corpus.Sentences[edited]; s.Status() != annotate.Checked || s.Note() != "checked twice" || sp.Gold.Sentences[edited].Status() != annotate.PreAnnotated {
		t.Errorf("restored sentence %d: %v %q", edited, s.Status(), s.Note())
	}
	var want, got bytes.Buffer
	if err := c.Save(&want); err != nil {
		t.Fatal(err)
	}
	if err := sp.Corpus.Save(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want.Bytes(), got.Bytes()) {
		t.Error("the restored corpus differs from the one saved")
	}
	// The chunks that the corpus and its reference trees share are decoded
	// once: their sentences share states, and an edit of one leaves the
	// other as it was.
	if sp.Corpus.Sentences[0].Revision() != sp.Gold.Sentences[0].Revision() || sp.Corpus.Sentences[edited].Revision() == sp.Gold.Sentences[edited].Revision() {
		t.Error("shared chunks are decoded twice, or edited ones shared")
	}
	if err := sp.Corpus.Do(t.Context(), 0, annotate.SetStatus{Status: annotate.Checked}); err != nil {
		t.Fatal(err)
	}
	if sp.Gold.Sentences[0].Status() != annotate.PreAnnotated {
		t.Error("an edit of a restored sentence reached its reference tree")
	}
	if _, err := sp.Corpus.Sentences[0].Undo(); err != nil {
		t.Fatal(err)
	}
	restored := projectEncoder{last: last}
	puts, deletes = store.save(t, &restored, sp)
	if len(puts) != 1 || len(deletes) != 0 {
		t.Errorf("saving the restored project: %d puts, %d deletes; want the manifest only", len(puts), len(deletes))
	}

	// A new corpus replaces every chunk; emptying the tab removes them all.
	small := annotate.NewCorpus("small", c.Trees()[:3], annotate.Untouched)
	store.save(t, &restored, savedProject{Corpus: small})
	if len(store) != 3 {
		t.Errorf("after a new corpus, %d keys; want 3 (the manifest, one chunk, the writer)", len(store))
	}
	store.save(t, &restored, savedProject{})
	if len(store) != 2 {
		t.Errorf("after emptying, %d keys; want 2 (the manifest, the writer)", len(store))
	}
}

// An unreadable project is set aside whole, manifest and chunks, beside
// one set aside before.
func TestProjectSetAside(t *testing.T) {
	c := devCorpus(t, annotate.Untouched)
	earlier := mapStore{UnreadableKey: []byte("x"), UnreadableKey + "/c": []byte("y")}
	store := maps.Clone(earlier)
	store.save(t, &projectEncoder{}, savedProject{Corpus: c})
	store[StoreKey] = bytes.Replace(store[StoreKey], []byte(`"version":2`), []byte(`"version":3`), 1)
	values := store.read()
	if _, _, _, err := decodeStored(values, nil); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Fatalf("newer version: %v", err)
	}
	var name string
	if _, _, err := store.update(UnreadableKey, setAside(values, &name)); err != nil {
		t.Fatal(err)
	}
	if name != UnreadableKey+"-2" {
		t.Errorf("set aside under %q", name)
	}
	// Set aside again (a reload without a save between): kept once.
	kept := maps.Clone(store)
	var again string
	if _, _, err := store.update(UnreadableKey, setAside(values, &again)); err != nil || again != name || !maps.EqualFunc(store, kept, bytes.Equal) {
		t.Errorf("set aside again under %q (%v), or the store changed", again, err)
	}
	for k, v := range earlier {
		if !bytes.Equal(store[k], v) {
			t.Errorf("the project set aside before lost %s", k)
		}
	}
	// The project set aside reads back as it was saved.
	back := map[string][]byte{StoreKey: bytes.Replace(store[name], []byte(`"version":3`), []byte(`"version":2`), 1)}
	for k, v := range store {
		if rest, ok := strings.CutPrefix(k, name+"/"); ok {
			back[chunkPrefix+rest] = v
		}
	}
	sp, _, _, err := decodeStored(back, nil)
	if err != nil || len(sp.Corpus.Sentences) != len(c.Sentences) {
		t.Errorf("the project set aside: %v", err)
	}
	// Without a manifest, nothing is set aside.
	before := maps.Clone(store)
	if _, _, err := store.update(UnreadableKey, setAside(map[string][]byte{chunkPrefix + "c": []byte("[]")}, &name)); err != nil || !maps.EqualFunc(store, before, bytes.Equal) {
		t.Errorf("chunks without a manifest set aside (%v)", err)
	}
}

// tab saves projects in a mapStore as one app would: each save under a
// writer key of its own, checked against the last one it read or wrote.
type tab struct {
	id    string
	enc   projectEncoder
	saves int
	seen  string
}

// open reads the project in the store, as a restore does.
func (b *tab) open(store mapStore) { b.seen = writerOf(store.read()) }

// save saves sp.
func (b *tab) save(t *testing.T, store mapStore, sp savedProject) error {
	t.Helper()
	return b.saveBy(t, sp, func(p encoded, w saveWriter) error {
		_, _, err := store.update(chunkPrefix, p.decision(w))
		return err
	})
}

// saveBy encodes sp and writes it with write, as the tab's next save.
func (b *tab) saveBy(t *testing.T, sp savedProject, write func(encoded, saveWriter) error) error {
	t.Helper()
	p, err := b.enc.encode(sp)
	if err != nil {
		t.Fatal(err)
	}
	b.saves++
	w := saveWriter{key: fmt.Sprintf("%s%s.%d", writerPrefix, b.id, b.saves), seen: b.seen, own: writerPrefix + b.id + "."}
	if err = write(p, w); err == nil {
		b.seen = w.key
	}
	return err
}

// Two tabs saving one project: a save is refused when another save than
// the one this tab read or wrote last is in the store, whoever made it
// (the other tab after this one opened the project, or before, again);
// the tab may take the other save as seen, and replace it. The project
// then holds one writer key and the replacing tab's work.
func TestProjectOtherTab(t *testing.T) {
	c := devCorpus(t, annotate.Untouched)
	store := mapStore{}
	a, b := &tab{id: "a"}, &tab{id: "b"}
	edit := func(c *annotate.Corpus, i int) *annotate.Corpus {
		t.Helper()
		if err := c.Do(t.Context(), i, annotate.SetStatus{Status: annotate.Checked}); err != nil {
			t.Fatal(err)
		}
		return c.Snapshot()
	}
	if err := a.save(t, store, savedProject{Corpus: c}); err != nil {
		t.Fatal(err)
	}
	// B opens the project A saved; A saves again (it may: its own save).
	b.open(store)
	cb := c.Snapshot()
	if err := a.save(t, store, savedProject{Corpus: edit(c, 1)}); err != nil {
		t.Fatal(err)
	}
	// B's save would drop A's second save: refused, nothing written.
	before := maps.Clone(store)
	err := b.save(t, store, savedProject{Corpus: edit(cb, 0)})
	var other *otherTabError
	if !errors.As(err, &other) || !errors.Is(err, errOtherTab) || other.key != writerOf(store.read()) {
		t.Fatalf("a save over a newer one of the tab it came from: %v", err)
	}
	if !maps.EqualFunc(store, before, bytes.Equal) {
		t.Error("a refused save changed the store")
	}
	// B takes A's save as seen: its save replaces A's, and A's next one is
	// refused in turn.
	b.seen = other.key
	if err := b.save(t, store, savedProject{Corpus: cb, Index: 2}); err != nil {
		t.Fatal(err)
	}
	if err := a.save(t, store, savedProject{Corpus: c}); !errors.Is(err, errOtherTab) {
		t.Errorf("A's save after B replaced it: %v", err)
	}
	sp, _, _, err := decodeStored(store.read(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Index != 2 || sp.Corpus.Sentences[0].Status() != annotate.Checked || sp.Corpus.Sentences[1].Status() != annotate.Untouched {
		t.Errorf("after B's save: index %d, statuses %v %v", sp.Index, sp.Corpus.Sentences[0].Status(), sp.Corpus.Sentences[1].Status())
	}
	writers := 0
	for k := range store {
		if strings.HasPrefix(k, writerPrefix) {
			writers++
		}
	}
	if writers != 1 {
		t.Errorf("%d writer keys kept", writers)
	}
	// A save of A's own that A took for failed (committed after all) does
	// not stop A's next save.
	a.open(store)
	if err := a.save(t, store, savedProject{Corpus: c}); err != nil {
		t.Fatal(err)
	}
	a.seen = "lost"
	if err := a.save(t, store, savedProject{Corpus: c, Index: 3}); err != nil {
		t.Errorf("after a save of its own: %v", err)
	}
	// A stray writer key (damaged storage) beside the one seen does not
	// stop saves; two foreign ones are refused, and replacing the one
	// named goes through (and removes both).
	store[writerPrefix+"zz.1"] = nil
	if err := a.save(t, store, savedProject{Corpus: c}); err != nil {
		t.Errorf("with a stray writer key: %v", err)
	}
	store[writerPrefix+"zz.1"], store[writerPrefix+"zy.1"] = nil, nil
	delete(store, a.seen)
	err = a.save(t, store, savedProject{Corpus: c})
	if !errors.As(err, &other) || other.key != writerPrefix+"zz.1" {
		t.Fatalf("two foreign writer keys: %v", err)
	}
	a.seen = other.key
	if err := a.save(t, store, savedProject{Corpus: c}); err != nil {
		t.Errorf("replacing with two foreign writer keys: %v", err)
	}
	if _, left := store[writerPrefix+"zy.1"]; left || !strings.HasPrefix(writerOf(store.read()), writerPrefix+"a.") {
		t.Errorf("writer keys left: %v", slices.Collect(maps.Keys(store)))
	}
}

// Long work pauses once a work slice has run, but not while the page is
// hidden (its timers are slowed to a second or more).
func TestPacer(t *testing.T) {
	a := &App{}
	for _, hidden := range []bool{false, true} {
		a.SetPageHidden(hidden)
		p := a.newPacer()
		p.last = time.Now().Add(-2 * workSlice) // a slice has run
		p.pause()
		if want := map[bool]int{false: 1, true: 0}[hidden]; p.pauses != want {
			t.Errorf("hidden %v: %d pauses, want %d", hidden, p.pauses, want)
		}
	}
}
