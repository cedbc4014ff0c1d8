//go:build js

package components

import "github.com/vugu/vugu/js"

// pressesFocusedControl reports whether a keydown is Enter or Space on a
// focused control (a button, a link, a summary, or an element with the
// button role, or inside one): the browser presses that control, and a
// tab's own shortcuts must leave the key to it.
func pressesFocusedControl(ev js.Value) bool {
	switch ev.Get("key").String() {
	case "Enter", " ", "Spacebar":
	default:
		return false
	}
	target := ev.Get("target")
	if !target.Truthy() || target.Get("closest").IsUndefined() {
		return false
	}
	return target.Call("closest", "button, a[href], summary, [role=button]").Truthy()
}
