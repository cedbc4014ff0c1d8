package app

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/discspan/discspan/teach"
)

// Geometry of the picture of a rule instance, in SVG user units; the rows
// match teach.RuleInfo.Diagram's, so that its CSS classes style both.
const (
	instMargin  = 10
	instBar     = 12
	instHeight  = 116
	instMinWord = 34  // narrowest word column
	instChar    = 7.5 // estimated width of a character at 13px
)

// instanceSVG draws one rule instance over the sentence: the words on an
// axis, the consequent above a rule line and, with antecedents, the left
// and right antecedents below it (bars of the classes "consequent",
// "left" and "right"; the gap of a discontinuous item dashed between its
// blocks). Without antecedents (an axiom) only the consequent is drawn.
func instanceSVG(words []string, cons, left, right teach.Item, antecedents bool) string {
	// x[k] is the position of interstice k.
	x := make([]float64, len(words)+1)
	x[0] = instMargin
	for i, w := range words {
		x[i+1] = x[i] + max(instMinWord, instChar*float64(utf8.RuneCountInString(w))+12)
	}
	width := x[len(words)] + instMargin
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="rule-diagram instance" viewBox="0 0 %.0f %d" width="%.0f" height="%d" aria-hidden="true">`,
		width, instHeight, width, instHeight)
	item := func(it teach.Item, y int, cls string) {
		blocks := it.Blocks()
		if it.Bottom() && it.I < it.K && it.K < it.L { // its left block, then the filled gap up to l
			blocks = [][2]int{{it.I, it.K}}
			fmt.Fprintf(&b, `<line class="gap" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke-dasharray="3 3"/>`,
				x[it.K], y+instBar/2, x[it.L], y+instBar/2)
		}
		if len(blocks) == 2 {
			fmt.Fprintf(&b, `<line class="gap" x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke-dasharray="3 3"/>`,
				x[blocks[0][1]], y+instBar/2, x[blocks[1][0]], y+instBar/2)
		}
		for _, bl := range blocks {
			if bl[0] < 0 || bl[1] >= len(x) || bl[0] >= bl[1] {
				continue
			}
			fmt.Fprintf(&b, `<rect class="%s" x="%.1f" y="%d" width="%.1f" height="%d" rx="3"/>`,
				cls, x[bl[0]]+1, y, x[bl[1]]-x[bl[0]]-2, instBar)
		}
	}
	item(cons, 8, "consequent")
	if antecedents {
		fmt.Fprintf(&b, `<line class="rule" x1="%d" y1="30" x2="%.1f" y2="30"/>`, instMargin/2, width-instMargin/2)
		item(left, 40, "left")
		item(right, 58, "right")
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" y1="80" x2="%.1f" y2="80"/>`, instMargin/2, width-instMargin/2)
	for k, pos := range x {
		fmt.Fprintf(&b, `<line class="tick" x1="%.1f" y1="77" x2="%.1f" y2="83"/><text class="index" x="%.1f" y="94" text-anchor="middle">%d</text>`,
			pos, pos, pos, k)
	}
	for i, w := range words {
		fmt.Fprintf(&b, `<text class="word" x="%.1f" y="111" text-anchor="middle">%s</text>`, (x[i]+x[i+1])/2, html.EscapeString(w))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
