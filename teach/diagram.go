package teach

import (
	"fmt"
	"html"
	"strings"
)

// Diagram geometry, in SVG user units.
const (
	diagramStep   = 36 // between two index variables
	diagramMargin = 16
	diagramBar    = 12 // bar height
)

// Diagram draws a rule as a small SVG picture in the manner of the paper's
// figure of rules: the index variables on an axis, the two antecedents as
// bars of two colours, the consequent above them; a gap is a dashed line
// joining the two blocks of a discontinuous item, or a bottom item's left
// block to where its right block will start. highlight adds the CSS
// class "active" to the root element.
func (r RuleInfo) Diagram(highlight bool) string {
	pos := map[string]int{}
	for x, name := range r.Order {
		pos[name] = diagramMargin + x*diagramStep
	}
	width := 2*diagramMargin + (len(r.Order)-1)*diagramStep
	const height = 104
	var b strings.Builder
	class := "rule-diagram"
	if highlight {
		class += " active"
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="%s" viewBox="0 0 %d %d" width="%d" height="%d" role="img">`,
		class, width, height, width, height)
	fmt.Fprintf(&b, `<title>%s: %s (%s)</title>`, html.EscapeString(r.Name), html.EscapeString(r.Form()), html.EscapeString(r.Condition))
	item := func(s Shape, y int, cls string) {
		blocks := [][2]string{{s[0], s[1]}}
		if !s.Continuous() { // the gap, still open or (a bottom item) filled up to l
			fmt.Fprintf(&b, `<line class="gap" x1="%d" y1="%d" x2="%d" y2="%d" stroke-dasharray="3 3"/>`,
				pos[s[1]], y+diagramBar/2, pos[s[2]], y+diagramBar/2)
		}
		if len(s) == 4 {
			blocks = append(blocks, [2]string{s[2], s[3]})
		}
		for _, bl := range blocks {
			fmt.Fprintf(&b, `<rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="3"/>`,
				cls, pos[bl[0]]+1, y, pos[bl[1]]-pos[bl[0]]-2, diagramBar)
		}
	}
	item(r.Consequent, 8, "consequent")
	fmt.Fprintf(&b, `<line class="rule" x1="%d" y1="30" x2="%d" y2="30"/>`, diagramMargin/2, width-diagramMargin/2)
	item(r.Left, 40, "left")
	item(r.Right, 58, "right")
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="80" x2="%d" y2="80"/>`, diagramMargin/2, width-diagramMargin/2)
	for _, name := range r.Order {
		fmt.Fprintf(&b, `<line class="tick" x1="%d" y1="77" x2="%d" y2="83"/><text x="%d" y="97" text-anchor="middle">%s</text>`,
			pos[name], pos[name], pos[name], html.EscapeString(name))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
