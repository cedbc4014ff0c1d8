//go:build !js

package main

import (
	"os"
	"path/filepath"
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

// A readable project kept aside (here a copy of the saved project, made
// by the test in IndexedDB) opens over an open corpus only after the same
// question as a file imported then, and the corpus shown is then the one
// kept aside.
func TestBrowserAnnotateKeptOpen(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	src, err := os.ReadFile(filepath.Join(annDataDir(), "alpino-cdb", "dev.export"))
	if err != nil {
		t.Skipf("skipping: no Alpino dev set: %v", err)
	}
	in := filepath.Join(t.TempDir(), "dev5.export")
	if err := os.WriteFile(in, annFirstSentences(src, 5), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery), chromedp.SetUploadFiles(`#ann-file`, []string{in}, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	annWait(t, ctx, "the import, saved", `(() => { const a = document.querySelector('#anntab'), p = document.querySelector('#ann-pos');
		return p && p.textContent.startsWith('sentence 1 of 5') && a.dataset.saved === a.dataset.seq && document.querySelector('#ann-save').textContent === 'saved in this browser'; })()`)
	// The saved project, copied under the first name of those kept aside.
	annEval(t, ctx, `new Promise((resolve, reject) => {
		const req = indexedDB.open('discspan', 1);
		req.onerror = () => reject(req.error);
		req.onsuccess = () => {
			const tx = req.result.transaction('kv', 'readwrite'), kv = tx.objectStore('kv');
			const keys = kv.getAllKeys();
			keys.onsuccess = () => {
				for (const k of keys.result) {
					if (k !== 'annotate-project' && (!k.startsWith('annotate-project/') || k.startsWith('annotate-project/writer-'))) continue;
					const v = kv.get(k);
					v.onsuccess = () => kv.put(v.result, 'annotate-project-unreadable' + k.slice('annotate-project'.length));
				}
			};
			tx.oncomplete = () => { req.result.close(); resolve(true); };
			tx.onerror = () => reject(tx.error);
		};
	})`, nil)
	load(t, ctx, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	annWait(t, ctx, "the restore and the list kept aside", `(() => { const p = document.querySelector('#ann-pos'), k = document.querySelector('#ann-kept li');
		return p && p.textContent.startsWith('sentence 1 of 5') && k && k.textContent.includes('dev5.export (5 sentences)'); })()`)
	// The open corpus, edited: one sentence fewer.
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-remove`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	annWait(t, ctx, "the removal", `document.querySelector('#ann-pos').textContent.includes('of 4')`)
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-kept .ann-kept-open`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	question := annWait(t, ctx, "the question", `(() => { const q = document.querySelector('#ann-import-confirm'); return q ? q.textContent : false; })()`)
	t.Logf("question: %s", question)
	if !strings.Contains(question, "Replace the open corpus, dev5.export (4 sentences") || !strings.Contains(question, "with dev5.export, kept aside under annotate-project-unreadable (5 sentences)?") {
		t.Errorf("question %q", question)
	}
	if pos := annText(t, ctx, "#ann-pos"); !strings.Contains(pos, "of 4") {
		t.Fatalf("the open corpus changed before the answer: %q", pos)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-import-replace`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	annWait(t, ctx, "the project kept aside, open", `(() => { const p = document.querySelector('#ann-pos'); return !document.querySelector('#ann-import-confirm') && p && p.textContent.includes('of 5'); })()`)
}
