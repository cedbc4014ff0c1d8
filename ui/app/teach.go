package app

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/teach"
)

// TabTeach is the teaching tab: the deduction rules, the chart stepper,
// what each variant can build, the gallery and shared tree links.
const TabTeach = "teach"

// CompareMaxWords bounds the trees whose buildability is computed for
// every variant: the O(n^6) system's chart grows fast, and this runs in
// the page.
const CompareMaxWords = 25

// ComparedVariants returns the variants the comparison shows side by
// side: n3 stands for n4 too (the same search space).
func ComparedVariants() []decode.Variant {
	return []decode.Variant{decode.Continuous, decode.N3, decode.N5WN, decode.N6}
}

// TeachState is the teaching tab. Its exported fields are read by the
// components; change them only through the App's Teach* methods.
type TeachState struct {
	// Rule is the rule chosen in the rule list, decode.Axiom for none.
	Rule decode.Rule
	// ParseUses are the items of the current parse (the sentence tab's
	// main tree) that Rule built, and UsesView that parse's tree with the
	// nodes they label marked ("ruleuse"); nil without a parse or rule.
	ParseUses []RuleUse
	UsesView  *TreeView
	// Stepper is the chart stepper.
	Stepper Stepper
	// Shown is the tree of the comparison view: a gallery example or a
	// shared tree.
	Shown *ShownTree
	// Gallery lists the classic discontinuities, drawn.
	Gallery []GalleryEntry
	// Link is the fragment of the last tree shared ("#tree=..."); LinkErr
	// says why a link could not be opened or made.
	Link, LinkErr string
	// Opened counts the links opened, so that the page can bring each
	// shared tree into view once.
	Opened int
	// Exercise is the exercises section: the student builds a gallery
	// sentence's tree and checks it (teach_exercise.go).
	Exercise ExerciseState
	// Section is the section shown (teach_section.go; "" for the
	// stepper).
	Section string

	ready     bool
	rules     []teach.RuleInfo
	usesSeq   int // Parse.Seq that ParseUses were found for
	stopPlay  chan struct{}
	newTicker func(time.Duration) Ticker
}

// RuleUse is one item of a parse's derivation built by the chosen rule.
type RuleUse struct {
	Item  string // "[i,j]" or "[i,k,l,j]"
	Label string // "null label" for an item without one
	Words string
	Score string // inside score
	// Node is the tree node the item labels, -1 for a null item.
	Node int
}

// GalleryEntry is one example of the gallery, drawn.
type GalleryEntry struct {
	Example teach.Example
	// View is the drawn tree: nil until the gallery is first shown.
	View *TreeView
	Err  string

	tree *tree.Tree // the example's tree, nil when Err says why
}

// ShownTree is the tree of the comparison view with what each variant of
// ComparedVariants builds of it.
type ShownTree struct {
	Title, Language, Explanation string
	// Example indexes the gallery, -1 for a shared tree.
	Example int
	Tree    *tree.Tree
	View    *TreeView
	Builds  []VariantBuild
	// Err says why the comparison is missing.
	Err string

	pending bool // View and Builds are not computed yet (teachShowLater)
}

// VariantBuild is what one variant builds of the shown tree.
type VariantBuild struct {
	Variant decode.Variant
	Name    string // "n3 (= n4)" for n3
	// View is the tree with the constituents found ("match") and missing
	// ("miss") marked.
	View           *TreeView
	Found, Missing []string
	Complete       bool
}

// Ticker delivers the ticks that play the stepper: a time.Ticker in the
// app, a channel the test controls in tests.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// clockTicker is a Ticker over time.Ticker.
type clockTicker struct{ t *time.Ticker }

func (c clockTicker) C() <-chan time.Time { return c.t.C }
func (c clockTicker) Stop()               { c.t.Stop() }

// SetTicker replaces the source of the stepper's play ticks (tests give
// one they control); nil restores the clock.
func (a *App) SetTicker(f func(interval time.Duration) Ticker) { a.Teach.newTicker = f }

