//go:build !js

package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/teach"
	"github.com/discspan/discspan/ui/app"
	"github.com/discspan/discspan/ui/app/apptest"
)

// The teaching tab in headless Chromium, against the real server handler
// and a small random model (the helpers are browser_test.go's):
//
//   - the chart stepper, stepped to the end with the keyboard, shows the
//     item count, best derivation and goal score that teach.Replay gives in
//     Go for the same tree and variant; space plays and pauses;
//   - clicking a rule lists (and marks in the tree) the items of the
//     current parse it built, as many as the derivation the parser gives in
//     Go, and its uses in the stepper's best derivation (marked in the
//     stepper's chart);
//   - the stepper replays the parsed sentence with the model's own scores,
//     reaching the score Go computes from the same weights;
//   - the link button puts the shown tree into the URL fragment, a page
//     opened with a tree link shows that tree, and a damaged link a notice.
//
// DISCSPAN_SCREENSHOTS=DIR saves screenshots there.

// stepperState is what the stepper's data attributes say.
type stepperState struct {
	Pos     int    `json:"pos"`
	Len     int    `json:"len"`
	Steps   int    `json:"steps"`
	Best    int    `json:"best"`
	Score   string `json:"score"`
	Phase   string `json:"phase"`
	Playing string `json:"playing"`
	Variant string `json:"variant"`
	Gold    string `json:"gold"`
	Gen     int    `json:"gen"`
	Inside  string `json:"inside"`
}

const stepperJS = `(() => {
	const s = document.querySelector('#stepper');
	if (!s || !s.dataset.len) return null;
	const d = s.dataset, ins = document.querySelector('#step-inside');
	return {pos: +d.pos, len: +d.len, steps: +d.steps, best: +d.best, score: d.score, phase: d.phase,
		playing: d.playing, variant: d.variant, gold: d.gold, gen: +d.gen, inside: ins ? ins.textContent : ''};
})()`

// stepper reads the stepper's state.
func stepper(t *testing.T, ctx context.Context) stepperState {
	t.Helper()
	var s stepperState
	if err := chromedp.Run(ctx, chromedp.Evaluate(stepperJS, &s)); err != nil {
		t.Fatalf("reading the stepper: %v", err)
	}
	return s
}

// waitStepper polls the page until cond (a JS expression over s, the
// stepper's state) holds, and returns the state.
func waitStepper(t *testing.T, ctx context.Context, what, cond string) stepperState {
	t.Helper()
	var ok bool
	js := fmt.Sprintf(`(() => { const s = %s; return !!s && (%s); })()`, stepperJS, cond)
	if err := chromedp.Run(ctx, chromedp.Poll(js, &ok, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for %s (%s): %v; stepper %+v", what, cond, err, stepper(t, ctx))
	}
	return stepper(t, ctx)
}

// press sends a key to the page n times.
func press(t *testing.T, ctx context.Context, key string, n int) {
	t.Helper()
	for range n {
		if err := chromedp.Run(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatalf("pressing %q: %v", key, err)
		}
	}
}

// evalString evaluates a JS expression that gives a string.
func evalString(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	var s string
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &s)); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return s
}

