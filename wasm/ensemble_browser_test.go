//go:build !js

package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/parser/parsertest"
)

// TestBrowserEnsembleWorkers loads an ensemble of two models on the CPU:
// with ?workers=2 the second model scores in a Web Worker of its own,
// started by the parsing worker, while the parsing worker scores the
// first; with ?workers=1 both score in the parsing worker, one after the
// other; by default, as the cores allow; with ?worker=0 the page parses,
// and the second model scores in a worker. All draw the tree the native ensemble gives, and the page says how the
// models score. It logs the click-to-drawing times of both (the first
// parse after the load, and warm ones), alternating page loads (DISCSPAN_ROUNDS rounds, default 1; DISCSPAN_WEIGHTS for the
// shipped ensemble): a measurement, not a limit.
func TestBrowserEnsembleWorkers(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, _ := devData(t)
	data := weightsOrEnv(t, parsertest.Ensemble(t, []uint64{1, 2}, words, other))
	srv := serveApp(t, web, data)
	want := nativeConstituents(t, data, words, decode.N3)
	ctx := newBrowser(t, chrome)

	rounds := 1
	if s := os.Getenv("DISCSPAN_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("DISCSPAN_ROUNDS=%q: want a positive number", s)
		}
		rounds = n
	}
	// Without ?workers, a model gets a worker of its own where the browser
	// reports a core for each model.
	var cores int
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.Evaluate(`navigator.hardwareConcurrency`, &cores)); err != nil {
		t.Fatal(err)
	}
	auto := struct{ workers, why string }{"1", fmt.Sprintf("the 2 models score one after the other: %d core(s), fewer than 2 models need", cores)}
	if cores >= 2 {
		auto.workers, auto.why = "2", "the 2 models score at the same time, each in a worker of its own"
	}
	modes := []struct {
		name, query string
		workers     string
		why         string
	}{
		{"parallel", "?backend=cpu&workers=2", "2", "the 2 models score at the same time, each in a worker of its own"},
		{"serial", "?backend=cpu&workers=1", "1", "the 2 models score one after the other (asked for)"},
		{"auto", "?backend=cpu", auto.workers, auto.why},
		// Parsing in the page itself (worker=0): the second model still
		// scores in a worker of its own.
		{"in page", "?backend=cpu&worker=0&workers=2", "2", "the 2 models score at the same time, each in a worker of its own"},
	}
	times := map[string][]float64{}
	work := map[string]string{}
	first := map[string][]float64{}
	loads := map[string][]float64{}
	for round := 0; round < rounds; round++ {
		for _, m := range modes {
			ready, backend, _ := load(t, ctx, srv.URL+"/"+m.query)
			loads[m.name] = append(loads[m.name], ready)
			var shown struct {
				Workers string `json:"workers"`
				Text    string `json:"text"`
			}
			if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const e = document.querySelector('#parallel');
				return e ? {workers: e.dataset.workers, text: e.textContent} : {}; })()`, &shown)); err != nil {
				t.Fatal(err)
			}
			if shown.Workers != m.workers || !strings.Contains(shown.Text, m.why) || backend != "ensemble of 2: cpu" {
				t.Fatalf("%s: the page shows workers %q, %q, backend %q; want %q, %q, ensemble of 2: cpu", m.name, shown.Workers, shown.Text, backend, m.workers, m.why)
			}
			// The first parse after the load, then warm ones (another
			// sentence between two, so that no scores are reused). The
			// page keeps its elements across a parse (the job bar comes and
			// goes in a slot of its own: vugu, matching elements by
			// position, rebuilt the whole tab at every parse before) and
			// leaves no job bar or loader behind.
			if err := chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('#text').discspanMark = 1`, nil)); err != nil {
				t.Fatal(err)
			}
			r := parseInPage(t, ctx, words, "n3")
			var kept struct {
				Mark   bool `json:"mark"`
				Job    bool `json:"job"`
				Loader bool `json:"loader"`
			}
			if err := chromedp.Run(ctx, chromedp.Evaluate(`({mark: document.querySelector('#text').discspanMark === 1,
				job: !!document.querySelector('#job'), loader: !!document.querySelector('.loader')})`, &kept)); err != nil {
				t.Fatal(err)
			}
			if !kept.Mark || kept.Job || kept.Loader {
				t.Errorf("%s: after a parse, the text box was kept %v (want true), a job bar is left %v, a loader %v (want neither)", m.name, kept.Mark, kept.Job, kept.Loader)
			}
			checkTree(t, m.name+" first", r, want)
			first[m.name] = append(first[m.name], r.MS)
			parseInPage(t, ctx, other, "n3")
			for range 3 {
				r := parseInPage(t, ctx, words, "n3")
				checkTree(t, m.name, r, want)
				// A member whose worker failed says so in the backend.
				if !strings.Contains(r.Work, "ensemble of 2: cpu") || strings.Contains(r.Work, "(here:") {
					t.Fatalf("%s: the parse was scored on something else:\n%s", m.name, r.Work)
				}
				// The memory of the page and of the workers, the second
				// model's worker's too where it has one, and how many
				// models the parsing worker holds (parsing in the page:
				// not said).
				want := []string{"memory\t", "in all: page ", ", parsing worker ", "(holds 2 of the 2 models)"}
				if m.workers == "2" {
					want = append(want[:3], ", model 2's worker ", "(holds 1 of the 2 models)")
				}
				if m.name == "in page" {
					want = nil
				}
				for _, w := range want {
					if !strings.Contains(r.Work, w) {
						t.Errorf("%s: the work table's memory row lacks %q:\n%s", m.name, w, r.Work)
					}
				}
				if m.name == "in page" && strings.Contains(r.Work, "memory\t") {
					t.Errorf("%s: a memory row, though the page parses:\n%s", m.name, r.Work)
				}
				times[m.name] = append(times[m.name], r.MS)
				work[m.name] = r.Work
				parseInPage(t, ctx, other, "n3")
			}
		}
	}
	median := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	var b strings.Builder
	for _, m := range modes {
		fmt.Fprintf(&b, "\n  %-8s click to drawing median %.1f ms warm (%d parses: %.0f), first parse after the load median %.1f ms (%.0f), load to ready median %.0f ms; the last parse:\n%s",
			m.name, median(times[m.name]), len(times[m.name]), times[m.name], median(first[m.name]), first[m.name], median(loads[m.name]), work[m.name])
	}
	t.Logf("ensemble of 2 on the CPU, %d words, n3, %d round(s) alternating:%s", len(words), rounds, b.String())
}
