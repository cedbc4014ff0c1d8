package components

import (
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

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

// closest returns the element under the event, or its nearest ancestor,
// that matches selector (the drawings and tables set as one piece of HTML
// handle their events on the whole: this finds the node or row); ok is
// false where there is none.
func closest(event vugu.DOMEvent, selector string) (el js.Value, ok bool) {
	el = event.JSEventTarget()
	if !el.Truthy() || el.Get("closest").IsUndefined() {
		return el, false
	}
	el = el.Call("closest", selector)
	return el, el.Truthy()
}
