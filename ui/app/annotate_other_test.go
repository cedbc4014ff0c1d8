package app_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// otherData returns the first n sentences of the Alpino dev set as export
// and, with punctuation moved, as discbracket (when $DATA or
// ../../../shared/data has them; the test is skipped otherwise).
func otherData(t *testing.T, n int) (export, disc []byte) {
	t.Helper()
	dir := os.Getenv("DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	ex, err := os.ReadFile(filepath.Join(dir, "alpino-cdb", "dev.export"))
	if err != nil {
		t.Skipf("no Alpino dev set: %v", err)
	}
	db, err := os.ReadFile(filepath.Join(dir, "alpino-cdb", "dev.punctmoved.discbracket"))
	if err != nil {
		t.Skipf("no Alpino dev set: %v", err)
	}
	end, count := 0, 0
	for end < len(ex) && count < n {
		nl := bytes.IndexByte(ex[end:], '\n')
		if nl < 0 {
			end = len(ex)
			break
		}
		if bytes.HasPrefix(ex[end:], []byte("#EOS")) {
			count++
		}
		end += nl + 1
	}
	lines := bytes.SplitAfter(db, []byte("\n"))
	return ex[:end], bytes.Join(lines[:n], nil)
}

// readTrees reads a treebank from bytes.
func readTrees(t *testing.T, name string, data []byte) []*tree.Tree {
	t.Helper()
	f, err := treebank.FormatOf(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := annotate.Import(bytes.NewReader(data), name, 0, annotate.ImportOptions{Format: f})
	if err != nil {
		t.Fatal(err)
	}
	return c.Trees()
}

// importWait imports a file (as the second file of a comparison when
// other is set) and waits for the import to end.
func importWait(t *testing.T, a *app.App, env *apptest.Env, name string, data []byte, other bool) *app.ImportProgress {
	t.Helper()
	var prev *app.ImportProgress
	env.Do(func() {
		prev = a.Annotate.Import
		if other {
			a.AnnImportOther(name, data)
		} else {
			a.AnnImport(name, data)
		}
	})
	var p *app.ImportProgress
	env.Wait(t, "the import of "+name, wait, func() bool {
		p = a.Annotate.Import
		return p != nil && p != prev && p.Done
	})
	return p
}

func TestAnnotateOtherFile(t *testing.T) {
	const n = 10
	export, disc := otherData(t, n)
	store := &memStore{}
	a, env := annApp(t, store)
	if p := importWait(t, a, env, "dev10.export", export, false); p.Err != "" || p.Sentences != n || p.Second {
		t.Fatalf("first import %+v", p)
	}
	if p := importWait(t, a, env, "dev10.punctmoved.discbracket", disc, true); p.Err != "" || p.Sentences != n || !p.Second {
		t.Fatalf("second import %+v", p)
	}

	// The corpus score is what chart/eval (and annotate.Diff, summed) gives.
	gold, test := readTrees(t, "dev10.export", export), readTrees(t, "dev10.discbracket", disc)
	res, err := eval.Evaluate(gold, test, eval.Params{Labeled: true, KeepFunctionTags: true})
	if err != nil {
		t.Fatal(err)
	}
	var matched, ng, nt int
	differs := -1 // the first sentence whose analyses differ
	for i := range gold {
		r, err := annotate.Diff(gold[i], test[i])
		if err != nil {
			t.Fatal(err)
		}
		if differs < 0 && r.F1 < 100 {
			differs = i
		}
		matched += len(r.Matched)
		ng += len(r.Matched) + len(r.OnlyA)
		nt += len(r.Matched) + len(r.OnlyB)
	}
	env.Do(func() {
		sc := a.Annotate.OtherScore
		if a.Annotate.Other == nil || sc == nil {
			t.Fatal("no second file")
		}
		if sc.Err != "" || sc.Mismatched != 0 || sc.Sentences != n {
			t.Errorf("score %+v", sc)
		}
		if sc.Matched != matched || sc.Gold != ng || sc.Test != nt {
			t.Errorf("counts %d/%d/%d, annotate.Diff summed gives %d/%d/%d", sc.Matched, sc.Gold, sc.Test, matched, ng, nt)
		}
		all := res.All
		if math.Abs(sc.F1-all.F1) > 1e-9 || math.Abs(sc.Precision-all.Precision) > 1e-9 || math.Abs(sc.Recall-all.Recall) > 1e-9 {
			t.Errorf("F1 %v P %v R %v, chart/eval gives %v %v %v", sc.F1, sc.Precision, sc.Recall, all.F1, all.Precision, all.Recall)
		}
		t.Logf("second file: F1 %.2f (%d/%d/%d), chart/eval %.2f", sc.F1, sc.Matched, sc.Gold, sc.Test, res.All.F1)
		if sc.F1 <= 0 || sc.F1 >= 100 {
			t.Errorf("F1 %v: the files should differ (moved punctuation)", sc.F1)
		}
		if !strings.Contains(sc.Against, "dev10.export") {
			t.Errorf("scored against %q", sc.Against)
		}

		// Per-sentence diffs: first file against the second, and the
		// current analysis against the second.
		if differs < 0 {
			t.Fatal("no sentence differs")
		}
		a.AnnGo(differs)
		for _, kind := range []string{app.DiffOther, app.DiffOtherCurrent} {
			a.AnnShowDiff(kind)
			d := a.Annotate.Diff
			if d == nil || a.Annotate.Err != "" {
				t.Fatalf("%s: no diff (%s)", kind, a.Annotate.Err)
			}
			if d.F1 >= 100 || d.OnlyA+d.OnlyB == 0 || !strings.Contains(d.Title, "second file (dev10.punctmoved.discbracket)") {
				t.Errorf("%s: diff %q F1 %v, %d only in A, %d only in B", kind, d.Title, d.F1, d.OnlyA, d.OnlyB)
			}
			if d.B.Tree != a.Annotate.Other.Sentences[differs].Tree() {
				t.Errorf("%s: B is not the second file's tree", kind)
			}
		}
		if !strings.Contains(a.Annotate.Diff.Title, "current analysis") {
			t.Errorf("current diff title %q", a.Annotate.Diff.Title)
		}
	})

	// The second file is saved with the project and restored.
	if err := a.AnnSaveNow(); err != nil {
		t.Fatal(err)
	}
	var want app.OtherScore
	env.Do(func() { want = *a.Annotate.OtherScore })
	b, env2 := annApp(t, store)
	env2.Do(func() {
		s := &b.Annotate
		if s.Corpus == nil || s.Other == nil || s.OtherScore == nil {
			t.Fatalf("restored corpus %v, second file %v", s.Corpus != nil, s.Other != nil)
		}
		if s.Other.Name != "dev10.punctmoved.discbracket" || *s.OtherScore != want {
			t.Errorf("restored %s scored %+v, want %+v", s.Other.Name, *s.OtherScore, want)
		}
		b.AnnClearOther()
		if s.Other != nil || s.OtherScore != nil {
			t.Error("the second file was not dropped")
		}
	})
}

func TestAnnotateOtherMismatch(t *testing.T) {
	const n = 10
	export, disc := otherData(t, n)
	lines := bytes.SplitAfter(disc, []byte("\n"))
	tests := []struct {
		name  string
		other []byte
		// score is in the score's Err (count) or Mismatch (words); diff
		// in the error of the first sentence's diff.
		score, diff string
		mismatched  int
	}{
		{
			name:  "fewer sentences",
			other: bytes.Join(lines[:n-1], nil),
			score: "has 9 sentences, the corpus 10",
			diff:  "has 9 sentences, the corpus 10",
		},
		{
			name:       "other words",
			other:      bytes.Replace(disc, []byte("=bulletin)"), []byte("=bulletins)"), 1),
			score:      `sentence 1 (cdb-5723 / 1): word 2 is "bulletin" in the corpus but "bulletins" in the second file`,
			diff:       `cannot diff: sentence 1 (cdb-5723 / 1): word 2 is "bulletin"`,
			mismatched: 1,
		},
		{
			name:       "a word more",
			other:      bytes.Replace(disc, []byte("(let 19=.))"), []byte("(let 19=.) (let 20=.))"), 1),
			score:      "sentence 1 (cdb-5723 / 1): 20 words in the corpus but 21 in the second file",
			diff:       "20 words in the corpus but 21",
			mismatched: 1,
		},
	}
	a, env := annApp(t, &memStore{})
	if p := importWait(t, a, env, "dev10.discbracket", disc, true); !strings.Contains(p.Err, "import a corpus first") {
		t.Errorf("second file without a corpus: %+v", p)
	}
	if p := importWait(t, a, env, "dev10.export", export, false); p.Err != "" {
		t.Fatalf("first import %+v", p)
	}
	env.Do(func() {
		a.AnnShowDiff(app.DiffOther)
		if a.Annotate.Diff != nil || !strings.Contains(a.Annotate.Err, "no second file") {
			t.Errorf("diff without a second file: %v, error %q", a.Annotate.Diff != nil, a.Annotate.Err)
		}
	})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if p := importWait(t, a, env, "other.discbracket", tc.other, true); p.Err != "" {
				t.Fatalf("import %+v", p)
			}
			env.Do(func() {
				s := &a.Annotate
				sc := s.OtherScore
				if got := sc.Err + sc.Mismatch; !strings.Contains(got, tc.score) || sc.Mismatched != tc.mismatched {
					t.Errorf("score %+v, want %q with %d mismatched", sc, tc.score, tc.mismatched)
				}
				a.AnnGo(0)
				for _, kind := range []string{app.DiffOther, app.DiffOtherCurrent} {
					a.AnnShowDiff(kind)
					if s.Diff != nil || !strings.Contains(s.Err, tc.diff) {
						t.Errorf("%s: diff %v, error %q, want %q", kind, s.Diff != nil, s.Err, tc.diff)
					}
				}
				if tc.mismatched > 0 {
					// The other sentences are still compared.
					if sc.Sentences != n-tc.mismatched {
						t.Errorf("%d sentences compared", sc.Sentences)
					}
					a.AnnGo(1)
					a.AnnShowDiff(app.DiffOther)
					if s.Diff == nil || s.Err != "" {
						t.Errorf("sentence 2: no diff (%s)", s.Err)
					}
				}
			})
		})
	}
}

