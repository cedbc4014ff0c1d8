package components

import (
	"fmt"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/teach"
	"github.com/discspan/discspan/ui/app"
)

// The teaching tab renders the rules, the stepper at each phase, the
// comparison, the gallery, a chosen rule's uses and a damaged link's
// notice.
func TestTeachTab(t *testing.T) {
	a, _, env := loaded(t, true)
	env.Do(func() { a.SetTab(app.TabTeach) })
	s := &a.Teach.Stepper
	html := render(t, &Root{App: a})
	want := []string{`id="tab-teach"`, `id="teach-rules"`, `id="stepper"`, `id="teach-compare"`, `id="teach-gallery"`,
		fmt.Sprintf(`data-steps="%d"`, len(s.Trace.Steps)), `data-phase="build"`, `data-pos="0"`, `data-gold="1"`,
		`id="step-current"`, `id="step-slider"`, `id="teach-shown"`, `id="share"`,
		// The drawings themselves are set by TeachDrawing.populate, in the browser.
		`data-svg="` + a.Teach.Shown.View.Key + `"`}
	for x := 1; x <= 12; x++ {
		want = append(want, fmt.Sprintf(`id="rule-%d"`, x))
	}
	for _, ex := range teach.Gallery() {
		want = append(want, `id="example-`+ex.ID+`"`)
	}
	for _, b := range a.Teach.Shown.Builds {
		want = append(want, `data-variant="`+b.Variant.String()+`"`)
	}
	contains(t, html, want...)
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
	env.Do(func() { a.TeachChooseRule(int(rule)); a.TeachLast() })
	html = render(t, &Root{App: a})
	contains(t, html, `id="rule-uses"`, `class="rule-card on"`, `id="step-result"`, `data-phase="done"`, `data-svg="`+s.Result.Key+`"`)
	if got, want := strings.Count(html, `<li class="ruleuse"`), len(teach.Applications(d, rule)); got != want || got == 0 {
		t.Errorf("%s: %d uses listed, want %d", rule, got, want)
	}
	if strings.Contains(html, `id="step-current"`) {
		t.Error("a current item at the end")
	}

	env.Do(func() { a.OpenFragment("#tree=t1.AAAA") })
	contains(t, render(t, &Root{App: a}), `id="teach-link-error"`, "cannot be shown")
}
