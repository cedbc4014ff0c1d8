//go:build js

package components

import (
	sjs "syscall/js"

	"github.com/vugu/vugu/js"
)

// focusableSelector matches the elements a keyboard reaches with Tab
// (those hidden are left out by visible).
const focusableSelector = `button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select:not([disabled]), ` +
	`textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"]):not([disabled])`

// FocusKeeper holds, from just before a render, the app's focused control
// and its neighbours in the tab order (see KeepFocus).
type FocusKeeper struct {
	el, next, prev js.Value
	index          int
}

// KeepFocus notes the app's focused control before a render; Restore,
// after it, gives the focus back when the render took it: a control it
// removed (a row of a rebuilt list, a section switched) or disabled (a
// button that disables itself while its work runs, "undo" at the last
// step) hands it to its neighbour in the tab order, the next one, else
// the one before, else the control now at its place, so that a keyboard
// user goes on from there instead of the page's start. The focus is
// noted right before the render, so a focus the user moved away earlier
// is never taken back.
func KeepFocus() FocusKeeper {
	doc := js.Global().Get("document")
	app := doc.Call("getElementById", "app")
	active := doc.Get("activeElement")
	if !app.Truthy() || !active.Truthy() || !app.Call("contains", active).Bool() {
		return FocusKeeper{}
	}
	switch active.Get("tagName").String() {
	case "INPUT", "TEXTAREA", "SELECT":
		// A field typed in renders at every key; no render removes or
		// disables one under the focus (the label field that goes away
		// hands the focus on itself), so it costs nothing there.
		return FocusKeeper{}
	}
	list := focusables(app)
	k := FocusKeeper{el: active, index: -1}
	for i, el := range list {
		if same(el, active) {
			k.index = i
			if i+1 < len(list) {
				k.next = list[i+1]
			}
			if i > 0 {
				k.prev = list[i-1]
			}
			break
		}
	}
	return k
}

// Restore gives the focus back after the render (see KeepFocus).
func (k FocusKeeper) Restore() {
	if !k.el.Truthy() {
		return
	}
	doc := js.Global().Get("document")
	if active := doc.Get("activeElement"); active.Truthy() && active.Get("tagName").String() != "BODY" {
		return // the focus is somewhere (a field a component focused)
	}
	// The control itself; else the one now after its neighbour before it
	// (a button enabled by the same render, "redo" after "undo", or the
	// row now in a removed row's place); else its neighbours of before;
	// else the control at its index.
	list := focusables(doc.Call("getElementById", "app"))
	candidates := []js.Value{k.el}
	for i, el := range list {
		if k.prev.Truthy() && same(el, k.prev) && i+1 < len(list) {
			candidates = append(candidates, list[i+1])
			break
		}
	}
	candidates = append(candidates, k.next, k.prev)
	if k.index >= 0 && len(list) > 0 {
		candidates = append(candidates, list[min(k.index, len(list)-1)])
	}
	for _, el := range candidates {
		// Truthy, not Bool: a focusable <div> or SVG element has no
		// "disabled" (undefined), and Bool panics on undefined.
		if !el.Truthy() || !el.Get("isConnected").Truthy() || el.Get("disabled").Truthy() || !visible(el) {
			continue
		}
		el.Call("focus", map[string]any{"preventScroll": true})
		if same(doc.Get("activeElement"), el) {
			return
		}
	}
}

// focusables lists the visible focusable elements inside root, in order.
func focusables(root js.Value) []js.Value {
	if !root.Truthy() {
		return nil
	}
	nodes := root.Call("querySelectorAll", focusableSelector)
	var out []js.Value
	for i := 0; i < nodes.Length(); i++ {
		if el := nodes.Index(i); visible(el) {
			out = append(out, el)
		}
	}
	return out
}

// visible reports whether el is rendered (not hidden, not in a closed
// <details>, not in a display:none subtree).
func visible(el js.Value) bool {
	if f := el.Get("checkVisibility"); f.Truthy() {
		return el.Call("checkVisibility").Bool()
	}
	return el.Call("getClientRects").Get("length").Int() > 0
}

// same reports whether a and b are the same JavaScript value.
func same(a, b js.Value) bool { return sjs.Value(a).Equal(sjs.Value(b)) }
