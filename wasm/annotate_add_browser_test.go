//go:build !js

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app/apptest"
)

// An annotator starts a corpus from the Sentence tab's sentence, then adds
// a second and a third sentence typed into the annotation tab (each one
// parsed, shown, and listed in the corpus view), removes one, and after a
// reload finds the corpus as left, with the buttons that add sentences
// still there.
func TestBrowserAnnotateAdd(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	s := make([]string, 3)
	for i := range s {
		s[i] = strings.Join(apptest.Sentences[i], " ")
	}
	setValue := func(sel, text string) {
		t.Helper()
		annEval(t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q);
			e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, sel, text), nil)
	}
	// shown waits for sentence i of n to be shown, parsed, and returns its
	// words and the corpus view's rows.
	shown := func(what string, i, n int) (words string, rows int) {
		t.Helper()
		annWait(t, ctx, what, fmt.Sprintf(`(() => { const a = document.querySelector('#anntab'), p = document.querySelector('#ann-pos');
			return a && a.dataset.busy === 'false' && a.dataset.cons && p && p.textContent.startsWith('sentence %d of %d'); })()`, i, n))
		annEval(t, ctx, `[...document.querySelectorAll('#tree-ann text.word')].map((e) => e.textContent).join(' ')`, &words)
		annEval(t, ctx, `document.querySelectorAll('#anntab tr[data-status]').length`, &rows)
		return words, rows
	}

	setValue("#text", s[0])
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery), chromedp.Click(`#ann-new`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	shown("the first sentence", 1, 1)
	for i := 1; i <= 2; i++ {
		setValue("#ann-add-text", s[i])
		if err := chromedp.Run(ctx, chromedp.Click(`#ann-add`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		words, rows := shown(fmt.Sprintf("sentence %d added", i+1), i+1, i+1)
		if words != s[i] {
			t.Errorf("sentence %d shows %q, want %q", i+1, words, s[i])
		}
		if rows != i+1 {
			t.Errorf("after adding sentence %d the corpus view lists %d sentences", i+1, rows)
		}
		if msg := annText(t, ctx, "#ann-msg"); !strings.Contains(msg, "added 1 sentence") {
			t.Errorf("message %q", msg)
		}
	}
	// Remove the second: the third becomes the second.
	annEval(t, ctx, `document.querySelector('#ann-prev').click(), true`, nil)
	shown("the second sentence", 2, 3)
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-remove`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	shown("the corpus after the removal", 2, 2)
	// The removal can be undone.
	if msg := annText(t, ctx, "#ann-msg"); !strings.Contains(msg, "Ctrl+Z puts it back") {
		t.Errorf("the removal's message %q does not say how to undo it", msg)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-restore`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if words, _ := shown("the sentence put back", 2, 3); words != s[1] {
		t.Errorf("put back %q, want %q", words, s[1])
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-remove`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	shown("the corpus after the second removal", 2, 2)

	// Closing or reloading the page with an edit not yet saved asks first
	// (and starts the save); once saved, it does not.
	var asked bool
	annEval(t, ctx, `(() => {
		document.querySelector('#ann-status-checked').click();
		const e = new Event('beforeunload', {cancelable: true});
		window.dispatchEvent(e);
		return e.defaultPrevented;
	})()`, &asked)
	if !asked {
		t.Error("an edit not yet saved: the page does not ask before it is closed")
	}
	annWait(t, ctx, "the save", `(() => { const a = document.querySelector('#anntab'); return a.dataset.saved === a.dataset.seq; })()`)
	annEval(t, ctx, `(() => {
		const e = new Event('beforeunload', {cancelable: true});
		window.dispatchEvent(e);
		return e.defaultPrevented;
	})()`, &asked)
	if asked {
		t.Error("everything saved: the page still asks before it is closed")
	}
	// A note being typed (the field sets it when it loses the focus, which
	// closing the page never does) makes the page ask, stays in the field
	// as typed, and is set and saved when the page is hidden.
	annEval(t, ctx, `(() => { document.querySelector('#ann-note').focus(); return true; })()`, nil)
	if err := chromedp.Run(ctx, chromedp.KeyEvent("ask Piet")); err != nil {
		t.Fatal(err)
	}
	annEval(t, ctx, `(() => {
		const e = new Event('beforeunload', {cancelable: true});
		window.dispatchEvent(e);
		return e.defaultPrevented;
	})()`, &asked)
	if !asked {
		t.Error("a note being typed: the page does not ask before it is closed")
	}
	annEval(t, ctx, `(() => { window.dispatchEvent(new Event('pagehide')); window.dispatchEvent(new Event('pageshow')); return true; })()`, nil)
	// Saved once the page no longer asks.
	annWait(t, ctx, "the note's save", `(() => { const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return !e.defaultPrevented; })()`)
	var note, focus string
	annEval(t, ctx, `document.querySelector('#ann-note').value`, &note)
	annEval(t, ctx, `document.activeElement ? document.activeElement.id : ''`, &focus)
	if note != "ask Piet" || focus != "ann-note" {
		t.Errorf("after the page was hidden: the note field holds %q (focus on %q); want the note typed, still being edited", note, focus)
	}
	annEval(t, ctx, `(() => { document.querySelector('#ann-note').blur(); return true; })()`, nil)
	if st := annText(t, ctx, "#ann-save"); st != "saved in this browser" {
		t.Errorf("save state %q", st)
	}
	// The page asked the browser to keep its storage: it is persistent,
	// or the tab says that it may be cleared.
	storage := annWait(t, ctx, "the answer about persistent storage", `(async () => {
		const e = document.querySelector('#ann-storage');
		if (e) return 'note: ' + e.textContent;
		return await navigator.storage.persisted() ? 'persistent' : false; })()`)
	t.Logf("storage: %s", storage)

	// The work is saved; a reload restores it, and sentences can still be
	// added.
	annWait(t, ctx, "the save", `(() => { const a = document.querySelector('#anntab'); return a.dataset.saved === a.dataset.seq; })()`)
	load(t, ctx, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	_, rows := shown("the restored corpus", 2, 2)
	var ids string
	annEval(t, ctx, `['#ann-new', '#ann-add', '#ann-remove', '#ann-new-corpus'].filter((q) => !document.querySelector(q)).join(' ')`, &ids)
	if rows != 2 || ids != "" {
		t.Errorf("after the reload: %d sentences listed; missing controls %q", rows, ids)
	}
}
