//go:build !js

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app/apptest"
)

// Importing a big treebank (the Alpino training set, 5,708 sentences,
// 6 MB) leaves the page running: its event loop turns again and again
// while the file is read, instead of waiting for the whole import (one
// task of 0.7 s here before the import paused on Platform.Yield; 12
// turns after, at most 100 ms apart: timers wait behind the messages that
// Yield posts, while frames are painted as often as before; see
// docs/browser-app.md).
func TestBrowserAnnotateImportLetsThePageRun(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	in, err := filepath.Abs(filepath.Join(annDataDir(), "alpino-cdb", "train.export")) // the browser's path
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(in); err != nil {
		t.Skipf("skipping: no Alpino training set: %v", err)
	}
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	// Turns of the page's event loop (a zero timeout each) while an import
	// is shown and not done, and the longest wait between two of them.
	annEval(t, ctx, `(() => {
		window.importTurns = 0; window.importGap = 0;
		let last = performance.now();
		const turn = () => {
			const now = performance.now(), p = document.querySelector('#ann-import');
			if (p && p.dataset.done !== '1') {
				window.importTurns++;
				window.importGap = Math.max(window.importGap, now - last);
			}
			last = now;
			setTimeout(turn, 0);
		};
		setTimeout(turn, 0);
		return true;
	})()`, nil)
	if err := chromedp.Run(ctx, chromedp.SetUploadFiles(`#ann-file`, []string{in}, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	read := annWait(t, ctx, "the import", `(() => { const p = document.querySelector('#ann-import'); return p && p.dataset.done === '1' && document.querySelector('#ann-pos') ? p.textContent : false; })()`)
	var probe struct {
		Turns int     `json:"turns"`
		Gap   float64 `json:"gap"`
	}
	annEval(t, ctx, `({turns: window.importTurns, gap: window.importGap})`, &probe)
	t.Logf("import: %s; the page's event loop turned %d times meanwhile, the longest wait %.0f ms", read, probe.Turns, probe.Gap)
	if probe.Turns < 3 {
		t.Errorf("the page's event loop turned %d times while 5,708 sentences were imported, want it to keep turning (the import blocks the page)", probe.Turns)
	}
}
