package app_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
	"github.com/vugu/vugu/js"
)

const wait = 30 * time.Second

// start returns an app over plat, started and waited for until its load
// ends.
func start(t *testing.T, plat *apptest.Platform, opts app.Options) (*app.App, *apptest.Env) {
	t.Helper()
	env := &apptest.Env{}
	a := app.New(env, plat, opts)
	env.Do(a.Start)
	env.Wait(t, "the load to end", wait, func() bool {
		switch a.Model.Phase {
		case app.PhaseReady, app.PhaseFailed, app.PhaseNoModel:
			return true
		}
		return false
	})
	return a, env
}

// parseWith waits for a parse started by f and returns the main view.
func parseWith(t *testing.T, a *app.App, env *apptest.Env, f func()) *app.TreeView {
	t.Helper()
	var seq int
	env.Do(func() { seq = a.Parse.Seq; f() })
	env.Wait(t, "the parse", wait, func() bool { return a.Job == nil && (a.Parse.Seq > seq || a.Parse.Err != "") })
	if a.Parse.Err != "" {
		t.Fatalf("parse error: %s", a.Parse.Err)
	}
	return a.Parse.Main
}

// constituents lists a tree's nodes as "LABEL[i,j)+[k,l)" strings, sorted.
func constituents(tr *tree.Tree) []string {
	var out []string
	for i, y := range tr.Yields() {
		out = append(out, tree.Labelled{Label: tr.Nodes[i].Label, Blocks: tree.Blocks(y)}.String())
	}
	slices.Sort(out)
	return out
}

