//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app/apptest"
)

// The project is kept in chunks of 100 sentences, and a save writes only
// the chunks that changed. Two tabs annotating the same saved project: a
// tab's save after the other tab saved (since this tab opened or saved
// the project) is refused, with the choice to replace the other tab's
// work or to merge with it; the project stays whole although each tab's
// save removes the chunks that the other tab's last save wrote. Here tab
// A's last save needs a chunk of its first one, which tab B's save
// removed: A writes it again. Then B merges with A's save instead of
// replacing it, and a reload restores the work of both.
func TestBrowserAnnotateTwoTabs(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	src, err := os.ReadFile(filepath.Join(annDataDir(), "alpino-cdb", "dev.export"))
	if err != nil {
		t.Skipf("skipping: no Alpino dev set: %v", err)
	}
	in := filepath.Join(t.TempDir(), "dev250.export")
	if err := os.WriteFile(in, annFirstSentences(src, 250), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serveApp(t, web, apptest.Model(t, 1))
	tabA := newBrowser(t, chrome)
	load(t, tabA, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(tabA, chromedp.Click(`#tab-annotate`, chromedp.ByQuery), chromedp.SetUploadFiles(`#ann-file`, []string{in}, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	annWait(t, tabA, "the import", `(() => { const p = document.querySelector('#ann-import'); return p && p.dataset.done === '1' && document.querySelector('#ann-pos') ? p.textContent : false; })()`)
	// saved waits for a tab's save, and fails at once if it is refused.
	saved := func(ctx context.Context, what string) {
		t.Helper()
		got := annWait(t, ctx, what, `(() => { const a = document.querySelector('#anntab'), e = document.querySelector('#ann-save-err');
			if (e) return e.textContent;
			return a && a.dataset.saved === a.dataset.seq && document.querySelector('#ann-save').textContent === 'saved in this browser' ? 'saved' : false; })()`)
		if got != "saved" {
			t.Fatalf("%s: %s", what, got)
		}
	}
	// conflict waits for a tab's save to be refused (another tab saved).
	conflict := func(ctx context.Context, tab string) {
		t.Helper()
		msg := annWait(t, ctx, "the refused save of tab "+tab, `(() => { const e = document.querySelector('#ann-save-err'), b = document.querySelector('#ann-save-replace');
			return e && b && document.querySelector('#ann-save').textContent.startsWith('NOT saved') ? e.textContent : false; })()`)
		t.Logf("tab %s's save: %s", tab, msg)
		if !strings.Contains(msg, "another tab saved this project") {
			t.Errorf("tab %s's refused save: %q", tab, msg)
		}
	}
	// refused waits for a tab's save to be refused, then replaces the
	// other tab's work.
	refused := func(ctx context.Context, tab string) {
		t.Helper()
		conflict(ctx, tab)
		if err := chromedp.Run(ctx, chromedp.Click(`#ann-save-replace`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		annWait(t, ctx, "the save of tab "+tab+" over the other tab's", `!document.querySelector('#ann-save-replace')`)
		saved(ctx, "tab "+tab+"'s save over the other tab's")
	}
	saved(tabA, "tab A's save of the import")

	tabB, cancel := chromedp.NewContext(tabA)
	t.Cleanup(cancel)
	load(t, tabB, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(tabB, chromedp.Click(`#tab-annotate`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	annWait(t, tabB, "tab B's restore", `(() => { const p = document.querySelector('#ann-pos'); return p && p.textContent.startsWith('sentence 1 of 250'); })()`)

	// front brings a tab to the front, as the annotator switching tabs
	// does (a hidden tab's timers and frames are throttled).
	front := func(ctx context.Context) {
		t.Helper()
		if err := chromedp.Run(ctx, page.BringToFront()); err != nil {
			t.Fatal(err)
		}
	}
	// showPage turns the corpus view of a tab to the page that begins with
	// sentence first (1-based).
	showPage := func(ctx context.Context, first int) {
		t.Helper()
		for range 5 {
			var from int
			annEval(t, ctx, `parseInt(document.querySelector('#ann-list-range').textContent.replace('sentences ', ''))`, &from)
			switch {
			case from == first:
				return
			case from < first:
				annEval(t, ctx, `(() => { document.querySelector('#ann-list-next').click(); return true; })()`, nil)
			default:
				annEval(t, ctx, `(() => { document.querySelector('#ann-list-prev').click(); return true; })()`, nil)
			}
			annWait(t, ctx, "the next page", fmt.Sprintf(`!document.querySelector('#ann-list-range').textContent.startsWith('sentences %d–')`, from))
		}
		t.Fatalf("no page begins with sentence %d", first)
	}
	// check marks sentence i (1-based) checked in a tab and waits for the
	// save.
	check := func(ctx context.Context, tab string, i int) {
		t.Helper()
		front(ctx)
		showPage(ctx, (i-1)/100*100+1)
		annEval(t, ctx, fmt.Sprintf(`(() => { document.querySelectorAll('#ann-list tr[data-status]')[%d].click(); return true; })()`, (i-1)%100), nil)
		annWait(t, ctx, fmt.Sprintf("tab %s on sentence %d", tab, i), fmt.Sprintf(`(() => { const p = document.querySelector('#ann-pos'); return p.textContent.startsWith('sentence %d of 250'); })()`, i))
		if err := chromedp.Run(ctx, chromedp.Click(`#ann-status-checked`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		annWait(t, ctx, fmt.Sprintf("tab %s's sentence %d checked", tab, i), `document.querySelector('#ann-list tr.on').dataset.status === 'checked'`)
	}
	check(tabA, "A", 1) // A writes a new first chunk
	saved(tabA, "tab A's save")
	// B opened the project before A's save: its save would drop A's
	// work. It is refused, and the tab offers to replace A's work; B's
	// save then removes A's first chunk (it is not B's).
	check(tabB, "B", 201)
	refused(tabB, "B")
	// A's next save would drop B's: refused too. Replacing it writes A's
	// corpus, the first chunk too (A needs it again).
	check(tabA, "A", 202)
	refused(tabA, "A")
	// B checks 203 and merges with A's save: it takes what A changed since
	// B's own save (1 and 202 checked, 201 not: A replaced B's work) and
	// keeps its 203.
	check(tabB, "B", 203)
	conflict(tabB, "B")
	if err := chromedp.Run(tabB, chromedp.Click(`#ann-save-merge`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	merged := annWait(t, tabB, "tab B's merge", `(() => { const m = document.querySelector('#ann-msg'), e = document.querySelector('#ann-err');
		return e ? e.textContent : m && m.textContent.startsWith('merged') ? m.textContent : false; })()`)
	if want := "merged: 3 sentences from the other tab's save (1, 201, 202), 1 sentence changed here kept (203)"; merged != want {
		t.Errorf("tab B's merge: %q, want %q", merged, want)
	}
	saved(tabB, "tab B's merged save")

	front(tabA)
	load(t, tabA, srv.URL+"/?backend=cpu")
	if err := chromedp.Run(tabA, chromedp.Click(`#tab-annotate`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	restored := annWait(t, tabA, "the restore", `(() => { const p = document.querySelector('#ann-pos'), e = document.querySelector('#ann-restore-err');
		return p && p.textContent.includes('of 250') ? 'restored' : e ? e.textContent : false; })()`)
	if restored != "restored" {
		t.Fatalf("after the reload: %s", restored)
	}
	var checked []int
	for first := 1; first <= 201; first += 100 {
		showPage(tabA, first)
		var on []int
		annEval(t, tabA, `[...document.querySelectorAll('#ann-list tr[data-status]')].flatMap((r, i) => r.dataset.status === 'checked' ? [i] : [])`, &on)
		for _, i := range on {
			checked = append(checked, first+i)
		}
	}
	if fmt.Sprint(checked) != "[1 202 203]" {
		t.Errorf("restored checked sentences %v, want [1 202 203] (tab A's and tab B's, merged)", checked)
	}
}
