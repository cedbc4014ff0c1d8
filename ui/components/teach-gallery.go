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
	focusID("teach-nav-" + app.TeachSectionStepper)
}

// show puts example i into the comparison.
func (c *TeachGallery) show(i int) {
	c.App.TeachShowExample(i)
	c.App.TeachSetSection(app.TeachSectionVariants)
	scrollTo("teach-nav")
	focusID("teach-nav-" + app.TeachSectionVariants)
}

// scrollTo scrolls the element with the id into view, smoothly unless
// the user asks for reduced motion.
func scrollTo(id string) {
	behavior := "smooth"
	if mq := js.Global().Get("matchMedia"); mq.Truthy() {
		if m := js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)"); m.Truthy() && m.Get("matches").Bool() {
			behavior = "auto"
		}
	}
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		el.Call("scrollIntoView", map[string]any{"behavior": behavior})
	}
}

// focusID focuses the element with the id: the section's button, once
// the button pressed (part of the section left) is gone.
func focusID(id string) {
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		el.Call("focus", map[string]any{"preventScroll": true})
	}
}