func TestLoadAndParse(t *testing.T) {
	plat := apptest.NewPlatform()
	data := apptest.Model(t, 1)
	plat.AddModel("default", data, 42.5)
	a, env := start(t, plat, app.Options{})
	if a.Model.Phase != app.PhaseReady {
		t.Fatalf("phase %s: %s", a.Model.Phase, a.Model.Err)
	}
	if a.Model.FromCache || a.Model.Info.DevF1 != 42.5 || a.Model.Info.Backend != "cpu" || len(a.Model.Info.Labels) != len(apptest.Labels) {
		t.Errorf("model state %+v, info %+v", a.Model, a.Model.Info)
	}
	fetches := plat.FetchCount()

	text := "Wie denk je dat hij gisteren het boek aan zijn zus heeft gegeven ?"
	var main *app.TreeView
	for _, v := range decode.Variants {
		main = parseWith(t, a, env, func() { a.SetText(text); a.SetVariant(v.String()); a.ParseNow() })
		// The same as the parser gives natively for the same weights.
		ms, err := parser.Read(data, "model")
		if err != nil {
			t.Fatal(err)
		}
		p, err := ms.Parser()
		if err != nil {
			t.Fatal(err)
		}
		want, err := p.ParseWords(strings.Fields(text), v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := constituents(main.Tree), constituents(want.Tree); !slices.Equal(got, want) {
			t.Errorf("%s: app %v, parser %v", v, got, want)
		}
		if main.Parse.Variant != v.String() || main.SVG == "" || !strings.Contains(main.SVG, "data-node") && len(main.Tree.Nodes) > 0 {
			t.Errorf("%s: view %+v", v, main)
		}
	}
	if plat.FetchCount() != fetches {
		t.Errorf("parsing fetched %d times", plat.FetchCount()-fetches)
	}
	// Every node the derivation built is explained.
	for _, n := range main.Nodes {
		if n.Item == nil {
			t.Errorf("node %s has no derivation item", n.Cons)
		} else if n.Item.Rule == "" {
			t.Errorf("node %s: no rule", n.Cons)
		}
	}
}

func TestCacheAndOffline(t *testing.T) {
	plat := apptest.NewPlatform()
	m := plat.AddModel("default", apptest.Model(t, 2), 0)
	start(t, plat, app.Options{})
	if plat.Fetches[m.URL] != 1 {
		t.Fatalf("first load fetched the weights %d times", plat.Fetches[m.URL])
	}
	a, _ := start(t, plat, app.Options{})
	if !a.Model.FromCache || plat.Fetches[m.URL] != 1 {
		t.Errorf("second load: from cache %v, weight fetches %d", a.Model.FromCache, plat.Fetches[m.URL])
	}
	plat.Offline = true
	a, env := start(t, plat, app.Options{})
	if a.Model.Phase != app.PhaseReady || !a.Model.ListFromCache || !a.Model.FromCache {
		t.Fatalf("offline: %+v", a.Model)
	}
	parseWith(t, a, env, a.ParseNow)
}

// TestCacheDropsUnlistedWeights: weights the server no longer lists (an
// older version of a model) leave the cache once a model is ready with the
// server's list; with the list kept offline, nothing is dropped.
func TestCacheDropsUnlistedWeights(t *testing.T) {
	plat := apptest.NewPlatform()
	old := plat.AddModel("default", apptest.Model(t, 2), 0)
	start(t, plat, app.Options{})
	if _, ok := plat.Cache[old.URL]; !ok {
		t.Fatalf("the weights of %s were not cached", old.URL)
	}
	// A new version of the model replaces the old one on the server.
	plat.Files["/api/models"] = []byte("[]")
	delete(plat.Files, old.URL)
	m := plat.AddModel("default", apptest.Model(t, 3), 0)
	plat.Offline = true
	a, _ := start(t, plat, app.Options{})
	if a.Model.Phase != app.PhaseReady || len(plat.Cache) != 2 {
		t.Fatalf("offline: phase %s, %d cache entries; want ready on the list and weights kept", a.Model.Phase, len(plat.Cache))
	}
	plat.Offline = false
	a, env := start(t, plat, app.Options{})
	if a.Model.Phase != app.PhaseReady {
		t.Fatalf("online: phase %s: %s", a.Model.Phase, a.Model.Err)
	}
	// The old weights are dropped after the ready state.
	env.Wait(t, "the old version's weights to leave the cache", wait, func() bool {
		_, stale := plat.CacheLoad(old.URL)
		return !stale
	})
	if _, ok := plat.CacheLoad(m.URL); !ok {
		t.Errorf("the listed model's weights were dropped")
	}
	if len(plat.Cache) != 2 {
		t.Errorf("%d cache entries; want the list and the listed weights", len(plat.Cache))
	}
}

func TestDamagedDownloadAndRetry(t *testing.T) {
	plat := apptest.NewPlatform()
	data := apptest.Model(t, 3)
	m := plat.AddModel("default", data, 0)
	plat.Files[m.URL] = append([]byte(nil), data[:len(data)-1]...)
	a, env := start(t, plat, app.Options{})
	if a.Model.Phase != app.PhaseFailed || !strings.Contains(a.Model.Err, "damaged") {
		t.Fatalf("phase %s, err %q", a.Model.Phase, a.Model.Err)
	}
	if len(plat.Cache) != 1 { // the model list only
		t.Errorf("damaged weights were cached")
	}
	plat.Files[m.URL] = data
	env.Do(a.Retry)
	env.Wait(t, "the retry", wait, func() bool { return a.Model.Phase == app.PhaseReady })
}

func TestNoModel(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.Files["/api/models"] = []byte("[]")
	a, _ := start(t, plat, app.Options{})
	if a.Model.Phase != app.PhaseNoModel {
		t.Errorf("phase %s", a.Model.Phase)
	}
	plat = apptest.NewPlatform()
	a, _ = start(t, plat, app.Options{})
	if a.Model.Phase != app.PhaseFailed || !strings.Contains(a.Model.Err, "model list") {
		t.Errorf("no list: phase %s, err %q", a.Model.Phase, a.Model.Err)
	}
}

func TestCompare(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 4), 0)
	a, env := start(t, plat, app.Options{Variant: "continuous"})
	parseWith(t, a, env, func() {
		a.SetText(apptest.Sentences[0][0] + " " + strings.Join(apptest.Sentences[1], " "))
		a.SetCompare(true)
		a.SetOther("n6")
		a.ParseNow()
	})
	main, side := a.Parse.Main, a.Parse.Side
	if side == nil || main.Parse.Variant != "continuous" || side.Parse.Variant != "n6" {
		t.Fatalf("views %+v %+v", main, side)
	}
	if main.Parse.Reused || !side.Parse.Reused {
		t.Errorf("scores reused: main %v, side %v; want the side's only", main.Parse.Reused, side.Parse.Reused)
	}
	// Marked nodes are exactly those without a twin in the other tree.
	check := func(v, other *app.TreeView) {
		twins := map[string]int{}
		for _, n := range other.Nodes {
			twins[n.Cons]++
		}
		for _, n := range v.Nodes {
			has := twins[n.Cons] > 0
			if has {
				twins[n.Cons]--
			}
			if has == (n.Class == "extra") {
				t.Errorf("%s: node %s class %q, twin in the other tree: %v", v.ID, n.Cons, n.Class, has)
			}
		}
	}
	check(main, side)
	check(side, main)
}

