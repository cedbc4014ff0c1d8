//go:build !js

package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// longN6 returns a 150-word sentence, the app's last example (without its
// full stop) over and over: with n6, minutes of work in wasm (the test
// sentences' words, which a random model scores flat, took 50 ms).
func longN6() []string {
	ex := strings.Fields(app.Examples[len(app.Examples)-1].Text)
	ex = ex[:len(ex)-1]
	return append(slices.Concat(ex, ex, ex)[:149], ".")
}

// Switching the backend while a long n6 parse runs cancels the parse (the
// worker running it is replaced) and loads the model at once: the parse
// never completes (the sequence of parses shown does not move), the page
// says it was cancelled, and the new backend parses; the page says which
// backend scored the parse and why WebGPU was not used.
func TestBrowserBackendSwitch(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	words := longN6()

	var r struct {
		Started bool   `json:"started"`
		Seq     string `json:"seq"`
		SeqNow  string `json:"seqNow"`
		Err     string `json:"err"`
		Why     string `json:"why"`
		Phase   string `json:"phase"`
		Reason  string `json:"reason"`
	}
	js := fmt.Sprintf(`(async (text) => {
		const app = document.querySelector('#app');
		const pause = (ms) => new Promise((r) => setTimeout(r, ms));
		const ta = document.querySelector('#text');
		ta.value = text;
		ta.dispatchEvent(new Event('input', {bubbles: true}));
		const v = document.querySelector('#variant');
		v.value = 'n6';
		v.dispatchEvent(new Event('change', {bubbles: true}));
		await pause(50);
		const seq = app.dataset.seq;
		document.querySelector('#parse').click();
		let started = false;
		for (let i = 0; i < 5000 && !started; i++) { started = !!document.querySelector('#job'); if (!started) await pause(2); }
		if (!started || app.dataset.seq !== seq) return {started: false, seq, seqNow: app.dataset.seq};
		const b = document.querySelector('#backend-choice');
		b.value = 'auto';
		b.dispatchEvent(new Event('change', {bubbles: true}));
		await pause(20);
		while (app.dataset.phase !== 'ready' || document.querySelector('#job')) {
			if (app.dataset.phase === 'failed') break;
			await pause(10);
		}
		const err = document.querySelector('#parse-error'), why = document.querySelector('.modelbar .why');
		return {started, seq, seqNow: app.dataset.seq, err: err ? err.textContent : '', why: why ? why.textContent : '', phase: app.dataset.phase, reason: app.dataset.reason};
	})(%q)`, strings.Join(words, " "))
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &r, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	})); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d words with n6, then backend auto: %+v", len(words), r)
	if !r.Started {
		t.Fatalf("the n6 parse of %d words did not start as a job (or ended at once): %+v", len(words), r)
	}
	// Headless Chromium's only adapter is SwiftShader, which auto skips.
	if r.Phase != "ready" || r.SeqNow != r.Seq || r.Err != "cancelled" || r.Reason != parser.ReasonSoftware || !strings.Contains(r.Why, "WebGPU is not used: the WebGPU adapter is a software one") {
		t.Errorf("after the switch: phase %s, parses shown %s then %s (want no new one), error %q (want cancelled), backend reason %s %q (want software)",
			r.Phase, r.Seq, r.SeqNow, r.Err, r.Reason, r.Why)
	}
	// The new engine parses, and the work says which backend scored.
	p := parseInPage(t, ctx, apptest.Sentences[0], "n3")
	if !strings.Contains(p.Work, "scored on\tcpu") || !strings.Contains(p.Work, "WebGPU is not used: the WebGPU adapter is a software one") {
		t.Errorf("the work shown does not say the CPU scored and why:\n%s", p.Work)
	}
}
