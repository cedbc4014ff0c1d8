//go:build !js

package main

import (
	"context"
	"strings"
	"sync"
	"testing"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/ui/app/apptest"
)

// TestBrowserCSP loads the app from the real handler, which sends the
// Content-Security-Policy and the cross-origin isolation headers, and
// parses a sentence with the CPU backend (wasm in a Web Worker): the tree
// must be the native one, the page cross-origin isolated, and neither the
// page nor its workers may report a violation of the policy.
func TestBrowserCSP(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words, other, _ := devData(t)
	data := apptest.Model(t, 1, words, other)
	srv := serveApp(t, web, data)
	want := nativeConstituents(t, data, words, decode.N3)

	ctx := newBrowser(t, chrome)
	var mu sync.Mutex
	var violations []string
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*cdplog.EventEntryAdded); ok && strings.Contains(strings.ToLower(e.Entry.Text), "content security policy") {
			mu.Lock()
			violations = append(violations, e.Entry.Text)
			mu.Unlock()
		}
	})
	if err := chromedp.Run(ctx, cdplog.Enable(), chromedp.ActionFunc(func(c context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.__csp = [];
			document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`).Do(c)
		return err
	})); err != nil {
		t.Fatal(err)
	}
	_, backend, _ := load(t, ctx, srv.URL+"/?backend=cpu")
	if backend != "cpu" {
		t.Errorf("backend %q, want cpu", backend)
	}
	checkTree(t, "cpu", parseInPage(t, ctx, words, "n3"), want)
	var page struct {
		Isolated bool     `json:"isolated"`
		CSP      []string `json:"csp"`
	}
	if err := chromedp.Run(ctx, chromedp.Evaluate(`({isolated: self.crossOriginIsolated, csp: window.__csp})`, &page)); err != nil {
		t.Fatal(err)
	}
	if !page.Isolated {
		t.Error("the page is not cross-origin isolated (COOP/COEP headers)")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(page.CSP) > 0 || len(violations) > 0 {
		t.Errorf("Content-Security-Policy violations: %q %q", page.CSP, violations)
	}
}
