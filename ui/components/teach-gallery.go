package components

import (
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu/js"
)

// TeachGallery shows the classic discontinuities (teach.Gallery) with
// their explanations and drawn trees, and loads one into the stepper or
// the comparison, which it then scrolls into view.
type TeachGallery struct {
	App *app.App
}

// load puts example i into the stepper.
func (c *TeachGallery) load(i int) {
	c.App.TeachLoadExample(i)
	scrollTo("stepper")
}

// show puts example i into the comparison.
func (c *TeachGallery) show(i int) {
	c.App.TeachShowExample(i)
	scrollTo("teach-compare")
}

// scrollTo scrolls the element with the id into view.
func scrollTo(id string) {
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		el.Call("scrollIntoView", map[string]any{"behavior": "smooth"})
	}
}
