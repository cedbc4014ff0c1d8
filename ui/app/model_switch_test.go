package app_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// slowStartEngine is an engine whose worker starts slowly: the first
// WaitReady waits for gate or its context (as the page's worker engine
// does while its copy of the app compiles). It records the loads.
type slowStartEngine struct {
	parser.Engine
	gate  chan struct{}
	mu    sync.Mutex
	waits int
	loads []string
}

func (e *slowStartEngine) WaitReady(ctx context.Context) error {
	e.mu.Lock()
	e.waits++
	first := e.waits == 1
	e.mu.Unlock()
	if first {
		select {
		case <-e.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (e *slowStartEngine) Load(ctx context.Context, data []byte, name string, opt parser.LoadOptions) (*parser.Info, error) {
	e.mu.Lock()
	e.loads = append(e.loads, name)
	e.mu.Unlock()
	return e.Engine.Load(ctx, data, name, opt)
}

// treeOf parses words with a model file outside the app.
func treeOf(t *testing.T, data []byte, words []string) []string {
	t.Helper()
	ms, err := parser.Read(data, "m")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ms.Parser()
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.ParseWords(words, decode.N3)
	if err != nil {
		t.Fatal(err)
	}
	return constituents(r.Tree)
}

// TestModelSwitchWhileWorkerStarts: a model chosen while the first one
// waits for the parsing worker to start is the one the engine gets and
// the one that parses; the first one's load gives up. Before, it went on
// once the worker was ready and replaced the second.
func TestModelSwitchWhileWorkerStarts(t *testing.T) {
	plat := apptest.NewPlatform()
	dataA, dataB := apptest.Model(t, 11), apptest.Model(t, 12)
	plat.AddModel("A", dataA, 0)
	plat.AddModel("B", dataB, 0)
	eng := &slowStartEngine{gate: make(chan struct{})}
	plat.Engine = eng
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "A waiting for the worker", wait, func() bool {
		return a.Model.Phase == app.PhaseLoading && a.Model.Step == app.StepWorker && a.Model.Current.Name == "A"
	})
	env.Do(func() { a.SetModel("B") })
	env.Wait(t, "B ready", wait, func() bool { return a.Model.Ready() && a.Model.Current.Name == "B" })
	close(eng.gate)
	main := parseWith(t, a, env, func() { a.SetText(strings.Join(apptest.Sentences[1], " ")); a.SetVariant("n3"); a.ParseNow() })
	if got, want := constituents(main.Tree), treeOf(t, dataB, apptest.Sentences[1]); !slices.Equal(got, want) {
		t.Errorf("the app says model B but parsed %v; model B gives %v", got, want)
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if !slices.Equal(eng.loads, []string{"B"}) {
		t.Errorf("the engine loaded %v; want only B", eng.loads)
	}
}

// heldListPlatform holds the model list's fetch while hold is set.
type heldListPlatform struct {
	*apptest.Platform
	mu      sync.Mutex
	hold    bool
	release chan struct{}
}

func (p *heldListPlatform) Fetch(ctx context.Context, url string, progress func(done, total int64)) ([]byte, error) {
	p.mu.Lock()
	hold, ch := p.hold, p.release
	p.mu.Unlock()
	if url == api.ModelsPath && hold {
		<-ch
	}
	return p.Platform.Fetch(ctx, url, progress)
}

// TestModelReselectDuringListFetch: choosing B, then the model in use
// again before the list has come back, loads the last choice.
func TestModelReselectDuringListFetch(t *testing.T) {
	base := apptest.NewPlatform()
	base.AddModel("A", apptest.Model(t, 31), 0)
	base.AddModel("B", apptest.Model(t, 32), 0)
	plat := &heldListPlatform{Platform: base}
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "A ready", wait, func() bool { return a.Model.Ready() })
	plat.mu.Lock()
	plat.hold, plat.release = true, make(chan struct{})
	plat.mu.Unlock()
	env.Do(func() { a.SetModel("B") })
	env.Do(func() { a.SetModel("A") })
	plat.mu.Lock()
	plat.hold = false
	close(plat.release)
	plat.mu.Unlock()
	env.Wait(t, "the load", wait, func() bool { return a.Model.Ready() || a.Model.Phase == app.PhaseFailed })
	if a.Model.Current.Name != "A" {
		t.Errorf("the last model chosen was A; the app loaded %q", a.Model.Current.Name)
	}
}

// TestModelLinkToMissingModel: a link naming a model the server no longer
// offers opens its first model, saying so.
func TestModelLinkToMissingModel(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 33), 0)
	a, _ := start(t, plat, app.Options{Model: "old-name"})
	if !a.Model.Ready() || a.Model.Current.Name != "default" || !strings.Contains(a.Model.Note, `no longer offers model "old-name"`) {
		t.Errorf("phase %s, model %q, note %q, error %q; want the first model, and a note naming the one asked for", a.Model.Phase, a.Model.Current.Name, a.Model.Note, a.Model.Err)
	}
}

