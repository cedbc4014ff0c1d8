package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// memStore is an app.Store in memory. saves counts its updates;
// historyPuts lists the history keys (app.HistoryKey...) of each update
// that wrote some (a project's save writes its histories with it), and
// failHistories makes those updates fail (as a browser short of space may
// refuse the larger transaction).
type memStore struct {
	mu            sync.Mutex
	data          map[string][]byte
	saves         int
	historyPuts   [][]string
	failHistories bool
}

func (m *memStore) StoreRead(key, prefix string) (map[string][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string][]byte{}
	for k, v := range m.data {
		if k == key || strings.HasPrefix(k, prefix) {
			out[k] = v
		}
	}
	return out, nil
}

func (m *memStore) StoreUpdate(prefix string, decide app.StoreDecision) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var keys []string
	for k := range m.data {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	puts, deletes, err := decide(keys)
	if err != nil {
		return err
	}
	var history []string
	for k := range puts {
		if strings.HasPrefix(k, app.HistoryKey) {
			history = append(history, k)
		}
	}
	if len(history) > 0 {
		if m.failHistories {
			return errors.New("no room for the histories")
		}
		m.historyPuts = append(m.historyPuts, slices.Sorted(slices.Values(history)))
	}
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	for _, k := range deletes {
		delete(m.data, k)
	}
	maps.Copy(m.data, puts)
	m.saves++
	return nil
}

// setFailHistories makes the updates that write histories fail, or
// succeed again.
func (m *memStore) setFailHistories(fail bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failHistories = fail
}

// lastHistoryPuts returns the history keys the last update that wrote
// some wrote.
func (m *memStore) lastHistoryPuts() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.historyPuts) == 0 {
		return nil
	}
	return m.historyPuts[len(m.historyPuts)-1]
}

// load returns the value under key.
func (m *memStore) load(key string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.data[key]
	return v, ok
}

func (m *memStore) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves
}

// storePlatform is the fake platform with a store.
type storePlatform struct {
	*apptest.Platform
	*memStore
}

// fakeEngine answers parses with a fixed tree builder and records the
// requests.
type fakeEngine struct {
	mu   sync.Mutex
	reqs []parser.Request
}

func (f *fakeEngine) Load(context.Context, []byte, string, parser.LoadOptions) (*parser.Info, error) {
	return &parser.Info{Labels: []string{"np", "smain"}}, nil
}

// Parse builds a tree with the required constituents and, over the whole
// sentence, smain.
func (f *fakeEngine) Parse(_ context.Context, req parser.Request) (*parser.Parse, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	var cons []tree.Labelled
	for _, r := range req.Require {
		l := tree.Labelled{Label: r.Label}
		for _, b := range r.Blocks {
			l.Blocks = append(l.Blocks, tree.Span{Start: b[0], End: b[1]})
		}
		cons = append(cons, l)
	}
	cons = append(cons, tree.Labelled{Label: "smain", Blocks: []tree.Span{{Start: 0, End: len(req.Words)}}})
	t, err := tree.FromConstituents(req.Words, nil, cons)
	if err != nil {
		return nil, err
	}
	return &parser.Parse{Variant: req.Variant, Words: req.Words, Tree: t, DecodeNs: 1000}, nil
}

func (f *fakeEngine) Close() {}

