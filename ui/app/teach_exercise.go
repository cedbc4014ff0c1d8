package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/teach"
)

// fragmentExercise is the key of a shared exercise attempt in the page
// URL's fragment: "#exercise=ID~TREE" (teach.EncodeAttempt) opens the
// exercise with the student's tree, "#exercise=ID" opens it fresh.
const fragmentExercise = "exercise"

// ErrNoAttemptInLink is wrapped by ParseFragment's error for a fragment
// with an empty exercise key.
var ErrNoAttemptInLink = errors.New("the link holds no exercise")

// ExerciseState is the exercises section of the teaching tab: the student
// builds the tree of a gallery sentence with the annotation commands
// (annotate.CreateConstituent, Relabel, DeleteNode; undoable, no re-parse)
// and checks it against the gold tree. Change it only through the App's
// TeachExercise* methods.
type ExerciseState struct {
	// List holds the exercises to choose from.
	List []ExerciseEntry
	// Current is the chosen exercise (an index into List), -1 before one.
	Current int
	// Prompt says what to do.
	Prompt string
	// Words are the sentence's words with the cursor and the selection.
	Words []ExerciseWord
	// Cursor is the word the keyboard's cursor is on.
	Cursor int
	// Node is the selected constituent (an index into the tree's nodes),
	// -1 for none.
	Node int
	// Label is the label typed or picked for the next command; Labels the
	// suggestions (the gold trees' labels of all exercises).
	Label  string
	Labels []string
	// View is the student's tree drawn; after a check its constituents
	// are marked right ("match") or wrong ("wrong").
	View *TreeView
	// Nodes lists the student's constituents.
	Nodes []ExerciseNode
	// Msg tells what the last command did, Err why it failed.
	Msg, Err string
	// Verdict is the last check of the current tree, nil when the tree
	// changed since; ShowMissing reveals its missing constituents.
	Verdict     *ExerciseVerdict
	ShowMissing bool
	// Link is the fragment of the last attempt shared, LinkErr why a link
	// could not be opened or made.
	Link, LinkErr string
	// Opened counts the exercise links opened (damaged ones included), so
	// that the page brings the section into view once for each.
	Opened int

	exercises []teach.Exercise
	sent      *annotate.Sentence
}

// ExerciseEntry is one exercise of the list.
type ExerciseEntry struct {
	ID, Title, Language string
	Chosen              bool
}

// ExerciseWord is one word of the exercise's sentence.
type ExerciseWord struct {
	Index         int
	Word, Tag     string
	Selected, Cur bool
}

// ExerciseNode is one constituent of the student's tree.
type ExerciseNode struct {
	Index int
	Label string
	// Cons is "VP[0,1)+[3,4)", Words the words covered ("What … do").
	Cons, Words string
	Selected    bool
	// Class is "match" or "wrong" after a check, "" before.
	Class string
}

// ExerciseVerdict is a check of the student's tree, ready to show.
type ExerciseVerdict struct {
	// Right, Wrong and Missing describe constituents as "VP: What … do".
	Right, Wrong, Missing []string
	// Precision, Recall and F1 in percent, formatted with one decimal.
	Precision, Recall, F1 string
	Solved                bool
}

// exerciseInit fills the list of exercises and starts the first one.
func (a *App) exerciseInit() {
	x := &a.Teach.Exercise
	x.Current, x.Node = -1, -1
	all, err := teach.Exercises()
	if err != nil {
		x.Err = "The exercises cannot be loaded: " + err.Error()
		return
	}
	x.exercises = all
	labels := map[string]bool{}
	titles := map[string]teach.Example{}
	for _, ex := range teach.Gallery() {
		titles[ex.ID] = ex
	}
	for _, e := range all {
		x.List = append(x.List, ExerciseEntry{ID: e.ID, Title: titles[e.ID].Title, Language: titles[e.ID].Language})
		for _, n := range e.Gold.Nodes {
			labels[n.Label] = true
		}
	}
	for l := range labels {
		x.Labels = append(x.Labels, l)
	}
	sort.Strings(x.Labels)
	if len(all) > 0 {
		a.exerciseStart(0, nil)
	}
}

