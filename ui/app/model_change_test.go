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
