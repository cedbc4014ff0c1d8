//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app/apptest"
)

// A saved project that this version cannot read (here one of a future
// version, written into IndexedDB by the test) is set aside at the
// restore and listed as kept aside, with why; it can be deleted (a second
// click confirms), and the list goes.
func TestBrowserAnnotateKept(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	annEval(t, ctx, `new Promise((resolve, reject) => {
		const req = indexedDB.open('discspan', 1);
		req.onupgradeneeded = () => { if (!req.result.objectStoreNames.contains('kv')) req.result.createObjectStore('kv'); };
		req.onerror = () => reject(req.error);
		req.onsuccess = () => {
			const tx = req.result.transaction('kv', 'readwrite');
			tx.objectStore('kv').put('{"version": 99, "corpus": {"name": "future.export"}}', 'annotate-project');
			tx.oncomplete = () => { req.result.close(); resolve(true); };
			tx.onerror = () => reject(tx.error);
		};
	})`, nil)
	load(t, ctx, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	summary := annWait(t, ctx, "the projects kept aside", `(() => { const e = document.querySelector('#ann-kept b'); return e ? e.textContent : false; })()`)
	restoreErr := annText(t, ctx, "#ann-restore-err")
	if summary != "1 project kept aside in this browser" || !strings.Contains(restoreErr, "version 99") {
		t.Fatalf("kept: %q; restore error %q", summary, restoreErr)
	}
	item := annText(t, ctx, "#ann-kept li")
	t.Logf("kept: %s", item)
	if !strings.Contains(item, "cannot be read by this version of the app") || strings.Contains(item, "open") {
		t.Errorf("kept project %q", item)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-kept .ann-kept-delete`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	annWait(t, ctx, "the question", `document.querySelector('#ann-kept .ann-kept-delete').textContent === 'really delete it?'`)
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-kept .ann-kept-delete`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	gone := annWait(t, ctx, "the deletion", `(() => { const e = document.querySelector('#ann-err'); return e ? 'error: ' + e.textContent : !document.querySelector('#ann-kept') ? 'deleted' : false; })()`)
	if gone != "deleted" {
		t.Fatal(gone)
	}
	if msg := annText(t, ctx, "#ann-msg"); !strings.Contains(msg, "deleted the project kept aside") {
		t.Errorf("after the deletion: %q", msg)
	}
}
