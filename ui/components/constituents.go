package components

import (
	"fmt"

	"github.com/discspan/discspan/ui/app"
)

// Constituents lists the nodes of a tree in a table (one row per node,
// with data attributes for tests); hovering or clicking a row focuses the
// node in the drawing. The rows are built only while the table is open
// (every render rebuilds them).
type Constituents struct {
	App  *app.App
	View *app.TreeView
	// Open is set while the table is shown.
	Open bool
}

// rows are the nodes listed: all of them when the table is open.
func (c *Constituents) rows() []app.NodeInfo {
	if !c.Open {
		return nil
	}
	return c.View.Nodes
}

// rowClass marks discontinuous, compared and selected rows.
func (c *Constituents) rowClass(n app.NodeInfo) string {
	cls := "node"
	if n.Disc {
		cls += " disc"
	}
	if n.Class != "" {
		cls += " " + n.Class
	}
	if s := c.App.Selected; s.View == c.View.ID && !s.Word && s.Index == n.Index {
		cls += " sel"
	}
	return cls
}

// score is the item score of a node, "" when unknown.
func (c *Constituents) score(n app.NodeInfo) string {
	if n.Item == nil {
		return ""
	}
	return fmt.Sprintf("%.3f", n.Item.Score)
}

// rule is the rule that built a node, "" when unknown.
func (c *Constituents) rule(n app.NodeInfo) string {
	if n.Item == nil {
		return ""
	}
	return n.Item.Rule
}

// summary counts the nodes.
func (c *Constituents) summary() string {
	disc := 0
	for _, n := range c.View.Nodes {
		if n.Disc {
			disc++
		}
	}
	return fmt.Sprintf("%s: %s, %d discontinuous", c.View.Title, app.Count(len(c.View.Nodes), "constituent"), disc)
}

// blocks writes a node's blocks.
func (c *Constituents) blocks(n app.NodeInfo) string { return app.BlocksString(n.Blocks) }
