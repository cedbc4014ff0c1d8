package components

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/teach"
	"github.com/discspan/discspan/ui/app"
)

// sectionIDs are the ids of the teaching tab's sections' elements.
var sectionIDs = map[string]string{
	app.TeachSectionStepper: `id="stepper"`, app.TeachSectionRules: `id="teach-rules"`, app.TeachSectionVariants: `id="teach-compare"`,
	app.TeachSectionGallery: `id="teach-gallery"`, app.TeachSectionExercises: `id="teach-exercise"`,
}

// onlySection checks that the page shows section id and no other.
func onlySection(t *testing.T, html, id string) {
	t.Helper()
	for s, el := range sectionIDs {
		if got := strings.Contains(html, el); got != (s == id) {
			t.Errorf("section %s shown: %v, want it shown only when %s is chosen", s, got, id)
		}
	}
	contains(t, html, `data-section="`+id+`"`)
}

// The teaching tab renders one section at a time: the stepper at each
// phase, the rules, the comparison, the gallery, a chosen rule's uses and
// a damaged link's notice.
func TestTeachTab(t *testing.T) {
	a, _, env := loaded(t, true)
	env.Do(func() { a.SetTab(app.TabTeach) })
	s := &a.Teach.Stepper
	html := render(t, &Root{App: a})
	onlySection(t, html, app.TeachSectionStepper)
	contains(t, html, `id="tab-teach"`, `id="teach-nav-rules"`, fmt.Sprintf(`data-steps="%d"`, len(s.Trace.Steps)), `data-phase="build"`, `data-pos="0"`, `data-gold="1"`,
		`id="step-current"`, `id="step-slider"`)
	// n3 (the default) is explained, its bottom items counted; a
	// sentence too long for the stepper is said in the page, not only in
	// a tooltip.
	contains(t, html, `id="stepper-n3"`, `cubic algorithm. It finds the same trees as n4`, `Bottom items (one per label for each span of two words or more) built: 0 of `)
	if strings.Contains(html, `id="stepper-too-long"`) {
		t.Error("a too-long note for a short sentence")
	}
	env.Do(func() { a.SetText(strings.Repeat("woord ", teach.MaxStepperWords+1)) })
	contains(t, render(t, &Root{App: a}), `id="stepper-too-long"`, fmt.Sprintf("has %d words: the stepper replays at most %d", teach.MaxStepperWords+1, teach.MaxStepperWords))
	env.Do(func() { a.TeachSetVariant("n4"); a.SetText("een kort zinnetje") })
	if html := render(t, &Root{App: a}); strings.Contains(html, `id="stepper-n3"`) || strings.Contains(html, `id="stepper-too-long"`) {
		t.Error("the n3 note or the too-long note stays")
	}
	env.Do(func() { a.TeachSetVariant("n3") })
	env.Do(func() { a.TeachSetSection(app.TeachSectionRules) })
	html = render(t, &Root{App: a})
	onlySection(t, html, app.TeachSectionRules)
	for x := 1; x <= 14; x++ {
		contains(t, html, fmt.Sprintf(`id="rule-%d"`, x))
	}
	env.Do(func() { a.TeachSetSection(app.TeachSectionGallery) })
	html = render(t, &Root{App: a})
	onlySection(t, html, app.TeachSectionGallery)
	for _, ex := range teach.Gallery() {
		contains(t, html, `id="example-`+ex.ID+`"`)
	}
	env.Do(func() { a.TeachSetSection(app.TeachSectionVariants) })
	html = render(t, &Root{App: a})
	onlySection(t, html, app.TeachSectionVariants)
	// The drawings themselves are set by TeachDrawing.populate, in the browser.
	contains(t, html, `id="teach-shown"`, `id="share"`, `data-svg="`+a.Teach.Shown.View.Key+`"`)
	for _, b := range a.Teach.Shown.Builds {
		contains(t, html, `data-variant="`+b.Variant.String()+`"`)
		// Each variant's drawing scales down to its panel (it was cut
		// off there), never up.
		contains(t, html, fmt.Sprintf(`max-width:%.0fpx;aspect-ratio:%.0f/%.0f`, b.View.Width, b.View.Width, b.View.Height))
	}
	env.Do(func() { a.TeachSetSection(app.TeachSectionExercises) })
	onlySection(t, render(t, &Root{App: a}), app.TeachSectionExercises)
	env.Do(func() { a.TeachSetSection("nonsense") })
	onlySection(t, render(t, &Root{App: a}), app.TeachSectionExercises)
	if strings.Contains(html, `id="rule-uses"`) || strings.Contains(html, `id="step-result"`) {
		t.Error("rule uses or result shown before asked for")
	}

	// A rule the parse used: its uses are listed.
	d := a.Parse.Derivation()
	rule := decode.Axiom
	for _, it := range d.Items {
		if it.Rule != decode.Axiom {
			rule = it.Rule
			break
		}
	}
	env.Do(func() { a.TeachSetSection(app.TeachSectionStepper); a.TeachChooseRule(int(rule)); a.TeachLast() })
	contains(t, render(t, &Root{App: a}), `id="step-result"`, `data-phase="done"`, `data-svg="`+s.Result.Key+`"`)
	env.Do(func() { a.TeachSetSection(app.TeachSectionRules) })
	html = render(t, &Root{App: a})
	contains(t, html, `id="rule-uses"`, `class="rule-card on"`)
	if got, want := strings.Count(html, `<li class="ruleuse"`), len(teach.Applications(d, rule)); got != want || got == 0 {
		t.Errorf("%s: %d uses listed, want %d", rule, got, want)
	}
	if strings.Contains(html, `id="step-current"`) {
		t.Error("a current item at the end")
	}

	env.Do(func() { a.OpenFragment("#tree=t1.AAAA") })
	html = render(t, &Root{App: a})
	contains(t, html, `id="teach-link-error"`, "cannot be shown")
	onlySection(t, html, app.TeachSectionVariants)
}

// The stepper's column of a chosen rule says why it lists nothing by the
// rules the stepper runs: n3 replays with the cubic algorithm's rules,
// not create gap (decode's rule set for n3 is n4's).
func TestTeachRuleStepperUses(t *testing.T) {
	a, _, env := loaded(t, true)
	env.Do(func() { a.SetTab(app.TabTeach); a.TeachSetSection(app.TeachSectionRules) })
	for _, tc := range []struct {
		variant string
		rule    decode.Rule
		want    string // "" when uses are listed
	}{
		{"n3", decode.CreateGap, "n3 does not have this rule."},
		{"n3", decode.FillGap, "n3 does not have this rule."},
		{"n3", decode.CreatePartial, ""},
		{"n3", decode.CompleteDisc, ""},
		{"n4", decode.CreatePartial, "n4 does not have this rule."},
		{"n4", decode.CreateGap, ""},
	} {
		t.Run(tc.variant+" "+tc.rule.String(), func(t *testing.T) {
			env.Do(func() {
				a.TeachSetVariant(tc.variant)
				a.TeachLast()
				if a.Teach.Rule != tc.rule {
					a.TeachChooseRule(int(tc.rule))
				}
			})
			html := render(t, &Root{App: a})
			uses := strings.Count(html, `class="stepuse"`)
			switch {
			case tc.want != "" && (!strings.Contains(html, tc.want) || uses != 0):
				t.Errorf("%d uses listed; want none and %q", uses, tc.want)
			case tc.want == "" && uses == 0:
				t.Errorf("no use listed")
			}
		})
	}
}
