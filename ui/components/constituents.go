package components

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
)

// Constituents lists the nodes of a tree in a table (one row per node,
// with data attributes for tests); hovering or clicking a row focuses the
// node in the drawing. The rows are built only while the table is open.
//
// The rows are put into the table by setHTML, as one piece of HTML, and
// only when they changed: vugu, which sets every attribute and cell of the
// elements it renders at every render, spent about a third of each
// render's changes on an open table (its events are the table's, found
// through the row under them).
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

// rowsHTML is the table's content: the header and a row per node listed.
func (c *Constituents) rowsHTML() string {
	var b strings.Builder
	b.WriteString("<tr><th>label</th><th>blocks</th><th>words</th><th>score</th><th>rule</th></tr>")
	view := html.EscapeString(c.View.ID)
	for _, n := range c.rows() {
		fmt.Fprintf(&b, `<tr class="%s" data-view="%s" data-node="%d" data-label="%s" data-cons="%s">`,
			html.EscapeString(c.rowClass(n)), view, n.Index, html.EscapeString(n.Label), html.EscapeString(n.Cons))
		// The label is a button, so that a keyboard selects the node as a
		// click does (the click reaches the table); a comparison's mark,
		// a colour in the drawing, is said in words.
		fmt.Fprintf(&b, `<td><button type="button" class="pick" aria-pressed="%t" aria-label="%s">%s</button>%s</td>`,
			strings.Contains(c.rowClass(n), " sel"), html.EscapeString(n.Label+", "+n.Words), html.EscapeString(n.Label), compareMark(n.Class))
		for _, cell := range []string{c.blocks(n), n.Words, c.score(n), c.rule(n)} {
			b.WriteString("<td>")
			b.WriteString(html.EscapeString(cell))
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	return b.String()
}

// compareMark says in words what a comparison class shows in colour.
func compareMark(class string) string {
	switch class {
	case "miss":
		return ` <small class="mark">(missed by the parse)</small>`
	case "extra":
		return ` <small class="mark">(not in the other tree)</small>`
	}
	return ""
}

// row returns the node of the row under the event; ok is false elsewhere
// (the header, or between rows).
func (c *Constituents) row(event vugu.DOMEvent) (index int, ok bool) {
	el, ok := closest(event, "tr[data-node]")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(el.Call("getAttribute", "data-node").String())
	return i, err == nil && i >= 0
}

// hover focuses the node of the row under the pointer.
func (c *Constituents) hover(event vugu.DOMEvent) {
	if i, ok := c.row(event); ok {
		c.App.HoverAt(c.View.ID, false, i)
		return
	}
	c.App.HoverAt("", false, -1)
}

// click selects (or deselects) the node of the row clicked.
func (c *Constituents) click(event vugu.DOMEvent) {
	if i, ok := c.row(event); ok {
		c.App.Select(c.View.ID, false, i)
	}
}
