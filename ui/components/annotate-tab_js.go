//go:build js

package components

import (
	"unicode/utf8"

	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// Init listens for the annotation keys on the whole document.
func (c *AnnotateTab) Init(ctx vugu.InitCtx) {
	env := ctx.EventEnv()
	c.keys = js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		ev := args[0]
		if ev.Get("altKey").Bool() {
			return nil
		}
		if target := ev.Get("target"); target.Truthy() {
			if typesText(target) {
				return nil // typing
			}
			if pressesFocusedControl(ev) {
				return nil
			}
		}
		key, ctrl := ev.Get("key").String(), ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()
		if !app.AnnHandlesKey(key, ctrl) {
			return nil
		}
		if c.lettersOff.Load() && !ctrl && utf8.RuneCountInString(key) == 1 {
			return nil // single-key shortcuts off: the key is the page's (see Rendered)
		}
		// Cancel the default (scrolling, or the key's character landing in
		// the label field that the key opens) now: taking the lock may
		// block, and the handler then returns to the browser at once.
		ev.Call("preventDefault")
		env.Lock()
		if !c.App.AnnKey(key, ev.Get("shiftKey").Bool(), ctrl) {
			env.UnlockOnly()
			return nil
		}
		env.UnlockRender()
		return nil
	})
	js.Global().Get("document").Call("addEventListener", "keydown", c.keys)
}

// Rendered focuses the label field when it was just opened, and notes
// for the key listener, which answers before it may take the app's lock,
// whether the single-key shortcuts are off.
//
// It also moves the focus into the import question when it appears (to
// "keep the open corpus", the choice that loses nothing) and back to the
// file field when it has been answered, so that a keyboard or screen
// reader user meets it. (vugu calls Rendered on the root's children only:
// the corpus part, a child of this tab, would not be called.)
func (c *AnnotateTab) Rendered(vugu.RenderedCtx) {
	c.lettersOff.Store(c.App.Annotate.LetterKeysOff)
	if pending := c.App.Annotate.PendingImport != nil; pending != c.asking {
		c.asking = pending
		id := "ann-file"
		if pending {
			id = "ann-import-cancel"
		}
		if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
			el.Call("focus")
		}
	}
	if c.App.Annotate.LabelSeq == c.focused || c.App.Annotate.LabelMode == "" {
		return
	}
	c.focused = c.App.Annotate.LabelSeq
	if el := js.Global().Get("document").Call("getElementById", "ann-label"); el.Truthy() {
		el.Call("focus")
		el.Call("select")
	}
}

// Destroy stops listening.
func (c *AnnotateTab) Destroy() {
	js.Global().Get("document").Call("removeEventListener", "keydown", c.keys)
	c.keys.Release()
}
