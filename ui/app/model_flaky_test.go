package app_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// flakyPlatform's Fetch waits for its context to end on the URLs that
// stall says, as on a connection that is up but answers nothing, and
// answers body for the model list when it is set; NewEngine returns
// engines from engines in turn when it holds any.
type flakyPlatform struct {
	*apptest.Platform
	mu      sync.Mutex
	stall   func(url string) bool
	slow    time.Duration // a weights download takes this long, in steady steps
	list    []byte
	engines []app.Engine
	made    int
}

func (p *flakyPlatform) Fetch(ctx context.Context, url string, progress func(done, total int64)) ([]byte, error) {
	p.mu.Lock()
	stall, slow, list := p.stall, p.slow, p.list
	p.mu.Unlock()
	if stall != nil && stall(url) {
		<-ctx.Done()
		return nil, context.Cause(ctx)
	}
	if slow > 0 && strings.HasPrefix(url, "/weights/") {
		for end := time.Now().Add(slow); time.Now().Before(end); {
			select {
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			case <-time.After(2 * time.Millisecond):
				progress(1, 2) // a few bytes more
			}
		}
	}
	if url == api.ModelsPath && list != nil {
		return list, nil
	}
	return p.Platform.Fetch(ctx, url, progress)
}

func (p *flakyPlatform) NewEngine() app.Engine {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.made++
	if len(p.engines) > 0 {
		e := p.engines[0]
		p.engines = p.engines[1:]
		return e
	}
	return p.Platform.NewEngine()
}

func (p *flakyPlatform) set(f func()) { p.mu.Lock(); f(); p.mu.Unlock() }

// loadEnd waits for the load to end and returns the app's phase.
func loadEnd(t *testing.T, a *app.App, env *apptest.Env) app.Phase {
	t.Helper()
	env.Wait(t, "the load to end", wait, func() bool {
		switch a.Model.Phase {
		case app.PhaseReady, app.PhaseFailed, app.PhaseNoModel:
			return true
		}
		return false
	})
	return a.Model.Phase
}

// TestStalledNetwork: a model list that never comes gives way to the copy
// kept from before (and the model kept with it) after ListTimeout; a
// weights download that receives nothing fails after DownloadStall,
// offering Retry, which loads the model once the network answers, also
// slowly (receiving all along for longer than DownloadStall).
func TestStalledNetwork(t *testing.T) {
	base := apptest.NewPlatform()
	base.AddModel("default", apptest.Model(t, 3), 0)
	plat := &flakyPlatform{Platform: base}
	a, _ := start(t, plat.Platform, app.Options{})
	if a.Model.Phase != app.PhaseReady {
		t.Fatalf("first load: %s %q", a.Model.Phase, a.Model.Err)
	}
	opts := app.Options{ListTimeout: 20 * time.Millisecond, DownloadStall: 20 * time.Millisecond}

	plat.set(func() { plat.stall = func(url string) bool { return url == api.ModelsPath } })
	envB := &apptest.Env{}
	b := app.New(envB, plat, opts)
	envB.Do(b.Start)
	if p := loadEnd(t, b, envB); p != app.PhaseReady || !b.Model.ListFromCache {
		t.Errorf("list stalled: phase %s (%q), list from the cache %v; want the kept list and model", p, b.Model.Err, b.Model.ListFromCache)
	}

	fresh := &flakyPlatform{Platform: apptest.NewPlatform()}
	fresh.AddModel("default", apptest.Model(t, 3), 0)
	fresh.set(func() { fresh.stall = func(url string) bool { return strings.HasPrefix(url, "/weights/") } })
	envC := &apptest.Env{}
	c := app.New(envC, fresh, opts)
	envC.Do(c.Start)
	if p := loadEnd(t, c, envC); p != app.PhaseFailed || !strings.Contains(c.Model.Err, "nothing received for") {
		t.Fatalf("download stalled: phase %s, error %q; want it failed, saying so", p, c.Model.Err)
	}
	fresh.set(func() { fresh.stall = nil })
	envC.Do(c.Retry)
	if p := loadEnd(t, c, envC); p != app.PhaseReady {
		t.Errorf("Retry once the network answers: %s %q", p, c.Model.Err)
	}

	// A download that takes five stall limits but receives something
	// every few milliseconds is not cut (the limit, half a second, is far
	// above any pause of a busy machine).
	slow := &flakyPlatform{Platform: apptest.NewPlatform(), slow: 2500 * time.Millisecond}
	slow.AddModel("default", apptest.Model(t, 3), 0)
	envD := &apptest.Env{}
	d := app.New(envD, slow, app.Options{DownloadStall: 500 * time.Millisecond})
	envD.Do(d.Start)
	if p := loadEnd(t, d, envD); p != app.PhaseReady {
		t.Errorf("a slow download, receiving all along: %s %q", p, d.Model.Err)
	}
}

