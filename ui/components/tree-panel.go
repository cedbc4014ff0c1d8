package components

import (
	"strconv"

	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// TreePanel draws one tree (treedraw's SVG) with zoom and export buttons;
// hovering or clicking a node or word shows its details.
//
// The SVG is put into the page by populate, not by the template: vugu
// would set it again at every render (it sets inner HTML unconditionally),
// which costs a parse of the drawing each time and, replacing the element
// under the pointer, fires a new mouseover, hence another render, forever.
type TreePanel struct {
	App  *app.App
	View *app.TreeView
}

// target returns the node or word under the event: the nearest element
// with a data-node or data-word attribute (treedraw puts them on labels
// and bars); ok is false elsewhere.
func (c *TreePanel) target(event vugu.DOMEvent) (word bool, index int, ok bool) {
	el, ok := closest(event, "[data-node],[data-word]")
	if !ok {
		return false, 0, false
	}
	if v := el.Call("getAttribute", "data-node"); v.Truthy() {
		i, err := strconv.Atoi(v.String())
		return false, i, err == nil && i >= 0
	}
	i, err := strconv.Atoi(el.Call("getAttribute", "data-word").String())
	return true, i, err == nil
}

// hover shows the details of what the pointer is over.
func (c *TreePanel) hover(event vugu.DOMEvent) {
	if word, i, ok := c.target(event); ok {
		c.App.HoverAt(c.View.ID, word, i)
		return
	}
	c.App.HoverAt("", false, -1)
}

// click selects (or deselects) what was clicked.
func (c *TreePanel) click(event vugu.DOMEvent) {
	if word, i, ok := c.target(event); ok {
		c.App.Select(c.View.ID, word, i)
	}
}

// populate sets the drawing into its element when it changed (vugu calls
// it after every render); the element remembers the key of its SVG. A new
// tree wider than its panel is scrolled to its root (see
// app.TreeView.ScrollLeft); a redrawn one stays where the reader put it.
func (c *TreePanel) populate(el js.Value) {
	if el.Get("discspanSVG").String() == c.View.Key {
		return
	}
	el.Set("innerHTML", c.View.SVG)
	el.Set("discspanSVG", c.View.Key)
	if el.Get("discspanTree").String() == c.View.TreeKey {
		return
	}
	el.Set("discspanTree", c.View.TreeKey)
	sc := el.Get("parentElement")
	if !sc.Truthy() {
		return
	}
	// Read the panel's width in the next frame, not here: reading it in
	// the middle of vugu's render forced a layout of the page before the
	// render's other changes, and another after (2-3 ms a parse).
	left := c.View.ScrollLeft
	zoom := c.App.Zoom
	var scroll js.Func
	scroll = js.FuncOf(func(js.Value, []js.Value) any {
		sc.Set("scrollLeft", left(zoom, sc.Get("clientWidth").Float()))
		scroll.Release()
		return nil
	})
	js.Global().Call("requestAnimationFrame", scroll)
}

// fit zooms so that the drawing fills its panel's width.
func (c *TreePanel) fit(event vugu.DOMEvent) {
	panel := event.JSEventTarget().Call("closest", "figure")
	if panel.Truthy() {
		c.App.ZoomToWidth(c.View, panel.Get("clientWidth").Float()-4)
	}
}

// size is the drawing's CSS size at the current zoom.
func (c *TreePanel) size() string { return c.App.SizeStyle(c.View) }

// formats lists the export formats.
func (c *TreePanel) formats() []string {
	return []string{app.FormatDiscbracket, app.FormatExport, app.FormatSVG, app.FormatPNG}
}
