package components

import (
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu/js"
)

// TeachTab is the teaching tab: the rules, the chart stepper, the
// comparison of the variants and the gallery. While it is shown, keys
// pressed anywhere on the page (outside text fields) drive the stepper
// (teach-tab_js.go).
type TeachTab struct {
	App *app.App
	// keys is the document's keydown listener.
	keys js.Func
	// shown is the count of links opened (app.TeachState.Opened) whose
	// tree was brought into view.
	shown int
}
