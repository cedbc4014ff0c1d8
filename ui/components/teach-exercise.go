package components

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/js"
)

// TeachExercise is the exercises section of the teaching tab: the student
// picks a sentence, selects words (clicks, or the arrow keys and space
// while the word strip has focus: teach-tab_js.go routes the keys), makes,
// relabels and deletes constituents, undoes and redoes, checks the tree
// against the gold tree and shares the attempt as a link.
//
// The section carries data attributes for tests: data-exercise (the
// exercise's id), data-sel (the selected words, "0,3"), data-cursor,
// data-node (the selected constituent, -1 for none), data-cons (the
// constituents, "NP[2,3) VP[0,1)+[3,4)"), data-undo and data-redo; the
// verdict data-f1, data-solved, data-right, data-wrong and data-missing.
type TeachExercise struct {
	App *app.App
	// url is the link of the attempt last shared.
	url string
}

// exerciseID is the current exercise's id, "" before one.
func (c *TeachExercise) exerciseID() string {
	x := &c.App.Teach.Exercise
	if x.Current < 0 || x.Current >= len(x.List) {
		return ""
	}
	return x.List[x.Current].ID
}

// sel lists the selected words' positions, comma-separated.
func (c *TeachExercise) sel() string {
	var parts []string
	for _, i := range c.App.Teach.Exercise.Selection() {
		parts = append(parts, strconv.Itoa(i))
	}
	return strings.Join(parts, ",")
}

// cons lists the student's constituents, space-separated, in node order.
func (c *TeachExercise) cons() string {
	var parts []string
	for _, n := range c.App.Teach.Exercise.Nodes {
		parts = append(parts, n.Cons)
	}
	return strings.Join(parts, " ")
}

// flag writes a boolean for a data attribute ("true" or "false"): vugu
// would write a bool attribute's name or leave it out.
func (c *TeachExercise) flag(b bool) string { return strconv.FormatBool(b) }

// entryCurrent marks the chosen exercise for screen readers.
func (c *TeachExercise) entryCurrent(e app.ExerciseEntry) string { return trueIf(e.Chosen) }

// nodeMark says a constituent's verdict in words (shown by colour).
func (c *TeachExercise) nodeMark(n app.ExerciseNode) string {
	switch n.Class {
	case "match":
		return " (right)"
	case "wrong":
		return " (wrong)"
	}
	return ""
}

// entryClass marks the chosen exercise.
func (c *TeachExercise) entryClass(e app.ExerciseEntry) string {
	if e.Chosen {
		return "exercise on"
	}
	return "exercise"
}

// wordID is the element id of word i of the exercise.
func wordID(i int) string { return "exword-" + strconv.Itoa(i) }

// activeWord is the id of the word under the cursor, which a screen reader
// follows in the word list (nil without a cursor: vugu then writes no
// attribute, where an empty one would name no element).
func (c *TeachExercise) activeWord() any {
	for _, w := range c.App.Teach.Exercise.Words {
		if w.Cur {
			return wordID(w.Index)
		}
	}
	return nil
}

// wordClass marks the selected words and the cursor.
func (c *TeachExercise) wordClass(w app.ExerciseWord) string {
	cls := "exword"
	if w.Selected {
		cls += " sel"
	}
	if w.Cur {
		cls += " cur"
	}
	return cls
}

// nodeClass marks the selected constituent and the check's verdict.
func (c *TeachExercise) nodeClass(n app.ExerciseNode) string {
	cls := "exnode"
	if n.Class != "" {
		cls += " " + n.Class
	}
	if n.Selected {
		cls += " sel"
	}
	return cls
}

// selection describes the selection.
func (c *TeachExercise) selection() string {
	if s := c.App.Teach.Exercise.SelectionText(); s != "" {
		return "Selected: " + s + "."
	}
	return "No words selected."
}

// missingButton names the button that reveals the missing constituents.
func (c *TeachExercise) missingButton() string {
	if c.App.Teach.Exercise.ShowMissing {
		return "hide missing"
	}
	return "show missing"
}

// missingHint says how many constituents are missing.
func (c *TeachExercise) missingHint() string {
	n := len(c.App.Teach.Exercise.Verdict.Missing)
	if n == 1 {
		return "1 constituent of the reference tree is missing (show missing to see it)."
	}
	return fmt.Sprintf("%d constituents of the reference tree are missing (show missing to see them).", n)
}

// size is the drawing's CSS size.
func (c *TeachExercise) size() string {
	v := c.App.Teach.Exercise.View
	return fmt.Sprintf("width:%.0fpx;height:%.0fpx", v.Width, v.Height)
}

// labelKey makes the constituent when Enter is pressed in the label box.
func (c *TeachExercise) labelKey(event vugu.DOMEvent) {
	if event.PropString("key") != "Enter" {
		return
	}
	event.PreventDefault()
	c.App.TeachExerciseSetLabel(event.PropString("target", "value"))
	c.App.TeachExerciseMake()
}

// treeClick selects the constituent or word clicked in the drawing: the
// nearest element with treedraw's data-node or data-word attribute.
func (c *TeachExercise) treeClick(event vugu.DOMEvent) {
	el := event.JSEventTarget()
	if !el.Truthy() || el.Get("closest").IsUndefined() {
		return
	}
	el = el.Call("closest", "[data-node],[data-word]")
	if !el.Truthy() {
		return
	}
	if v := el.Call("getAttribute", "data-node"); v.Truthy() {
		if i, err := strconv.Atoi(v.String()); err == nil && i >= 0 {
			c.App.TeachExerciseClickNode(i)
		}
		return
	}
	if i, err := strconv.Atoi(el.Call("getAttribute", "data-word").String()); err == nil {
		c.App.TeachExerciseClickWord(i)
	}
}

// share puts the attempt's link into the address bar (without reloading
// or adding a history entry) and into the link box.
func (c *TeachExercise) share() {
	frag := c.App.TeachExerciseShare()
	if frag == "" {
		return
	}
	loc := js.Global().Get("location")
	c.url = loc.Get("origin").String() + loc.Get("pathname").String() + loc.Get("search").String() + frag
	js.Global().Get("history").Call("replaceState", nil, "", frag)
}

// selectAll selects the link box's text for copying.
func (c *TeachExercise) selectAll(event vugu.DOMEvent) { event.JSEventTarget().Call("select") }