// teachInit prepares the tab the first time it is shown: the rules, the
// gallery's drawings, the first example in the stepper and the comparison.
func (a *App) teachInit() {
	t := &a.Teach
	if t.ready {
		return
	}
	t.ready = true
	t.rules = append(teach.Rules(), teach.CubicRules()...)
	t.Stepper.Speed = PlayNormal
	t.Stepper.Variant = decode.N3
	for _, ex := range teach.Gallery() {
		e := GalleryEntry{Example: ex}
		if tr, err := ex.Tree(); err != nil {
			e.Err = err.Error()
		} else {
			e.tree = tr
		}
		t.Gallery = append(t.Gallery, e)
	}
	if len(t.Gallery) > 0 {
		a.TeachLoadExample(0)
	}
	a.exerciseInit()
}

// TeachRuleCard is one rule of the rule list.
type TeachRuleCard struct {
	teach.RuleInfo
	// ID is the rule's number (decode.Rule).
	ID int
	// Diagram is the rule's picture, Key names it.
	Diagram, Key string
	Chosen       bool
	// InParse and InStepper count the rule's uses in the current parse's
	// derivation and in the stepper's best derivation.
	InParse, InStepper int
}

// TeachRuleCards lists the twelve rules in decoder.md's order, then the
// cubic algorithm's two (n3's).
func (a *App) TeachRuleCards() []TeachRuleCard {
	t := &a.Teach
	d := a.Parse.Derivation()
	out := make([]TeachRuleCard, 0, len(t.rules))
	for _, r := range t.rules {
		chosen := r.Rule == t.Rule
		c := TeachRuleCard{RuleInfo: r, ID: int(r.Rule), Diagram: r.Diagram(chosen),
			Key: fmt.Sprintf("rule-%d-%v", r.Rule, chosen), Chosen: chosen}
		if d != nil {
			c.InParse = len(teach.Applications(d, r.Rule))
		}
		if t.Stepper.Trace != nil {
			c.InStepper = len(t.Stepper.Trace.Uses(r.Rule))
		}
		out = append(out, c)
	}
	return out
}

// Derivation returns the decoder's derivation of the main tree (labels
// index the model's labels), nil before a parse.
func (p *ParseState) Derivation() *decode.Derivation {
	if p.Main == nil || p.Main.Parse == nil || p.Main.Tree == nil {
		return nil
	}
	v, _ := decode.ParseVariant(p.Main.Parse.Variant)
	return &decode.Derivation{Variant: v, N: p.Main.Tree.Len(), Score: p.Main.Parse.Score, Items: p.Main.Parse.Items}
}

// TeachChooseRule chooses rule r (its number) to highlight where it
// applied, or clears the choice when r is chosen already or is no rule.
func (a *App) TeachChooseRule(r int) {
	t := &a.Teach
	if decode.Rule(r) == t.Rule || r <= int(decode.Axiom) || r > int(decode.CompleteDisc) {
		t.Rule = decode.Axiom
	} else {
		t.Rule = decode.Rule(r)
	}
	a.teachFindUses()
}

// teachParsed follows a new parse of the sentence tab.
func (a *App) teachParsed() {
	if a.Teach.ready {
		a.teachFindUses()
	}
}

// teachFindUses finds the chosen rule's uses in the current parse and
// draws the parse's tree with them marked.
func (a *App) teachFindUses() {
	t := &a.Teach
	t.ParseUses, t.UsesView, t.usesSeq = nil, nil, a.Parse.Seq
	d := a.Parse.Derivation()
	if t.Rule == decode.Axiom || d == nil {
		return
	}
	main := a.Parse.Main
	labels := a.labels()
	classes := map[int]string{}
	for _, it := range teach.Applications(d, t.Rule) {
		u := RuleUse{Item: itemString(it), Label: "null label", Score: ScoreString(it.Score), Node: -1,
			Words: coveredWords(main.Tree, spans(it.Blocks()))}
		if it.Label >= 0 && it.Label < len(labels) {
			u.Label = labels[it.Label]
			chain := strings.Split(labels[it.Label], tree.ChainSep)
			for _, n := range main.Nodes {
				if sameBlocks(it.Blocks(), n.Blocks) && slices.Contains(chain, n.Label) {
					classes[n.Index] = "ruleuse"
					if u.Node < 0 {
						u.Node = n.Index
					}
				}
			}
		}
		t.ParseUses = append(t.ParseUses, u)
	}
	t.UsesView = newTreeView("teach-parse", fmt.Sprintf("Your parse (%s): %s", main.Parse.Variant, t.Rule), main.Tree, main.Parse, labels, classes)
}

