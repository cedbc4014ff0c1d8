package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/teach"
)

// Stepper phases (Stepper.Phase).
const (
	// StepperBuild: the chart is being filled, one item per step.
	StepperBuild = "build"
	// StepperTrace: the best derivation is traced back from the goal.
	StepperTrace = "trace"
	// StepperDone: the best derivation's tree is shown.
	StepperDone = "done"
)

// Play speeds: the time between two steps.
const (
	PlaySlow   = 1000 * time.Millisecond
	PlayNormal = 400 * time.Millisecond
	PlayFast   = 120 * time.Millisecond
)

// Stepper is the chart stepper: a replay (teach.Trace) of one deduction
// system on one short sentence, and a position in it. The positions are,
// in order: every chart item as it is finalised (StepperBuild), every item
// of the best derivation from the goal down (StepperTrace), then the
// resulting tree (StepperDone).
type Stepper struct {
	// Variant is the deduction system replayed.
	Variant decode.Variant
	// Title says what is replayed ("Wh-movement", "your sentence").
	Title string
	// Gold is set when the scores are derived from a gold tree
	// (teach.GoldReplay), unset for a model's scores.
	Gold bool
	// Words and Tags are the sentence; Labels names the steps' labels.
	Words, Tags, Labels []string
	// Trace is the replay; nil when there is none (Err says why).
	Trace *teach.Trace
	// Pos is the position, 0 to Len()-1.
	Pos int
	// Playing is set while a timer steps forward; Speed is its interval.
	Playing bool
	Speed   time.Duration
	// Result is the best derivation's tree, drawn.
	Result *TreeView
	// Err says why there is no replay.
	Err string
	// Gen changes with every replay, for the keys of drawings.
	Gen int

	// best maps a step to its position in Trace.Best.
	best map[int]int
	// source is the gold tree when Gold, scores the model's scores
	// otherwise: what a change of variant replays.
	source *tree.Tree
	scores *decode.Scores
	// calibration is the model's, which each variant's replay of scores
	// adds (as the parser does).
	calibration parser.Calibration
}

// set installs a replay of words (with their tags and label names), goes
// to its first position and draws the best derivation's tree.
func (s *Stepper) set(tr *teach.Trace, words, tags, labels []string) {
	s.Trace, s.Err, s.Pos, s.Result = tr, "", 0, nil
	s.Words, s.Tags, s.Labels = words, tags, labels
	s.Gen++
	s.best = make(map[int]int, len(tr.Best))
	for x, step := range tr.Best {
		s.best[step] = x
	}
	s.drawResult()
}

// fail clears the replay and says why.
func (s *Stepper) fail(msg string) {
	s.Trace, s.Err, s.Pos, s.Result, s.best = nil, msg, 0, nil, nil
	s.Gen++
}

// Len is the number of positions: the chart's items, the best
// derivation's items, and the final tree; 0 without a replay.
func (s *Stepper) Len() int {
	if s.Trace == nil {
		return 0
	}
	return len(s.Trace.Steps) + len(s.Trace.Best) + 1
}

// Phase is the phase of the position: StepperBuild, StepperTrace or
// StepperDone ("" without a replay).
func (s *Stepper) Phase() string {
	switch {
	case s.Trace == nil:
		return ""
	case s.Pos < len(s.Trace.Steps):
		return StepperBuild
	case s.Pos < len(s.Trace.Steps)+len(s.Trace.Best):
		return StepperTrace
	}
	return StepperDone
}

// Seek goes to position pos, clamped to the valid positions.
func (s *Stepper) Seek(pos int) {
	s.Pos = max(0, min(pos, s.Len()-1))
}

// Next steps forward; it reports false at the last position.
func (s *Stepper) Next() bool {
	if s.Pos+1 >= s.Len() {
		return false
	}
	s.Pos++
	return true
}

// Prev steps back; it reports false at the first position.
func (s *Stepper) Prev() bool {
	if s.Pos <= 0 {
		return false
	}
	s.Pos--
	return true
}

// AtEnd reports whether the position is the last one.
func (s *Stepper) AtEnd() bool { return s.Pos >= s.Len()-1 }

// Current is the step highlighted at the position: the item finalised
// (building) or the item of the best derivation reached (tracing back);
// -1 at the end or without a replay.
func (s *Stepper) Current() int {
	switch s.Phase() {
	case StepperBuild:
		return s.Pos
	case StepperTrace:
		return s.Trace.Best[s.Pos-len(s.Trace.Steps)]
	}
	return -1
}

