//go:build !js

package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app/apptest"
)

// On a slow network the page says how far the app's download has come
// before the app runs, then the loader names each step of the model's
// load: every message shown is recorded from the page's first moment.
func TestBrowserLoadProgress(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	// 1 MB/s: the app (about 2.5 MB gzipped) takes seconds to arrive.
	err := chromedp.Run(ctx, network.Enable(), network.EmulateNetworkConditions(false, 0, 1e6, -1),
		chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(`window.discspanShown = [];
				new MutationObserver(() => {
					for (const e of document.querySelectorAll('#boot, .loader p')) {
						const s = e.textContent;
						if (s && discspanShown[discspanShown.length - 1] !== s) discspanShown.push(s);
					}
				}).observe(document, {subtree: true, childList: true, characterData: true});`).Do(ctx)
			return err
		}))
	if err != nil {
		t.Fatal(err)
	}
	load(t, ctx, srv.URL+"/?backend=cpu")
	var shown []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`discspanShown`, &shown)); err != nil {
		t.Fatal(err)
	}
	t.Logf("messages shown: %q", shown)
	var app, model bool
	for _, s := range shown {
		app = app || strings.Contains(s, "MB so far")
		model = model || strings.Contains(s, "starting the model: ")
	}
	if !app || !model {
		t.Errorf("the download of the app shown: %v, the steps of the model's start: %v; messages %q", app, model, shown)
	}
}
