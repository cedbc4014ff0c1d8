package components

import (
	"strings"
	"testing"

	"github.com/discspan/discspan/ui/app"
)

// The exercises section renders the exercise list, the words with the
// selection, the student's constituents, the verdict (missing
// constituents only when revealed) and a damaged link's notice.
func TestTeachExercise(t *testing.T) {
	a, _, env := loaded(t, false)
	env.Do(func() {
		a.SetTab(app.TabTeach)
		a.TeachSetSection(app.TeachSectionExercises)
		a.TeachExerciseChoose("wh-question")
	})
	html := render(t, &Root{App: a})
	contains(t, html, `id="teach-exercise"`, `data-exercise="wh-question"`, `id="exercise-wh-question"`, `class="exercise on"`,
		`id="exercise-words"`, `data-word="4"`, `id="exercise-label"`, `<option value="SBARQ">`, `id="exercise-make"`, `No words selected.`)
	if strings.Contains(html, `id="exercise-verdict"`) {
		t.Error("a verdict before the check")
	}

	env.Do(func() {
		a.TeachExerciseClickWord(0)
		a.TeachExerciseClickWord(3)
		a.TeachExerciseSetLabel("NP")
		a.TeachExerciseMake()
		a.TeachExerciseClickWord(0)
		a.TeachExerciseClickWord(3)
		a.TeachExerciseCheck()
	})
	html = render(t, &Root{App: a})
	contains(t, html, `data-sel="0,3"`, `data-cons="NP[0,1)+[3,4)"`, `class="exword sel"`, `class="exnode wrong"`,
		`id="exercise-verdict"`, `data-f1="0.0"`, `data-wrong="1"`, `data-missing="5"`, `data-solved="false"`, `data-undo="true"`, `data-redo="false"`, `5 constituents of the reference tree`, `Selected: &#34;What … do&#34; (2 words, 2 blocks).`)
	if strings.Contains(html, `id="exercise-missing-list"`) || strings.Contains(html, `id="exercise-solved"`) {
		t.Error("missing constituents or solved shown")
	}
	env.Do(a.TeachExerciseShowMissing)
	contains(t, render(t, &Root{App: a}), `id="exercise-missing-list"`, `missing: SBARQ: What should I do ?`, `hide missing`)

	env.Do(func() { a.OpenFragment("#exercise=wh-question~t1.AAAA") })
	contains(t, render(t, &Root{App: a}), `id="exercise-link-error"`, "cannot be opened")
}
