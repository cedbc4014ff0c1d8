package app_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// slowStart is an engine that starts in the background, like the Web
// Worker: WaitReady waits until started is closed. It records the steps
// its loads report.
type slowStart struct {
	parser.Engine
	started chan struct{}

	mu    sync.Mutex
	steps []string
}

func (e *slowStart) WaitReady(ctx context.Context) error {
	select {
	case <-e.started:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *slowStart) Load(ctx context.Context, data []byte, name string, opt parser.LoadOptions) (*parser.Info, error) {
	progress := opt.Progress
	opt.Progress = func(step string) {
		e.mu.Lock()
		e.steps = append(e.steps, step)
		e.mu.Unlock()
		progress(step)
	}
	return e.Engine.Load(ctx, data, name, opt)
}

// The load says what it waits for: the parsing worker to start (its time
// counted, so that a slow start shows progress), then the engine's steps.
func TestLoadSteps(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 3), 0)
	eng := &slowStart{started: make(chan struct{})}
	plat.Engine = eng
	env := &apptest.Env{}
	a := app.New(env, plat, app.Options{})
	env.Do(a.Start)
	env.Wait(t, "the wait for the worker, a second of it", wait, func() bool {
		return a.Model.Phase == app.PhaseLoading && a.Model.Step == app.StepWorker && a.Model.Elapsed >= 1e9
	})
	close(eng.started)
	env.Wait(t, "the model", wait, func() bool { return a.Model.Ready() })
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if want := []string{parser.LoadReading}; !slices.Equal(eng.steps, want) {
		t.Errorf("steps %q, want %q", eng.steps, want)
	}
	if a.Model.Step != "" || a.Model.Elapsed != 0 {
		t.Errorf("ready, but step %q (%v)", a.Model.Step, a.Model.Elapsed)
	}
}
