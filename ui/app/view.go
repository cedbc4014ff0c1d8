package app

import (
	"fmt"
	"hash/crc64"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/ui/treedraw"
)

// fontSize is the font size of the drawings in CSS pixels.
const fontSize = 14

// TreeView is a tree laid out and drawn, with the details of its nodes.
type TreeView struct {
	// ID names the view in Focus ("main", "side", "gold", "pred").
	ID    string
	Title string
	Tree  *tree.Tree
	// Parse is the parse the tree comes from; nil for a gold tree.
	Parse *parser.Parse
	// Nodes has the details of every node, by index into Tree.Nodes.
	Nodes []NodeInfo
	// SVG is the drawing (treedraw.SVG); Width and Height its size in CSS
	// pixels at zoom 1, RootX the x of the top label's centre.
	SVG           string
	Width, Height float64
	RootX         float64
	// TreeKey identifies the tree drawn (the Key of its first drawing):
	// unlike Key it stays when the drawing is redrawn (a selection), so
	// that a renderer scrolls a new tree into view once (see ScrollLeft);
	// the same tree drawn again the same way keeps its place.
	TreeKey string
	// Key identifies the SVG (see svgKey): it changes whenever the SVG
	// does, so that a renderer can skip setting an unchanged drawing
	// again.
	Key string
	// DrawNs is the time of the layout and the SVG.
	DrawNs int64
	// Err says why the tree could not be drawn.
	Err string

	grid     *treedraw.Grid
	classes  map[int]string // comparison classes by node
	selected int            // selected node, -1 for none
}

// NodeInfo describes one node of a drawn tree.
type NodeInfo struct {
	Index  int
	Label  string
	Blocks []tree.Span
	// Cons is the constituent as tree.Labelled writes it: "NP[0,2)+[3,5)".
	Cons string
	// Words are the words it covers, "…" standing for a gap.
	Words string
	Disc  bool
	// Class is the comparison class ("miss", "extra"), if any.
	Class string
	// Item is the derivation item that built the node (nil for gold trees
	// and nodes the derivation does not explain).
	Item *ItemInfo
}

// ItemInfo is what the decoder says about a node.
type ItemInfo struct {
	// Label is the item's label, a merged unary chain "A/B" where the tree
	// has A above B.
	Label  string
	Rule   string
	Score  float32 // inside score of the item
	Weight float32 // the label's own score
}

// newTreeView lays t out and draws it; p, when set, supplies the
// derivation (labels names its label indices).
func newTreeView(id, title string, t *tree.Tree, p *parser.Parse, labels []string, classes map[int]string) *TreeView {
	start := time.Now()
	v := &TreeView{ID: id, Title: title, Tree: t, Parse: p, classes: classes, selected: -1}
	g, err := treedraw.Layout(t, treedraw.DefaultOptions())
	if err != nil {
		v.Err = err.Error()
		return v
	}
	v.grid = g
	v.Width = g.Width*treedraw.UnitEm*fontSize + fontSize
	v.Height = g.Height*treedraw.LineHeight*fontSize + fontSize
	v.RootX = v.Width / 2
	for _, n := range g.Nodes {
		if n.Parent < 0 && n.Kind != treedraw.Word {
			v.RootX = n.X*treedraw.UnitEm*fontSize + fontSize/2 // as treedraw.SVG, padding fontSize/2
			break
		}
	}
	v.Nodes = nodeInfos(t, p, labels, classes)
	v.draw()
	v.TreeKey = v.Key
	v.DrawNs = int64(time.Since(start))
	return v
}

// draw renders the SVG with the comparison classes and the selection.
func (v *TreeView) draw() {
	if v.grid == nil {
		return
	}
	cls := make(map[int]string, len(v.classes)+1)
	for k, c := range v.classes {
		cls[k] = c
	}
	if v.selected >= 0 {
		cls[v.selected] = strings.TrimSpace(cls[v.selected] + " sel")
	}
	v.SVG = treedraw.SVG(v.grid, treedraw.SVGOptions{FontSize: fontSize, Classes: cls, ID: "tree-" + v.ID, Title: v.Title})
	v.Key = svgKey(v.ID, v.SVG)
}

// svgKey is the key of a drawing: the view's ID and a checksum of the
// SVG, so that equal drawings have equal keys and a changed one (almost
// surely, 1 in 2^64 otherwise) a new key.
func svgKey(id, svg string) string {
	return id + "." + strconv.FormatUint(crc64.Checksum([]byte(svg), crc64.MakeTable(crc64.ECMA)), 36)
}

// setSelected marks node i (-1: none) and redraws when it changed.
func (v *TreeView) setSelected(i int) {
	if v == nil || v.selected == i {
		return
	}
	v.selected = i
	v.draw()
}

// Text is the tree drawn with box-drawing characters.
func (v *TreeView) Text() string {
	if v.grid == nil {
		return ""
	}
	return treedraw.Text(v.grid)
}

// nodeInfos returns the details of every node of t.
func nodeInfos(t *tree.Tree, p *parser.Parse, labels []string, classes map[int]string) []NodeInfo {
	yields := t.Yields()
	out := make([]NodeInfo, len(t.Nodes))
	for i, n := range t.Nodes {
		blocks := tree.Blocks(yields[i])
		ni := NodeInfo{
			Index:  i,
			Label:  n.Label,
			Blocks: blocks,
			Cons:   tree.Labelled{Label: n.Label, Blocks: blocks}.String(),
			Words:  coveredWords(t, blocks),
			Disc:   len(blocks) > 1,
			Class:  classes[i],
		}
		if p != nil {
			ni.Item = findItem(p.Items, labels, n.Label, blocks)
		}
		out[i] = ni
	}
	return out
}

