//go:build !js

package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// TestBrowserNewcomer checks, in headless Chromium, what issue 21 found
// in the app as a newcomer met it:
//
//   - English typed into the (Dutch-trained) model gets a warning that the
//     model does not know most of its words;
//   - an example from the treebank is drawn beside its gold tree;
//   - no tree stays on screen after an empty input or a cancelled parse;
//   - a 35-word tree in the Treebank tab scrolls inside its panel instead
//     of widening the page;
//   - a 150-word tree opens scrolled to its root.
//
// Waits have no time limit of their own (the browser's context has one).
func TestBrowserNewcomer(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, weightsOrEnv(t, apptest.Model(t, 1)))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")

	// The language warning, as one types.
	typeText(t, ctx, "What should I do ?")
	warning := waitJS(t, ctx, "the unknown-words warning", `(() => { const w = document.querySelector('#unknown-words'); return w ? w.textContent : false; })()`)
	// Most of its words foreign: all 3 unknown to the random test model
	// (which names no language); to the shipped Dutch model
	// (DISCSPAN_WEIGHTS) all 4 are English words.
	var unknown, counted int
	m := regexp.MustCompile(`(\d+) of (\d+) words (of this sentence )?are unknown to the model`).FindStringSubmatch(warning)
	if m != nil {
		unknown, _ = strconv.Atoi(m[1])
		counted, _ = strconv.Atoi(m[2])
	}
	if m == nil || unknown > counted || 2*unknown <= counted {
		t.Errorf("warning %q: want \"N of M words ... are unknown to the model\" with most of them unknown", warning)
	}
	screenshot(t, ctx, "discspan-unknown-words")
	typeText(t, ctx, strings.Join(apptest.Sentences[0], " "))
	waitJS(t, ctx, "the warning to go", `!document.querySelector('#unknown-words')`)

	// An example with its gold tree.
	evalJS(t, ctx, `(() => { const s = document.querySelector('#examples'); s.value = '0'; s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, nil)
	gold := waitJS(t, ctx, "the gold tree", `(() => { const p = document.querySelector('#panel-gold'); return p && document.querySelector('#panel-main svg') && p.querySelector('svg') ? p.querySelector('figcaption b').textContent : false; })()`)
	if !strings.Contains(gold, app.Examples[0].Source) {
		t.Errorf("gold panel titled %q, want it to name %q", gold, app.Examples[0].Source)
	}
	screenshot(t, ctx, "discspan-example-with-gold")

	long := longN6()

	// Stale results: an empty input, then a cancelled parse (150 words
	// with n6: minutes of work), each after a tree was shown.
	for _, tc := range []struct {
		name, text, variant, want string
		cancel                    bool
	}{
		{name: "empty input", text: "  ", variant: "n3", want: "type a sentence first"},
		{name: "cancelled parse", text: strings.Join(long, " "), variant: "n6", want: "cancelled", cancel: true},
	} {
		parseInPage(t, ctx, apptest.Sentences[1], "n3")
		waitJS(t, ctx, "the tree", `!!document.querySelector('#panel-main svg')`)
		typeText(t, ctx, tc.text)
		evalJS(t, ctx, fmt.Sprintf(`(() => { const s = document.querySelector('#variant'); s.value = %q; s.dispatchEvent(new Event('change', {bubbles: true})); document.querySelector('#parse').click(); return true; })()`, tc.variant), nil)
		if tc.cancel {
			waitJS(t, ctx, "the job bar's Cancel", `(() => { const c = document.querySelector('#cancel'); if (c) c.click(); return !!c; })()`)
		}
		msg := waitJS(t, ctx, tc.name+": the message", `(() => { const e = document.querySelector('#parse-error'); return e && !document.querySelector('#job') ? e.textContent : false; })()`)
		var panels int
		evalJS(t, ctx, `document.querySelectorAll('.treepanel').length`, &panels)
		if msg != tc.want || panels != 0 {
			t.Errorf("%s: message %q and %d tree panels; want %q and none", tc.name, msg, panels, tc.want)
		}
	}

	// A 150-word tree opens scrolled to its root.
	parseInPage(t, ctx, long, "n3")
	var root struct {
		X, Left, Width, ScrollWidth float64
	}
	// The panel scrolls in the frame after the drawing (see TreePanel.populate).
	evalJS(t, ctx, `(async () => {
		await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
		const sc = document.querySelector('#panel-main .scroll'), svg = sc.querySelector('svg');
		const labels = [...svg.querySelectorAll('text')];
		const top = labels.reduce((a, b) => (+b.getAttribute('y') < +a.getAttribute('y') ? b : a));
		const r = top.getBoundingClientRect(), s = sc.getBoundingClientRect();
		return {X: r.left + r.width / 2 - s.left, Left: sc.scrollLeft, Width: sc.clientWidth, ScrollWidth: sc.scrollWidth};
	})()`, &root)
	t.Logf("150 words: drawing %.0f px wide in a %.0f px panel, scrolled to %.0f; the root's label at %.0f px in the panel", root.ScrollWidth, root.Width, root.Left, root.X)
	if root.ScrollWidth <= root.Width {
		t.Errorf("the 150-word drawing (%.0f px) fits its panel (%.0f px): nothing tested", root.ScrollWidth, root.Width)
	}
	if root.X < 0 || root.X > root.Width {
		t.Errorf("the root's label is at %.0f px, outside the panel's %.0f px (scrolled to %.0f)", root.X, root.Width, root.Left)
	}

	// A 35-word tree in the Treebank tab scrolls inside its panel.
	var b strings.Builder
	if err := treebank.WriteDiscbracket(&b, []*tree.Tree{deepTree(t, long[:35])}); err != nil {
		t.Fatal(err)
	}
	evalJS(t, ctx, `(() => {
		document.querySelector('#tab-treebank').click();
		return true; })()`, nil)
	waitJS(t, ctx, "the paste box", `!!document.querySelector('#bankpaste')`)
	evalJS(t, ctx, fmt.Sprintf(`(() => {
		const ta = document.querySelector('#bankpaste');
		ta.value = %q;
		ta.dispatchEvent(new Event('input', {bubbles: true}));
		document.querySelector('#bankpaste-open').click();
		return true; })()`, b.String()), nil)
	waitJS(t, ctx, "the gold and parsed trees", `!!(document.querySelector('#panel-gold svg') && document.querySelector('#panel-pred svg'))`)
	var page struct{ Scroll, Inner, Drawing float64 }
	evalJS(t, ctx, `({Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth, Drawing: document.querySelector('#panel-gold .svgwrap').offsetWidth})`, &page)
	t.Logf("35 words in the Treebank tab: drawing %.0f px, page %.0f px in a %.0f px window", page.Drawing, page.Scroll, page.Inner)
	if page.Drawing <= page.Inner {
		t.Errorf("the 35-word drawing (%.0f px) fits the window (%.0f px): nothing tested", page.Drawing, page.Inner)
	}
	if page.Scroll > page.Inner {
		t.Errorf("the page is %.0f px wide in a %.0f px window: the tree widens it instead of scrolling in its panel", page.Scroll, page.Inner)
	}
	screenshot(t, ctx, "discspan-treebank-35-words")
}

// deepTree is a tree over words with a constituent from every word to the
// end (a deep right-branching tree, as wide as its words).
func deepTree(t *testing.T, words []string) *tree.Tree {
	t.Helper()
	tags := make([]string, len(words))
	var cons []tree.Labelled
	for i := range words {
		tags[i] = "N"
		if i < len(words)-1 {
			cons = append(cons, tree.Labelled{Label: "NP", Blocks: []tree.Span{{Start: i, End: len(words)}}})
		}
	}
	tr, err := tree.FromConstituents(words, tags, cons)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// typeText puts text into the sentence box.
func typeText(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	evalJS(t, ctx, fmt.Sprintf(`(() => { const ta = document.querySelector('#text'); ta.value = %q; ta.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, text), nil)
}

// evalJS evaluates a JS expression (awaiting a promise) into out.
func evalJS(t *testing.T, ctx context.Context, js string, out any) {
	t.Helper()
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
}

// waitJS polls a JS expression until it is truthy and returns it as text.
// It has no time limit of its own: the browser's context ends the wait.
func waitJS(t *testing.T, ctx context.Context, what, js string) string {
	t.Helper()
	var v any
	if err := chromedp.Run(ctx, chromedp.Poll(js, &v, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}
