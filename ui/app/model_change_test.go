package app_test

import (
	"testing"

	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// A change of backend or model cancels the job that runs (here a parse
// that would never end) and loads the model: the load does not wait
// behind the job.
func TestModelChangeCancelsJob(t *testing.T) {
	tests := []struct {
		name   string
		change func(a *app.App)
		check  func(a *app.App) bool
	}{
		{"backend", func(a *app.App) { a.SetBackend(parser.BackendCPU) },
			func(a *app.App) bool { return a.Model.Info.Choice == "CPU asked for" }},
		{"model", func(a *app.App) { a.SetModel("other") },
			func(a *app.App) bool { return a.Model.Current.Name == "other" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plat := apptest.NewPlatform()
			plat.AddModel("default", apptest.Model(t, 6), 0)
			plat.AddModel("other", apptest.Model(t, 7), 0)
			plat.Engine = &blockingEngine{}
			a, env := start(t, plat, app.Options{})
			env.Do(a.ParseNow)
			if a.Job == nil {
				t.Fatal("no job")
			}
			env.Do(func() { tc.change(a) })
			env.Wait(t, "the new model", wait, func() bool { return a.Job == nil && a.Model.Ready() })
			if a.Parse.Err != "cancelled" || !tc.check(a) {
				t.Errorf("parse error %q, model %s, info %+v", a.Parse.Err, a.Model.Current.Name, a.Model.Info)
			}
		})
	}
}

// The app says which backend scored each parse and why the other one does
// not score.
func TestBackendShown(t *testing.T) {
	plat := apptest.NewPlatform()
	plat.AddModel("default", apptest.Model(t, 6), 0)
	a, env := start(t, plat, app.Options{})
	main := parseWith(t, a, env, a.ParseNow)
	if got := app.ScoredBy(main.Parse); got != "cpu" {
		t.Errorf("scored by %q, want cpu", got)
	}
	again := parseWith(t, a, env, func() { a.SetVariant("n4"); a.ParseNow() })
	if got := app.ScoredBy(again.Parse); got != "cpu (scores of the previous parse reused)" {
		t.Errorf("re-parse scored by %q", got)
	}
	if got := a.Model.NotUsed(); got != "WebGPU is not used: no WebGPU here" || a.Model.Info.Reason != parser.ReasonNoWebGPU {
		t.Errorf("not used: %q (%s)", got, a.Model.Info.Reason)
	}

	tests := []struct {
		name string
		info *parser.Info
		want string
	}{
		{"loading", nil, ""},
		{"self-check", &parser.Info{Backend: "cpu", Reason: parser.ReasonSelfCheck,
			Choice: "WebGPU refused by its self-check, the CPU scores: on NVIDIA X: largest difference 3.2"},
			"WebGPU is not used: WebGPU refused by its self-check, the CPU scores: on NVIDIA X: largest difference 3.2"},
		{"gpu", &parser.Info{Backend: "webgpu: X", GPU: true, Reason: parser.ReasonFaster, Choice: "WebGPU 2 ms vs CPU 9 ms for 20 words"},
			"the CPU is not used: WebGPU 2 ms vs CPU 9 ms for 20 words"},
	}
	for _, tc := range tests {
		m := app.ModelState{Info: tc.info}
		if got := m.NotUsed(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
