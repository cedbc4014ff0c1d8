//go:build js

package components

import (
	"strings"

	"github.com/vugu/vugu/js"
)

// pressesFocusedControl reports whether a keydown is Enter or Space on a
// focused control (a button, a link, a summary, or an element with the
// button role, or inside one): the browser presses that control.
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
	return target.Call("closest", "button, a[href], summary, [role=button], "+buttonInputs).Truthy()
}

// buttonInputs are the input elements that are pressed, not typed in: the
// page's keys go on working while one has the focus (a file picker keeps
// it after a file is chosen), but for Space and Enter.
const buttonInputs = "input[type=file], input[type=checkbox], input[type=button], input[type=submit], input[type=reset]"

// typesText reports whether the element takes the keys the page's
// shortcuts use: a text field, a list or a range slider (arrows), a
// radio group (arrows), an editable element.
func typesText(target js.Value) bool {
	switch strings.ToLower(target.Get("tagName").String()) {
	case "textarea", "select":
		return true
	case "input":
		return !target.Call("matches", buttonInputs).Bool()
	}
	return target.Get("isContentEditable").Truthy() // undefined on SVG elements
}

// listen starts tracking how the focus last moved: by the keyboard (Tab)
// or by the pointer (a click). Call stop when done.
func (f *focusSource) listen() {
	f.pointer = js.FuncOf(func(_ js.Value, args []js.Value) any {
		f.keyboard = false
		if len(args) > 0 {
			f.pointed = args[0].Get("target")
		}
		return nil
	})
	f.tab = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Get("key").String() == "Tab" {
			f.keyboard = true
		}
		return nil
	})
	doc := js.Global().Get("document")
	doc.Call("addEventListener", "pointerdown", f.pointer, true)
	doc.Call("addEventListener", "keydown", f.tab, true)
}

// stop stops tracking.
func (f *focusSource) stop() {
	doc := js.Global().Get("document")
	doc.Call("removeEventListener", "pointerdown", f.pointer, true)
	doc.Call("removeEventListener", "keydown", f.tab, true)
	f.pointer.Release()
	f.tab.Release()
}
