package components

import (
	"fmt"

	"github.com/discspan/discspan/ui/app"
)

// TeachTree draws a tree of the teaching tab (treedraw's SVG, at its
// natural size, scrolling when wider than its place) with an optional
// caption.
type TeachTree struct {
	View    *app.TreeView
	Caption string
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
	return fmt.Sprintf("width:%.0fpx;height:%.0fpx", c.View.Width, c.View.Height)
}
