//go:build !js

package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/discspan/discspan/teach"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// The teaching tab's exercises in headless Chromium (the helpers are
// browser_test.go's and teach_browser_test.go's): the student solves the
// wh-question ("What should I do ?") with clicks and the keyboard, after a
// deliberate mistake that the check marks wrong; Ctrl+Z and Ctrl+Y undo
// and redo; the check of the finished tree says F1 100 and solved, as
// teach.Exercise.Check does in Go for the shared tree; the shared link
// opened in a fresh page shows the same tree and verdict, and a damaged
// link a notice.

// exerciseState is what the exercises section's data attributes say.
type exerciseState struct {
	Exercise string `json:"exercise"`
	Sel      string `json:"sel"`
	Cursor   int    `json:"cursor"`
	Node     int    `json:"node"`
	Cons     string `json:"cons"`
	Undo     string `json:"undo"`
	Redo     string `json:"redo"`
	Checked  bool   `json:"checked"`
	F1       string `json:"f1"`
	Solved   string `json:"solved"`
	Right    int    `json:"right"`
	Wrong    int    `json:"wrong"`
	Missing  int    `json:"missing"`
	Err      string `json:"err"`
	Focus    string `json:"focus"`
}

const exerciseJS = `(() => {
	const s = document.querySelector('#teach-exercise');
	if (!s) return null;
	const d = s.dataset, v = document.querySelector('#exercise-verdict'), e = document.querySelector('#exercise-error');
	const vd = v ? v.dataset : {};
	return {exercise: d.exercise, sel: d.sel, cursor: +d.cursor, node: +d.node, cons: d.cons, undo: d.undo, redo: d.redo,
		checked: !!v, f1: vd.f1 || '', solved: vd.solved || '', right: +(vd.right || 0), wrong: +(vd.wrong || 0),
		missing: +(vd.missing || 0), err: e ? e.textContent : '', focus: document.activeElement ? document.activeElement.id : ''};
})()`

// exercise reads the exercises section's state.
func exercise(t *testing.T, ctx context.Context) exerciseState {
	t.Helper()
	var s exerciseState
	if err := chromedp.Run(ctx, chromedp.Evaluate(exerciseJS, &s)); err != nil {
		t.Fatalf("reading the exercise: %v", err)
	}
	return s
}

// waitExercise polls the page until cond (a JS expression over s, the
// exercise's state) holds, and returns the state.
func waitExercise(t *testing.T, ctx context.Context, what, cond string) exerciseState {
	t.Helper()
	var ok bool
	js := fmt.Sprintf(`(() => { const s = %s; return !!s && (%s); })()`, exerciseJS, cond)
	if err := chromedp.Run(ctx, chromedp.Poll(js, &ok, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for %s (%s): %v; exercise %+v", what, cond, err, exercise(t, ctx))
	}
	return exercise(t, ctx)
}

// click clicks the first element matching the CSS selector.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Run(ctx, chromedp.Click(sel, chromedp.ByQuery)); err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
}

// typeLabel replaces the label box's text with label by typing it.
func typeLabel(t *testing.T, ctx context.Context, label string) {
	t.Helper()
	err := chromedp.Run(ctx,
		chromedp.Evaluate(`(() => { const e = document.querySelector('#exercise-label'); e.focus(); e.select(); })()`, nil),
		chromedp.KeyEvent(label))
	if err != nil {
		t.Fatalf("typing %s: %v", label, err)
	}
}

// ctrlKey presses key with Ctrl.
func ctrlKey(t *testing.T, ctx context.Context, key string) {
	t.Helper()
	if err := chromedp.Run(ctx, chromedp.KeyEvent(key, chromedp.KeyModifiers(input.ModifierCtrl))); err != nil {
		t.Fatalf("pressing Ctrl+%s: %v", key, err)
	}
}

// sortedCons sorts a data-cons list.
func sortedCons(s string) []string {
	f := strings.Fields(s)
	slices.Sort(f)
	return f
}