// TestTooLong: a sentence too long for the variant, or for the app, is
// refused before any work, and the message names the variants that would
// fit (not the one in use), or the app's word limit.
func TestTooLong(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 5), 0)
	a, env := start(t, plat, app.Options{})
	tests := []struct {
		words   int
		variant string
		want    []string
		notWant string
	}{
		{200, "n6", []string{"too many for n6", "(try ", "n3", "or a shorter sentence)"}, "n6,"},
		{301, "n3", []string{"301 words are too many", "at most 300 words"}, "--max-words"},
	}
	// The engine's longest sentence for n6 counts the network's memory
	// too: one word more is refused with that length, although its chart
	// alone would fit.
	longest := a.Model.Info.Longest["n6"]
	t.Logf("longest n6 sentence: %d words", longest)
	if n := longest + 1; decode.ChartBytes(decode.N6, n, len(a.Model.Info.Labels)) > parser.DefaultMaxBytes {
		t.Errorf("%d words: the chart alone is over the budget; the engine's longest should count the network's memory", n)
	}
	tests = append(tests, struct {
		words   int
		variant string
		want    []string
		notWant string
	}{longest + 1, "n6", []string{fmt.Sprintf("it parses at most %d words", longest), "(try ", "n3,"}, "n6,"})
	for _, tc := range tests {
		env.Do(func() {
			a.SetText(strings.TrimSpace(strings.Repeat("boek ", tc.words)))
			a.SetVariant(tc.variant)
			a.ParseNow()
		})
		for _, w := range tc.want {
			if a.Job != nil || !strings.Contains(a.Parse.Err, w) {
				t.Errorf("%d words, %s: job %v, error %q; want it to contain %q", tc.words, tc.variant, a.Job, a.Parse.Err, w)
			}
		}
		if strings.Contains(a.Parse.Err, tc.notWant) {
			t.Errorf("%d words, %s: error %q names %q", tc.words, tc.variant, a.Parse.Err, tc.notWant)
		}
	}
}

// blockingEngine parses nothing: Parse waits for its context.
type blockingEngine struct{ parser.Engine }

func (*blockingEngine) Parse(ctx context.Context, req parser.Request) (*parser.Parse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestCancel(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 6), 0)
	plat.Engine = &blockingEngine{}
	a, env := start(t, plat, app.Options{})
	env.Do(a.ParseNow)
	if a.Job == nil {
		t.Fatal("no job")
	}
	time.Sleep(600 * time.Millisecond)
	env.Do(func() {
		if a.Job.Elapsed == 0 {
			t.Error("elapsed time not updated")
		}
		a.Cancel()
	})
	env.Wait(t, "the cancellation", wait, func() bool { return a.Job == nil })
	if a.Parse.Err != "cancelled" {
		t.Errorf("err %q", a.Parse.Err)
	}
}