// built reports whether step x is in the chart at the position.
func (s *Stepper) built(x int) bool {
	return s.Phase() != StepperBuild || x <= s.Pos
}

// revealed reports whether step x is a best-derivation item already
// traced back at the position.
func (s *Stepper) revealed(x int) bool {
	b, ok := s.best[x]
	if !ok {
		return false
	}
	switch s.Phase() {
	case StepperTrace:
		return b <= s.Pos-len(s.Trace.Steps)
	case StepperDone:
		return true
	}
	return false
}

// InBest reports whether step x is in the best derivation.
func (s *Stepper) InBest(x int) bool {
	_, ok := s.best[x]
	return ok
}

// label names a step's label ("" for the null label).
func (s *Stepper) label(st teach.Step) string {
	if st.Label < 0 || st.Label >= len(s.Labels) {
		return ""
	}
	return s.Labels[st.Label]
}

// itemWords writes the words of an item, "…" standing for its gap.
func (s *Stepper) itemWords(it teach.Item) string {
	var parts []string
	for x, b := range it.Blocks() {
		if x > 0 {
			parts = append(parts, "…")
		}
		if b[0] >= 0 && b[1] <= len(s.Words) {
			parts = append(parts, s.Words[b[0]:b[1]]...)
		}
	}
	return strings.Join(parts, " ")
}

// Status describes the position for the controls, e.g. "step 12 of 30:
// building the chart".
func (s *Stepper) Status() string {
	if s.Trace == nil {
		return ""
	}
	nSteps, nBest := len(s.Trace.Steps), len(s.Trace.Best)
	switch s.Phase() {
	case StepperBuild:
		return fmt.Sprintf("item %d of %d: building the chart", s.Pos+1, nSteps)
	case StepperTrace:
		return fmt.Sprintf("best derivation, item %d of %d: tracing back from the goal", s.Pos-nSteps+1, nBest)
	}
	return fmt.Sprintf("done: %s built, the best derivation has %d, score %s", Count(nSteps, "item"), nBest, ScoreString(s.Trace.Score))
}

// ScoreString writes a score as the teaching tab shows it.
func ScoreString(f float32) string { return fmt.Sprintf("%.4f", f) }

// ChartCell is one chart item as the stepper draws it.
type ChartCell struct {
	// Step indexes Trace.Steps; -1 for an item not built (yet).
	Step int
	// Item is "[i,j]" or "[i,k,l,j]", Label the item's label ("·" for
	// the null label, "" when not built).
	Item, Label string
	// Class lists the cell's CSS classes: "cell" with "built",
	// "current", "left", "right", "best", "ruleuse", "disc".
	Class string
	// Style places a continuous cell in the triangle's CSS grid.
	Style string
	// Title is the tooltip: words, label, score, rule.
	Title string
}

// cell describes step x (or, x < 0, the unbuilt item it).
func (s *Stepper) cell(x int, it teach.Item, rule decode.Rule) ChartCell {
	c := ChartCell{Step: -1, Item: it.String(), Class: "cell"}
	if !it.Continuous() {
		c.Class += " disc"
	}
	if x < 0 {
		c.Title = it.String() + " " + s.itemWords(it) + ": " + s.Variant.String() + " cannot build it"
		c.Class += " none"
		return c
	}
	if !s.built(x) {
		c.Title = it.String() + " " + s.itemWords(it) + ": not built yet"
		if rule != decode.Axiom && s.Trace.Steps[x].Rule == rule && s.InBest(x) {
			c.Class += " ruleuse" // the chosen rule's uses show before they are built
		}
		return c
	}
	st := s.Trace.Steps[x]
	c.Step = x
	c.Label = s.label(st)
	if c.Label == "" {
		c.Label = "·"
	}
	c.Class += " built"
	cur := s.Current()
	switch {
	case x == cur:
		c.Class += " current"
	case cur >= 0 && x == s.Trace.Steps[cur].Left:
		c.Class += " left"
	case cur >= 0 && x == s.Trace.Steps[cur].Right:
		c.Class += " right"
	}
	if s.revealed(x) {
		c.Class += " best"
	}
	if rule != decode.Axiom && st.Rule == rule && s.InBest(x) {
		c.Class += " ruleuse"
	}
	c.Title = fmt.Sprintf("%s %s: %s, inside %s, by %s", it, s.itemWords(it), labelOrNull(s.label(st)), ScoreString(st.Inside), st.Rule)
	return c
}

