package components

import (
	"hash/fnv"
	"strconv"

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

// setHTML sets html as the content of el (from a vg-js-populate, which
// vugu calls after every render) when it differs from what was set there
// last; the element keeps a hash of it. vugu re-sets every attribute and
// text of the elements it renders at every render: a table built here, as
// one piece, costs a render nothing while it does not change.
func setHTML(el js.Value, html string) {
	h := fnv.New64a()
	h.Write([]byte(html))
	key := strconv.FormatUint(h.Sum64(), 36)
	if el.Get("discspanHTML").String() == key {
		return
	}
	// A focused button of the old content (a table row's) hands the focus
	// to the one at its place in the new, which a keyboard user expects
	// to keep.
	focused := -1
	if active := js.Global().Get("document").Get("activeElement"); active.Truthy() && el.Call("contains", active).Bool() {
		focused = js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", el.Call("querySelectorAll", "button"), active).Int()
	}
	el.Set("innerHTML", html)
	el.Set("discspanHTML", key)
	if focused >= 0 {
		if buttons := el.Call("querySelectorAll", "button"); buttons.Length() > 0 {
			buttons.Index(min(focused, buttons.Length()-1)).Call("focus", map[string]any{"preventScroll": true})
		}
	}
}

// currentIf is the aria-current value of the page's tabs: "page" for the
// one shown, "false" for the others.
func currentIf(on bool) string {
	if on {
		return "page"
	}
	return "false"
}

// trueIf is an aria-current (of a section, a row, an exercise) or
// aria-pressed value.
func trueIf(on bool) string { return strconv.FormatBool(on) }

// pressedIf is an aria-pressed value.
func pressedIf(on bool) string { return trueIf(on) }