// TestListWithoutNames: an answer that is JSON but no model list (entries
// without names) is taken for no list: the kept copy is used, and is not
// replaced by it; with no copy the load fails, offering Retry.
func TestListWithoutNames(t *testing.T) {
	base := apptest.NewPlatform()
	base.AddModel("default", apptest.Model(t, 3), 0)
	plat := &flakyPlatform{Platform: base}
	start(t, plat.Platform, app.Options{})
	plat.set(func() { plat.list = []byte(`[{"id":"A","url":"/w/a"}]`) })
	for _, withCopy := range []bool{true, false} {
		if !withCopy {
			base.Cache = map[string][]byte{}
		}
		env := &apptest.Env{}
		a := app.New(env, plat, app.Options{})
		env.Do(a.Start)
		p := loadEnd(t, a, env)
		switch {
		case withCopy && (p != app.PhaseReady || !a.Model.ListFromCache):
			t.Errorf("with a kept list: phase %s (%q), from the cache %v", p, a.Model.Err, a.Model.ListFromCache)
		case !withCopy && (p != app.PhaseFailed || !strings.Contains(a.Model.Err, "bad model list")):
			t.Errorf("without a kept list: phase %s, error %q; want it failed", p, a.Model.Err)
		}
	}
}

// dyingEngine is a parsing worker that started, then died loading its
// model (out of memory, say): its loads fail, and it stays failed.
type dyingEngine struct {
	app.Engine
	died atomic.Bool
}

var errWorkerDied = errors.New("the parsing worker failed: out of memory")

func (e *dyingEngine) Load(context.Context, []byte, string, parser.LoadOptions) (*parser.Info, error) {
	e.died.Store(true)
	return nil, errWorkerDied
}

func (e *dyingEngine) WaitReady(context.Context) error {
	if e.died.Load() {
		return errWorkerDied
	}
	return nil
}

func (e *dyingEngine) Close() {}

// TestRetryAfterWorkerDied: after a load that the parsing worker died in,
// the first Retry starts a new worker and loads the model.
func TestRetryAfterWorkerDied(t *testing.T) {
	base := apptest.NewPlatform()
	base.AddModel("default", apptest.Model(t, 3), 0)
	plat := &flakyPlatform{Platform: base, engines: []app.Engine{&dyingEngine{}}}
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	if p := loadEnd(t, a, env); p != app.PhaseFailed {
		t.Fatalf("the load the worker died in: %s", p)
	}
	env.Do(a.Retry)
	if p := loadEnd(t, a, env); p != app.PhaseReady {
		t.Errorf("the first Retry: %s %q; want the model loaded by a new worker", p, a.Model.Err)
	}
}

// lateEngine parses at once but answers only when released, whatever its
// context says: a parse that ended as the model was switched.
type lateEngine struct {
	app.Engine
	release chan struct{}
	parsing atomic.Bool
}

func (e *lateEngine) Parse(ctx context.Context, req parser.Request) (*parser.Parse, error) {
	p, err := e.Engine.Parse(ctx, req)
	e.parsing.Store(true)
	<-e.release
	return p, err
}

// TestParseEndedAfterSwitch: a parse whose answer comes after a model
// switch cancelled it is not shown under the new model.
func TestParseEndedAfterSwitch(t *testing.T) {
	base := apptest.NewPlatform()
	base.AddModel("A", apptest.Model(t, 3), 0)
	base.AddModel("B", apptest.Model(t, 5), 0)
	eng := &lateEngine{Engine: &parser.Engine{}, release: make(chan struct{})}
	base.Engine = eng
	a, env := start(t, base, app.Options{})
	env.Do(a.ParseNow)
	env.Wait(t, "the parse", wait, func() bool { return eng.parsing.Load() })
	env.Do(func() { a.SetModel("B") })
	close(eng.release)
	loadEnd(t, a, env)
	env.Wait(t, "the old parse's answer", wait, func() bool { return a.Job == nil })
	if a.Parse.Main != nil {
		t.Errorf("model %s shows a tree parsed by the model switched from", a.Model.Current.Name)
	}
}