// exerciseIndex returns the index of the exercise with the id, -1 if none.
func (x *ExerciseState) exerciseIndex(id string) int {
	return slices.IndexFunc(x.exercises, func(e teach.Exercise) bool { return e.ID == id })
}

// exerciseStart starts exercise i from the student's tree t, or from the
// exercise's start (the words, no phrase) when t is nil.
func (a *App) exerciseStart(i int, t *tree.Tree) {
	x := &a.Teach.Exercise
	if i < 0 || i >= len(x.exercises) {
		return
	}
	e := x.exercises[i]
	if t == nil {
		t = e.Start()
	}
	x.Current, x.Prompt = i, e.Prompt
	for k := range x.List {
		x.List[k].Chosen = k == i
	}
	x.sent = annotate.NewSentence(t, annotate.Untouched)
	x.Words = make([]ExerciseWord, t.Len())
	for k, tok := range t.Tokens {
		x.Words[k] = ExerciseWord{Index: k, Word: tok.Word, Tag: tok.Tag}
	}
	x.Cursor, x.Node, x.Msg, x.Err, x.Verdict, x.ShowMissing = 0, -1, "", "", nil, false
	a.exerciseRefresh()
}

// exercise returns the current exercise, ok false before one.
func (x *ExerciseState) exercise() (teach.Exercise, bool) {
	if x.sent == nil || x.Current < 0 || x.Current >= len(x.exercises) {
		return teach.Exercise{}, false
	}
	return x.exercises[x.Current], true
}

// Tree returns the student's current tree (nil before an exercise); do
// not modify it.
func (x *ExerciseState) Tree() *tree.Tree {
	if x.sent == nil {
		return nil
	}
	return x.sent.Tree()
}

// Selection returns the selected word positions in order.
func (x *ExerciseState) Selection() []int {
	var out []int
	for _, w := range x.Words {
		if w.Selected {
			out = append(out, w.Index)
		}
	}
	return out
}

// SelectionText describes the selection: its words with "…" for gaps and
// its number of blocks; "" when nothing is selected.
func (x *ExerciseState) SelectionText() string {
	sel := x.Selection()
	if len(sel) == 0 || x.sent == nil {
		return ""
	}
	blocks := tree.Blocks(sel)
	s := fmt.Sprintf("%q (%d word", coveredWords(x.sent.Tree(), blocks), len(sel))
	if len(sel) != 1 {
		s += "s"
	}
	if len(blocks) > 1 {
		s += fmt.Sprintf(", %d blocks", len(blocks))
	}
	return s + ")"
}

// CanUndo and CanRedo report whether the history has a step to undo or
// redo.
func (x *ExerciseState) CanUndo() bool { return x.sent != nil && len(x.sent.UndoList()) > 0 }

// CanRedo reports whether an undone step can be redone.
func (x *ExerciseState) CanRedo() bool { return x.sent != nil && len(x.sent.RedoList()) > 0 }

// UndoText and RedoText describe the next step to undo or redo, "" for
// none.
func (x *ExerciseState) UndoText() string {
	if !x.CanUndo() {
		return ""
	}
	return x.sent.UndoList()[0]
}

// RedoText describes the next step to redo.
func (x *ExerciseState) RedoText() string {
	if !x.CanRedo() {
		return ""
	}
	return x.sent.RedoList()[0]
}