func TestTreebank(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 7), 0)
	a, env := start(t, plat, app.Options{})
	plat.PickedName, plat.Picked = "dev.discbracket", bankOf(t, len(apptest.Sentences))
	env.Do(func() { a.OpenFiles(js.Undefined()) })
	env.Wait(t, "the first sentence's parse", wait, func() bool { return a.Bank != nil && a.Job == nil && a.Bank.Parsed == 1 })
	b := a.Bank
	if a.Tab != app.TabTreebank || b.Len() != 3 || b.Current() == nil || b.GoldView == nil || b.PredView == nil {
		t.Fatalf("bank %+v", b)
	}
	env.Do(a.BankParseAll)
	env.Wait(t, "the batch", wait, func() bool { return a.Job == nil })
	if b.Parsed != 3 || b.Summary == nil || b.Summary.Sentences != 3 {
		t.Fatalf("parsed %d, summary %+v", b.Parsed, b.Summary)
	}
	env.Do(func() { a.BankGo(2) })
	if b.Index != 2 || b.PredView == nil || b.Current().Index != 2 {
		t.Errorf("index %d, view %v", b.Index, b.PredView)
	}
	// Unmatched nodes are marked in both trees.
	r := b.Current()
	for _, i := range r.GoldUnmatched {
		if b.GoldView.Nodes[i].Class != "miss" {
			t.Errorf("gold node %d not marked", i)
		}
	}
	for _, i := range r.CandUnmatched {
		if b.PredView.Nodes[i].Class != "extra" {
			t.Errorf("parse node %d not marked", i)
		}
	}

	env.Do(func() {
		a.ExportAll(app.FormatDiscbracket)
		a.ExportAll(app.FormatExport)
		a.ExportView("pred", app.FormatSVG)
		a.ExportView("gold", app.FormatDiscbracket)
		a.ExportView("pred", app.FormatPNG)
	})
	env.Wait(t, "the PNG", wait, func() bool { return len(plat.Saved) == 5 })
	want := []string{"dev-3-gold.discbracket", "dev-3-pred.png", "dev-3-pred.svg", "dev.n3.discbracket", "dev.n3.export"}
	if got := plat.SavedNames(); !slices.Equal(got, want) {
		t.Errorf("saved %v, want %v", got, want)
	}
	for _, name := range []string{"dev.n3.discbracket", "dev.n3.export"} {
		f, _ := treebank.FormatOf(name)
		trees, err := treebank.ReadAll(bytes.NewReader(plat.Saved[name]), name, f)
		if err != nil || len(trees) != 3 {
			t.Errorf("%s: %d trees, %v", name, len(trees), err)
		}
	}

	// Another variant drops the parses and parses the sentence shown.
	env.Do(func() { a.SetBankVariant("n4") })
	env.Wait(t, "the n4 parse", wait, func() bool { return a.Job == nil })
	if b.Variant != decode.N4 || b.Parsed != 1 || b.PredView.Parse.Variant != "n4" {
		t.Errorf("variant %s, parsed %d", b.Variant, b.Parsed)
	}

	// Pasted text and bad input.
	env.Do(func() { a.PasteBank("nonsense") })
	if a.Bank != b || !strings.Contains(a.Notice, "not a treebank") || !a.NoticeErr {
		t.Errorf("notice %q (error %v), want an error notice", a.Notice, a.NoticeErr)
	}
	env.Do(func() { a.PasteBank(" \n") })
	if !strings.Contains(a.Notice, "paste export or discbracket trees first") || !a.NoticeErr {
		t.Errorf("notice %q (error %v), want an error notice", a.Notice, a.NoticeErr)
	}
	env.Do(func() { a.ExportAll(app.FormatDiscbracket) })
	if !strings.HasPrefix(a.Notice, "saved ") || a.NoticeErr {
		t.Errorf("notice %q (error %v), want a plain notice", a.Notice, a.NoticeErr)
	}
}

