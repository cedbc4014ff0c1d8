package app_test

import (
	"testing"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// A sentence's status and note go through the tab's export and back in,
// in every format (an exported backup keeps them, as annotate.Export
// writes them in the sentence's comment).
func TestAnnotateExportKeepsStatus(t *testing.T) {
	for _, f := range []string{app.FormatExport, app.FormatDiscbracket, app.FormatTigerXML} {
		t.Run(f, func(t *testing.T) {
			plat := apptest.NewPlatform()
			plat.AddModel("default", apptest.Model(t, 1), 61.25)
			env := &apptest.Env{}
			a := app.New(env, storePlatform{plat, &memStore{}}, app.Options{})
			env.Do(a.Start)
			env.Wait(t, "ready", wait, func() bool { return a.Model.Ready() && a.Annotate.Restored })
			env.Do(func() { a.SetTab(app.TabAnnotate); a.AnnImport("bank.export", bankBytes(t)) })
			env.Wait(t, "the import", wait, func() bool { return a.Annotate.Corpus != nil })
			env.Do(func() {
				a.AnnSetStatus("checked")
				a.AnnSetNote("check the PP & the NP")
				a.AnnGo(1)
				a.AnnSetStatus("pre-annotated")
				a.AnnExport(f)
			})
			names := plat.SavedNames()
			if len(names) != 1 {
				t.Fatalf("exported %v", names)
			}
			data := plat.Saved[names[0]]
			env.Do(func() { a.AnnNewCorpus(); a.AnnNewCorpus() })
			env.Do(func() { a.AnnImport(names[0], data) })
			env.Wait(t, "the re-import", wait, func() bool { return a.Annotate.Corpus != nil })
			env.Do(func() {
				ss := a.Annotate.Corpus.Sentences
				if len(ss) != 3 || a.Annotate.Import.Err != "" {
					t.Fatalf("re-import: %d sentences, %q", len(ss), a.Annotate.Import.Err)
				}
				want := []struct {
					status annotate.Status
					note   string
				}{{annotate.Checked, "check the PP & the NP"}, {annotate.PreAnnotated, ""}, {annotate.Untouched, ""}}
				for i, w := range want {
					if ss[i].Status() != w.status || ss[i].Note() != w.note {
						t.Errorf("sentence %d: %v %q, want %v %q", i, ss[i].Status(), ss[i].Note(), w.status, w.note)
					}
				}
			})
		})
	}
}
