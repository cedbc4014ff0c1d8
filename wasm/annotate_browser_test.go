//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/ui/app/apptest"
)

// TestBrowserAnnotate drives the annotation tab in headless Chromium:
//
//   - a 40-word sentence is parsed and annotated with the keyboard alone:
//     a selection made with the arrows, a constituent created with a label
//     typed into the label field, undone (Ctrl+Z) and redone
//     (Ctrl+Shift+Z); the re-parse time is logged;
//   - with the server closed and the network cut, a reload (served by the
//     service worker) finds the work restored from IndexedDB, its undo
//     history too;
//   - a small real treebank (the first 20 sentences of the Alpino dev set
//     in export format) is imported and exported as export, byte for byte
//     the same; the same sentences with punctuation moved, in
//     discbracket, are then imported as a second file to compare with:
//     the page shows the corpus F1 that chart/eval gives and a diff.
func TestBrowserAnnotate(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	sentence := annSentence40()
	data := weightsOrEnv(t, apptest.Model(t, 1, sentence))
	srv := serveApp(t, web, data)
	ctx := newBrowser(t, chrome)
	downloads := t.TempDir()
	if err := chromedp.Run(ctx, browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(downloads)); err != nil {
		t.Fatal(err)
	}
	load(t, ctx, srv.URL+"/?backend=cpu")

	// (a) A sentence parsed, then annotated with the keyboard only.
	annEval(t, ctx, fmt.Sprintf(`(() => {
		const ta = document.querySelector('#text');
		ta.value = %q;
		ta.dispatchEvent(new Event('input', {bubbles: true}));
		return true; })()`, strings.Join(sentence, " ")), nil)
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery), chromedp.Click(`#ann-new`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	parsed := annWait(t, ctx, "the parsed sentence", `(() => { const a = document.querySelector('#anntab');
		return a && a.dataset.cons && a.dataset.busy === 'false' ? a.dataset.cons : false; })()`)
	t.Logf("parsed (%d words): %s", len(sentence), parsed)
	annKeys(t, ctx, kb.ArrowRight, kb.ArrowRight)
	annKeys(t, ctx, kb.ArrowRight, kb.ArrowRight, kb.ArrowRight) // cursor on word 5
	annKeysMod(t, ctx, input.ModifierShift, kb.ArrowRight)       // words 5-6
	annWait(t, ctx, "the selection of words 5-6 (→ ×5, Shift+→)", `document.querySelector('#anntab').dataset.sel === '5,6'`)
	annCommandKey(t, ctx, "c")
	annWait(t, ctx, "the label field", `document.activeElement && document.activeElement.id === 'ann-label'`)
	annKeys(t, ctx, "np", kb.Enter)
	created := annWait(t, ctx, "the new constituent", `(() => { const a = document.querySelector('#anntab');
		return a.dataset.busy === 'false' && a.dataset.undo === '1' ? a.dataset.cons : false; })()`)
	if !strings.Contains(" "+created+" ", " np[5,7) ") {
		t.Fatalf("no np[5,7) after creating it: %s (%s)", created, annText(t, ctx, "#ann-err"))
	}
	undoList := annText(t, ctx, "#ann-undolist")
	if !strings.Contains(undoList, "Create np over") {
		t.Errorf("undo list %q", undoList)
	}
	reparse := annAttr(t, ctx, "reparse")
	var decodeMS, wallMS float64
	fmt.Sscan(reparse, &decodeMS, &wallMS)
	t.Logf("re-parse of %d words around a new constituent (n3, CPU in the worker): %.2f ms decoding, %.1f ms the whole edit as the page saw it", len(sentence), decodeMS, wallMS)
	if wallMS <= 0 {
		t.Errorf("re-parse: no timing reported (%q)", reparse)
	}
	annKeysMod(t, ctx, input.ModifierCtrl, "z")
	undone := annWait(t, ctx, "the undo", `(() => { const a = document.querySelector('#anntab'); return a.dataset.undo === '0' && a.dataset.redo === '1' ? a.dataset.cons : false; })()`)
	if undone != parsed {
		t.Errorf("after undo: %s, want %s", undone, parsed)
	}
	// The emptied undo list is empty on the page (vugu left a list's last
	// item when none was left to render).
	if l := annText(t, ctx, "#ann-undolist"); l != "" {
		t.Errorf("undo list after undoing its only step: %q", l)
	}
	annKeysMod(t, ctx, input.ModifierCtrl|input.ModifierShift, "Z")
	redone := annWait(t, ctx, "the redo", `(() => { const a = document.querySelector('#anntab'); return a.dataset.undo === '1' && a.dataset.redo === '0' ? a.dataset.cons : false; })()`)
	if redone != created {
		t.Errorf("after redo: %s, want %s", redone, created)
	}
	annCommandKey(t, ctx, "x") // checked
	// ↑ selects the new np (the lowest node over the selection); d
	// deletes it: a second re-parse, now warm.
	annKeys(t, ctx, kb.ArrowUp)
	annWait(t, ctx, "the np selected", `document.querySelector('#anntab').dataset.node !== '-1'`)
	annCommandKey(t, ctx, "d")
	final := annWait(t, ctx, "the deletion", `(() => { const a = document.querySelector('#anntab');
		return a.dataset.busy === 'false' && a.dataset.undo === '3' ? a.dataset.cons : false; })()`)
	if strings.Contains(" "+final+" ", " np[5,7) ") {
		t.Errorf("np[5,7) still there after deleting it: %s", final)
	}
	fmt.Sscan(annAttr(t, ctx, "reparse"), &decodeMS, &wallMS)
	t.Logf("second re-parse (deleting it): %.2f ms decoding, %.1f ms the whole edit", decodeMS, wallMS)
	annWait(t, ctx, "the save", `(() => { const a = document.querySelector('#anntab');
		return a.dataset.saved === a.dataset.seq; })()`)
	// The mouse: a click, a shift-click and a ctrl-click on words; "?"
	// opens the shortcut sheet.
	annEval(t, ctx, `(() => {
		const click = (i, opt) => document.querySelector('#tree-ann text.word[data-word="' + i + '"]').dispatchEvent(new MouseEvent('click', Object.assign({bubbles: true}, opt)));
		click(1, {});
		click(3, {shiftKey: true});
		click(6, {ctrlKey: true});
		return true; })()`, nil)
	annWait(t, ctx, "the mouse selection 1-3 + 6", `document.querySelector('#anntab').dataset.sel === '1,2,3,6'`)
	annKeys(t, ctx, "?")
	annWait(t, ctx, "the shortcut sheet", `!!document.querySelector('#ann-help')`)
	screenshot(t, ctx, "discspan-annotate")
	annKeys(t, ctx, kb.Escape)

	// (b) Offline reload: the work comes back from IndexedDB.
	var controlled bool
	if err := chromedp.Run(ctx, chromedp.Poll(`navigator.serviceWorker.controller !== null`, &controlled, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("no service worker: %v", err)
	}
	srv.Close()
	if err := chromedp.Run(ctx, network.Enable(), network.EmulateNetworkConditions(true, 0, -1, -1)); err != nil {
		t.Logf("network emulation: %v (the server is closed anyway)", err)
	}
	load(t, ctx, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-annotate`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	restored := annWait(t, ctx, "the restored work", `(() => { const a = document.querySelector('#anntab'); return a && a.dataset.cons ? a.dataset.cons : false; })()`)
	if restored != final {
		t.Errorf("restored %s, want %s", restored, final)
	}
	if st := annText(t, ctx, "#ann-list tr.on .status"); st != "checked" {
		t.Errorf("restored status %q", st)
	}
	// The undo history came back too (kept beside the project).
	if n, list := annAttr(t, ctx, "undo"), annText(t, ctx, "#ann-undolist"); n != "3" || !strings.Contains(list, "Create np over") {
		t.Errorf("restored undo history: %s steps, %q", n, list)
	}

	// (c) Import a real treebank file and export it again (still offline).
	src, err := os.ReadFile(filepath.Join(annDataDir(), "alpino-cdb", "dev.export"))
	if err != nil {
		t.Skipf("no Alpino dev set: %v", err)
	}
	head := annFirstSentences(src, 20)
	in := filepath.Join(t.TempDir(), "dev20.export")
	if err := os.WriteFile(in, head, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := chromedp.Run(ctx, chromedp.SetUploadFiles(`#ann-file`, []string{in}, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	read := annWait(t, ctx, "the import", `(() => { const p = document.querySelector('#ann-import'); return p && p.dataset.done === '1' ? p.textContent : false; })()`)
	t.Logf("import: %s in %v", read, time.Since(start).Round(time.Millisecond))
	// A corpus is open: the page asks before the file replaces it.
	question := annText(t, ctx, "#ann-import-confirm")
	if !strings.Contains(read, "waiting") || !strings.Contains(question, "Replace the open corpus") {
		t.Fatalf("the import replaced the open corpus without asking: %q, %q", read, question)
	}
	// The question takes the focus, on the answer that loses nothing.
	var focus string
	annEval(t, ctx, `document.activeElement ? document.activeElement.id : ''`, &focus)
	if focus != "ann-import-cancel" {
		t.Errorf("the focus is on %q when the question appears, want #ann-import-cancel (keep the open corpus)", focus)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-import-replace`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	imported := annWait(t, ctx, "the imported corpus", `(() => { const p = document.querySelector('#ann-import'); return p && !document.querySelector('#ann-import-confirm') && p.textContent.includes('imported') ? p.textContent : false; })()`)
	if !strings.Contains(imported, "20 sentences imported") {
		t.Fatalf("import: %s", imported)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-export-export`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	out := waitFile(t, filepath.Join(downloads, "dev20.export"))
	if !bytes.Equal(out, head) {
		t.Errorf("the exported file (%d bytes) differs from the imported one (%d bytes)", len(out), len(head))
	}
	// The file picker keeps the focus after a file is chosen: the keys
	// still work (it was taken for a text field).
	annEval(t, ctx, `(() => { document.querySelector('#ann-file').focus(); return document.activeElement.id; })()`, &focus)
	if focus != "ann-file" {
		t.Fatalf("focus on %q, want the file picker", focus)
	}
	before := annAttr(t, ctx, "sel")
	annKeys(t, ctx, kb.ArrowRight)
	annWait(t, ctx, "the arrow key with the file picker focused", fmt.Sprintf(`document.querySelector('#anntab').dataset.sel !== %q`, before))

	// (d) Compare with a second file of the same sentences.
	moved, err := os.ReadFile(filepath.Join(annDataDir(), "alpino-cdb", "dev.punctmoved.discbracket"))
	if err != nil {
		t.Skipf("no Alpino dev set: %v", err)
	}
	second := bytes.Join(bytes.SplitAfter(moved, []byte("\n"))[:20], nil)
	wantF1 := annCorpusF1(t, head, second)
	in2 := filepath.Join(t.TempDir(), "dev20.punctmoved.discbracket")
	if err := os.WriteFile(in2, second, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.SetUploadFiles(`#ann-other-file`, []string{in2}, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	f1 := annWait(t, ctx, "the second file's score", `(() => { const e = document.querySelector('#ann-other-score'); return e && e.dataset.f1 ? e.dataset.f1 : false; })()`)
	t.Logf("second file: %s", annText(t, ctx, "#ann-other-score"))
	if f1 != wantF1 {
		t.Errorf("corpus F1 shown %s, chart/eval gives %s", f1, wantF1)
	}
	if err := chromedp.Run(ctx, chromedp.Click(`#ann-diff-other`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	diff := annWait(t, ctx, "the diff", `(() => { const e = document.querySelector('#ann-diff-f1'); return e ? e.textContent : false; })()`)
	if !strings.Contains(diff, "F1 ") || !strings.Contains(diff, "second file") {
		t.Errorf("diff: %s", diff)
	}
	screenshot(t, ctx, "discspan-annotate-corpus")
}

// annCorpusF1 is the labelled F1 of the second treebank against the first
// (export, then discbracket) as chart/eval gives it with the bracket
// semantics of annotate.Diff, formatted as the page shows it.
func annCorpusF1(t *testing.T, export, disc []byte) string {
	t.Helper()
	read := func(data []byte, f treebank.Format) []*tree.Tree {
		trees, err := treebank.ReadAll(bytes.NewReader(data), "test", f)
		if err != nil {
			t.Fatal(err)
		}
		return trees
	}
	res, err := eval.Evaluate(read(export, treebank.Export), read(disc, treebank.Discbracket), eval.Params{Labeled: true, KeepFunctionTags: true})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%.2f", res.All.F1)
}

// annSentence40 is a 40-word sentence (without sentence-final
// punctuation: the sentence tab would split it).
func annSentence40() []string {
	var words []string
	for len(words) < 40 {
		for _, s := range apptest.Sentences {
			for _, w := range s {
				if w != "." && w != "?" { // one sentence for the tokenizer
					words = append(words, w)
				}
			}
		}
	}
	return words[:40]
}

// annDataDir is the shared data directory ($DATA or ../../shared/data).
func annDataDir() string {
	if d := os.Getenv("DATA"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "data")
}

// annFirstSentences returns the header and the first n sentences of an
// export file.
func annFirstSentences(data []byte, n int) []byte {
	end, count := 0, 0
	for end < len(data) && count < n {
		nl := bytes.IndexByte(data[end:], '\n')
		if nl < 0 {
			end = len(data)
			break
		}
		if bytes.HasPrefix(data[end:], []byte("#EOS")) {
			count++
		}
		end += nl + 1
	}
	return data[:end]
}

// annEval evaluates a JS expression (awaiting a promise) into out.
func annEval(t *testing.T, ctx context.Context, js string, out any) {
	t.Helper()
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
}

// annWait polls a JS expression until it is truthy and returns it as text.
func annWait(t *testing.T, ctx context.Context, what, js string) string {
	t.Helper()
	var v any
	if err := chromedp.Run(ctx, chromedp.Poll(js, &v, chromedp.WithPollingTimeout(0))); err != nil {
		var msg, state string
		_ = chromedp.Run(ctx, chromedp.Evaluate(`(() => { const e = document.querySelector('#ann-err'); return e ? e.textContent : ''; })()`, &msg),
			chromedp.Evaluate(`(() => { const a = document.querySelector('#anntab'); return a ? JSON.stringify(a.dataset) : 'no tab'; })()`, &state))
		t.Fatalf("waiting for %s: %v (error shown: %q; state %s)", what, err, msg, state)
	}
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}

// annAttr returns a data attribute of the annotation tab.
func annAttr(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	var s string
	annEval(t, ctx, fmt.Sprintf(`document.querySelector('#anntab').dataset[%q] || ''`, name), &s)
	return s
}

// annText returns the text of the first element matching sel ("" if none).
func annText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var s string
	annEval(t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.innerText.trim() : ''; })()`, sel), &s)
	return s
}

// annKeys types keys (key names or text) into the focused element, and
// waits a moment for the page to render.
func annKeys(t *testing.T, ctx context.Context, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := chromedp.Run(ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatalf("key %q: %v", k, err)
		}
	}
	annSettle(t, ctx)
}

// annCommandKey presses a letter key as a keyboard does: one keyDown
// event with its text, whose character a cancelled keydown suppresses
// (chromedp's KeyEvent sends the character as a separate event, which
// would land in the label field the key opens).
func annCommandKey(t *testing.T, ctx context.Context, key string) {
	t.Helper()
	up := strings.ToUpper(key)
	code := int64(up[0])
	err := chromedp.Run(ctx,
		input.DispatchKeyEvent(input.KeyDown).WithKey(key).WithCode("Key"+up).WithText(key).WithUnmodifiedText(key).WithWindowsVirtualKeyCode(code).WithNativeVirtualKeyCode(code),
		input.DispatchKeyEvent(input.KeyUp).WithKey(key).WithCode("Key"+up).WithWindowsVirtualKeyCode(code).WithNativeVirtualKeyCode(code))
	if err != nil {
		t.Fatalf("key %q: %v", key, err)
	}
	annSettle(t, ctx)
}

// annKeysMod types keys with modifiers held.
func annKeysMod(t *testing.T, ctx context.Context, mod input.Modifier, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := chromedp.Run(ctx, chromedp.KeyEvent(k, chromedp.KeyModifiers(mod))); err != nil {
			t.Fatalf("key %q: %v", k, err)
		}
	}
	annSettle(t, ctx)
}

// annSettle waits for two animation frames: the render of the last event.
func annSettle(t *testing.T, ctx context.Context) {
	t.Helper()
	annEval(t, ctx, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil)
}
