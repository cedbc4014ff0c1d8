package components

import (
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu/js"
)

// TeachGallery shows the classic discontinuities (teach.Gallery) with
// their explanations and drawn trees, and loads one into the stepper or
// the comparison, which it then shows.
type TeachGallery struct {
	App *app.App
}

// load puts example i into the stepper.
func (c *TeachGallery) load(i int) {
	c.App.TeachLoadExample(i)
	c.App.TeachSetSection(app.TeachSectionStepper)
	scrollTo("teach-nav")
}

// show puts example i into the comparison.
func (c *TeachGallery) show(i int) {
	c.App.TeachShowExample(i)
	c.App.TeachSetSection(app.TeachSectionVariants)
	scrollTo("teach-nav")
}

// scrollTo scrolls the element with the id into view.
func scrollTo(id string) {
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		el.Call("scrollIntoView", map[string]any{"behavior": "smooth"})
	}
}
