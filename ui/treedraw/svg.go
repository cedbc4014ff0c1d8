package treedraw

import (
	"io"
	"strconv"
	"strings"
)

// SVGOptions control SVG and WriteSVG.
type SVGOptions struct {
	// FontSize is the font size in pixels; 0 means 14. One abstract x unit
	// is drawn as UnitEm·FontSize pixels and one y unit as LineHeight·FontSize.
	FontSize float64
	// Padding is the margin around the tree in pixels; 0 means FontSize/2.
	Padding float64
	// Classes adds CSS classes to phrase nodes, by index into
	// tree.Tree.Nodes: to the label and to the bar and stem, for instance
	// "match", "miss" or "extra" when comparing a parse with the gold tree.
	Classes map[int]string
	// TokenClasses adds CSS classes to the word and tag of a token, by
	// token index.
	TokenClasses map[int]string
	// Style replaces DefaultCSS in the <style> element; NoStyle leaves the
	// element out (for pages that style the drawing themselves).
	Style   string
	NoStyle bool
	// ID, when set, is the id attribute of the <svg> element, and Title a
	// <title> child (a tooltip and an accessible name).
	ID, Title string
}

// LineHeight is the height of one abstract y unit in em in SVG drawings.
const LineHeight = 1.25

// DefaultCSS is the style sheet SVG puts in the drawing. Its selectors
// start with the class of the <svg> element, "treedraw".
//
// The classes: text.word, text.tag, text.phrase, text.root for labels
// (phrases of discontinuous nodes also get "disc"); line.stem and line.bar
// for the stem and the bar pieces of a node (line.gap also for the pieces
// above its gaps); line.edge for edges (line.cross also for those that
// cross a bar) and line.halo for the white line drawn under a crossing
// edge; rect.bg for the white background. The classes of
// SVGOptions.Classes and TokenClasses go on labels and on stems and bars;
// "match", "miss" and "extra" have colours here.
const DefaultCSS = `.treedraw{background:#fff}
.treedraw text{font-family:"Helvetica Neue",Helvetica,Arial,"Liberation Sans","DejaVu Sans",sans-serif;text-anchor:middle}
.treedraw .word{fill:#111}
.treedraw .tag{fill:#5d6d7e}
.treedraw .phrase,.treedraw .root{fill:#1a4f8b;font-weight:600}
.treedraw line{stroke:#555;stroke-width:1.1;stroke-linecap:round}
.treedraw .gap{stroke:#8a8a8a;stroke-dasharray:3 3;stroke-linecap:butt}
.treedraw .halo{stroke:#fff;stroke-width:7;stroke-linecap:butt}
.treedraw text.match{fill:#1b7f3b}
.treedraw line.match{stroke:#1b7f3b}
.treedraw text.miss{fill:#c62828}
.treedraw line.miss{stroke:#c62828}
.treedraw text.extra{fill:#a84f00}
.treedraw line.extra{stroke:#a84f00}
.treedraw text[data-node]:hover,.treedraw text[data-word]:hover{fill:#d81b60;cursor:pointer}
`

// SVG returns g as a standalone SVG document; see WriteSVG.
func SVG(g *Grid, opt SVGOptions) string {
	var sb strings.Builder
	_ = WriteSVG(&sb, g, opt) // a strings.Builder does not fail
	return sb.String()
}

// WriteSVG writes g to w as a standalone SVG document (with xmlns and a
// viewBox in pixels). Lines come first: the stems and bars of the nodes
// (pieces above gaps with class "gap"), the edges that cross nothing, then
// every crossing edge over a wide white "halo" line so that the bars it
// crosses show a gap; labels come last. Phrase labels and bars carry
// data-node (the index into tree.Tree.Nodes), words and tags data-word
// (the token index), for event handlers. Words and labels are XML-escaped.
// It returns the error of w. Cost linear in the size of the output.
func WriteSVG(w io.Writer, g *Grid, opt SVGOptions) error {
	fs := opt.FontSize
	if fs <= 0 {
		fs = 14
	}
	pad := opt.Padding
	if pad <= 0 {
		pad = fs / 2
	}
	s := svgWriter{sx: UnitEm * fs, sy: LineHeight * fs, pad: pad}
	b := make([]byte, 0, 512+200*len(g.Nodes))
	b = append(b, `<svg xmlns="http://www.w3.org/2000/svg" class="treedraw"`...)
	if opt.ID != "" {
		b = attr(b, "id", opt.ID)
	}
	wpx, hpx := g.Width*s.sx+2*pad, g.Height*s.sy+2*pad
	b = append(b, ` viewBox="0 0 `...)
	b = num(b, wpx)
	b = append(b, ' ')
	b = num(b, hpx)
	b = append(b, '"')
	b = append(b, ` width="`...)
	b = num(b, wpx)
	b = append(b, `" height="`...)
	b = num(b, hpx)
	b = append(b, `" font-size="`...)
	b = num(b, fs)
	b = append(b, "\">\n"...)
	if opt.Title != "" {
		b = append(b, "<title>"...)
		b = escape(b, opt.Title)
		b = append(b, "</title>\n"...)
	}
	if !opt.NoStyle {
		css := opt.Style
		if css == "" {
			css = DefaultCSS
		}
		b = append(b, "<style>"...)
		b = escape(b, css)
		b = append(b, "</style>\n"...)
	}
	b = append(b, "<rect class=\"bg\" width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"...)
	b = append(b, "<g class=\"lines\">\n"...)
	for id := range g.Nodes {
		b = s.bar(b, g, id, opt)
	}
	for _, e := range g.Edges {
		if !e.Crossing {
			b = s.edge(b, g, e, opt, false)
		}
	}
	for _, e := range g.Edges {
		if e.Crossing {
			b = s.edge(b, g, e, opt, true)
		}
	}
	b = append(b, "</g>\n<g class=\"labels\">\n"...)
	for id := range g.Nodes {
		b = s.label(b, g, id, opt, fs)
	}
	b = append(b, "</g>\n</svg>\n"...)
	_, err := w.Write(b)
	return err
}

