//go:build js

package components

import (
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// Rendered moves the focus into the import question when it appears (to
// "keep the open corpus", the choice that loses nothing) and back to the
// file field when it has been answered, so that a keyboard or screen
// reader user meets it and is not left at the page's start.
func (c *AnnotateCorpus) Rendered(vugu.RenderedCtx) {
	pending := c.App.Annotate.PendingImport != nil
	if pending == c.asking {
		return
	}
	c.asking = pending
	id := "ann-file"
	if pending {
		id = "ann-import-cancel"
	}
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		el.Call("focus")
	}
}