// itemString writes a derivation item as decoder.md does.
func itemString(it decode.Item) string {
	if it.Discontinuous() {
		return fmt.Sprintf("[%d,%d,%d,%d]", it.I, it.K, it.L, it.J)
	}
	return fmt.Sprintf("[%d,%d]", it.I, it.J)
}

// spans converts blocks to tree spans.
func spans(blocks [][2]int) []tree.Span {
	out := make([]tree.Span, len(blocks))
	for x, b := range blocks {
		out[x] = tree.Span{Start: b[0], End: b[1]}
	}
	return out
}

// TeachLoadExample loads gallery example i into the stepper (with the
// smallest variant that builds it whole) and makes it the comparison's
// tree (compared once the comparison is shown).
func (a *App) TeachLoadExample(i int) {
	t := &a.Teach
	if i < 0 || i >= len(t.Gallery) || t.Gallery[i].tree == nil {
		return
	}
	ex := t.Gallery[i].Example
	a.teachLoadTree(ex.Title, t.Gallery[i].tree, ex.Smallest)
	t.Shown = a.exampleShown(i)
	t.Shown.pending = true
	if a.TeachShown() == TeachSectionVariants {
		a.teachShow(t.Shown)
	}
}

// TeachShowExample shows gallery example i in the comparison.
func (a *App) TeachShowExample(i int) {
	if i < 0 || i >= len(a.Teach.Gallery) || a.Teach.Gallery[i].tree == nil {
		return
	}
	a.teachShow(a.exampleShown(i))
}

// TeachCompareView shows the tree of view id (the Sentence tab's parse,
// its gold tree, a treebank's tree) in the Teaching tab's comparison of
// what each variant builds, from where its link can be sent.
func (a *App) TeachCompareView(id string) {
	v := a.view(id)
	if v == nil || v.Tree == nil {
		a.noteErr("no tree to compare")
		return
	}
	t := v.Tree.Clone()
	if t.ID == "" {
		t.ID = "sentence"
	}
	a.SetTab(TabTeach)
	a.TeachSetSection(TeachSectionVariants)
	a.teachShow(&ShownTree{Title: v.Title, Example: -1, Tree: t})
}

// exampleShown is gallery example i as the comparison's tree, not yet
// compared.
func (a *App) exampleShown(i int) *ShownTree {
	ex := a.Teach.Gallery[i].Example
	return &ShownTree{Title: ex.Title, Language: ex.Language, Explanation: ex.Explanation, Example: i, Tree: a.Teach.Gallery[i].tree}
}

// teachDrawGallery draws the gallery's trees, once.
func (a *App) teachDrawGallery() {
	for x := range a.Teach.Gallery {
		e := &a.Teach.Gallery[x]
		if e.View == nil && e.tree != nil {
			e.View = newTreeView(fmt.Sprintf("gallery-%d", x), e.Example.Title, e.tree, nil, nil, nil)
		}
	}
}

// teachShow draws a tree for the comparison and finds what each variant
// builds of it.
func (a *App) teachShow(sh *ShownTree) {
	a.Teach.Shown = sh
	sh.pending, sh.Builds, sh.Err = false, nil, ""
	sh.View = newTreeView("teach-shown", sh.Title, sh.Tree, nil, nil, nil)
	if n := sh.Tree.Len(); n > CompareMaxWords {
		sh.Err = fmt.Sprintf("The tree has %d words: the comparison of the variants runs in this page for trees of at most %d.", n, CompareMaxWords)
		return
	}
	builds, err := teach.CompareVariants(sh.Tree, ComparedVariants())
	if err != nil {
		sh.Err = err.Error()
		return
	}
	for _, b := range builds {
		vb := VariantBuild{Variant: b.Variant, Name: b.Variant.String(), Complete: b.Complete()}
		if b.Variant == decode.N3 {
			vb.Name = "n3 (= n4)"
		}
		for _, c := range b.Found {
			vb.Found = append(vb.Found, c.String())
		}
		for _, c := range b.Missing {
			vb.Missing = append(vb.Missing, c.String())
		}
		vb.View = newTreeView("teach-"+b.Variant.String(), vb.Name, sh.Tree, nil, nil, buildClasses(sh.Tree, b.Found))
		sh.Builds = append(sh.Builds, vb)
	}
}