// TestModelSwitchClearsTheOldModel: while another model loads, and when it
// fails, nothing of the previous model is shown as the new one's: its
// details (backend, language) and its trees go.
func TestModelSwitchClearsTheOldModel(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("A", apptest.Model(t, 34), 0)
	m := plat.AddModel("B", apptest.Model(t, 35), 0)
	a, env := start(t, plat, app.Options{})
	parseWith(t, a, env, func() { a.SetText(strings.Join(apptest.Sentences[1], " ")); a.ParseNow() })
	delete(plat.Files, m.URL)
	env.Do(func() { a.SetModel("B") })
	env.Wait(t, "B's failure", wait, func() bool { return a.Model.Phase == app.PhaseFailed })
	if a.Model.Info != nil || a.Model.Language != "" || a.Parse.Main != nil {
		t.Errorf("after switching to B: model details %+v, language %q, tree shown %v; want none of A's", a.Model.Info, a.Model.Language, a.Parse.Main != nil)
	}
}

// heldWeightsPlatform holds the download of one URL until its context
// ends or release is closed, and records a cancellation.
type heldWeightsPlatform struct {
	*apptest.Platform
	url       string
	release   chan struct{}
	mu        sync.Mutex
	cancelled bool
}

func (p *heldWeightsPlatform) Fetch(ctx context.Context, url string, progress func(done, total int64)) ([]byte, error) {
	if url == p.url {
		select {
		case <-p.release:
		case <-ctx.Done():
			p.mu.Lock()
			p.cancelled = true
			p.mu.Unlock()
			return nil, ctx.Err()
		}
	}
	return p.Platform.Fetch(ctx, url, progress)
}

// TestModelSwitchStopsTheDownload: switching models while the first one's
// weights download stops that download; its weights are not kept.
func TestModelSwitchStopsTheDownload(t *testing.T) {
	base := apptest.NewPlatform()
	big := base.AddModel("big", apptest.Model(t, 51), 0)
	base.AddModel("fast", apptest.Model(t, 52), 0)
	plat := &heldWeightsPlatform{Platform: base, url: big.URL, release: make(chan struct{})}
	defer close(plat.release)
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "big downloading", wait, func() bool { return a.Model.Phase == app.PhaseDownloading })
	env.Do(func() { a.SetModel("fast") })
	env.Wait(t, "fast ready", wait, func() bool { return a.Model.Ready() && a.Model.Current.Name == "fast" })
	env.Wait(t, "big's download stopped", wait, func() bool { plat.mu.Lock(); defer plat.mu.Unlock(); return plat.cancelled })
	if _, kept := plat.CacheLoad(big.URL); kept {
		t.Error("the abandoned model's weights were kept")
	}
}

// failingStartPlatform's first engine never starts (its worker's script
// did not load, say); later ones do.
type failingStartPlatform struct {
	*apptest.Platform
	mu      sync.Mutex
	engines int
}

type deadEngine struct{ parser.Engine }

func (*deadEngine) WaitReady(context.Context) error {
	return errors.New("the parsing worker failed: wasm_exec.js did not load")
}

func (p *failingStartPlatform) NewEngine() app.Engine {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.engines++
	if p.engines == 1 {
		return &deadEngine{}
	}
	return p.Platform.NewEngine()
}