// gatedAnnApp is annApp over a step engine (its parses let through one at
// a time once gated), with a second model, "other".
func gatedAnnApp(t *testing.T) (*app.App, *apptest.Env, *stepEngine) {
	t.Helper()
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 61.25)
	plat.AddModel("other", apptest.Model(t, 9), 60)
	eng := newStepEngine()
	plat.Engine = eng
	env := &apptest.Env{}
	a := app.New(env, storePlatform{plat, &memStore{}}, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the model", wait, func() bool { return a.Model.Ready() })
	env.Wait(t, "the restore", wait, func() bool { return a.Annotate.Restored })
	return a, env, eng
}

// importWaits imports dev10.export while the gated parse runs, checks
// that the file waits for the annotator's answer, then lets the parse end.
func importWaits(t *testing.T, a *app.App, env *apptest.Env, eng *stepEngine, export []byte, when string) {
	t.Helper()
	p := importWait(t, a, env, "dev10.export", export, false)
	if p.Err != "" || !p.Waiting || a.Annotate.PendingImport == nil {
		t.Fatalf("import %s: %+v, pending %v; want it waiting", when, p, a.Annotate.PendingImport)
	}
	eng.gated.Store(false)
	eng.release(1)
	idle(t, a, env)
}

// TestImportWhileAdding: a file whose reading ends while the first typed
// sentences are parsed (no corpus is open yet) waits for the annotator's
// answer: opened at once, it would get those sentences appended to it.
func TestImportWhileAdding(t *testing.T) {
	export, _ := otherData(t, 10)
	a, env, eng := gatedAnnApp(t)
	eng.gated.Store(true)
	env.Do(func() {
		a.SetTab(app.TabAnnotate)
		a.AnnSetAddText(strings.Join(apptest.Sentences[0], " "))
		a.AnnAddText()
		if !a.Annotate.Busy || a.Annotate.Corpus != nil {
			t.Fatalf("adding the first sentence: busy %v, corpus %v", a.Annotate.Busy, a.Annotate.Corpus != nil)
		}
	})
	importWaits(t, a, env, eng, export, "while adding")
	if c := a.Annotate.Corpus; c == nil || len(c.Sentences) != 1 {
		t.Fatalf("after the parse: corpus %+v; want the typed sentence alone", c)
	}
	env.Do(a.AnnConfirmImport)
	if c := a.Annotate.Corpus; c == nil || c.Name != "dev10.export" || len(c.Sentences) != 10 || len(a.Annotate.Gold.Sentences) != 10 {
		t.Fatalf("after the answer: corpus %+v", c)
	}
}

