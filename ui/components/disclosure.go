package components

import "github.com/vugu/vugu"

// toggled handles a click on a <details> element's summary: it returns
// the new open state and keeps the browser from toggling the element
// itself. vugu removes, at every render, the attributes it did not set:
// had the browser opened a <details> on a click, a render before its
// toggle event (a parse finishing, a progress tick) would close it again
// and the click would be lost. Here the component's field holds the state
// and the render sets the attribute from it. The elements' toggle
// handlers still follow changes made otherwise (from a script).
func toggled(event vugu.DOMEvent, open bool) bool {
	event.PreventDefault()
	return !open
}
