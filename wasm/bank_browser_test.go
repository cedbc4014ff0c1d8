//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app/apptest"
)

// TestBrowserBankIndexTyping: a sentence number being typed in the
// treebank tab stays in its field while the page renders (a treebank being
// parsed renders its progress), until it is entered; before, every render
// put the number of the sentence shown back.
func TestBrowserBankIndexTyping(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, bank := devData(t)
	srv := serveApp(t, web, apptest.Model(t, 1, words, other))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	err := chromedp.Run(ctx,
		chromedp.Click(`#tab-treebank`, chromedp.ByQuery),
		chromedp.SetUploadFiles(`#bankfile`, []string{bank}, chromedp.ByQuery),
		chromedp.Poll(`(() => { const s = document.querySelector('#bank-score'); return s && s.textContent.startsWith('F1'); })()`, nil, chromedp.WithPollingTimeout(0)),
	)
	if err != nil {
		t.Fatal(err)
	}
	// Type "3" over the number, then start parsing the whole treebank by
	// script (the focus stays in the field): its renders must leave the
	// typing alone.
	evalJS(t, ctx, `(() => { const e = document.querySelector('#bank-index'); e.focus(); e.select(); return true; })()`, nil)
	if err := chromedp.Run(ctx, chromedp.KeyEvent("3")); err != nil {
		t.Fatal(err)
	}
	evalJS(t, ctx, `(() => { document.querySelector('#bank-all').click(); return true; })()`, nil)
	waitJS(t, ctx, "the treebank parsed", `(() => { const s = document.querySelector('#bank-corpus'); return s && /^3 of 3/.test(s.textContent); })()`)
	var value, focus string
	evalJS(t, ctx, `document.querySelector('#bank-index').value`, &value)
	evalJS(t, ctx, `document.activeElement ? document.activeElement.id : ''`, &focus)
	if value != "3" || focus != "bank-index" {
		t.Errorf("the sentence number typed reads %q after the renders (focus on %q); want 3, still being typed", value, focus)
	}
}
