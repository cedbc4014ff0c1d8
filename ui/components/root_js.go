//go:build js

package components

import (
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// focusableSelector matches the elements a keyboard reaches with Tab.
const focusableSelector = `button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select:not([disabled]), ` +
	`textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])`

// Init follows the focus, so that Rendered can put it back where a render
// took it away.
func (c *Root) Init(vugu.InitCtx) {
	c.focusin = js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		c.lastFocus = args[0].Get("target")
		c.lastIndex = focusIndex(c.lastFocus)
		return nil
	})
	js.Global().Get("document").Call("addEventListener", "focusin", c.focusin)
}

// Rendered gives the focus back when a render took it from the element
// that had it, by removing it (a row of a list rebuilt, a section
// switched) or disabling it (a button that disables itself while its
// work runs, "undo" at the last step): the element now at its place in
// the tab order takes it, so that a keyboard user goes on from there
// instead of the page's start. Focus the user moved away (a click on the
// page) is left alone.
func (c *Root) Rendered(vugu.RenderedCtx) {
	last := c.lastFocus
	if !last.Truthy() {
		return
	}
	doc := js.Global().Get("document")
	if active := doc.Get("activeElement"); active.Truthy() && active.Get("tagName").String() != "BODY" {
		return
	}
	if last.Get("isConnected").Bool() && !last.Get("disabled").Bool() {
		return
	}
	list := doc.Call("querySelectorAll", focusableSelector)
	n := list.Length()
	if n == 0 {
		return
	}
	el := list.Index(min(max(c.lastIndex, 0), n-1))
	el.Call("focus", map[string]any{"preventScroll": true})
}

// focusIndex is el's place among the page's focusable elements (-1 when
// it is none of them).
func focusIndex(el js.Value) int {
	list := js.Global().Get("document").Call("querySelectorAll", focusableSelector)
	return js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", list, el).Int()
}
