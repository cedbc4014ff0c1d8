//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// maxTeachElements bounds the elements of the teaching tab as it opens and
// as each section is shown: one section and the menu (120-460 elements,
// the gallery's drawings the most). With every section at once it had
// about 1300 (the five sections' counts add up to 1340) and each step
// rebuilt them all: opening the tab then froze the page for 0.9-1.2 s here
// (7 s on a busier machine); one section at a time, the long tasks are
// 0.2-0.6 s to open and about 50 ms a step (2 busy cores).
const maxTeachElements = 600

// Opening the Teaching tab, stepping and showing each section lay out one
// section at a time: the elements of the tab are counted after each and
// are at most maxTeachElements. The page's long tasks (PerformanceObserver
// "longtask" entries) are logged as the measure of what a user feels; they
// are not compared with a limit, as their length depends on how busy the
// machine is (the variants section's took 0.74 s, then 1.06 s, with two
// trainings running beside the test).
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
	elements := func(what string) {
		t.Helper()
		var n int
		if err := chromedp.Run(ctx, chromedp.Evaluate(`document.querySelectorAll('#teach *').length`, &n)); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d elements; long tasks (ms) %v", what, n, longTasks())
		if n > maxTeachElements || n == 0 {
			t.Errorf("%s: the tab holds %d elements, want 1 to %d (one section)", what, n, maxTeachElements)
		}
	}

	if err := chromedp.Run(ctx, chromedp.Click(`#tab-teach`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	waitStepper(t, ctx, "the stepper", `s.steps > 0 && !!document.querySelector('#step-current')`)
	elements("opening the tab")

	for range 10 {
		if err := chromedp.Run(ctx, chromedp.Click(`#step-next`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
	}
	waitStepper(t, ctx, "ten steps", `s.pos === 10`)
	elements("ten steps")

	// The other sections are laid out one at a time too.
	for _, id := range []string{app.TeachSectionRules, app.TeachSectionVariants, app.TeachSectionGallery, app.TeachSectionExercises} {
		section(t, ctx, id)
		elements("the section " + id)
	}
}
