package components

import (
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu/js"
)

// TeachTab is the teaching tab: a menu of its sections (the chart
// stepper, the rules, the comparison of the variants, the gallery and the
// exercises) and the section chosen, alone on the page. While it is
// shown, keys pressed anywhere on the page (outside text fields) drive the
// stepper, or the exercise when they are pressed inside its section
// (teach-tab_js.go).
type TeachTab struct {
	App *app.App
	// keys is the document's keydown listener.
	keys js.Func
	// focus says how the focus last moved, for Enter and Space on a
	// focused button.
	focus focusSource
	// shown is the count of links opened (app.TeachState.Opened) whose
	// tree was brought into view; exShown the same for exercise links
	// (app.ExerciseState.Opened).
	shown, exShown int
}

// navClass is the class of a section's button in the tab's menu.
func (c *TeachTab) navClass(on bool) string {
	if on {
		return "tab on"
	}
	return "tab"
}

// focusSource tracks whether the focus last moved by the keyboard (Tab)
// or by the pointer: Enter and Space on a button the keyboard moved to
// press it, while after a click on one they stay the tab's shortcuts (as
// a media player's Space plays after its buttons were clicked). pointed is
// the element the pointer last went down on.
type focusSource struct {
	keyboard     bool
	pointed      js.Value
	pointer, tab js.Func
}