// exerciseRefresh updates what is derived from the student's tree: the
// list of constituents and the drawing, with the verdict's marks when
// there is one.
func (a *App) exerciseRefresh() {
	x := &a.Teach.Exercise
	t := x.Tree()
	if t == nil {
		return
	}
	classes := map[int]string{}
	if e, ok := x.exercise(); ok && x.Verdict != nil {
		if v, err := e.Check(t); err == nil {
			for _, c := range v.Right {
				classes[c.Node] = "match"
			}
			for _, c := range v.Wrong {
				classes[c.Node] = "wrong"
			}
		}
	}
	if x.Node >= len(t.Nodes) {
		x.Node = -1
	}
	x.Nodes = x.Nodes[:0]
	for i, y := range t.Yields() {
		blocks := tree.Blocks(y)
		x.Nodes = append(x.Nodes, ExerciseNode{Index: i, Label: t.Nodes[i].Label,
			Cons:  tree.Labelled{Label: t.Nodes[i].Label, Blocks: blocks}.String(),
			Words: coveredWords(t, blocks), Selected: i == x.Node, Class: classes[i]})
	}
	for k := range x.Words {
		x.Words[k].Cur = k == x.Cursor
	}
	x.View = newTreeView("exercise", "Your tree", t, nil, nil, classes)
	x.View.setSelected(x.Node)
}

// TeachExerciseChoose starts the exercise with the id afresh.
func (a *App) TeachExerciseChoose(id string) {
	x := &a.Teach.Exercise
	if i := x.exerciseIndex(id); i >= 0 {
		x.LinkErr = ""
		a.exerciseStart(i, nil)
	}
}

// TeachExerciseRestart starts the current exercise again from its words.
func (a *App) TeachExerciseRestart() {
	x := &a.Teach.Exercise
	if _, ok := x.exercise(); ok {
		a.exerciseStart(x.Current, nil)
		x.Msg = "Started again."
	}
}

// TeachExerciseClickWord toggles word i in the selection and puts the
// cursor on it.
func (a *App) TeachExerciseClickWord(i int) {
	x := &a.Teach.Exercise
	if i < 0 || i >= len(x.Words) {
		return
	}
	x.Cursor = i
	x.Words[i].Selected = !x.Words[i].Selected
	x.Err = ""
	for k := range x.Words {
		x.Words[k].Cur = k == x.Cursor
	}
}

// TeachExerciseClickNode selects constituent i (or deselects it when it
// is selected) and puts its label in the label box.
func (a *App) TeachExerciseClickNode(i int) {
	x := &a.Teach.Exercise
	t := x.Tree()
	if t == nil || i < 0 || i >= len(t.Nodes) {
		return
	}
	if x.Node == i {
		x.Node = -1
	} else {
		x.Node = i
		x.Label = t.Nodes[i].Label
	}
	x.Err = ""
	for k := range x.Nodes {
		x.Nodes[k].Selected = x.Nodes[k].Index == x.Node
	}
	x.View.setSelected(x.Node)
}

// TeachExerciseClear empties the selection of words and constituent.
func (a *App) TeachExerciseClear() {
	x := &a.Teach.Exercise
	x.Err = ""
	for k := range x.Words {
		x.Words[k].Selected = false
	}
	if x.Node >= 0 {
		x.Node = -1
		for k := range x.Nodes {
			x.Nodes[k].Selected = false
		}
		x.View.setSelected(-1)
	}
}

// TeachExerciseSetLabel sets the label of the next command.
func (a *App) TeachExerciseSetLabel(label string) {
	a.Teach.Exercise.Label = strings.TrimSpace(label)
}

// exerciseDo applies an annotation command to the student's tree as one
// undo step; done describes it for the status line.
func (a *App) exerciseDo(cmd annotate.Command) bool {
	x := &a.Teach.Exercise
	if x.sent == nil {
		return false
	}
	desc := cmd.Describe(x.sent.Tree())
	if err := x.sent.Do(context.Background(), cmd, nil); err != nil {
		x.Err = exerciseError(err)
		return false
	}
	x.Msg, x.Err = desc+".", ""
	a.exerciseChanged()
	return true
}

// exerciseChanged follows a change of the student's tree: the selection
// and the verdict no longer apply.
func (a *App) exerciseChanged() {
	x := &a.Teach.Exercise
	x.Node = -1
	if x.Verdict != nil {
		x.Verdict, x.ShowMissing = nil, false
		x.Msg += " Check again to see the new verdict."
	}
	a.exerciseRefresh()
}

