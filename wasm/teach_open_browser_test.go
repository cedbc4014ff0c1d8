//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// freeze is the length of a long task (PerformanceObserver "longtask"
// entries) counted as the page freezing. Opening the tab took 0.9-1.2 s
// here when it rendered every section at once (7 s on a busier machine),
// each step of the stepper 0.1-0.6 s; now 0.2-0.6 s and about 50 ms
// (2 busy cores).
const freeze = 1000 // ms

// maxTeachElements bounds the elements of the teaching tab as it opens:
// one section (the stepper, about 150 elements) and the menu. With every
// section at once it had about 1300, and each step rebuilt them all.
const maxTeachElements = 400

// Opening the Teaching tab and stepping do not freeze the page: the
// long tasks of the page are counted while the tab opens and the stepper
// takes ten steps, and none is over freeze; the tab renders one section.
func TestBrowserTeachOpens(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	// A parse first, as a user would have done: the tab's rule cards count
	// its rules.
	parseInPage(t, ctx, apptest.Sentences[0], "n3")
	var started bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.discspanLong = [];
		new PerformanceObserver((l) => l.getEntries().forEach((e) => discspanLong.push(Math.round(e.duration)))).observe({type: 'longtask'});
		true`, &started)); err != nil || !started {
		t.Fatalf("observing long tasks: %v", err)
	}
	longTasks := func() []int {
		t.Helper()
		// Two frames, so that the last render's task has ended and been
		// reported.
		annSettle(t, ctx)
		var long []int
		if err := chromedp.Run(ctx, chromedp.Evaluate(`discspanLong.splice(0)`, &long)); err != nil {
			t.Fatal(err)
		}
		return long
	}
	check := func(what string, long []int) {
		t.Helper()
		t.Logf("%s: long tasks (ms) %v", what, long)
		for _, d := range long {
			if d > freeze {
				t.Errorf("%s froze the page for %d ms (long tasks %v)", what, d, long)
			}
		}
	}

	if err := chromedp.Run(ctx, chromedp.Click(`#tab-teach`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitStepper(t, ctx, "the stepper", `s.steps > 0 && !!document.querySelector('#step-current')`)
	check("opening the tab", longTasks())
	var n int
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.querySelectorAll('#teach *').length`, &n)); err != nil {
		t.Fatal(err)
	}
	if n > maxTeachElements || n == 0 {
		t.Errorf("the tab opened with %d elements, want at most %d (one section)", n, maxTeachElements)
	}
	t.Logf("the tab opened with %d elements", n)

	for range 10 {
		if err := chromedp.Run(ctx, chromedp.Click(`#step-next`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
	}
	waitStepper(t, ctx, "ten steps", `s.pos === 10`)
	check("ten steps", longTasks())

	// The other sections open as quickly.
	for _, id := range []string{app.TeachSectionRules, app.TeachSectionVariants, app.TeachSectionGallery, app.TeachSectionExercises} {
		section(t, ctx, id)
		check("the section "+id, longTasks())
	}
}