// coveredWords writes the words of blocks with "…" for the gaps.
func coveredWords(t *tree.Tree, blocks []tree.Span) string {
	var parts []string
	for _, b := range blocks {
		for i := b.Start; i < b.End; i++ {
			parts = append(parts, t.Tokens[i].Word)
		}
		parts = append(parts, "…")
	}
	if len(parts) > 0 {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, " ")
}

// findItem returns the labelled derivation item over blocks whose label
// (or merged chain) contains label.
func findItem(items []decode.Item, labels []string, label string, blocks []tree.Span) *ItemInfo {
	for _, it := range items {
		if it.Label < 0 || it.Label >= len(labels) || !sameBlocks(it.Blocks(), blocks) {
			continue
		}
		name := labels[it.Label]
		if !slices.Contains(strings.Split(name, tree.ChainSep), label) {
			continue
		}
		return &ItemInfo{Label: name, Rule: it.Rule.String(), Score: it.Score, Weight: it.Weight}
	}
	return nil
}

func sameBlocks(a [][2]int, b []tree.Span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i][0] != b[i].Start || a[i][1] != b[i].End {
			return false
		}
	}
	return true
}

// Focus names a node or word of a view.
type Focus struct {
	View  string // TreeView.ID; "" for nothing
	Word  bool   // a word (Index is its position) rather than a node
	Index int
}

// Details is what the details panel shows for a focus.
type Details struct {
	View  string
	Node  *NodeInfo
	Word  string
	Tag   string
	Index int
}

// Describe returns the details of the hovered node, else the selected one;
// nil when there is none.
func (a *App) Describe() *Details {
	f := a.Hover
	if f.View == "" {
		f = a.Selected
	}
	v := a.view(f.View)
	if v == nil || v.Tree == nil {
		return nil
	}
	d := &Details{View: v.Title, Index: f.Index}
	switch {
	case f.Word && f.Index >= 0 && f.Index < len(v.Tree.Tokens):
		d.Word, d.Tag = v.Tree.Tokens[f.Index].Word, v.Tree.Tokens[f.Index].Tag
	case !f.Word && f.Index >= 0 && f.Index < len(v.Nodes):
		d.Node = &v.Nodes[f.Index]
	default:
		return nil
	}
	return d
}

// view returns the view with the given ID, nil if none.
func (a *App) view(id string) *TreeView {
	for _, v := range a.Views() {
		if v.ID == id {
			return v
		}
	}
	return nil
}

// Views lists the views of the visible tab.
func (a *App) Views() []*TreeView {
	var vs []*TreeView
	add := func(v *TreeView) {
		if v != nil {
			vs = append(vs, v)
		}
	}
	if a.Tab == TabTreebank {
		if a.Bank != nil {
			add(a.Bank.GoldView)
			add(a.Bank.PredView)
		}
		return vs
	}
	add(a.Parse.Main)
	add(a.Parse.Side)
	add(a.Parse.Gold)
	return vs
}

// HoverAt shows the details of a node (or word) under the pointer; a
// negative index clears it.
func (a *App) HoverAt(view string, word bool, index int) {
	if index < 0 {
		a.Hover = Focus{}
		return
	}
	a.Hover = Focus{View: view, Word: word, Index: index}
}

// Select selects a node (or word) of a view, or clears the selection when
// it is selected already or the index is negative.
func (a *App) Select(view string, word bool, index int) {
	f := Focus{View: view, Word: word, Index: index}
	if index < 0 || f == a.Selected {
		f = Focus{}
	}
	a.Selected = f
	for _, v := range a.Views() {
		sel := -1
		if v.ID == f.View && !f.Word {
			sel = f.Index
		}
		v.setSelected(sel)
	}
}

// ZoomBy multiplies the zoom by f (within 0.25 and 4); f = 0 resets it.
func (a *App) ZoomBy(f float64) {
	if f == 0 {
		a.Zoom = 1
		return
	}
	a.Zoom = min(4, max(0.25, a.Zoom*f))
}

// ZoomToWidth sets the zoom at which v is width pixels wide (within the
// limits of ZoomBy).
func (a *App) ZoomToWidth(v *TreeView, width float64) {
	if v == nil || v.Width <= 0 || width <= 0 {
		return
	}
	a.Zoom = min(4, max(0.25, width/v.Width))
}

// SizeStyle is the CSS size of a drawing at the current zoom.
func (a *App) SizeStyle(v *TreeView) string {
	return fmt.Sprintf("width:%.0fpx;height:%.0fpx", v.Width*a.Zoom, v.Height*a.Zoom)
}

// ScrollLeft is where a panel clientWidth pixels wide, showing the drawing
// at zoom, scrolls to when the tree is new: so that the top label (the
// root) is in the middle, within the drawing's extent; 0 when the drawing
// fits. (Left at 0, a wide tree shows the blank left of its lowest
// words, the root out of sight.)
func (v *TreeView) ScrollLeft(zoom, clientWidth float64) float64 {
	width := v.Width * zoom
	if width <= clientWidth {
		return 0
	}
	return min(max(v.RootX*zoom-clientWidth/2, 0), width-clientWidth)
}