func TestBrowserTeachExercise(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ex, err := teach.ExerciseByID("wh-question")
	if err != nil {
		t.Fatal(err)
	}

	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	click(t, ctx, `#tab-teach`)
	section(t, ctx, app.TeachSectionExercises)
	waitExercise(t, ctx, "the exercises", `!!s.exercise`)
	click(t, ctx, `#exercise-wh-question`)
	s := waitExercise(t, ctx, "the wh-question", `s.exercise === 'wh-question' && s.cons === ''`)
	if words := evalString(t, ctx, `[...document.querySelectorAll('#exercise-words .exword b')].map(e => e.textContent).join(' ')`); words != strings.Join(ex.Words(), " ") {
		t.Fatalf("words %q", words)
	}

	// A click selects "What" (and gives the words the focus); the arrows
	// and space add "do".
	click(t, ctx, `#exercise-words [data-word="0"]`)
	s = waitExercise(t, ctx, "a click on What", `s.sel === '0'`)
	if s.Focus != "exercise-words" {
		t.Errorf("focus on %q after the click", s.Focus)
	}
	press(t, ctx, kb.ArrowRight, 3)
	press(t, ctx, " ", 1)
	waitExercise(t, ctx, "What … do selected", `s.sel === '0,3' && s.cursor === 3`)

	// The mistake: NP over What … do (Enter in the label box makes it).
	typeLabel(t, ctx, "NP")
	press(t, ctx, kb.Enter, 1)
	waitExercise(t, ctx, "the NP", `s.cons === 'NP[0,1)+[3,4)' && s.sel === '' && s.undo === 'true'`)
	click(t, ctx, `#exercise-words [data-word="2"]`)
	waitExercise(t, ctx, "I selected", `s.sel === '2'`)
	click(t, ctx, `#exercise-make`)
	waitExercise(t, ctx, "NP over I", `s.cons.split(' ').length === 2`)

	// "make constituent" with nothing selected: an error comes above the
	// tree, and vugu (which matches elements by position) must not
	// rebuild the tree below it (a tree scrolled sideways went back to its
	// start).
	evalString(t, ctx, `(() => { document.querySelector('.exercise-work').discspanMark = 1; return ''; })()`)
	click(t, ctx, `#exercise-make`)
	pollString(t, ctx, "the error", `(() => { const e = document.querySelector('#exercise-error'); return e ? e.textContent : ''; })()`)
	if evalString(t, ctx, `document.querySelector('.exercise-work').discspanMark === 1 ? 'kept' : ''`) != "kept" {
		t.Error("the error above the tree made the page rebuild the tree")
	}

	// The check marks it wrong (red), the NP over I right; the missing
	// constituents are listed only when asked for.
	click(t, ctx, `#exercise-check`)
	s = waitExercise(t, ctx, "the first check", `s.checked`)

	if s.Wrong != 1 || s.Right != 1 || s.Missing != 4 || s.Solved != "false" || s.F1 == "100.0" {
		t.Errorf("first check: %+v", s)
	}
	wrongNode := evalString(t, ctx, `(() => { const e = document.querySelector('#exercise-nodes li.wrong'); return e ? e.dataset.node + ' ' + e.dataset.cons : ''; })()`)
	node, cons, _ := strings.Cut(wrongNode, " ")
	if cons != "NP[0,1)+[3,4)" {
		t.Fatalf("marked wrong: %q", wrongNode)
	}
	if red := evalString(t, ctx, `[...document.querySelectorAll('#tree-exercise text.wrong')].map(e => e.textContent).join(' ')`); red != "NP" {
		t.Errorf("red labels in the tree: %q", red)
	}
	if evalString(t, ctx, `document.querySelector('#exercise-missing-list') ? 'shown' : ''`) != "" {
		t.Error("missing constituents shown before asked for")
	}
	click(t, ctx, `#exercise-missing`)
	missing := pollString(t, ctx, "the missing constituents", `(() => { const e = document.querySelector('#exercise-missing-list'); return e ? e.innerText : ''; })()`)
	for _, m := range []string{"WHNP: What", "VP: What … do", "SQ: What should I do", "SBARQ: What should I do ?"} {
		if !strings.Contains(missing, m) {
			t.Errorf("missing list lacks %q: %q", m, missing)
		}
	}
	shot(t, ctx, "discspan-teach-exercise-mistake", "#teach-exercise")

	// Fix it: click its label in the tree, relabel it VP.
	click(t, ctx, fmt.Sprintf(`#tree-exercise text[data-node="%s"]`, node))
	waitExercise(t, ctx, "the NP selected", fmt.Sprintf(`s.node === %s`, node))
	typeLabel(t, ctx, "VP")
	click(t, ctx, `#exercise-relabel`)
	waitExercise(t, ctx, "the VP", `s.cons.includes('VP[0,1)+[3,4)') && !s.checked`)

	// WHNP over What, SQ and SBARQ with the keyboard.
	click(t, ctx, `#exercise-words [data-word="0"]`)
	waitExercise(t, ctx, "What selected", `s.sel === '0'`)
	typeLabel(t, ctx, "WHNP")
	press(t, ctx, kb.Enter, 1)
	waitExercise(t, ctx, "the WHNP", `s.cons.includes('WHNP[0,1)')`)
	click(t, ctx, `#exercise-words [data-word="0"]`)
	for range 3 {
		press(t, ctx, kb.ArrowRight, 1)
		press(t, ctx, " ", 1)
	}
	waitExercise(t, ctx, "What should I do selected", `s.sel === '0,1,2,3'`)
	typeLabel(t, ctx, "SQ")
	press(t, ctx, kb.Enter, 1)
	waitExercise(t, ctx, "the SQ", `s.cons.includes('SQ[0,4)')`)
	click(t, ctx, `#exercise-words [data-word="0"]`)
	for range 4 {
		press(t, ctx, kb.ArrowRight, 1)
		press(t, ctx, " ", 1)
	}
	waitExercise(t, ctx, "the sentence selected", `s.sel === '0,1,2,3,4'`)
	typeLabel(t, ctx, "SBARQ")
	click(t, ctx, `#exercise-make`)
	s = waitExercise(t, ctx, "the SBARQ", `s.cons.includes('SBARQ[0,5)')`)
	solvedCons := sortedCons(s.Cons)

	// Ctrl+Z undoes the SBARQ, Ctrl+Y redoes it.
	ctrlKey(t, ctx, "z")
	waitExercise(t, ctx, "undo", `!s.cons.includes('SBARQ') && s.redo === 'true'`)
	ctrlKey(t, ctx, "y")
	waitExercise(t, ctx, "redo", `s.cons.includes('SBARQ[0,5)') && s.redo === 'false'`)

	click(t, ctx, `#exercise-check`)
	s = waitExercise(t, ctx, "the final check", `s.checked`)
	if s.F1 != "100.0" || s.Solved != "true" || s.Right != 5 || s.Wrong != 0 || s.Missing != 0 {
		t.Errorf("final check: %+v", s)
	}
	if msg := evalString(t, ctx, `(() => { const e = document.querySelector('#exercise-solved'); return e ? e.textContent : ''; })()`); !strings.Contains(msg, "Solved") {
		t.Errorf("solved message %q", msg)
	}
	t.Logf("solved: %v", solvedCons)
	shot(t, ctx, "discspan-teach-exercise-solved", "#teach-exercise")

	// Share: the fragment holds the attempt, which Go checks the same.
	click(t, ctx, `#exercise-share`)
	frag := pollString(t, ctx, "the link", `location.hash.startsWith('#exercise=') ? location.hash : ''`)
	e, shared, err := teach.DecodeAttempt(strings.TrimPrefix(frag, "#exercise="))
	if err != nil || e.ID != ex.ID {
		t.Fatalf("shared link %s: %s, %v", frag, e.ID, err)
	}
	if v, err := e.Check(shared); err != nil || !v.Solved || v.F1 != 100 {
		t.Errorf("Go's check of the shared attempt: %+v, %v", v, err)
	}
	if u := evalString(t, ctx, `document.querySelector('#exercise-url').value`); !strings.HasSuffix(u, frag) {
		t.Errorf("link box %q", u)
	}

	// A fresh page opened with the link shows the same tree and verdict.
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/?backend=cpu&shared=1"+frag)); err != nil {
		t.Fatal(err)
	}
	s = waitExercise(t, ctx, "the shared attempt", `s.exercise === 'wh-question' && s.checked`)
	if got := sortedCons(s.Cons); !slices.Equal(got, solvedCons) || s.F1 != "100.0" || s.Solved != "true" {
		t.Errorf("shared attempt: %v %+v, want %v", got, s, solvedCons)
	}
	if svg := evalString(t, ctx, `(() => { const e = document.querySelector('#tree-exercise'); return e ? e.outerHTML : ''; })()`); !strings.Contains(svg, ">SBARQ<") {
		t.Errorf("shared tree drawing: %.200s", svg)
	}
	screenshot(t, ctx, "discspan-teach-exercise-shared")

	// A damaged link gets a notice.
	var notice string
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`location.hash = '#exercise=wh-question~t1.AAAA'`, nil),
		chromedp.Poll(`(() => { const e = document.querySelector('#exercise-link-error'); return e ? e.textContent : false; })()`,
			&notice, chromedp.WithPollingTimeout(0)),
	)
	if err != nil || !strings.Contains(notice, "cannot be opened") {
		t.Errorf("damaged link: notice %q, %v", notice, err)
	}
	t.Logf("damaged link: %s", notice)
}

