package components

import "github.com/vugu/vugu/js"

// TeachDrawing shows an SVG drawing made in Go (a rule's diagram, a rule
// instance, a tree). Like TreePanel it sets the drawing itself, only when
// Key changes: vugu would set inner HTML again at every render, and the
// stepper renders several times a second while it plays.
type TeachDrawing struct {
	// SVG is the drawing's markup, Key names it (a new key for a new
	// drawing), Class the wrapper's CSS class, Style its inline style.
	SVG, Key, Class, Style string
}

// populate sets the drawing into its element when its key changed.
func (c *TeachDrawing) populate(el js.Value) {
	if el.Get("discspanSVG").String() == c.Key {
		return
	}
	el.Set("innerHTML", c.SVG)
	el.Set("discspanSVG", c.Key)
}
