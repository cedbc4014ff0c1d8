package components

import (
	"fmt"

	"github.com/discspan/discspan/ui/app"
)

// TeachTree draws a tree of the teaching tab (treedraw's SVG, at its
// natural size, scrolling when wider than its place; with Fit, scaled
// down to its place's width instead, never up) with an optional caption.
type TeachTree struct {
	View    *app.TreeView
	Caption string
	// Fit scales a drawing wider than its place down to it: the
	// comparison's side-by-side panels, where a tree cut off at the
	// panel's edge hid the discontinuity that the panel is about.
	Fit bool
}

// label names the drawing for screen readers.
func (c *TeachTree) label() string {
	if c.Caption != "" {
		return c.Caption + ": the drawing"
	}
	return c.View.Title + ": the drawing"
}

// size is the drawing's CSS size.
func (c *TeachTree) size() string {
	if c.Fit && c.View.Width > 0 && c.View.Height > 0 {
		return fmt.Sprintf("width:100%%;max-width:%.0fpx;aspect-ratio:%.0f/%.0f", c.View.Width, c.View.Width, c.View.Height)
	}
	return fmt.Sprintf("width:%.0fpx;height:%.0fpx", c.View.Width, c.View.Height)
}