// buildClasses marks the nodes of t that one of found (unary chains
// merged) stands for with "match", the others with "miss".
func buildClasses(t *tree.Tree, found []tree.Labelled) map[int]string {
	classes := make(map[int]string, len(t.Nodes))
	for i, y := range t.Yields() {
		blocks := tree.Blocks(y)
		classes[i] = "miss"
		for _, c := range found {
			if slices.Equal(c.Blocks, blocks) && slices.Contains(strings.Split(c.Label, tree.ChainSep), t.Nodes[i].Label) {
				classes[i] = "match"
				break
			}
		}
	}
	return classes
}

// teachLoadTree replays variant v on the gold-derived scores of t.
func (a *App) teachLoadTree(title string, t *tree.Tree, v decode.Variant) {
	a.teachStopPlay()
	s := &a.Teach.Stepper
	s.Variant, s.Title, s.Gold, s.scores = v, title, true, nil
	s.source = t
	if t.Len() > teach.MaxStepperWords {
		s.fail(fmt.Sprintf("%s has %d words: the stepper replays sentences of at most %d.", title, t.Len(), teach.MaxStepperWords))
		return
	}
	tr, cons, err := teach.GoldReplay(context.Background(), t, v)
	if err != nil {
		s.fail(err.Error())
		return
	}
	labels := make([]string, len(cons))
	for x, c := range cons {
		labels[x] = c.Label
	}
	s.set(tr, t.Words(), t.Tags(), labels)
}

// TeachSetVariant replays the stepper's sentence with another variant
// (named as decode names them).
func (a *App) TeachSetVariant(name string) {
	v, err := decode.ParseVariant(name)
	s := &a.Teach.Stepper
	if err != nil || v == s.Variant && s.Trace != nil {
		return
	}
	switch {
	case s.Gold && s.source != nil:
		a.teachLoadTree(s.Title, s.source, v)
	case s.scores != nil:
		a.teachStopPlay()
		s.Variant = v
		tr, err := teach.Replay(context.Background(), v, s.calibration.Shifted(v, s.scores))
		if err != nil {
			s.fail(err.Error())
			return
		}
		s.set(tr, s.Words, s.Tags, s.Labels)
	default:
		s.Variant = v
	}
}

// TeachSentenceTooLong says, as a sentence to show beside the stepper's
// button, that the Sentence tab's sentence is too long for the stepper;
// "" when it is not.
func (a *App) TeachSentenceTooLong() string {
	if n := len(a.Parse.Words()); n > teach.MaxStepperWords {
		return fmt.Sprintf("The Sentence tab's sentence has %d words: the stepper replays at most %d (shorten it there, or choose an example).", n, teach.MaxStepperWords)
	}
	return ""
}

// TeachSentenceBlocked says why the sentence tab's sentence cannot be
// replayed with the model's scores now; "" when it can.
func (a *App) TeachSentenceBlocked() string {
	n := len(a.Parse.Words())
	switch {
	case !a.Model.Ready():
		return "no model is loaded yet"
	case a.Job != nil:
		return "the app is busy"
	case a.Parse.Tokenizing():
		return "the sentence tab's text is being tokenized"
	case n == 0:
		return "the sentence tab has no sentence"
	case n > teach.MaxStepperWords:
		return fmt.Sprintf("the sentence has %d words: the stepper replays at most %d", n, teach.MaxStepperWords)
	}
	return ""
}

// TeachUseSentence replays the sentence tab's sentence with the model's
// own scores (asked of the engine in the background).
func (a *App) TeachUseSentence() {
	a.Parse.settle()
	if a.TeachSentenceBlocked() != "" {
		return
	}
	words := a.Parse.Words()
	v := a.Teach.Stepper.Variant
	labels := a.labels()
	ctx, job := a.startJob(fmt.Sprintf("scoring %d words for the stepper", len(words)), 0)
	go func() {
		p, err := a.engine.Parse(ctx, parser.Request{Words: words, Variant: v.String(), Scores: true})
		var tr *teach.Trace
		if err == nil && p.Scores == nil {
			err = errors.New("the parser returned no scores")
		}
		if err == nil {
			tr, err = teach.Replay(ctx, v, p.Calibration.Shifted(v, p.Scores))
		}
		a.update(func() {
			a.finishJob(job)
			a.teachStopPlay()
			s := &a.Teach.Stepper
			s.Variant, s.Title, s.Gold, s.source, s.scores = v, "Your sentence", false, nil, nil
			if err != nil {
				s.fail("could not replay your sentence: " + describeParseError(err, len(words)))
				return
			}
			s.scores, s.calibration = p.Scores, p.Calibration
			s.set(tr, p.Words, p.Tags, labels)
		})
	}()
}