// svgWriter maps abstract units to pixels.
type svgWriter struct{ sx, sy, pad float64 }

func (s svgWriter) x(v float64) float64 { return v*s.sx + s.pad }
func (s svgWriter) y(v float64) float64 { return v*s.sy + s.pad }

// classOf returns the extra classes of node id, "" when none.
func classOf(g *Grid, id int, opt SVGOptions) string {
	nd := &g.Nodes[id]
	switch nd.Kind {
	case Word, Tag:
		return opt.TokenClasses[nd.Index]
	case Phrase:
		return opt.Classes[nd.Index]
	}
	return ""
}

// dataAttr appends the data attribute that names the node's source.
func dataAttr(b []byte, nd *Node) []byte {
	switch nd.Kind {
	case Word, Tag:
		return attr(b, "data-word", strconv.Itoa(nd.Index))
	case Phrase:
		return attr(b, "data-node", strconv.Itoa(nd.Index))
	}
	return b
}

// line appends a <line> element.
func (s svgWriter) line(b []byte, class string, extra string, nd *Node, x1, y1, x2, y2 float64) []byte {
	b = append(b, `<line class="`...)
	b = escapeAttr(b, class)
	if extra != "" {
		b = append(b, ' ')
		b = escapeAttr(b, extra)
	}
	b = append(b, '"')
	if nd != nil {
		b = dataAttr(b, nd)
	}
	b = append(b, ` x1="`...)
	b = num(b, s.x(x1))
	b = append(b, `" y1="`...)
	b = num(b, s.y(y1))
	b = append(b, `" x2="`...)
	b = num(b, s.x(x2))
	b = append(b, `" y2="`...)
	b = num(b, s.y(y2))
	return append(b, "\"/>\n"...)
}

// bar appends the stem and the bar pieces of node id.
func (s svgWriter) bar(b []byte, g *Grid, id int, opt SVGOptions) []byte {
	nd := &g.Nodes[id]
	if len(nd.Bar) == 0 {
		return b
	}
	extra := classOf(g, id, opt)
	b = s.line(b, "stem", extra, nd, nd.X, nd.Y+nd.H/2, nd.X, nd.BarY)
	for _, seg := range nd.Bar {
		class := "bar"
		if seg.Gap {
			class = "bar gap"
		}
		b = s.line(b, class, extra, nd, seg.X1, nd.BarY, seg.X2, nd.BarY)
	}
	return b
}

// edge appends an edge; a crossing edge goes over a white halo that stops
// short of the parent's bar, so that the junction stays whole.
func (s svgWriter) edge(b []byte, g *Grid, e Edge, opt SVGOptions, cross bool) []byte {
	if !cross {
		return s.line(b, "edge", "", nil, e.X, e.Top, e.X, e.Bottom)
	}
	clear := 0.25 // y units kept free of the halo below the bar
	if e.Bottom-e.Top > 2*clear {
		b = s.line(b, "halo", "", nil, e.X, e.Top+clear, e.X, e.Bottom)
	}
	return s.line(b, "edge cross", "", nil, e.X, e.Top, e.X, e.Bottom)
}

// label appends the <text> of node id, its baseline a little below the
// centre of the label.
func (s svgWriter) label(b []byte, g *Grid, id int, opt SVGOptions, fs float64) []byte {
	nd := &g.Nodes[id]
	if nd.Label == "" {
		return b
	}
	b = append(b, `<text class="`...)
	b = append(b, nd.Kind.String()...)
	if nd.Kind == Phrase && nd.Discontinuous {
		b = append(b, " disc"...)
	}
	if c := classOf(g, id, opt); c != "" {
		b = append(b, ' ')
		b = escapeAttr(b, c)
	}
	b = append(b, '"')
	b = dataAttr(b, nd)
	b = append(b, ` x="`...)
	b = num(b, s.x(nd.X))
	b = append(b, `" y="`...)
	b = num(b, s.y(nd.Y)+0.35*fs)
	b = append(b, `">`...)
	b = escape(b, nd.Label)
	return append(b, "</text>\n"...)
}

// num appends v with at most one decimal.
func num(b []byte, v float64) []byte {
	b = strconv.AppendFloat(b, v, 'f', 1, 64)
	if n := len(b); n >= 2 && b[n-2] == '.' && b[n-1] == '0' {
		b = b[:n-2]
	}
	return b
}

// attr appends ` name="value"` with value escaped.
func attr(b []byte, name, value string) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = escapeAttr(b, value)
	return append(b, '"')
}