// TestModelRetryAfterWorkerStartFailure: when the parsing worker could
// not start, Retry starts a new one, and the model loads. Before, Retry
// asked the dead worker again, until the page was reloaded.
func TestModelRetryAfterWorkerStartFailure(t *testing.T) {
	base := apptest.NewPlatform()
	base.AddModel("default", apptest.Model(t, 61), 0)
	plat := &failingStartPlatform{Platform: base}
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the failure", wait, func() bool { return a.Model.Phase == app.PhaseFailed })
	if !strings.Contains(a.Model.Err, "could not start the parsing worker") {
		t.Fatalf("error %q", a.Model.Err)
	}
	env.Do(a.Retry)
	env.Wait(t, "the retry", wait, func() bool { return a.Model.Ready() || a.Model.Phase == app.PhaseFailed })
	if !a.Model.Ready() || plat.engines != 2 {
		t.Errorf("after Retry: phase %s (%q), %d engines made; want ready, on a second engine", a.Model.Phase, a.Model.Err, plat.engines)
	}
}

// gatedEngine parses once release is closed (or its context ends).
type gatedEngine struct {
	parser.Engine
	release chan struct{}
}

func (e *gatedEngine) Parse(ctx context.Context, req parser.Request) (*parser.Parse, error) {
	select {
	case <-e.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return e.Engine.Parse(ctx, req)
}

// TestExampleDuringParse: an example chosen while a parse of the text box
// runs replaces that parse: the example is parsed and shown, and the
// cancelled parse says nothing. Before, the example's text stood above the
// old sentence's tree.
func TestExampleDuringParse(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 36), 0)
	eng := &gatedEngine{release: make(chan struct{})}
	plat.Engine = eng
	a, env := start(t, plat, app.Options{})
	env.Do(func() { a.SetText(strings.Join(apptest.Sentences[1], " ")); a.ParseNow() })
	main := parseWith(t, a, env, func() {
		if a.Job == nil {
			t.Fatal("no parse running")
		}
		a.UseExample(1)
		close(eng.release)
	})
	if got, want := strings.Join(main.Tree.Words(), " "), strings.Join(a.Parse.Words(), " "); got != want || a.Parse.Err != "" {
		t.Errorf("tree of %q (error %q) shown under %q; want the example parsed", got, a.Parse.Err, want)
	}
}

// portalPlatform answers the model list with a page that is no list (a
// captive portal's, a proxy's error) once portal is set.
type portalPlatform struct {
	*apptest.Platform
	portal bool
}

func (p *portalPlatform) Fetch(ctx context.Context, url string, progress func(done, total int64)) ([]byte, error) {
	if url == api.ModelsPath && p.portal {
		return []byte("<!doctype html><title>Log in to the hotel Wi-Fi</title>"), nil
	}
	return p.Platform.Fetch(ctx, url, progress)
}

// TestModelListNotJSON: an answer to the model list that is no list (a
// captive portal's page) falls back on the list kept from before, as
// offline, and the model loads from its kept weights.
func TestModelListNotJSON(t *testing.T) {
	base := apptest.NewPlatform()
	base.AddModel("default", apptest.Model(t, 71), 0)
	plat := &portalPlatform{Platform: base}
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the first load", wait, func() bool { return a.Model.Ready() })
	plat.portal = true
	env.Do(a.Retry)
	env.Wait(t, "the load behind the portal", wait, func() bool { return a.Model.Ready() || a.Model.Phase == app.PhaseFailed })
	if !a.Model.Ready() || !a.Model.ListFromCache {
		t.Errorf("behind a portal: phase %s (%q), list from the cache %v; want the kept list and model", a.Model.Phase, a.Model.Err, a.Model.ListFromCache)
	}
}

// TestSentenceChoiceAcrossTexts: the sentence chosen stays chosen while
// the text is edited (its other sentences stay), and a text replaced whole
// (pasted) starts at its first sentence.
func TestSentenceChoiceAcrossTexts(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 1), 0)
	a, env := start(t, plat, app.Options{})
	env.Do(func() {
		a.SetText("Een zin . Twee zinnen . Drie zinnen .")
		a.ChooseSentence(2)
		a.SetText("Een zin . Twee zinnen . Drie mooie zinnen .") // the third edited
		if a.Parse.Index != 2 {
			t.Errorf("after an edit of the chosen sentence: sentence %d chosen, want 2", a.Parse.Index)
		}
		a.SetText("Heel iets anders . En nog een . Tot slot .") // pasted over
		if a.Parse.Index != 0 {
			t.Errorf("after a text replaced whole: sentence %d chosen, want 0", a.Parse.Index)
		}
	})
}