// TeachFirst, TeachPrev, TeachNext, TeachLast and TeachSeek move the
// stepper (and stop it playing).
func (a *App) TeachFirst() { a.teachStopPlay(); a.Teach.Stepper.Seek(0) }

// TeachPrev steps back.
func (a *App) TeachPrev() { a.teachStopPlay(); a.Teach.Stepper.Prev() }

// TeachNext steps forward.
func (a *App) TeachNext() { a.teachStopPlay(); a.Teach.Stepper.Next() }

// TeachLast goes to the end: the best derivation's tree.
func (a *App) TeachLast() { a.teachStopPlay(); a.Teach.Stepper.Seek(a.Teach.Stepper.Len() - 1) }

// TeachSeek goes to position pos.
func (a *App) TeachSeek(pos int) { a.teachStopPlay(); a.Teach.Stepper.Seek(pos) }

// TeachSetSpeed sets the interval of play (within 50 ms and 5 s).
func (a *App) TeachSetSpeed(d time.Duration) {
	s := &a.Teach.Stepper
	s.Speed = min(5*time.Second, max(50*time.Millisecond, d))
	if s.Playing {
		a.teachStopPlay()
		a.teachStartPlay()
	}
}

// TeachPlay starts playing the stepper (from the start when it is at the
// end), or pauses it.
func (a *App) TeachPlay() {
	s := &a.Teach.Stepper
	if s.Playing {
		a.teachStopPlay()
		return
	}
	if s.Len() == 0 {
		return
	}
	if s.AtEnd() {
		s.Seek(0)
	}
	a.teachStartPlay()
}

// teachStartPlay starts the play ticker: each tick steps forward, until
// the end or a pause.
func (a *App) teachStartPlay() {
	t := &a.Teach
	s := &t.Stepper
	newTicker := t.newTicker
	if newTicker == nil {
		newTicker = func(d time.Duration) Ticker { return clockTicker{time.NewTicker(d)} }
	}
	if s.Speed <= 0 {
		s.Speed = PlayNormal
	}
	tk := newTicker(s.Speed)
	stop := make(chan struct{})
	t.stopPlay, s.Playing = stop, true
	go func() {
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C():
			}
			ended := false
			a.update(func() {
				select {
				case <-stop:
					ended = true
					return
				default:
				}
				if !s.Next() || s.AtEnd() {
					a.teachStopPlay()
					ended = true
				}
			})
			if ended {
				return
			}
			// Let the page draw this step and answer input before the
			// next: when a step takes longer to draw than the interval, a
			// tick is always waiting, and without a turn for the page it
			// froze until the end (110 s for 1,926 items at the fast speed).
			a.yieldPage()
		}
	}()
}

// yieldPage returns once the page has had a turn (Platform.Yield); the
// caller must not hold the Env's lock.
func (a *App) yieldPage() {
	if a.plat != nil {
		a.plat.Yield()
		return
	}
	runtime.Gosched()
}

// teachStopPlay pauses the stepper.
func (a *App) teachStopPlay() {
	t := &a.Teach
	if t.stopPlay != nil {
		close(t.stopPlay)
		t.stopPlay = nil
	}
	t.Stepper.Playing = false
}

// TeachKey handles a key pressed on the teaching tab (the DOM's
// KeyboardEvent.key): the left and right arrows step, space plays or
// pauses, Home and End go to the ends. It reports whether the key was
// used. They work while the stepper is shown.
func (a *App) TeachKey(key string) bool {
	if a.Tab != TabTeach || a.TeachShown() != TeachSectionStepper || a.Teach.Stepper.Len() == 0 {
		return false
	}
	switch key {
	case "ArrowRight", "Right":
		a.TeachNext()
	case "ArrowLeft", "Left":
		a.TeachPrev()
	case " ", "Spacebar":
		a.TeachPlay()
	case "Home":
		a.TeachFirst()
	case "End":
		a.TeachLast()
	default:
		return false
	}
	return true
}