// exerciseError says in plain words why a command failed.
func exerciseError(err error) string {
	msg := strings.TrimPrefix(err.Error(), "annotate: ")
	if ce := (*annotate.CrossingError)(nil); errors.As(err, &ce) {
		msg = "the selection crosses a constituent you built: " + msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}

// TeachExerciseMake makes a constituent with the label over the selected
// words (one block, or two around a gap).
func (a *App) TeachExerciseMake() {
	x := &a.Teach.Exercise
	sel := x.Selection()
	switch {
	case x.sent == nil:
		return
	case len(sel) == 0:
		x.Err = "Select words first: click them, or move with the arrow keys and press space."
		return
	case x.Label == "":
		x.Err = "Type or pick a label first."
		return
	}
	if a.exerciseDo(annotate.CreateConstituent{Label: x.Label, Words: sel}) {
		for k := range x.Words {
			x.Words[k].Selected = false
		}
	}
}

// TeachExerciseRelabel gives the selected constituent the label.
func (a *App) TeachExerciseRelabel() {
	x := &a.Teach.Exercise
	switch {
	case x.sent == nil:
		return
	case x.Node < 0:
		x.Err = "Select a constituent first: click its label in the tree or in the list."
		return
	case x.Label == "":
		x.Err = "Type or pick a label first."
		return
	}
	a.exerciseDo(annotate.Relabel{Node: x.Node, Label: x.Label})
}

// TeachExerciseDelete deletes the selected constituent (its children go
// to its parent).
func (a *App) TeachExerciseDelete() {
	x := &a.Teach.Exercise
	if x.sent == nil {
		return
	}
	if x.Node < 0 {
		x.Err = "Select a constituent first: click its label in the tree or in the list."
		return
	}
	a.exerciseDo(annotate.DeleteNode{Node: x.Node})
}

// TeachExerciseUndo undoes the last edit.
func (a *App) TeachExerciseUndo() {
	x := &a.Teach.Exercise
	if x.sent == nil {
		return
	}
	desc, err := x.sent.Undo()
	if err != nil {
		x.Err = "Nothing to undo."
		return
	}
	x.Msg, x.Err = "Undone: "+desc+".", ""
	a.exerciseChanged()
}

// TeachExerciseRedo redoes the last edit undone.
func (a *App) TeachExerciseRedo() {
	x := &a.Teach.Exercise
	if x.sent == nil {
		return
	}
	desc, err := x.sent.Redo()
	if err != nil {
		x.Err = "Nothing to redo."
		return
	}
	x.Msg, x.Err = "Redone: "+desc+".", ""
	a.exerciseChanged()
}

// TeachExerciseCheck checks the student's tree against the gold tree and
// marks its constituents right or wrong.
func (a *App) TeachExerciseCheck() {
	x := &a.Teach.Exercise
	e, ok := x.exercise()
	if !ok {
		return
	}
	t := x.sent.Tree()
	v, err := e.Check(t)
	if err != nil {
		x.Err = err.Error()
		return
	}
	describe := func(cs []annotate.Constituent, on *tree.Tree) []string {
		out := make([]string, len(cs))
		for k, c := range cs {
			out[k] = c.Label + ": " + coveredWords(on, c.Yield)
		}
		return out
	}
	x.Verdict = &ExerciseVerdict{
		Right: describe(v.Right, t), Wrong: describe(v.Wrong, t), Missing: describe(v.Missing, e.Gold),
		Precision: percentString(v.Precision), Recall: percentString(v.Recall), F1: percentString(v.F1),
		Solved: v.Solved,
	}
	x.ShowMissing, x.Err = false, ""
	x.Msg = "Checked."
	a.exerciseRefresh()
}

// percentString formats a percentage with one decimal.
func percentString(p float64) string { return fmt.Sprintf("%.1f", p) }

// TeachExerciseShowMissing reveals (or hides again) the gold constituents
// the student's tree lacks.
func (a *App) TeachExerciseShowMissing() {
	x := &a.Teach.Exercise
	if x.Verdict != nil {
		x.ShowMissing = !x.ShowMissing
	}
}

// ExerciseFragment returns the URL fragment ("#exercise=...") that opens
// exercise id with the student's tree t.
func ExerciseFragment(id string, t *tree.Tree) (string, error) {
	link, err := teach.EncodeAttempt(id, t)
	if err != nil {
		return "", fmt.Errorf("share: %w", err)
	}
	return "#" + fragmentExercise + "=" + link, nil
}

// TeachExerciseShare returns the fragment that shares the current attempt
// and remembers it in Link; "" (with LinkErr set) when there is nothing to
// share.
func (a *App) TeachExerciseShare() string {
	x := &a.Teach.Exercise
	e, ok := x.exercise()
	if !ok {
		return ""
	}
	frag, err := ExerciseFragment(e.ID, x.sent.Tree())
	if err != nil {
		x.LinkErr = err.Error()
		return ""
	}
	x.Link, x.LinkErr = frag, ""
	return frag
}

// openExercise opens an exercise link's value (teach.EncodeAttempt's
// "ID~TREE", or a bare exercise id): the exercise with the student's tree,
// checked; a damaged link leaves a notice in LinkErr.
func (a *App) openExercise(value string) {
	x := &a.Teach.Exercise
	x.Opened++
	x.LinkErr = ""
	if !strings.Contains(value, "~") {
		if i := x.exerciseIndex(value); i >= 0 {
			a.exerciseStart(i, nil)
			return
		}
		x.LinkErr = fmt.Sprintf("This exercise link cannot be opened: there is no exercise %q. Pick one below.", value)
		return
	}
	e, t, err := teach.DecodeAttempt(value)
	if err == nil {
		err = t.Validate()
	}
	i := x.exerciseIndex(e.ID)
	if err == nil && i < 0 {
		err = fmt.Errorf("no exercise %q", e.ID)
	}
	if err != nil {
		x.LinkErr = "This exercise link cannot be opened: " + strings.TrimPrefix(err.Error(), "teach: ") + linkHint(err, "an exercise")
		return
	}
	a.exerciseStart(i, t)
	a.TeachExerciseCheck()
	x.Msg = "Opened a shared attempt, checked."
}

// TeachExerciseKey handles a key pressed in the exercises section (the
// DOM's KeyboardEvent.key, with ctrl for Ctrl or Cmd): the left and right
// arrows (Home, End) move the cursor over the words, space toggles the
// word under it, Enter makes a constituent of the selection, Escape clears
// the selection, Delete deletes the selected constituent; Ctrl+Z undoes,
// Ctrl+Y and Ctrl+Shift+Z redo (by the Shift key, not the letter's case,
// which Caps Lock turns). It reports whether the key was used.
func (a *App) TeachExerciseKey(key string, shift, ctrl bool) bool {
	x := &a.Teach.Exercise
	if a.Tab != TabTeach || x.sent == nil {
		return false
	}
	if ctrl {
		switch strings.ToLower(key) {
		case "z":
			if shift {
				a.TeachExerciseRedo()
			} else {
				a.TeachExerciseUndo()
			}
		case "y":
			a.TeachExerciseRedo()
		default:
			return false
		}
		return true
	}
	n := len(x.Words)
	move := func(to int) {
		x.Cursor = min(max(to, 0), n-1)
		for k := range x.Words {
			x.Words[k].Cur = k == x.Cursor
		}
	}
	switch key {
	case "ArrowRight", "Right":
		move(x.Cursor + 1)
	case "ArrowLeft", "Left":
		move(x.Cursor - 1)
	case "Home":
		move(0)
	case "End":
		move(n - 1)
	case " ", "Spacebar":
		a.TeachExerciseClickWord(x.Cursor)
	case "Enter":
		a.TeachExerciseMake()
	case "Escape", "Esc":
		a.TeachExerciseClear()
	case "Delete", "Del":
		a.TeachExerciseDelete()
	default:
		return false
	}
	return true
}
