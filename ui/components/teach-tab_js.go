//go:build js

package components

import (
	"strings"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// Init listens for the stepper's keys on the whole document.
func (c *TeachTab) Init(ctx vugu.InitCtx) {
	env := ctx.EventEnv()
	c.keys = js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		ev := args[0]
		if ev.Get("ctrlKey").Bool() || ev.Get("altKey").Bool() || ev.Get("metaKey").Bool() {
			return nil
		}
		if target := ev.Get("target"); target.Truthy() {
			switch strings.ToLower(target.Get("tagName").String()) {
			case "input", "textarea", "select":
				return nil // typing, or the slider's own keys
			}
			if target.Get("isContentEditable").Bool() {
				return nil
			}
		}
		env.Lock()
		used := c.App.TeachKey(ev.Get("key").String())
		if !used {
			env.UnlockOnly()
			return nil
		}
		env.UnlockRender()
		ev.Call("preventDefault") // no scrolling, no button pressed twice
		return nil
	})
	js.Global().Get("document").Call("addEventListener", "keydown", c.keys)
}

// Rendered brings the tree of a link just opened into view.
func (c *TeachTab) Rendered(vugu.RenderedCtx) {
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
}