// shot saves a screenshot of the element sel as DISCSPAN_SCREENSHOTS/name.png
// when set.
func shot(t *testing.T, ctx context.Context, name, sel string) {
	t.Helper()
	dir := os.Getenv("DISCSPAN_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.Screenshot(sel, &png, chromedp.ByQuery)); err != nil {
		t.Fatalf("screenshot of %s: %v", sel, err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// pollString polls a JS expression until it gives a non-empty string.
func pollString(t *testing.T, ctx context.Context, what, js string) string {
	t.Helper()
	var s string
	if err := chromedp.Run(ctx, chromedp.Poll(js, &s, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
	return s
}

func TestBrowserTeach(t *testing.T) {
	chrome := chromiumPath(t)
	web := appDir(t)
	words := apptest.Sentences[0] // 10 words, in the model's vocabulary
	data := apptest.Model(t, 1)
	srv := serveApp(t, web, data)

	// What Go computes: the default example's replay, the parse's
	// derivation, the model's scores of the sentence.
	ex := teach.Gallery()[0]
	exTree, err := ex.Tree()
	if err != nil {
		t.Fatal(err)
	}
	trace, _, err := teach.GoldReplay(context.Background(), exTree, ex.Smallest)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := parser.Read(data, "default")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ms.Parser()
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := p.ParseWords(words, decode.N3)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := p.Forward([]network.Input{ms.Vocab.Encode(words)})
	if err != nil {
		t.Fatal(err)
	}

	ctx := newBrowser(t, chrome)
	load(t, ctx, srv.URL+"/?backend=cpu")
	parseInPage(t, ctx, words, "n3")

	// The tab opens on the first example.
	if err := chromedp.Run(ctx, chromedp.Click(`#tab-teach`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	s := waitStepper(t, ctx, "the stepper", `s.steps > 0`)
	if s.Variant != ex.Smallest.String() || s.Gold != "1" || s.Pos != 0 || s.Len != len(trace.Steps)+len(trace.Best)+1 {
		t.Fatalf("stepper %+v; Go: %s, %d steps, %d best", s, ex.Smallest, len(trace.Steps), len(trace.Best))
	}

	// Step with the keyboard: a few steps, one back, then to the end.
	press(t, ctx, kb.ArrowRight, 6)
	press(t, ctx, kb.ArrowLeft, 1)
	s = waitStepper(t, ctx, "step 5", `s.pos === 5`)
	if want := app.ScoreString(trace.Steps[5].Inside); s.Inside != want {
		t.Errorf("step 5: inside %q, Go %q", s.Inside, want)
	}
	shot(t, ctx, "discspan-teach-stepper", "#stepper")
	// In high contrast (forced colors) the legend's states stay apart:
	// shown by colour alone, they all became one (and so did the chart's).
	forced := func(v string) {
		if err := chromedp.Run(ctx, emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "forced-colors", Value: v}})); err != nil {
			t.Fatal(err)
		}
	}
	forced("active")
	looks := evalString(t, ctx, `[...document.querySelectorAll('#stepper .legend .cell')].map(e => { const s = getComputedStyle(e);
		return [s.backgroundColor, s.borderTopStyle, s.borderTopWidth, s.outlineStyle].join(' '); }).join(' | ')`)
	if parts := strings.Split(looks, " | "); len(parts) < 5 || len(slices.Compact(slices.Sorted(slices.Values(parts)))) != len(parts) {
		t.Errorf("legend in forced colors, states alike: %s", looks)
	}
	forced("")
	shot(t, ctx, "discspan-teach-rules", "#teach-rules")
	press(t, ctx, kb.ArrowRight, s.Len-1-s.Pos+2) // two more than needed: the end holds
	s = waitStepper(t, ctx, "the end", `s.phase === 'done'`)
	if s.Pos != s.Len-1 || s.Steps != len(trace.Steps) || s.Best != len(trace.Best) || s.Score != app.ScoreString(trace.Score) {
		t.Errorf("at the end: %+v; Go: %d steps, %d best, score %s", s, len(trace.Steps), len(trace.Best), app.ScoreString(trace.Score))
	}
	result := pollString(t, ctx, "the result tree", `(() => { const e = document.querySelector('#step-result #tree-teach-result'); return e ? e.outerHTML : ''; })()`)
	if !strings.Contains(result, "<svg") {
		t.Errorf("result: %.200s", result)
	}
	t.Logf("stepper: %d items, best derivation of %d, score %s (Go: %d, %d, %s)", s.Steps, s.Best, s.Score, len(trace.Steps), len(trace.Best), app.ScoreString(trace.Score))
	shot(t, ctx, "discspan-teach-done", "#stepper")

	// Space plays (from the start, being at the end) and pauses.
	press(t, ctx, " ", 1)
	waitStepper(t, ctx, "playing", `s.playing === '1'`)
	s = waitStepper(t, ctx, "two steps played", `s.pos >= 2`)
	press(t, ctx, " ", 1)
	s = waitStepper(t, ctx, "paused", `s.playing === '0'`)
	t.Logf("played to %d, then paused", s.Pos)
	// Space on a focused button (clicked with the mouse) plays too, and
	// does not press the button.
	if err := chromedp.Run(ctx, chromedp.Click(`#step-next`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	s = waitStepper(t, ctx, "a click on next", fmt.Sprintf(`s.pos === %d`, s.Pos+1))
	press(t, ctx, " ", 1)
	waitStepper(t, ctx, "playing from the focused button", fmt.Sprintf(`s.playing === '1' && s.pos >= %d`, s.Pos+2))
	press(t, ctx, " ", 1)
	waitStepper(t, ctx, "paused", `s.playing === '0'`)
	// A variant picked with the pointer: the list keeps the focus, and the
	// arrows step (they changed the variant instead). The most general
	// variant (the last) builds every example.
	before := stepper(t, ctx)
	gen := before.Gen
	var picked struct {
		Variant string `json:"variant"`
		Focused bool   `json:"focused"`
	}
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => {
		const v = document.querySelector('#stepper-variant');
		v.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
		v.focus();
		v.selectedIndex = v.options.length - 1;
		v.dispatchEvent(new Event('change', {bubbles: true}));
		return {variant: v.value, focused: document.activeElement === v};
	})()`, &picked)); err != nil || !picked.Focused {
		t.Fatalf("picking a variant: %+v, %v", picked, err)
	}
	s = waitStepper(t, ctx, "the variant picked", fmt.Sprintf(`s.variant === %q && s.gen !== %d && s.len > 3`, picked.Variant, gen))
	if s.Pos+2 >= s.Len {
		t.Fatalf("after the pick: %+v, no room for two steps", s)
	}
	// Three on and one back (at the list's last option only the left
	// arrow changes it).
	press(t, ctx, kb.ArrowRight, 3)
	press(t, ctx, kb.ArrowLeft, 1)
	s = waitStepper(t, ctx, "two steps after the pick, or another variant", fmt.Sprintf(`s.pos === %d || s.variant !== %q || document.querySelector('#stepper-variant').value !== %[2]q`, s.Pos+2, picked.Variant))
	if got := evalString(t, ctx, `document.querySelector('#stepper-variant').value`); s.Variant != picked.Variant || got != picked.Variant {
		t.Fatalf("the arrows after a variant picked with the pointer: variant %s (list %s), want %s", s.Variant, got, picked.Variant)
	}
	// A list the focus reached otherwise (the pointer last down elsewhere;
	// focused as a screen reader may move it) keeps its own keys: the arrow
	// chooses another variant. The key's default action runs before the
	// key event returns, so the list's value is read at once.
	var focused bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => {
		document.querySelector('#stepper h2').dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
		const v = document.querySelector('#stepper-variant');
		v.focus();
		return document.activeElement === v;
	})()`, &focused)); err != nil || !focused {
		t.Fatalf("focusing the variant list: %v, %v", focused, err)
	}
	press(t, ctx, kb.ArrowLeft, 1) // a stepper key too
	chosen := evalString(t, ctx, `document.querySelector('#stepper-variant').value`)
	if chosen == picked.Variant {
		t.Fatalf("the left arrow on the variant list the focus reached otherwise than by the pointer did not change it (%s)", chosen)
	}
	s = waitStepper(t, ctx, "the variant the list's own key chose", fmt.Sprintf(`s.variant === %q && s.gen !== %d`, chosen, s.Gen))
	// Back to the example's variant, for what follows.
	if chosen != before.Variant {
		if err := chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`(() => {
			const v = document.querySelector('#stepper-variant');
			v.value = %q;
			v.dispatchEvent(new Event('change', {bubbles: true}));
			return true;
		})()`, before.Variant), nil)); err != nil {
			t.Fatal(err)
		}
		waitStepper(t, ctx, "the example's variant again", fmt.Sprintf(`s.variant === %q && s.gen !== %d`, before.Variant, s.Gen))
	}
	// The list keeps the focus, and its keys: it lets it go.
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.activeElement.blur()`, nil)); err != nil {
		t.Fatal(err)
	}
	press(t, ctx, kb.End, 1)
	waitStepper(t, ctx, "the end", `s.phase === 'done'`)

	// A rule: n3's create partial discontinuous when the parse uses it,
	// else the rule the parse used most.
	rule, most := decode.CreatePartial, 0
	if len(teach.Applications(parsed.Derivation, rule)) == 0 {
		for r := decode.Combine; r <= decode.CompleteDisc; r++ {
			if c := len(teach.Applications(parsed.Derivation, r)); c > most {
				rule, most = r, c
			}
		}
	}
	apps := teach.Applications(parsed.Derivation, rule)
	labelled := 0
	for _, it := range apps {
		if it.Label >= 0 {
			labelled++
		}
	}
	section(t, ctx, app.TeachSectionRules)
	if err := chromedp.Run(ctx, chromedp.Click(fmt.Sprintf(`#rule-%d`, int(rule)), chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var uses struct {
		Parse   int    `json:"parse"`
		Marked  int    `json:"marked"`
		Stepper int    `json:"stepper"`
		Chart   int    `json:"chart"`
		Text    string `json:"text"`
	}
	err = chromedp.Run(ctx, chromedp.Poll(`(() => {
		if (!document.querySelector('#rule-uses')) return false;
		return {
			parse: document.querySelectorAll('#uses-parse li.ruleuse').length,
			marked: document.querySelectorAll('#tree-teach-parse text.ruleuse').length,
			stepper: document.querySelectorAll('#uses-stepper li.stepuse').length,
			text: document.querySelector('#rule-uses').innerText,
		};
	})()`, &uses, chromedp.WithPollingTimeout(0)))
	if err != nil {
		t.Fatalf("choosing %s: %v", rule, err)
	}
	shot(t, ctx, "discspan-teach-rule", "#teach-rules")
	// The stepper's chart marks them too.
	section(t, ctx, app.TeachSectionStepper)
	uses.Chart, _ = strconv.Atoi(pollString(t, ctx, "the chart", `document.querySelector('#stepper .triangle') ?
		String(document.querySelectorAll('#stepper .triangle .cell.ruleuse, #stepper .disc-items .cell.ruleuse').length) : ''`))
	stepperUses := len(trace.Uses(rule))
	if uses.Parse != len(apps) || uses.Parse == 0 || (labelled > 0) != (uses.Marked > 0) || uses.Stepper != stepperUses || uses.Chart != stepperUses {
		t.Errorf("%s: %d uses listed (Go: %d), %d marked in the tree (%d labelled), %d in the stepper and %d in its chart (Go: %d)\n%s",
			rule, uses.Parse, len(apps), uses.Marked, labelled, uses.Stepper, uses.Chart, stepperUses, uses.Text)
	}
	t.Logf("rule %s: %d uses in the parse (%d marked in the tree), %d in the stepper's best derivation", rule, uses.Parse, uses.Marked, uses.Stepper)

	// The parsed sentence with the model's own scores.
	gen = stepper(t, ctx).Gen
	if err := chromedp.Run(ctx, chromedp.Click(`#stepper-sentence`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	s = waitStepper(t, ctx, "the model's replay", fmt.Sprintf(`s.gen !== %d && s.gold === '0'`, gen))
	v, err := decode.ParseVariant(s.Variant)
	if err != nil {
		t.Fatal(err)
	}
	want, err := teach.Replay(context.Background(), v, outs[0].Scores)
	if err != nil {
		t.Fatal(err)
	}
	got, err := strconv.ParseFloat(s.Score, 64)
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != len(want.Steps) || math.Abs(got-float64(want.Score)) > 1e-3*(1+math.Abs(float64(want.Score))) {
		t.Errorf("model scores, %s: %d steps, score %s; Go: %d, %s", v, s.Steps, s.Score, len(want.Steps), app.ScoreString(want.Score))
	}
	t.Logf("your sentence with the model's scores, %s: %d items, score %s (Go %s)", v, s.Steps, s.Score, app.ScoreString(want.Score))
	shot(t, ctx, "discspan-teach-model", "#stepper")

	// The link button shares the shown tree (the first example).
	section(t, ctx, app.TeachSectionVariants)
	if err := chromedp.Run(ctx, chromedp.Click(`#share`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	frag := pollString(t, ctx, "the link", `location.hash.startsWith('#tree=') ? location.hash : ''`)
	wantFrag, err := app.ShareFragment(exTree)
	if err != nil {
		t.Fatal(err)
	}
	if frag != wantFrag {
		t.Errorf("link %s, Go %s", frag, wantFrag)
	}
	if u := evalString(t, ctx, `document.querySelector('#share-url').value`); !strings.HasSuffix(u, frag) {
		t.Errorf("link box %q", u)
	}
	shot(t, ctx, "discspan-teach-compare", "#teach-compare")
	// Each variant's drawing fits its panel (it was cut off at the edge).
	if over := evalString(t, ctx, `[...document.querySelectorAll('.build .svgwrap')].filter(e => e.getBoundingClientRect().width > e.parentElement.clientWidth + 1).length + ' of ' + document.querySelectorAll('.build .svgwrap').length`); !strings.HasPrefix(over, "0 of ") || over == "0 of 0" {
		t.Errorf("drawings wider than their panels: %s", over)
	}

	// A fresh page opened with a link to another tree shows it.
	other, err := teach.Gallery()[len(teach.Gallery())-1].Tree()
	if err != nil {
		t.Fatal(err)
	}
	other.ID = "colleague-1"
	link, err := app.ShareFragment(other)
	if err != nil {
		t.Fatal(err)
	}
	// Loaded until the model is ready: a click while the model bar still
	// changes (the model list arriving) can land beside the button.
	load(t, ctx, srv.URL+"/?backend=cpu&shared=1"+link)
	shown := pollString(t, ctx, "the shared tree", `(() => { const e = document.querySelector('#teach-shown');
		return e && document.querySelector('#tree-teach-shown') ? e.dataset.words : ''; })()`)
	if wantWords := strings.Join(other.Words(), " "); shown != wantWords {
		t.Errorf("shared tree shows %q, want %q", shown, wantWords)
	}
	if title := evalString(t, ctx, `document.querySelector('#teach-shown h3').innerText`); !strings.Contains(title, other.ID) {
		t.Errorf("shared tree's title %q", title)
	}
	section(t, ctx, app.TeachSectionStepper)
	s = waitStepper(t, ctx, "the shared tree in the stepper", `s.steps > 0`)
	sharedTrace, _, err := teach.GoldReplay(context.Background(), other, decode.N3)
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != len(sharedTrace.Steps) || s.Score != app.ScoreString(sharedTrace.Score) {
		t.Errorf("shared tree in the stepper: %+v; Go: %d steps, score %s", s, len(sharedTrace.Steps), app.ScoreString(sharedTrace.Score))
	}
	screenshot(t, ctx, "discspan-teach-shared")

	// A damaged link (the fragment changed in the open page) gets a
	// notice.
	var notice string
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`location.hash = '#tree=t1.AAAA'`, nil),
		chromedp.Poll(`(() => { const e = document.querySelector('#teach-link-error'); return e ? e.textContent : false; })()`,
			&notice, chromedp.WithPollingTimeout(0)),
	)
	if err != nil || !strings.Contains(notice, "cannot be shown") {
		t.Errorf("damaged link: notice %q, %v", notice, err)
	}
	t.Logf("damaged link: %s", notice)

	// A parsed sentence goes to the comparison from its tree panel (and
	// from there into a link).
	if err := chromedp.Run(ctx, chromedp.Click(`nav.tabs button:first-child`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	parseInPage(t, ctx, words, "n3")
	if err := chromedp.Run(ctx, chromedp.Click(`#panel-main .to-compare`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	compared := pollString(t, ctx, "the parse in the comparison", `(() => { const e = document.querySelector('#teach-shown');
		return e && document.querySelector('#tree-teach-shown') ? e.dataset.words : ''; })()`)
	if want := strings.Join(words, " "); compared != want {
		t.Errorf("comparison shows %q, want the parsed %q", compared, want)
	}
}

// section shows a section of the teaching tab (app.TeachSection...) with
// its menu and waits for it.
func section(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	var ok bool
	err := chromedp.Run(ctx, chromedp.Click(`#teach-nav-`+id, chromedp.ByQuery),
		chromedp.Poll(fmt.Sprintf(`(() => { const n = document.querySelector('#teach-nav'); return !!n && n.dataset.section === %q; })()`, id),
			&ok, chromedp.WithPollingTimeout(0)))
	if err != nil {
		t.Fatalf("showing the section %s: %v", id, err)
	}
}