// TestBrowserTeachFocusedButtons: Enter and Space on a button of the
// teaching tab that the keyboard moved to press that button, not the
// tab's shortcuts: Enter on "share attempt" shares the attempt without
// making a constituent of the selection (which the link would then hold),
// and Space on the stepper's "next" steps once instead of starting
// playback. (A button clicked with the mouse keeps the shortcuts:
// TestBrowserTeach.)
func TestBrowserTeachFocusedButtons(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	srv := serveApp(t, web, apptest.Model(t, 1))
	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	click(t, ctx, `#tab-teach`)
	section(t, ctx, app.TeachSectionExercises)
	waitExercise(t, ctx, "the exercises", `!!s.exercise`)
	click(t, ctx, `#exercise-words [data-word="0"]`)
	waitExercise(t, ctx, "a click on the first word", `s.sel === '0'`)
	typeLabel(t, ctx, "NP")
	tabTo(t, ctx, "exercise-check", "exercise-share")
	press(t, ctx, kb.Enter, 1)
	url := pollString(t, ctx, "the shared link", `(() => { const e = document.querySelector('#exercise-url'); return e ? e.value : ''; })()`)
	if s := exercise(t, ctx); s.Cons != "" || s.Sel != "0" {
		t.Errorf("Enter on the focused share button made a constituent: %+v (link %s)", s, url)
	}

	// A button that disables itself under the focus ("undo" at its last
	// step) hands the focus to its neighbour in the tab order ("redo"),
	// not to the page's start (wasm/main.go's components.KeepFocus).
	click(t, ctx, `#exercise-make`)
	waitExercise(t, ctx, "the constituent", `s.cons !== '' && s.undo === 'true'`)
	evalString(t, ctx, `(() => { document.getElementById('exercise-undo').focus(); return ''; })()`)
	press(t, ctx, kb.Enter, 1)
	if s := waitExercise(t, ctx, "the undo", `s.cons === '' && s.undo === 'false'`); s.Focus != "exercise-redo" {
		t.Errorf("after Enter on the last undo the focus is on %q, want #exercise-redo (the next control)", s.Focus)
	}

	section(t, ctx, app.TeachSectionStepper)
	waitStepper(t, ctx, "the stepper", `s.steps > 0 && s.pos === 0 && s.playing === '0'`)
	tabTo(t, ctx, "step-play", "step-next")
	press(t, ctx, " ", 1)
	if s := waitStepper(t, ctx, "a step", `s.pos > 0 || s.playing === '1'`); s.Pos != 1 || s.Playing != "0" {
		t.Errorf("Space on the focused next button: position %d, playing %s; want one step and no playback", s.Pos, s.Playing)
	}
}

// tabTo focuses the element with id from, then presses Tab, which must
// move the focus to the element with id to, as a keyboard user does.
func tabTo(t *testing.T, ctx context.Context, from, to string) {
	t.Helper()
	evalString(t, ctx, fmt.Sprintf(`(() => { document.getElementById(%q).focus(); return ''; })()`, from))
	press(t, ctx, kb.Tab, 1)
	if got := evalString(t, ctx, `document.activeElement ? document.activeElement.id : ''`); got != to {
		t.Fatalf("Tab from #%s focused #%s, want #%s", from, got, to)
	}
}
