package components

import (
	"fmt"
	"strconv"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
)

// TeachStepper is the chart stepper: the sentence and variant, the player
// controls, the chart (a triangle of continuous items over the words and
// the discontinuous items built so far), the current item with the rule
// instance that built it, and at the end the best derivation's tree.
//
// The section carries data attributes for tests: data-pos, data-len,
// data-steps (items built), data-best (items of the best derivation),
// data-score (the goal's inside score, app.ScoreString), data-phase,
// data-playing, data-variant, data-gold (1 for gold-derived scores) and
// data-gen (changes with every replay).
type TeachStepper struct {
	App *app.App
	// cur is the current item, computed once per render.
	cur *app.StepInfo
}

// Compute runs before every render.
func (c *TeachStepper) Compute(vugu.ComputeCtx) { c.cur = c.App.Teach.Stepper.Info() }

// s is the stepper.
func (c *TeachStepper) s() *app.Stepper { return &c.App.Teach.Stepper }

// steps is the number of items built, "" without a replay.
func (c *TeachStepper) steps() string {
	if t := c.s().Trace; t != nil {
		return strconv.Itoa(len(t.Steps))
	}
	return ""
}

// best is the number of items of the best derivation.
func (c *TeachStepper) best() string {
	if t := c.s().Trace; t != nil {
		return strconv.Itoa(len(t.Best))
	}
	return ""
}

// score is the goal's inside score.
func (c *TeachStepper) score() string {
	if t := c.s().Trace; t != nil {
		return app.ScoreString(t.Score)
	}
	return ""
}

// playing is "1" while playing.
func (c *TeachStepper) playing() string {
	if c.s().Playing {
		return "1"
	}
	return "0"
}

// playLabel is the play button's text.
func (c *TeachStepper) playLabel() string {
	if c.s().Playing {
		return "‖ pause"
	}
	return "▶ play"
}

// fromGallery reports whether the stepper replays a gallery example.
func (c *TeachStepper) fromGallery() bool {
	for _, e := range c.App.Teach.Gallery {
		if c.isSource(e.Example.Title) {
			return true
		}
	}
	return false
}

// isSource reports whether the stepper replays the example with the
// title.
func (c *TeachStepper) isSource(title string) bool { return c.s().Gold && c.s().Title == title }

// source loads the chosen example.
func (c *TeachStepper) source(event vugu.DOMEvent) {
	if i, err := strconv.Atoi(event.PropString("target", "value")); err == nil {
		c.App.TeachLoadExample(i)
	}
}

// sentenceTitle explains the sentence button.
func (c *TeachStepper) sentenceTitle() string {
	if why := c.App.TeachSentenceBlocked(); why != "" {
		return "not now: " + why
	}
	return "replay the Sentence tab's sentence with the model's own scores"
}

// variants are the decoder variants' names.
func (c *TeachStepper) variants() []string { return app.Variants() }

// n3Note says, while n3 is chosen, what its items are.
func (c *TeachStepper) n3Note() string {
	if c.s().Variant != decode.N3 {
		return ""
	}
	return "n3 is the paper's cubic algorithm. It finds the same trees as n4, but its discontinuous items forget where the gap starts: " +
		"bottom(i,l) with label A holds a discontinuous A whose left block and gap filler cover [i,l) and whose right block will start at l, " +
		"one item per label. Create partial discontinuous builds them, complete discontinuous adds the right block: O(n³) work, where n4's chart holds O(n⁴) items. " +
		"Like the decoder, the stepper also builds the bottom items that end at the last word, which nothing can complete."
}

// what says what is replayed.
func (c *TeachStepper) what() string {
	s := c.s()
	if len(s.Words) == 0 {
		return ""
	}
	scores := "the model's scores"
	if s.Gold {
		scores = "scores from the gold tree"
	}
	return fmt.Sprintf("%s (%s, %s)", s.Title, app.Count(len(s.Words), "word"), scores)
}

// maxPos is the slider's maximum.
func (c *TeachStepper) maxPos() string { return strconv.Itoa(max(0, c.s().Len()-1)) }

// pos is the slider's value.
func (c *TeachStepper) pos() string { return strconv.Itoa(c.s().Pos) }

// seek follows the slider.
func (c *TeachStepper) seek(event vugu.DOMEvent) {
	if i, err := strconv.Atoi(event.PropString("target", "value")); err == nil {
		c.App.TeachSeek(i)
	}
}

// speedChoice is one entry of the speed menu.
type speedChoice struct {
	Name, MS string
	On       bool
}

// speeds lists the play speeds.
func (c *TeachStepper) speeds() []speedChoice {
	var out []speedChoice
	for _, sp := range []struct {
		name string
		d    time.Duration
	}{{"slow", app.PlaySlow}, {"normal", app.PlayNormal}, {"fast", app.PlayFast}} {
		out = append(out, speedChoice{Name: sp.name, MS: strconv.FormatInt(sp.d.Milliseconds(), 10), On: sp.d == c.s().Speed})
	}
	return out
}

// speed sets the play speed.
func (c *TeachStepper) speed(event vugu.DOMEvent) {
	if ms, err := strconv.Atoi(event.PropString("target", "value")); err == nil {
		c.App.TeachSetSpeed(time.Duration(ms) * time.Millisecond)
	}
}

// gridStyle sizes the triangle's grid: two columns per word, one row per
// span length and one for the words.
func (c *TeachStepper) gridStyle() string {
	n := len(c.s().Words)
	return fmt.Sprintf("grid-template-columns:repeat(%d, minmax(0, 1fr));grid-template-rows:repeat(%d, auto);width:min(100%%, %.1fem)", 2*n, n+1, 6.4*float64(n))
}

// contCells are the triangle's cells.
func (c *TeachStepper) contCells() []app.ChartCell { return c.s().ContCells(c.App.Teach.Rule) }

// discCells are the discontinuous items built so far.
func (c *TeachStepper) discCells() []app.ChartCell { return c.s().DiscCells(c.App.Teach.Rule) }

// discTitle counts the discontinuous items (n3's bottom items) and says
// which are listed.
func (c *TeachStepper) discTitle() string {
	s := c.s()
	what := "Discontinuous items"
	if s.Variant == decode.N3 {
		what = "Bottom items (one per label for each span of two words or more)"
	}
	title := fmt.Sprintf("%s built: %d of %d", what, s.DiscBuilt(), s.DiscCount())
	if s.DiscBuilt() > app.MaxDiscCells {
		if s.Phase() == app.StepperBuild {
			title += fmt.Sprintf("; the %d latest listed, newest first, with the current item's antecedents", app.MaxDiscCells)
		} else {
			title += fmt.Sprintf("; %d listed: the best derivation's first, then the latest", app.MaxDiscCells)
		}
	}
	return title
}

// instances counts the rule instances of the current item.
func (c *TeachStepper) instances() string {
	if c.cur.Instances == 1 {
		return "1 rule instance builds this item"
	}
	return fmt.Sprintf("%d rule instances build this item; the best one is shown", c.cur.Instances)
}

// done reports whether the stepper shows its result.
func (c *TeachStepper) done() bool {
	return c.s().Phase() == app.StepperDone && c.s().Result != nil
}

// gold is "1" when the scores come from a gold tree, "0" for a model's.
func (c *TeachStepper) gold() string {
	if c.s().Gold {
		return "1"
	}
	return "0"
}