// labelOrNull names a label for display.
func labelOrNull(l string) string {
	if l == "" {
		return "null label"
	}
	return l
}

// ContCells returns the continuous items as a triangle: every span [i,j]
// at row n-(j-i)+1 of a CSS grid of 2n columns, centred over its words;
// rule marks the best derivation's items it built.
func (s *Stepper) ContCells(rule decode.Rule) []ChartCell {
	if s.Trace == nil {
		return nil
	}
	n := s.Trace.N
	index := make(map[teach.Item]int, len(s.Trace.Steps))
	for x, st := range s.Trace.Steps {
		index[st.Item] = x
	}
	out := make([]ChartCell, 0, n*(n+1)/2)
	for span := n; span >= 1; span-- {
		for i := 0; i+span <= n; i++ {
			it := teach.Item{I: i, K: -1, L: -1, J: i + span}
			x, ok := index[it]
			if !ok {
				x = -1
			}
			c := s.cell(x, it, rule)
			c.Style = fmt.Sprintf("grid-column:%d / span 2;grid-row:%d", 2*i+span, n-span+1)
			out = append(out, c)
		}
	}
	return out
}

// WordCells returns the words under the triangle (Label is the word).
func (s *Stepper) WordCells() []ChartCell {
	if s.Trace == nil {
		return nil
	}
	out := make([]ChartCell, len(s.Words))
	for i, w := range s.Words {
		out[i] = ChartCell{Step: -1, Item: fmt.Sprint(i), Label: w, Class: "word",
			Style: fmt.Sprintf("grid-column:%d / span 2;grid-row:%d", 2*i+1, s.Trace.N+1)}
	}
	return out
}

// MaxDiscCells bounds the discontinuous items (n3's bottom items) the
// chart lists at a time: a 12-word sentence with the model's labels has
// 1,848 bottom items, and drawing them all at every step took 0.4-0.8 s.
const MaxDiscCells = 60

// DiscCells returns the discontinuous items (n3's bottom items) to list,
// at most MaxDiscCells: the current item and its antecedents; while the
// chart is built, the best derivation's items that rule (the chosen one)
// built so far, then the latest items, newest first; once it is built,
// the best derivation's items, then the latest.
func (s *Stepper) DiscCells(rule decode.Rule) []ChartCell {
	if s.Trace == nil {
		return nil
	}
	var pick []int
	seen := map[int]bool{}
	add := func(x int) {
		if x >= 0 && !seen[x] && !s.Trace.Steps[x].Item.Continuous() && s.built(x) && len(pick) < MaxDiscCells {
			seen[x] = true
			pick = append(pick, x)
		}
	}
	if cur := s.Current(); cur >= 0 {
		add(cur)
		add(s.Trace.Steps[cur].Left)
		add(s.Trace.Steps[cur].Right)
	}
	for _, x := range s.Trace.Best {
		// Once built, the best derivation's items; while building, those
		// of the chosen rule (marked "ruleuse") built so far.
		if s.Phase() != StepperBuild || rule != decode.Axiom && s.Trace.Steps[x].Rule == rule {
			add(x)
		}
	}
	last := len(s.Trace.Steps) - 1
	if s.Phase() == StepperBuild {
		last = s.Pos
	}
	for x := last; x >= 0 && len(pick) < MaxDiscCells; x-- {
		add(x)
	}
	out := make([]ChartCell, len(pick))
	for k, x := range pick {
		out[k] = s.cell(x, s.Trace.Steps[x].Item, rule)
	}
	return out
}

// DiscCount counts the discontinuous items of the whole replay.
func (s *Stepper) DiscCount() int {
	if s.Trace == nil {
		return 0
	}
	n := 0
	for _, st := range s.Trace.Steps {
		if !st.Item.Continuous() {
			n++
		}
	}
	return n
}

// DiscBuilt counts the discontinuous items built at the position.
func (s *Stepper) DiscBuilt() int {
	if s.Trace == nil {
		return 0
	}
	n := 0
	for x, st := range s.Trace.Steps {
		if !s.built(x) {
			break
		}
		if !st.Item.Continuous() {
			n++
		}
	}
	return n
}

// StepItem is one item of the stepper as the detail panel shows it.
type StepItem struct {
	Step  int
	Item  string // "[i,k,l,j]" or "bottom(i,l)"
	Words string
	Label string // "null label" for none
	// Inside is the item's inside score, Weight its label's (a bottom
	// item's: its gap weight, WeightName says which).
	Inside, Weight, WeightName string
}

