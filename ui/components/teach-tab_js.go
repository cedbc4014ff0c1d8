//go:build js

package components

import (
	"strings"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// Init listens for the tab's keys on the whole document: inside the
// exercises section they drive the exercise, elsewhere the stepper (also
// on a list of the stepper's picked with the pointer: pickedWithPointer);
// Ctrl+Z and Ctrl+Y (outside text fields) undo and redo the exercise's
// edits anywhere on the tab. Enter and Space on a button or link the
// keyboard (Tab) moved to are left to it; after a click on one they stay
// shortcuts (Space plays after a click on "next").
func (c *TeachTab) Init(ctx vugu.InitCtx) {
	env := ctx.EventEnv()
	c.keys = js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		ev := args[0]
		if ev.Get("defaultPrevented").Bool() {
			return nil // an element's own keys took it (a rule card's Enter)
		}
		ctrl := ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()
		if ev.Get("altKey").Bool() {
			return nil
		}
		inExercise := false
		if target := ev.Get("target"); target.Truthy() {
			if typesText(target) && !c.pickedWithPointer(target) {
				return nil // typing, or the slider's own keys
			}
			if c.focus.keyboard && pressesFocusedControl(ev) {
				return nil // the press of the button the keyboard moved to
			}
			if !target.Get("closest").IsUndefined() {
				inExercise = target.Call("closest", "#teach-exercise").Truthy()
			}
		}
		key := ev.Get("key").String()
		env.Lock()
		var used bool
		switch {
		case ctrl:
			used = c.App.TeachExerciseKey(key, ev.Get("shiftKey").Bool(), true)
		case inExercise:
			used = c.App.TeachExerciseKey(key, ev.Get("shiftKey").Bool(), false)
		default:
			used = c.App.TeachKey(key)
		}
		if !used {
			env.UnlockOnly()
			return nil
		}
		env.UnlockRender()
		ev.Call("preventDefault") // no scrolling, no button pressed twice
		return nil
	})
	js.Global().Get("document").Call("addEventListener", "keydown", c.keys)
	c.focus.listen()
}

// pickedWithPointer reports whether target is one of the stepper's lists
// (example, variant, speed) and the pointer went down on it last, the
// keyboard (Tab) not having moved the focus since: after a choice made
// with the mouse the list keeps the focus, and the arrows would change the
// choice instead of stepping. A list the focus reached otherwise (Tab, a
// screen reader) keeps its own keys.
func (c *TeachTab) pickedWithPointer(target js.Value) bool {
	if c.focus.keyboard || !strings.EqualFold(target.Get("tagName").String(), "select") || target.Get("closest").IsUndefined() {
		return false
	}
	return target.Call("closest", "#stepper").Truthy() && js.Global().Get("Object").Call("is", target, c.focus.pointed).Bool()
}

// Rendered brings the tree of a link just opened into view, or the
// exercises section when an exercise link was opened.
func (c *TeachTab) Rendered(vugu.RenderedCtx) {
	if n := c.App.Teach.Exercise.Opened; n != c.exShown {
		c.exShown = n
		if el := js.Global().Get("document").Call("getElementById", "teach-exercise"); el.Truthy() {
			el.Call("scrollIntoView")
		}
	}
	if c.App.Teach.Opened == c.shown {
		return
	}
	c.shown = c.App.Teach.Opened
	if el := js.Global().Get("document").Call("getElementById", "teach-compare"); el.Truthy() {
		el.Call("scrollIntoView")
	}
}

// Destroy stops listening.
func (c *TeachTab) Destroy() {
	js.Global().Get("document").Call("removeEventListener", "keydown", c.keys)
	c.keys.Release()
	c.focus.stop()
}