func TestFocus(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 8), 0)
	a, env := start(t, plat, app.Options{})
	main := parseWith(t, a, env, a.ParseNow)
	if len(main.Nodes) == 0 {
		t.Skip("the random model built no constituent")
	}
	env.Do(func() { a.Select("main", false, 0) })
	d := a.Describe()
	if d == nil || d.Node == nil || d.Node.Index != 0 || !strings.Contains(main.SVG, "sel") {
		t.Fatalf("details %+v", d)
	}
	env.Do(func() { a.HoverAt("main", true, 1) })
	if d := a.Describe(); d == nil || d.Word != main.Tree.Tokens[1].Word {
		t.Errorf("hover details %+v", d)
	}
	env.Do(func() { a.ZoomToWidth(main, main.Width/2) })
	if a.Zoom != 0.5 || a.SizeStyle(main) != fmt.Sprintf("width:%.0fpx;height:%.0fpx", main.Width/2, main.Height/2) {
		t.Errorf("zoom %v, style %s", a.Zoom, a.SizeStyle(main))
	}
	env.Do(func() { a.ZoomBy(100); a.ZoomBy(0) })
	if a.Zoom != 1 {
		t.Errorf("zoom %v after a reset", a.Zoom)
	}
	env.Do(func() { a.HoverAt("main", true, -1); a.Select("main", false, 0) })
	if a.Describe() != nil || strings.Contains(main.SVG, " sel") {
		t.Errorf("selection not cleared")
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "word", "0 words"},
		{1, "constituent", "1 constituent"},
		{2, "constituent", "2 constituents"},
		{21, "sentence", "21 sentences"},
	} {
		if got := app.Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

func TestMemoryText(t *testing.T) {
	for _, tc := range []struct {
		name string
		info *parser.Info
		page int64
		want string
	}{
		{"no model", nil, 20e6, ""},
		{"not measured (natively, or parsing in the page)", &parser.Info{}, 20e6, ""},
		{"one worker", &parser.Info{Memory: 62e6}, 0, "parsing worker 62.0 MB"},
		{"one worker and the page", &parser.Info{Memory: 62e6}, 20e6, "82.0 MB in all: page 20.0 MB, parsing worker 62.0 MB"},
		{"a worker per model", &parser.Info{Memory: 70e6, MemberMemory: []int64{45e6}, Models: 2, LocalModels: 1}, 0,
			"115.0 MB in all: parsing worker 70.0 MB (holds 1 of the 2 models), model 2's worker 45.0 MB"},
		{"an ensemble in one worker", &parser.Info{Memory: 97e6, Models: 2, LocalModels: 2}, 0, "parsing worker 97.0 MB (holds 2 of the 2 models)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := app.MemoryText(tc.info, tc.page); got != tc.want {
				t.Errorf("MemoryText = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFileTooLarge: a file of more than MaxFileBytes is refused before it
// is read, in the treebank tab and in the annotation tab, with its name,
// its size and what to do; the treebank and the corpus open before stay.
func TestFileTooLarge(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 7), 0)
	a, env := start(t, plat, app.Options{})
	plat.PickedName, plat.Picked = "dev.discbracket", bankOf(t, len(apptest.Sentences))
	env.Do(func() { a.OpenFiles(js.Undefined()) })
	env.Wait(t, "the treebank", wait, func() bool { return a.Bank != nil && a.Job == nil })
	env.Do(func() {
		a.SetTab(app.TabAnnotate)
		a.AnnSetAddText(strings.Join(apptest.Sentences[0], " "))
		a.AnnAddText()
	})
	env.Wait(t, "the corpus", wait, func() bool { return a.Annotate.Corpus != nil && a.Job == nil })

	bank, corpus := a.Bank, a.Annotate.Corpus
	plat.PickedName, plat.PickedSize = "tiger.xml", app.MaxFileBytes+1
	want := "tiger.xml is 64.0 MiB, more than the 64 MiB the app opens"
	env.Do(func() { a.SetTab(app.TabTreebank); a.OpenFiles(js.Undefined()) })
	env.Wait(t, "the refusal", wait, func() bool { return a.NoticeErr })
	if !strings.Contains(a.Notice, want) || a.Bank != bank {
		t.Errorf("treebank tab: notice %q, want %q; treebank kept %v", a.Notice, want, a.Bank == bank)
	}
	env.Do(func() { a.SetTab(app.TabAnnotate); a.AnnImportFiles(js.Undefined()) })
	env.Wait(t, "the refusal", wait, func() bool { return a.Annotate.Err != "" })
	if !strings.Contains(a.Annotate.Err, want) || a.Annotate.Corpus != corpus || len(corpus.Sentences) != 1 {
		t.Errorf("annotation tab: error %q, want %q; corpus kept %v", a.Annotate.Err, want, a.Annotate.Corpus == corpus)
	}
}
