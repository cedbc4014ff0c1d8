// Package treedraw draws discontinuous constituency trees the way disco-dop's
// treedraw does: words on the bottom row in sentence order, phrase nodes
// above them, and crossing branches drawn so that they read as crossings.
//
// Drawing has two steps. Layout is a pure function from a *tree.Tree to a
// Grid: integer grid cells (row, column) for every word, tag and phrase
// label, and the coordinates of labels, horizontal bars and vertical edges
// in abstract units. The renderers (SVG, WriteSVG, Text, ASCII) only read a
// Grid, so a user interface can lay a tree out once and draw it, or attach
// its own handlers to the nodes, without knowing how it was placed.
//
// # Layout
//
// Row 0 holds the words, one column per word (word i is in column 2i; the
// odd columns lie between two words, so that a phrase over two words can be
// centred over them). With Options.ShowTags row 1 holds the part-of-speech
// tags. Phrase nodes are placed bottom-up, lower nodes first (then narrower
// ones, then those further left): each goes to the lowest row above all its
// children in which its horizontal bar, from its leftmost to its rightmost
// child, touches no other bar or label, at the centre of its words'
// columns or else the nearest column between its outer children that is
// free. A column stays free above a label until the label's edge to its
// parent is drawn, so that no edge runs through a label; edges may cross
// other nodes' bars, and Edge.Crossing marks them. Unary parents go right
// above their child. A label "A/B" (a merged unary chain, see
// tree.MergeUnaries) is drawn as A above B. When several nodes or words
// hang from the virtual root a ROOT node (Options.RootLabel) is drawn above
// them; otherwise the top node is the root of the drawing.
//
// Horizontal positions come from the label widths (Options.Measure,
// EstimateWidth by default): columns are swept left to right and each is
// put as far left as the labels, edges and bars already placed allow, so a
// 60-word sentence is as wide as its words and labels need and no wider.
// A discontinuous node's bar is split into Segments; the parts above its
// gaps (the words between its blocks) have Gap set and are drawn dashed.
//
// # Rendering
//
// SVG writes a standalone document with CSS classes (DefaultCSS) and
// data-node / data-word attributes for interactive use; edges that cross a
// bar are drawn last over a wide white stroke so that the crossing shows as
// a gap in the bar. Text and ASCII draw the same grid with box-drawing or
// ASCII characters for terminals and tests.
//
// Layout costs O(N·R + N log N) for N drawn nodes and R rows; rendering is
// linear in the size of its output. Nothing in this package keeps state
// between calls, and it uses no operating-system features, so it builds
// for js/wasm.
package treedraw
