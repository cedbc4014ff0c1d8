//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app/apptest"
)

// With the origin's storage quota full, saving the annotation ends with an
// error that the tab shows (the save does not hang on an aborted
// IndexedDB transaction), and the page asks before it is closed.
func TestBrowserAnnotateQuotaFull(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	// One byte: the model already cached fills it.
	if err := chromedp.Run(ctx, storage.OverrideQuotaForOrigin(srv.URL).WithQuotaSize(1)); err != nil {
		t.Fatal(err)
	}
	annEval(t, ctx, `(() => { const e = document.querySelector('#text');
		e.value = `+"`"+strings.Join(apptest.Sentences[0], " ")+"`"+`; e.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, nil)
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery), chromedp.Click(`#ann-new`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	state := annWait(t, ctx, "the failed save", `(() => { const e = document.querySelector('#ann-save'); return e && e.textContent.startsWith('NOT saved') ? e.textContent : false; })()`)
	errs := annText(t, ctx, "#anntab .ann-editor")
	t.Logf("with the quota full: %q", state)
	if !strings.Contains(errs, "could not save: saving to IndexedDB: the browser's storage for this site is full") {
		t.Errorf("the save's error is not shown: %q", errs)
	}
	var asked bool
	annEval(t, ctx, `(() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()`, &asked)
	if !asked {
		t.Error("nothing saved: the page does not ask before it is closed")
	}
}