// TestImportDuringReparse: a file whose reading ends while a re-parse
// runs is not thrown away: it waits, as over any open corpus, for the
// annotator's answer, which opens it once the re-parse is done.
func TestImportDuringReparse(t *testing.T) {
	export, _ := otherData(t, 10)
	a, env, eng := gatedAnnApp(t)
	env.Do(func() {
		a.SetText(strings.Join(apptest.Sentences[0], " "))
		a.SetTab(app.TabAnnotate)
		a.AnnNew()
	})
	idle(t, a, env)
	eng.gated.Store(true)
	env.Do(func() { startReparse(t, a) })
	importWaits(t, a, env, eng, export, "during a re-parse")
	env.Do(a.AnnConfirmImport)
	if c := a.Annotate.Corpus; c == nil || c.Name != "dev10.export" || len(c.Sentences) != 10 {
		t.Fatalf("after the answer: corpus %+v", c)
	}
}

// TestAddWhileModelChanges: sentences being parsed to be added when the
// model is changed are not added (some would be the old model's parses,
// some the new one's, all labelled alike); the message says to add them
// again.
func TestAddWhileModelChanges(t *testing.T) {
	a, env, eng := gatedAnnApp(t)
	eng.gated.Store(true)
	env.Do(func() {
		a.SetTab(app.TabAnnotate)
		a.AnnSetAddText(strings.Join(apptest.Sentences[0], " ") + "\n" + strings.Join(apptest.Sentences[1], " "))
		a.AnnAddText()
		if !a.Annotate.Busy {
			t.Fatal("adding sentences started no parse")
		}
		a.SetModel("other")
	})
	loadEnd(t, a, env)
	eng.release(2)
	env.Wait(t, "the parses", wait, func() bool { return !a.Annotate.Busy })
	if a.Annotate.Corpus != nil || !strings.Contains(a.Annotate.Err, "the model was changed while the sentences were parsed") {
		t.Errorf("after a model change: corpus %v, error %q", a.Annotate.Corpus != nil, a.Annotate.Err)
	}
}

// TestComparisonWhileModelChanges: the parser's tree for a comparison,
// asked of the model given up, is not shown once the model is changed;
// the message says to ask again.
func TestComparisonWhileModelChanges(t *testing.T) {
	a, env, eng := gatedAnnApp(t)
	env.Do(func() {
		a.SetTab(app.TabAnnotate)
		a.AnnSetAddText(strings.Join(apptest.Sentences[0], " "))
		a.AnnAddText()
	})
	idle(t, a, env)
	eng.gated.Store(true)
	asked := eng.asked.Load()
	env.Do(func() { a.AnnShowDiff(app.DiffParser) })
	env.Wait(t, "the comparison's parse", wait, func() bool { return eng.asked.Load() > asked })
	env.Do(func() { a.SetModel("other") })
	loadEnd(t, a, env)
	eng.release(1)
	env.Wait(t, "the comparison's answer", wait, func() bool { return a.Annotate.Err != "" || a.Annotate.Diff != nil })
	if a.Annotate.Diff != nil || !strings.Contains(a.Annotate.Err, "the model was changed meanwhile") {
		t.Errorf("after a model change: diff shown %v, error %q", a.Annotate.Diff != nil, a.Annotate.Err)
	}
}