// StepInfo is the detail panel of the current item: the item, the rule
// instance that built it best, and a picture of the instance over the
// words.
type StepInfo struct {
	StepItem
	Rule string
	// Axiom is set for single words, which no rule builds.
	Axiom bool
	// RuleDiagram is the rule's diagram (teach.RuleInfo.Diagram), Key
	// names it.
	RuleDiagram, RuleKey string
	// Form and Condition are the rule's.
	Form, Condition string
	// Left and Right are the antecedents (nil for an axiom).
	Left, Right *StepItem
	// Instances counts the rule instances that can build the item.
	Instances int
	// Disc, for an item built by complete discontinuous, says the disc
	// weight of the discontinuous constituent completed, which the inside
	// score adds to the antecedents' and the label's ("" otherwise).
	Disc string
	// Picture draws the consequent and its antecedents over the words,
	// PictureKey names it.
	Picture, PictureKey string
	// Caption says where in the replay the item is.
	Caption string
}

// stepItem describes step x.
func (s *Stepper) stepItem(x int) *StepItem {
	st := s.Trace.Steps[x]
	weightName := "label weight"
	if st.Item.Bottom() {
		weightName = "gap weight"
	}
	return &StepItem{Step: x, Item: st.Item.String(), Words: s.itemWords(st.Item), Label: labelOrNull(s.label(st)),
		Inside: ScoreString(st.Inside), Weight: ScoreString(st.Weight), WeightName: weightName}
}

// Info describes the current item; nil at the end or without a replay.
func (s *Stepper) Info() *StepInfo {
	x := s.Current()
	if x < 0 {
		return nil
	}
	st := s.Trace.Steps[x]
	info := &StepInfo{StepItem: *s.stepItem(x), Rule: st.Rule.String(), Instances: st.Instances}
	if s.Phase() == StepperBuild {
		info.Caption = fmt.Sprintf("Item %d of %d finalised", x+1, len(s.Trace.Steps))
	} else {
		info.Caption = fmt.Sprintf("Best derivation: item %d of %d", s.Pos-len(s.Trace.Steps)+1, len(s.Trace.Best))
	}
	var left, right teach.Item
	if st.Rule == decode.Axiom {
		info.Axiom = true
		info.Rule = "axiom (a single word)"
	} else {
		info.Left, info.Right = s.stepItem(st.Left), s.stepItem(st.Right)
		left, right = s.drawn(st.Left), s.drawn(st.Right)
		if st.Rule == decode.CompleteDisc {
			b := s.Trace.Steps[st.Left]
			info.Disc = fmt.Sprintf("%s, of the discontinuous %s completed: disc[%d,%d,%s]", ScoreString(st.Disc), labelOrNull(s.label(b)), st.Item.I, st.Item.J-1, labelOrNull(s.label(b)))
		}
		if r, ok := teach.RuleByID(st.Rule); ok {
			info.RuleDiagram = r.Diagram(false) // coloured as the picture of the instance
			info.RuleKey = fmt.Sprintf("rule-%d", st.Rule)
			info.Form, info.Condition = r.Form(), r.Condition
		}
	}
	info.Picture = instanceSVG(s.Words, s.drawn(x), left, right, !info.Axiom)
	info.PictureKey = fmt.Sprintf("step-%d-%d", s.Gen, x)
	return info
}

// drawn is step x's item for a picture: a bottom item with K set to the
// end of its left block (its best split), which the item itself forgets.
func (s *Stepper) drawn(x int) teach.Item {
	st := s.Trace.Steps[x]
	it := st.Item
	if it.Bottom() && st.Left >= 0 {
		it.K = s.Trace.Steps[st.Left].Item.J
	}
	return it
}

// RuleUses lists the best derivation's items that rule r built.
func (s *Stepper) RuleUses(r decode.Rule) []StepItem {
	if s.Trace == nil || r == decode.Axiom {
		return nil
	}
	var out []StepItem
	for _, x := range s.Trace.Uses(r) {
		out = append(out, *s.stepItem(x))
	}
	return out
}

// drawResult draws the best derivation's tree.
func (s *Stepper) drawResult() {
	if s.Trace == nil {
		return
	}
	t, err := s.Trace.Derivation().Tree(s.Words, s.Tags, s.Labels)
	if err != nil {
		s.Result = &TreeView{ID: "teach-result", Err: err.Error()}
		return
	}
	s.Result = newTreeView("teach-result", fmt.Sprintf("%s: the best tree of %s", s.Title, s.Variant), t, nil, nil, nil)
}