func TestReparserWiring(t *testing.T) {
	eng := &fakeEngine{}
	var done int
	rp := app.Reparser{Engine: eng, Variant: "n4", Done: func(*parser.Parse) { done++ }}
	words := strings.Fields("de man die slaapt")
	got, err := rp.Reparse(t.Context(), words, nil,
		[]annotate.Fixed{{Label: "np", Yield: annotate.Yield{{Start: 0, End: 2}}}},
		[]annotate.Yield{{{Start: 2, End: 4}}, {{Start: 0, End: 1}, {Start: 2, End: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(eng.reqs) != 1 || done != 1 {
		t.Fatalf("%d requests, %d callbacks", len(eng.reqs), done)
	}
	r := eng.reqs[0]
	if r.Variant != "n4" || !slices.Equal(r.Words, words) {
		t.Errorf("request %+v", r)
	}
	if len(r.Require) != 1 || r.Require[0].Label != "np" || !slices.Equal(r.Require[0].Blocks, [][2]int{{0, 2}}) {
		t.Errorf("require %+v", r.Require)
	}
	if len(r.Forbid) != 2 || !slices.Equal(r.Forbid[1].Blocks, [][2]int{{0, 1}, {2, 3}}) {
		t.Errorf("forbid %+v", r.Forbid)
	}
	if got.Len() != 4 || len(got.Nodes) != 2 {
		t.Errorf("tree %+v", got)
	}
	if _, err := (app.Reparser{}).Reparse(t.Context(), words, nil, nil, nil); err == nil {
		t.Error("no engine: no error")
	}
}

// annApp returns an app with a random model loaded and a store.
func annApp(t *testing.T, store *memStore) (*app.App, *apptest.Env) {
	t.Helper()
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 61.25)
	env := &apptest.Env{}
	a := app.New(env, storePlatform{plat, store}, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the model", wait, func() bool { return a.Model.Ready() })
	env.Wait(t, "the restore", wait, func() bool { return a.Annotate.Restored })
	return a, env
}

// nodeOver returns the node labelled label over exactly the words, or -1.
func nodeOver(tr *tree.Tree, label string, words []int) int {
	for i, y := range tr.Yields() {
		if tr.Nodes[i].Label == label && slices.Equal(y, words) {
			return i
		}
	}
	return -1
}

// idle waits for the annotation tab's re-parse to end.
func idle(t *testing.T, a *app.App, env *apptest.Env) {
	t.Helper()
	env.Wait(t, "the re-parse", wait, func() bool { return !a.Annotate.Busy })
	if a.Annotate.Err != "" {
		t.Fatalf("annotation error: %s", a.Annotate.Err)
	}
}

func TestAnnotateKeyboard(t *testing.T) {
	store := &memStore{}
	a, env := annApp(t, store)
	env.Do(func() {
		a.SetText(strings.Join(apptest.Sentences[0], " "))
		a.SetTab(app.TabAnnotate)
		a.AnnNew()
	})
	idle(t, a, env)
	if a.Annotate.Corpus == nil || a.AnnSentence().Status() != annotate.PreAnnotated {
		t.Fatal("no pre-annotated sentence")
	}
	// Words 2..3 ("het boek") and, as a second block, word 5 ("aan"):
	// → → Shift+→ g → → (the second block starts at 5), c np Enter.
	env.Do(func() {
		for _, k := range []struct {
			key   string
			shift bool
		}{{"ArrowRight", false}, {"ArrowRight", false}, {"ArrowRight", true}, {"g", false}} {
			if !a.AnnKey(k.key, k.shift, false) {
				t.Errorf("key %s unused", k.key)
			}
		}
		if got := a.Annotate.Sel.Words(); !slices.Equal(got, []int{2, 3, 5}) {
			t.Errorf("selection %v", got)
		}
		// The arrows move the second block; Home and End select one word
		// alone, the second block dropped (↑ d after Home deleted the node
		// over both blocks); Shift+Home extends.
		a.AnnKey("ArrowRight", false, false)
		if got := a.Annotate.Sel.Words(); !slices.Equal(got, []int{2, 3, 6}) {
			t.Errorf("after →: selection %v", got)
		}
		a.AnnKey("End", false, false)
		if got := a.Annotate.Sel.Words(); !slices.Equal(got, []int{a.Annotate.Sel.N - 1}) {
			t.Errorf("after End: selection %v", got)
		}
		a.AnnKey("Home", true, false)
		if got := a.Annotate.Sel.Words(); len(got) != a.Annotate.Sel.N {
			t.Errorf("after Shift+Home: selection %v", got)
		}
		a.AnnKey("Home", false, false)
		if got := a.Annotate.Sel.Words(); !slices.Equal(got, []int{0}) {
			t.Errorf("after Home: selection %v", got)
		}
		// Back to words 2..3 and 5, as above.
		for _, k := range []struct {
			key   string
			shift bool
		}{{"ArrowRight", false}, {"ArrowRight", false}, {"ArrowRight", true}, {"g", false}} {
			a.AnnKey(k.key, k.shift, false)
		}
		a.AnnKey("g", false, false) // drop the second block again
		a.AnnKey("c", false, false)
		if a.Annotate.LabelMode != app.LabelCreate {
			t.Errorf("label mode %q", a.Annotate.LabelMode)
		}
		a.AnnSetLabelText("np")
		a.AnnApplyLabel()
	})
	idle(t, a, env)
	var before *tree.Tree
	env.Do(func() {
		tr := a.AnnSentence().Tree()
		if nodeOver(tr, "np", []int{2, 3}) < 0 {
			t.Errorf("no np over words 2-3 after creating it: %v", constituents(tr))
		}
		if list := a.AnnUndoList(); len(list) != 1 || !strings.Contains(list[0], `Create np over "het boek"`) {
			t.Errorf("undo list %q", list)
		}
		if a.Annotate.ReparseWallNs <= 0 {
			t.Error("no re-parse time")
		}
		before = tr
		a.AnnKey("z", false, true) // Ctrl+Z
	})
	env.Do(func() {
		if nodeOver(a.AnnSentence().Tree(), "np", []int{2, 3}) >= 0 && nodeOver(before, "np", []int{2, 3}) >= 0 &&
			len(a.AnnUndoList()) != 0 {
			t.Errorf("undo did not undo: %v", a.AnnUndoList())
		}
		if len(a.AnnRedoList()) != 1 {
			t.Errorf("redo list %q", a.AnnRedoList())
		}
		a.AnnKey("Z", true, true) // Ctrl+Shift+Z
		if a.AnnSentence().Tree() != before {
			t.Error("redo did not restore the tree")
		}
		// ↑ selects the np (the lowest node over the selection), r relabels.
		a.AnnKey("ArrowUp", false, false)
		if n := a.Annotate.Node; n < 0 || a.AnnSentence().Tree().Nodes[n].Label != "np" {
			t.Errorf("selected node %d", n)
		}
		a.AnnKey("r", false, false)
		a.AnnSetLabelText("pp")
		a.AnnApplyLabel()
	})
	idle(t, a, env)
	env.Do(func() {
		if nodeOver(a.AnnSentence().Tree(), "pp", []int{2, 3}) < 0 {
			t.Errorf("relabel: %v", constituents(a.AnnSentence().Tree()))
		}
		a.AnnKey("t", false, false)
		a.AnnSetLabelText("N")
		a.AnnApplyLabel()
		if got := a.AnnSentence().Tree().Tokens[3].Tag; got != "N" {
			t.Errorf("tag %q", got)
		}
		a.AnnSetNote("a note")
		a.AnnKey("x", false, false)
		if a.AnnSentence().Status() != annotate.Checked {
			t.Errorf("status %v", a.AnnSentence().Status())
		}
		a.AnnKey("?", false, false)
		if !a.Annotate.Help {
			t.Error("? did not open the shortcut sheet")
		}
		// With the single-key shortcuts off (a screen reader or speech
		// input types letters), letters and ? do nothing; the other keys
		// still work.
		a.AnnSetLetterKeys(false)
		if a.AnnKey("?", false, false) || a.AnnKey("n", false, false) || !a.Annotate.Help {
			t.Error("a single-key shortcut worked while they were off")
		}
		a.AnnSetLetterKeys(true)
		a.AnnKey("Delete", false, false) // the pp
	})
	idle(t, a, env)
	env.Do(func() {
		if nodeOver(a.AnnSentence().Tree(), "pp", []int{2, 3}) >= 0 {
			t.Error("delete: the pp is still there")
		}
		if fb := a.AnnSentence().Forbidden(); len(fb) != 1 {
			t.Errorf("forbidden %v", fb)
		}
	})
	// The project is saved (debounced) and restored by a new app.
	var seq int
	env.Do(func() { seq = a.Annotate.Seq })
	env.Wait(t, "the save", wait, func() bool { return a.Annotate.Saved >= seq && a.Annotate.SaveErr == "" })
	if store.count() == 0 {
		t.Fatal("nothing saved")
	}
	b, env2 := annApp(t, store)
	env2.Do(func() {
		s := b.AnnSentence()
		if s == nil {
			t.Fatalf("nothing restored: %s", b.Annotate.SaveErr)
		}
		if s.Note() != "a note" || s.Status() != annotate.Checked || s.Tree().Tokens[3].Tag != "N" {
			t.Errorf("restored note %q status %v tag %q", s.Note(), s.Status(), s.Tree().Tokens[3].Tag)
		}
		if b.Annotate.View == nil || !strings.Contains(b.Annotate.View.SVG, "cursor") {
			t.Error("restored sentence not drawn with the cursor")
		}
		// Progress counts the sentences of the corpus and of its
		// reference trees.
		if n := 2 * len(b.Annotate.Corpus.Sentences); b.Annotate.RestoreTotal != n || b.Annotate.RestoreDone == 0 {
			t.Errorf("restore progress %d of %d, want some of %d", b.Annotate.RestoreDone, b.Annotate.RestoreTotal, n)
		}
	})
}

func TestAnnotateValidationMarks(t *testing.T) {
	a, env := annApp(t, &memStore{})
	tr := flat(strings.Fields("de man slaapt"))
	tr.Nodes = []tree.Node{{Label: "XX", Parent: tree.Root, Num: 500}}
	tr.Tokens[0].Parent, tr.Tokens[1].Parent = 0, 0
	env.Do(func() {
		a.AnnSetCorpus(annotate.NewCorpus("t", []*tree.Tree{tr}, annotate.Untouched), nil, 0)
		var kinds []string
		for _, p := range a.Annotate.Problems {
			kinds = append(kinds, p.Kind.String())
		}
		if !slices.Contains(kinds, "unknown label") {
			t.Errorf("problems %v", kinds)
		}
		if !strings.Contains(a.Annotate.View.SVG, "problem") {
			t.Error("the problem is not marked in the drawing")
		}
		// Mouse selection: click, shift-click, ctrl-click.
		a.AnnClickWord(2, false, false)
		a.AnnClickWord(1, true, false)
		if got := a.Annotate.Sel.Words(); !slices.Equal(got, []int{1, 2}) {
			t.Errorf("selection %v", got)
		}
		a.AnnClickWord(0, false, false)
		a.AnnClickWord(2, false, true)
		if got := a.Annotate.Sel.Words(); !slices.Equal(got, []int{0, 2}) {
			t.Errorf("selection %v", got)
		}
		// Re-attach word 2 under node 0 by mouse: select... the word,
		// start, click the node.
		a.AnnClickWord(2, false, false)
		a.AnnStartAttach()
		a.AnnClickNode(0)
	})
	idle(t, a, env)
	env.Do(func() {
		tr := a.AnnSentence().Tree()
		if nodeOver(tr, "XX", []int{0, 1, 2}) < 0 {
			t.Errorf("word 2 not under XX: %v", constituents(tr))
		}
	})
}

// flat returns a tree of words with no nodes.
func flat(words []string) *tree.Tree {
	t := &tree.Tree{ID: "1"}
	for _, w := range words {
		t.Tokens = append(t.Tokens, tree.Token{Word: w, Parent: tree.Root})
	}
	return t
}

// reparseSentence is a 40-word sentence of the test vocabulary.
func reparseSentence() []string {
	var words []string
	for len(words) < 40 {
		for _, s := range apptest.Sentences {
			for _, w := range s {
				if w != "." && w != "?" { // one sentence for the tokenizer
					words = append(words, w)
				}
			}
		}
	}
	return words[:40]
}

func TestLocalConstrained(t *testing.T) {
	eng := &parser.Engine{}
	info, err := eng.Load(t.Context(), apptest.Model(t, 1), "default", parser.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	words := reparseSentence()
	for _, v := range []decode.Variant{decode.N3, decode.N4} {
		p, err := eng.Parse(t.Context(), parser.Request{Words: words, Variant: v.String()})
		if err != nil {
			t.Fatal(err)
		}
		req := parser.Request{Words: words, Variant: v.String(),
			Require: []parser.Constraint{{Label: "np", Blocks: [][2]int{{3, 6}}}, {Label: "NEWLABEL", Blocks: [][2]int{{10, 12}, {13, 15}}}},
			Forbid:  []parser.Constraint{{Blocks: [][2]int{{0, 40}}}}}
		if v == decode.N3 {
			req.Require[1].Blocks = [][2]int{{10, 15}}
		}
		c, err := eng.Parse(t.Context(), req)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if !c.Reused {
			t.Errorf("%s: the re-parse scored the sentence again", v)
		}
		cons := constituents(c.Tree)
		for _, want := range []string{"np[3,6)", "NEWLABEL" + map[bool]string{true: "[10,15)", false: "[10,12)+[13,15)"}[v == decode.N3]} {
			if !slices.Contains(cons, want) {
				t.Errorf("%s: no %s in %v", v, want, cons)
			}
		}
		for _, c := range cons {
			if strings.HasSuffix(c, "[0,40)") {
				t.Errorf("%s: forbidden %s", v, c)
			}
		}
		if c.Score > p.Score+1e-3 {
			t.Errorf("%s: constrained score %v above the optimum %v", v, c.Score, p.Score)
		}
	}
	_ = info
	// Unsatisfiable constraints are errors.
	_, err = eng.Parse(t.Context(), parser.Request{Words: words, Variant: "n3",
		Require: []parser.Constraint{{Label: "np", Blocks: [][2]int{{0, 3}}}, {Label: "np", Blocks: [][2]int{{2, 5}}}}})
	if err == nil {
		t.Error("crossing requirements: no error")
	}
}

// BenchmarkReparse40 times the re-parse of a 40-word sentence after an
// edit (the scores reused; only the constrained decoding), per variant. It
// uses a small random model, or the weights file DISCSPAN_WEIGHTS with a
// 40-word sentence of the Alpino dev set (when $DATA or ../../../shared/data
// has it).
func BenchmarkReparse40(b *testing.B) {
	data := apptest.Model(b, 1)
	words := reparseSentence()
	if path := os.Getenv("DISCSPAN_WEIGHTS"); path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			b.Fatal(err)
		}
		dir := os.Getenv("DATA")
		if dir == "" {
			dir = filepath.Join("..", "..", "..", "shared", "data")
		}
		if trees, err := treebank.ReadFile(filepath.Join(dir, "alpino-cdb", "dev.punctmoved.discbracket")); err == nil {
			for _, tr := range trees {
				if tr.Len() == 40 {
					words = tr.Words()
					break
				}
			}
		}
	}
	eng := &parser.Engine{}
	if _, err := eng.Load(b.Context(), data, "default", parser.LoadOptions{}); err != nil {
		b.Fatal(err)
	}
	for _, v := range []decode.Variant{decode.N3, decode.N4, decode.N6} {
		b.Run(v.String(), func(b *testing.B) {
			if _, err := eng.Parse(b.Context(), parser.Request{Words: words, Variant: v.String()}); err != nil {
				b.Fatal(err)
			}
			req := parser.Request{Words: words, Variant: v.String(),
				Require: []parser.Constraint{{Label: "np", Blocks: [][2]int{{3, 6}}}},
				Forbid:  []parser.Constraint{{Blocks: [][2]int{{0, 2}}}}}
			var decodeNs int64
			for b.Loop() {
				p, err := eng.Parse(b.Context(), req)
				if err != nil {
					b.Fatal(err)
				}
				decodeNs += p.DecodeNs
			}
			b.ReportMetric(float64(decodeNs)/float64(b.N)/1e6, "decode-ms/op")
		})
	}
}

// bankBytes writes trees of the test sentences (a flat smain over each) as
// an export file.
func bankBytes(t *testing.T) []byte {
	t.Helper()
	var trees []*tree.Tree
	for i, s := range apptest.Sentences {
		tags := make([]string, len(s))
		for k := range tags {
			tags[k] = "N"
		}
		tr, err := tree.FromConstituents(s, tags, []tree.Labelled{
			{Label: "np", Blocks: []tree.Span{{Start: 2, End: 4}}},
			{Label: "smain", Blocks: []tree.Span{{Start: 0, End: len(s) - 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		tr.ID = strconv.Itoa(i + 1)
		trees = append(trees, tr)
	}
	var buf bytes.Buffer
	if err := treebank.WriteExport(&buf, trees, 4); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestAnnotateCorpus(t *testing.T) {
	store := &memStore{}
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 61.25)
	env := &apptest.Env{}
	a := app.New(env, storePlatform{plat, store}, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the model", wait, func() bool { return a.Model.Ready() && a.Annotate.Restored })
	in := bankBytes(t)
	env.Do(func() { a.SetTab(app.TabAnnotate); a.AnnImport("bank.export", in) })
	env.Wait(t, "the import", wait, func() bool { return a.Annotate.Import != nil && a.Annotate.Import.Done })
	env.Do(func() {
		if p := a.Annotate.Import; p.Err != "" || p.Sentences != 3 || p.Percent() != 100 {
			t.Fatalf("import %+v", p)
		}
		if n := a.AnnCounts(); n != [3]int{3, 0, 0} {
			t.Errorf("counts %v", n)
		}
		a.AnnOpenLabel(app.LabelTag)
		if got := a.AnnChoices(); !slices.Equal(got, []string{"N"}) {
			t.Errorf("tag choices %v", got)
		}
		a.AnnCancel()
		if got := a.AnnChoices(); !slices.Contains(got, "np") || !slices.Contains(got, "sv1") || slices.Contains(got, "smain/sv1") {
			t.Errorf("label choices %v", got)
		}
		for _, f := range []string{"export", "discbracket", "tigerxml"} {
			a.AnnExport(f)
		}
	})
	if got := plat.SavedNames(); !slices.Equal(got, []string{"bank.discbracket", "bank.export", "bank.xml"}) {
		t.Errorf("exported %v", got)
	}
	if got := plat.Saved["bank.export"]; !bytes.Equal(got, in) {
		t.Errorf("export differs from the import:\n%s\nwant\n%s", got, in)
	}
	env.Do(func() {
		tests := []struct {
			query string
			hits  int
		}{
			{"het boek", 1}, {"HEt", 2}, {"label:np", 3}, {"smain", 3}, {"nergens", 0}, {"", 0},
		}
		for _, tc := range tests {
			a.AnnSetQuery(tc.query)
			a.AnnSearch()
			if len(a.Annotate.Hits) != tc.hits {
				t.Errorf("search %q: %d hits %v, want %d", tc.query, len(a.Annotate.Hits), a.Annotate.Hits, tc.hits)
			}
		}
		a.AnnConsistency()
		if !strings.Contains(a.Annotate.Msg, "analysed in more than one way") {
			t.Errorf("consistency: %q", a.Annotate.Msg)
		}
		a.AnnGo(1)
		a.AnnShowDiff(app.DiffGold)
		if d := a.Annotate.Diff; d == nil || d.F1 != 100 || d.OnlyA+d.OnlyB != 0 {
			t.Errorf("diff of an unchanged sentence: %+v", d)
		}
		a.AnnShowDiff(app.DiffParser)
	})
	env.Wait(t, "the parser diff", wait, func() bool { return a.Annotate.Diff != nil && a.Annotate.Diff.B.Title == "parser" })
	env.Do(func() {
		if d := a.Annotate.Diff; d.A.Tree != a.AnnSentence().Tree() || d.Matched+d.OnlyA == 0 {
			t.Errorf("parser diff %+v", d)
		}
		a.AnnPreAnnotate()
	})
	env.Wait(t, "the pre-annotation", wait, func() bool { return a.Job == nil && a.AnnCounts() == [3]int{0, 3, 0} })
	env.Do(func() {
		if a.Annotate.Err != "" {
			t.Errorf("pre-annotation: %s", a.Annotate.Err)
		}
		tr := a.AnnSentence().Tree()
		if tr.ID != "2" || tr.Tokens[0].Tag != "N" {
			t.Errorf("pre-annotated tree lost its id or tags: %q %q", tr.ID, tr.Tokens[0].Tag)
		}
		a.AnnShowDiff(app.DiffGold)
		if d := a.Annotate.Diff; d == nil || d.A.Title != "reference" {
			t.Errorf("gold diff after pre-annotation: %+v", d)
		}
	})
}

// TestAnnPreAnnotateKeepsEdits: an untouched sentence the annotator has
// edited (a relabel, a tag) is not replaced by pre-annotation, which says
// it kept it; the other untouched sentences are pre-annotated. The mark
// survives saving and loading the project, and undoing the edits clears it.
func TestAnnPreAnnotateKeepsEdits(t *testing.T) {
	a, env := annApp(t, &memStore{})
	env.Do(func() { a.SetTab(app.TabAnnotate) })
	importWait(t, a, env, "bank.export", bankBytes(t), false)
	var edited *annotate.Sentence
	env.Do(func() {
		a.AnnGo(1)
		a.Annotate.Node = 0
		a.AnnRelabel("MYLABEL")
		a.AnnSetTag("MYTAG")
		if a.Annotate.Err != "" {
			t.Fatal(a.Annotate.Err)
		}
		edited = a.AnnSentence()
		if edited.Status() != annotate.Untouched || !edited.Edited() {
			t.Fatalf("after the edits: %v, edited %v; want untouched and edited", edited.Status(), edited.Edited())
		}
		b, err := json.Marshal(a.Annotate.Corpus)
		if err != nil {
			t.Fatal(err)
		}
		back, err := annotate.Load(bytes.NewReader(b))
		if err != nil || !back.Sentences[1].Edited() || back.Sentences[0].Edited() {
			t.Errorf("the edited mark did not survive saving (%v)", err)
		}
		a.AnnPreAnnotate()
		if !strings.Contains(a.Annotate.Msg, "kept as you edited them: 1 untouched sentence") {
			t.Errorf("message %q; want one saying the edited sentence is kept", a.Annotate.Msg)
		}
	})
	env.Wait(t, "the pre-annotation", wait, func() bool { return a.Job == nil && a.AnnCounts() == [3]int{1, 2, 0} })
	env.Do(func() {
		if got := a.Annotate.Corpus.Sentences[1]; got != edited || got.Tree().Nodes[0].Label != "MYLABEL" {
			t.Errorf("the edited sentence was replaced: %v", constituents(got.Tree()))
		}
		a.AnnGo(1)
		a.AnnUndo()
		a.AnnUndo()
		if a.AnnSentence().Edited() {
			t.Error("undoing every edit left the sentence marked edited")
		}
	})
}

// startReparse makes a constituent np over the third and fourth words of
// the pre-annotated sentence shown, a structural edit, which starts a
// re-parse (the caller holds the lock).
func startReparse(t *testing.T, a *app.App) {
	t.Helper()
	a.Annotate.Sel = app.Selection{}
	for _, k := range []string{"ArrowRight", "ArrowRight"} {
		a.AnnKey(k, false, false)
	}
	a.AnnKey("ArrowRight", true, false)
	a.AnnKey("c", false, false)
	a.AnnSetLabelText("np")
	a.AnnApplyLabel()
	if !a.Annotate.Busy {
		t.Fatal("the structural edit of a pre-annotated sentence started no re-parse")
	}
}

// TestAnnotateNoteDuringReparse: a note set while a re-parse runs is kept
// (applied when the re-parse ends, as a step of its own), not refused
// while the note field still shows it.
func TestAnnotateNoteDuringReparse(t *testing.T) {
	a, env := annApp(t, &memStore{})
	env.Do(func() {
		a.SetText(strings.Join(apptest.Sentences[0], " "))
		a.SetTab(app.TabAnnotate)
		a.AnnNew()
	})
	idle(t, a, env)
	env.Do(func() {
		startReparse(t, a)
		a.AnnNoteInput("check the np")
		a.AnnSetNote("check the np")
		if a.Annotate.Err != "" {
			t.Errorf("setting a note during the re-parse: %s", a.Annotate.Err)
		}
		if got := a.AnnNoteText(); got != "check the np" || !a.AnnUnsaved() {
			t.Errorf("during the re-parse the note field shows %q, unsaved %v; want the note set, counted unsaved", got, a.AnnUnsaved())
		}
	})
	idle(t, a, env)
	env.Do(func() {
		if got := a.AnnSentence().Note(); got != "check the np" {
			t.Errorf("note %q after the re-parse; want the one set during it", got)
		}
		if list := a.AnnUndoList(); len(list) != 2 {
			t.Errorf("undo list %q; want the edit and the note", list)
		}
	})
}

// Moving to another sentence, without an edit, is saved (quietly: the
// work stays "saved"), so that a reload comes back to that sentence; the
// page's flush saves it at once; and a move in one tab does not make
// another tab's next save a conflict (the index is a record of its own).
func TestAnnotateIndexKept(t *testing.T) {
	store := &memStore{}
	a, env := annAppWith(t, store, app.Options{SaveDelay: time.Hour}) // nothing saved but by hand or by the flush
	env.Do(func() { a.SetTab(app.TabAnnotate); a.AnnImport("bank.export", bankBytes(t)) })
	env.Wait(t, "the import", wait, func() bool { return a.Annotate.Corpus != nil })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	reloaded := func() int {
		b, envB := annApp(t, store)
		var at int
		envB.Do(func() { at = b.Annotate.Index })
		return at
	}
	env.Do(func() {
		a.AnnGo(2)
		if a.AnnUnsaved() || a.AnnSaveState() != "saved in this browser" {
			t.Errorf("a move counts as unsaved work: %v, %q", a.AnnUnsaved(), a.AnnSaveState())
		}
	})
	if got := reloaded(); got != 0 {
		t.Fatalf("before any save, a reload shows sentence %d", got)
	}
	env.Do(a.AnnFlush)
	env.Wait(t, "the move flushed", wait, func() bool { return reloaded() == 2 })
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}

	// Another tab moves; this tab's next edit saves without a conflict,
	// and a reload shows this tab's sentence (its save is the later).
	b, envB := annApp(t, store)
	envB.Do(func() { b.AnnGo(1) })
	if err := b.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	if got := reloaded(); got != 1 {
		t.Errorf("after the other tab's move, a reload shows sentence %d, want 1", got)
	}
	env.Do(func() { a.AnnSetNote("een notitie") })
	if err := a.AnnSaveNow(); err != nil || a.Annotate.SaveConflict {
		t.Fatalf("an edit after another tab's move: %v (conflict %v)", err, a.Annotate.SaveConflict)
	}
	if got := reloaded(); got != 2 {
		t.Errorf("after this tab's edit, a reload shows sentence %d, want 2", got)
	}
}
